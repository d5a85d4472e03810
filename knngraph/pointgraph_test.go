package knngraph

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func gaussianPoints(n, d int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	return x
}

// TestFromPointsMatchesBruteForce checks the or-rule connectivity graph of
// FromPoints against the K nearest neighbours found by brute force: i and
// j are joined exactly when one is among the other's K nearest.
func TestFromPointsMatchesBruteForce(t *testing.T) {
	const n, d, k = 60, 3, 4
	x := gaussianPoints(n, d, 7)
	w, s, err := FromPoints(context.Background(), x, PointGraph{K: k, Kernel: Connectivity})
	require.NoError(t, err)
	want := make([]map[int]bool, n)
	for i := range want {
		want[i] = map[int]bool{}
	}
	for i := 0; i < n; i++ {
		idx, _ := bruteForce(x, x.RawRowView(i), i, k)
		for _, j := range idx {
			want[i][int(j)], want[int(j)][i] = true, true
		}
	}
	edges := 0
	for i := 0; i < n; i++ {
		cols, _ := w.W.Row(i)
		got := map[int]bool{}
		for _, j := range cols {
			if int(j) != i {
				got[int(j)] = true
			}
		}
		require.Equal(t, want[i], got, "row %d", i)
		edges += len(got)
	}
	require.Equal(t, edges/2, s.Edges) // each edge is in two rows
	require.Equal(t, "exact", s.Method)
	require.Equal(t, "connectivity", s.Weights)
	require.Equal(t, GraphBytes(n, k), s.GraphBytes)
	require.Equal(t, int64(n*d*12), s.DenseBytes)
}

func TestFromPointsRefusals(t *testing.T) {
	x := gaussianPoints(10, 2, 1)
	_, _, err := FromPoints(context.Background(), x, PointGraph{K: 10})
	require.ErrorContains(t, err, "K = 10 is invalid for 10 points")
	_, _, err = FromPoints(context.Background(), x, PointGraph{K: 3, MaxBytes: 100})
	var me *MemoryError
	require.True(t, errors.As(err, &me), "%v", err)
	require.Equal(t, GraphBytes(10, 3)+PointsBytes(10, 2), me.Need)
}

// TestRecallOfExactIsOne: the exact neighbours have recall 1 against
// themselves, and a list with every neighbour replaced by the farthest
// point has recall below 1.
func TestRecallOfExactIsOne(t *testing.T) {
	x := gaussianPoints(50, 2, 3)
	nb, err := Exact(context.Background(), x, 5, nil)
	require.NoError(t, err)
	r, err := SampleRecall(context.Background(), x, nb, 20, 1)
	require.NoError(t, err)
	require.Equal(t, 1.0, r)
	bad := *nb
	bad.Dist2 = make([]float64, len(nb.Dist2))
	for i := range bad.Dist2 {
		bad.Dist2[i] = 1e9
	}
	r, err = RecallAt(&bad, []int{0, 1}, []float64{1, 1})
	require.NoError(t, err)
	require.Equal(t, 0.0, r)
}

func TestReadGroundTruth(t *testing.T) {
	rows, kth, err := ReadGroundTruth(strings.NewReader("# q n1 n2 | d1 d2\n3 1 2 | 0.5 0.75\n0 1 2 | 1 2\n"), "gt.txt", 5, 2)
	require.NoError(t, err)
	require.Equal(t, []int{3, 0}, rows)
	require.Equal(t, []float64{0.75, 2}, kth)
	_, _, err = ReadGroundTruth(strings.NewReader("9 1 2 | 1 2\n"), "gt.txt", 5, 2)
	require.ErrorContains(t, err, "gt.txt:1: query \"9\" is not a point index in [0, 5)")
}

