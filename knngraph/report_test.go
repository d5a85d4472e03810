package knngraph

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/memlimit"
)

// bruteOrEdges is the number of or-rule edges of the K-nearest-neighbour
// graph of the rows of x, by brute force: i–j is an edge when j is among
// the K nearest of i or i among those of j (distinct points, no ties).
func bruteOrEdges(x *mat.Dense, k int) (int, []float64) {
	n, _ := x.Dims()
	adj := map[[2]int]bool{}
	var kth []float64
	for i := range n {
		type nd struct {
			j int
			d float64
		}
		var all []nd
		for j := range n {
			if j != i {
				var d float64
				for c := range x.RawMatrix().Cols {
					v := x.At(i, c) - x.At(j, c)
					d += v * v
				}
				all = append(all, nd{j, d})
			}
		}
		sort.Slice(all, func(a, b int) bool { return all[a].d < all[b].d })
		for _, e := range all[:k] {
			adj[[2]int{min(i, e.j), max(i, e.j)}] = true
		}
		kth = append(kth, math.Sqrt(all[k-1].d))
	}
	sort.Float64s(kth)
	return len(adj), kth
}

func TestRunAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, d, k := 120, 5, 6
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	edges, kth := bruteOrEdges(x, k)
	opts := DefaultOptions()
	opts.Neighbors, opts.Precision, opts.RecallSample, opts.Weights = k, "float64", 50, "gaussian"
	run, err := opts.Run()
	require.NoError(t, err)
	var logs []string
	run.Log = func(f string, a ...any) { logs = append(logs, f) }
	rep := Report{Features: "x.csv", Nodes: n, Dim: d}
	nb, g, err := run.Do(context.Background(), x, &rep)
	require.NoError(t, err)
	assert.Equal(t, edges, rep.Edges, "or-rule edges against brute force")
	assert.InDelta(t, kth[(n-1)/2], rep.MedianKth, 1e-12, "median K-th distance against brute force")
	require.NotNil(t, rep.Recall)
	assert.Equal(t, 1.0, *rep.Recall)
	assert.Equal(t, 50, rep.RecallQueries)
	assert.Equal(t, "exact", rep.Method)
	assert.Equal(t, k, rep.K)
	assert.Equal(t, GraphBytes(n, k), rep.GraphBytes)
	assert.Equal(t, 0.0, rep.Bandwidth, "gaussian without a bandwidth: self-tuning")
	assert.Equal(t, "points", rep.Unit())
	assert.Equal(t, n, nb.N)
	assert.Equal(t, rep.Edges, g.Dist2.Edges()-g.Dist2.SelfLoops())
	assert.Len(t, logs, 2, "recall and graph lines")

	// Distances scaled by Dist2Scale: the median K-th distance by its root,
	// the IMGP bandwidth by the same factor.
	opts.Weights, opts.RecallSample = "imgp", 0
	run, err = opts.Run()
	require.NoError(t, err)
	run.Dist2Scale = 4
	var scaled Report
	_, _, err = run.Do(context.Background(), x, &scaled)
	require.NoError(t, err)
	assert.InDelta(t, 2*kth[(n-1)/2], scaled.MedianKth, 1e-12)
	assert.Nil(t, scaled.Recall)
	assert.InDelta(t, scaled.Bandwidth/math.Sqrt2, scaled.Alpha, 1e-15)

	// NN-descent compared with the exact search: recall 1 for the exact row.
	opts.Approximate, opts.Compare, opts.CompareIterations = true, true, []int{1, 3}
	run, err = opts.Run()
	require.NoError(t, err)
	var cmp Report
	_, _, err = run.Do(context.Background(), x, &cmp)
	require.NoError(t, err)
	require.Len(t, cmp.Compare, 3)
	assert.Equal(t, 1.0, cmp.Compare[0].Recall)
	assert.LessOrEqual(t, cmp.Compare[1].Recall, cmp.Compare[2].Recall)
	assert.Equal(t, "nn-descent", cmp.Method)
}

