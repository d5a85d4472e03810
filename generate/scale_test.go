package generate

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSBMFileStatistics draws the configuration of the billion-edge run of
// scripts/bench-scale.sh (10 classes, mean degree 40, power-law degrees,
// μ = 0.3) at 1/1000 of its nodes, writes it as gssl generate does, and
// reads the written edge list back with a plain line scanner (not the
// package's readers) to check the requested statistics:
//
//   - class sizes: n/C each, exactly;
//   - mean degree: the file has round(n·D/2) lines, exactly;
//   - mixing: the fraction of lines between classes is μ within mixTol;
//   - degree exponent: the Hill estimate over the top hillK degrees is γ
//     within hillTol, for γ = 2.5 and 3.
func TestSBMFileStatistics(t *testing.T) {
	const (
		n, C, D, mu = 50_000, 10, 40.0, 0.3
		// mixTol: the binomial standard deviation of the between-class
		// fraction over 10^6 edges is √(0.21/10^6) ≈ 0.0005; 0.005 is ten
		// of them.
		mixTol = 0.005
		// hillK and hillTol: the Hill estimator over k order statistics
		// has standard deviation about (γ − 1)/√k (0.07 at γ = 2.5,
		// k = 500, 0.09 at γ = 3), and the Poisson noise of the realised
		// degrees around their expected values biases it a little; 0.3 is
		// over three standard deviations.
		hillK   = 500
		hillTol = 0.3
	)
	for _, gamma := range []float64{2.5, 3} {
		t.Run(fmt.Sprint(gamma), func(t *testing.T) {
			g, err := NewSBM(SBM{Nodes: n, Classes: C, Degree: D, Exponent: gamma, Mixing: mu, Seed: 1})
			require.NoError(t, err)
			dir := t.TempDir()
			edges, labelsPath := filepath.Join(dir, "edges.txt"), filepath.Join(dir, "labels.txt")
			require.NoError(t, WriteEdges(context.Background(), edges, g, EdgesText))
			require.NoError(t, WriteLabels(labelsPath, g.Labels(), LabelsText))

			labels := readInts(t, labelsPath, 1)
			require.Len(t, labels, n)
			sizes := make([]int, C)
			for _, l := range labels {
				require.True(t, l >= 0 && l < C, "label %d", l)
				sizes[l]++
			}
			assert.Equal(t, slices.Repeat([]int{n / C}, C), sizes)

			ends := readInts(t, edges, 2)
			require.Len(t, ends, int(math.Round(n*D/2))*2, "edge lines: n·D/2")
			deg := make([]int, n)
			inter := 0
			for k := 0; k < len(ends); k += 2 {
				u, v := ends[k], ends[k+1]
				deg[u]++
				deg[v]++
				if labels[u] != labels[v] {
					inter++
				}
			}
			mix := float64(inter) / float64(len(ends)/2)
			assert.InDelta(t, mu, mix, mixTol, "between-class fraction")

			sorted := slices.Clone(deg)
			slices.Sort(sorted)
			slices.Reverse(sorted)
			var s float64
			for _, d := range sorted[:hillK] {
				s += math.Log(float64(d) / float64(sorted[hillK]))
			}
			hill := 1 + hillK/s
			assert.InDelta(t, gamma, hill, hillTol, "Hill estimate of the degree exponent")
			t.Logf("γ %v: mixing %.4f, Hill %.3f, max degree %d", gamma, mix, hill, sorted[0])
		})
	}
}

// readInts reads the whitespace-separated integers of a file with per
// fields a line, each in [0, 2^31).
func readInts(t *testing.T, path string, per int) []int {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		fields := 0
		for i := 0; i < len(b); {
			for i < len(b) && b[i] == ' ' {
				i++
			}
			if i == len(b) {
				break
			}
			v := 0
			for ; i < len(b) && b[i] != ' '; i++ {
				if b[i] < '0' || b[i] > '9' {
					t.Fatalf("%s:%d: %q is not a list of integers", path, line, b)
				}
				v = 10*v + int(b[i]-'0')
			}
			out = append(out, v)
			fields++
		}
		if fields != per {
			t.Fatalf("%s:%d: %q has %d fields, want %d", path, line, b, fields, per)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// TestBuildGraphMatchesGraph: the counting build of BuildGraph gives
// bitwise the graph of Graph (every edge held, then built), for an SBM
// with self loops and repeats and for R-MAT.
func TestBuildGraphMatchesGraph(t *testing.T) {
	sbm, err := NewSBM(SBM{Nodes: 3000, Classes: 4, Degree: 12, Mixing: 0.2, Seed: 5})
	require.NoError(t, err)
	rmat, err := NewRMAT(RMAT{Scale: 12, EdgeFactor: 8, Seed: 5})
	require.NoError(t, err)
	for name, gen := range map[string]Generator{"sbm": sbm, "rmat": rmat} {
		want, err := Graph(context.Background(), gen)
		require.NoError(t, err)
		got, err := BuildGraph(context.Background(), gen)
		require.NoError(t, err)
		require.Equal(t, want.Arrays(), got.Arrays(), name)
		require.Equal(t, want.UnitWeights(), got.UnitWeights(), name)
	}
}