// TestGroundTruthRecall: points 0, 1, 3, 7, 15 on a line, whose exact
// 2 nearest neighbours are worked out by hand in the file below; neighbour
// lists with one of the four query neighbours too far give recall 3/4.
func TestGroundTruthRecall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gt.txt")
	// point 1 (x=1): 0 at d²=1, 3 at d²=4; point 3 (x=7): 3 at 16, 15 at 64
	require.NoError(t, os.WriteFile(path, []byte("# q n1 n2 | d1 d2\n1 0 2 | 1 4\n3 2 4 | 16 64\n"), 0o644))
	nb := &Neighbors{N: 5, K: 2, Index: make([]int32, 10), Dist2: make([]float64, 10)}
	copy(nb.Dist2[2:4], []float64{1, 4})
	copy(nb.Dist2[6:8], []float64{16, 100})
	r, q, err := GroundTruthRecall(path, nb)
	require.NoError(t, err)
	require.Equal(t, 2, q)
	require.Equal(t, 0.75, r)
	_, _, err = GroundTruthRecall(filepath.Join(t.TempDir(), "none.txt"), nb)
	require.ErrorContains(t, err, "none.txt")
	require.NoError(t, os.WriteFile(path, []byte("7 0 2 | 1 4\n"), 0o644))
	_, _, err = GroundTruthRecall(path, nb)
	require.ErrorContains(t, err, path+":1: query \"7\" is not a point index in [0, 5)")
}

// TestWeightsNamed: distance2 is the squared distances, connectivity ones,
// and a bad name is an error.
func TestWeightsNamed(t *testing.T) {
	x := gaussianPoints(20, 2, 5)
	nb, err := Exact(context.Background(), x, 3, nil)
	require.NoError(t, err)
	g, err := NewGraph(nb, Or)
	require.NoError(t, err)
	d2, err := g.WeightsNamed("distance2", 0)
	require.NoError(t, err)
	d2.ForEachEdge(func(u, v int, w float64) {
		if u != v {
			require.InDelta(t, SquaredDistance(x.RawRowView(u), x.RawRowView(v)), w, 1e-12)
		}
	})
	c, err := g.WeightsNamed("connectivity", 1)
	require.NoError(t, err)
	c.ForEachEdge(func(u, v int, w float64) {
		if u != v {
			require.Equal(t, 1.0, w)
		}
	})
	_, err = g.WeightsNamed("bogus", 0)
	require.Error(t, err)
}

func TestParseRuleAndPrecision(t *testing.T) {
	for _, r := range []Rule{Or, Mutual} {
		got, err := ParseRule(r.String())
		require.NoError(t, err)
		require.Equal(t, r, got)
	}
	for _, p := range []Precision{Float32, Float64} {
		got, err := ParsePrecision(p.String())
		require.NoError(t, err)
		require.Equal(t, p, got)
	}
	_, err := ParseRule("and")
	require.Error(t, err)
	_, err = ParsePrecision("float16")
	require.Error(t, err)
}

// TestPointGraphValidate: each invalid setting is refused by name, before
// any search (FromPoints returns the same error).
func TestPointGraphValidate(t *testing.T) {
	ok := PointGraph{K: 3, Kernel: Gaussian, Bandwidth: 0.5}
	require.NoError(t, ok.Validate())
	x := mat.NewDense(5, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1, 2, 2})
	for _, c := range []struct {
		change func(*PointGraph)
		msg    string
	}{
		{func(p *PointGraph) { p.K = 0 }, "K=0 is invalid"},
		{func(p *PointGraph) { p.Kernel = 7 }, "Kernel=7 is invalid"},
		{func(p *PointGraph) { p.Bandwidth = -1 }, "Bandwidth=-1 is invalid"},
		{func(p *PointGraph) { p.Bandwidth = math.NaN() }, "Bandwidth=NaN is invalid"},
		{func(p *PointGraph) { p.Kernel = Connectivity }, "Bandwidth=0.5 is given, but Kernel connectivity has no bandwidth"},
		{func(p *PointGraph) { p.Rule = 2 }, "Rule=2 is invalid"},
		{func(p *PointGraph) { p.Precision = 5 }, "Precision=5 is invalid"},
	} {
		p := ok
		c.change(&p)
		require.ErrorContains(t, p.Validate(), c.msg)
		_, _, err := FromPoints(context.Background(), x, p)
		require.ErrorContains(t, err, c.msg)
	}
}