func TestRunRefuses(t *testing.T) {
	x := mat.NewDense(10, 2, nil)
	for i := range 10 {
		x.Set(i, 0, float64(i))
	}
	run, err := Options{GraphOptions: GraphOptions{Neighbors: 10}, Precision: "float32", Rule: "or"}.Run()
	require.NoError(t, err)
	_, _, err = run.Do(context.Background(), x, &Report{Images: "img"})
	assert.EqualError(t, err, "--neighbors 10 is invalid: it must be in [1, 10) for 10 images")

	run.Graph.K, run.Budget = 3, memlimit.Budget{Bytes: 100, Name: "--max-memory"}
	_, _, err = run.Do(context.Background(), x, &Report{})
	require.ErrorIs(t, err, memlimit.ErrTooMuch)
	assert.Contains(t, err.Error(), "the 10×2 points and their K-nearest-neighbour graph (k = 3)")

	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{GraphOptions: GraphOptions{Neighbors: 3, Weights: "x"}}, `--knn-weights "x" is invalid`},
		{Options{GraphOptions: GraphOptions{Neighbors: 0}}, "--neighbors 0 is invalid"},
		{Options{GraphOptions: GraphOptions{Neighbors: 3, Bandwidth: -1, Weights: "gaussian"}}, "--bandwidth -1 is invalid"},
		{Options{GraphOptions: GraphOptions{Neighbors: 3}, Precision: "half"}, `--precision "half" is invalid`},
		{Options{GraphOptions: GraphOptions{Neighbors: 3}, Precision: "float32", Rule: "and"}, `--rule "and" is invalid`},
		{Options{GraphOptions: GraphOptions{Neighbors: 3}, Precision: "float32", Rule: "or", RecallSample: -1}, "--recall-sample -1 is invalid"},
		{Options{GraphOptions: GraphOptions{Neighbors: 3}, Precision: "float32", Rule: "or", Compare: true, CompareIterations: []int{0}}, "--compare-iterations value 0 is invalid"},
	} {
		_, err := c.o.Run()
		require.Error(t, err, c.want)
		assert.True(t, strings.HasPrefix(err.Error(), c.want), "%q, want %q", err, c.want)
	}
}

func TestSummaryString(t *testing.T) {
	s := Summary{Points: 5, Features: 2, K: 2, Method: "exact", Weights: "gaussian", Bandwidth: 0.5, Rule: "or", Edges: 6, GraphBytes: 2048, DenseBytes: 120}
	assert.Equal(t, "KNN graph of 5 points (2 features): k = 2, exact search, gaussian (σ = 0.5) weights, or rule; 6 edges, graph 2048B (linear in n·k), features 120B", s.String())
}

// TestRunBytes: NN-descent given the rows as bytes (Run.Bytes) builds the
// graph it builds from the float64 rows, and bytes that do not match the
// rows are refused.
func TestRunBytes(t *testing.T) {
	x := readImages(t, "mnist", 1500, 784)
	opts := DefaultOptions()
	opts.Approximate, opts.RecallSample = true, 0
	run, err := opts.Run()
	require.NoError(t, err)
	var a, b Report
	nbA, gA, err := run.Do(context.Background(), x, &a)
	require.NoError(t, err)
	for _, v := range x.RawMatrix().Data {
		run.Bytes = append(run.Bytes, uint8(v))
	}
	nbB, gB, err := run.Do(context.Background(), x, &b)
	require.NoError(t, err)
	assert.Equal(t, nbA.Index, nbB.Index)
	assert.Equal(t, nbA.Dist2, nbB.Dist2)
	assert.Equal(t, gA.Dist2.Edges(), gB.Dist2.Edges())
	assert.Equal(t, a.Iterations, b.Iterations)
	assert.Positive(t, b.Iterations)
	run.Bytes = run.Bytes[:784]
	_, _, err = run.Do(context.Background(), x, &b)
	assert.EqualError(t, err, "knngraph: Run.Bytes holds 784 bytes, not the 1500×784 points")
}
