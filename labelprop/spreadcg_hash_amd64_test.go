package labelprop

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// updateFitHashes rewrites testdata/spreadcg-hashes.txt from the code under
// test: run it on the code whose scores are the reference (go test -run
// TestSpreadingCGFitHashes -update-fit-hashes).
var updateFitHashes = flag.Bool("update-fit-hashes", false, "rewrite testdata/spreadcg-hashes.txt")

const fitHashesFile = "testdata/spreadcg-hashes.txt"

// TestSpreadingCGFitHashes checks the scores of CG fits, bit for bit,
// against those of the code that wrote testdata/spreadcg-hashes.txt (main
// on 4 Dec 2026, 392e598): 5, 8, 9 and 12 classes, cold fits at two values
// of Alpha and a warm start, on one goroutine and on two. A change to the
// CG's passes that keeps their arithmetic keeps these hashes. The file is
// amd64's only: the reference was written there, and another architecture's
// compiler may fuse a multiply and an add that amd64's keeps apart.
func TestSpreadingCGFitHashes(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	got := map[string]string{}
	var keys []string
	for _, c := range []int{5, 8, 9, 12} {
		g, nodes, classes := unweightedProblem(rand.New(rand.NewPCG(uint64(c), 52)), 30000, c)
		for _, procs := range []int{1, 2} {
			runtime.GOMAXPROCS(procs)
			fit := func(a float64, warm *Spreading) *Spreading {
				m := &Spreading{Alpha: a, Classes: c, Solver: CG, WarmStart: warm}
				require.NoError(t, m.FitIndexed(context.Background(), g, nodes, classes))
				return m
			}
			cold := fit(0.5, nil)
			fits := []*Spreading{cold, fit(0.9, nil), fit(0.9, cold)}
			for i, name := range []string{"cold0.5", "cold0.9", "warm0.9"} {
				k := fmt.Sprintf("c=%d procs=%d %s", c, procs, name)
				got[k] = scoresHash(fits[i])
				keys = append(keys, k)
			}
		}
	}
	if *updateFitHashes {
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s %s\n", k, got[k])
		}
		require.NoError(t, os.WriteFile(fitHashesFile, []byte(b.String()), 0o644))
		return
	}
	want := readFitHashes(t)
	require.Len(t, want, len(keys))
	for _, k := range keys {
		require.Equal(t, want[k], got[k], "scores of %s", k)
	}
}

// scoresHash returns the FNV-64a hash of the bits of m's scores, row by
// row.
func scoresHash(m *Spreading) string {
	h := fnv.New64a()
	f := m.Scores()
	n, c := f.Dims()
	var buf [8]byte
	for i := range n {
		for j := range c {
			v := math.Float64bits(f.At(i, j))
			for k := range buf {
				buf[k] = byte(v >> (8 * k))
			}
			h.Write(buf[:])
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// readFitHashes reads testdata/spreadcg-hashes.txt: lines of a key (three
// fields) and a hash.
func readFitHashes(t *testing.T) map[string]string {
	fh, err := os.Open(fitHashesFile)
	require.NoError(t, err)
	defer fh.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		require.Len(t, f, 4, "line %q", sc.Text())
		out[strings.Join(f[:3], " ")] = f[3]
	}
	require.NoError(t, sc.Err())
	return out
}
