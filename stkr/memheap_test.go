package stkr

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// TestInverseLaplacianMINRESHeap measures the Go heap an inverse-Laplacian
// fit by MINRES allocates (TotalAlloc with the collector off: every
// allocation counts once) on a graph of 10^5 nodes and 10 classes, and
// checks it against the doc's count of N×c blocks: θ and MINRESColumns'
// six, 7 blocks of 8Nc bytes, plus, on a 0/1 graph, the graph's scaled
// copy of a product's input (graph.CSR.ScaledMulBlockTo), plus O(N)
// vectors. The right-hand side enters by its train rows and α is formed
// from the train rows of M, so neither takes a block; with them the fit
// took 2 blocks more. The SELL copy of the graph (built for products
// of at most 8 columns below graph.SetSlicedLimit) is turned off here, as
// it is at scale.
func TestInverseLaplacianMINRESHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 10^6-edge graph; skipped with -short")
	}
	const n, c = 100_000, 10
	defer graph.SetSlicedLimit(graph.SetSlicedLimit(0))
	weighted := randomGraph(t, n, 10*n, true, 3)
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		cols, _ := weighted.Row(i)
		for _, j := range cols {
			edges = append(edges, graph.Edge{U: i, V: int(j), W: 1})
		}
	}
	unit, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax})
	require.NoError(t, err)
	require.True(t, unit.UnitWeights())
	var train []int
	for i := 0; i < n; i += 100 {
		train = append(train, i)
	}
	y := mat.NewDense(len(train), c, nil)
	for p := range train {
		y.Set(p, p%c, 1)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, tc := range []struct {
		name   string
		g      *graph.CSR
		blocks float64
	}{{"weighted", weighted, 7}, {"0/1", unit, 8}} {
		k, err := NewGraphKernel(tc.g)
		require.NoError(t, err)
		r := Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 10}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		require.NoError(t, r.FitIndexed(context.Background(), k, train, y))
		runtime.ReadMemStats(&after)
		block := float64(8 * n * c)
		got := float64(after.TotalAlloc-before.TotalAlloc) / block
		t.Logf("%s: allocated %.0f bytes = %.2f blocks of 8Nc, %d iterations", tc.name, got*block, got, r.Stats().Iterations[0])
		require.GreaterOrEqual(t, got, tc.blocks, tc.name)
		require.LessOrEqual(t, got, tc.blocks+0.5, tc.name)
	}
}

// TestInverseLaplacianMaxMemoryHeap is TestInverseLaplacianMINRESHeap with
// MaxMemory set to θ plus the blocks of a batch of half the classes (4.5
// blocks of 8Nc on the 0/1 graph, 4 on the weighted one; the one-batch
// fit takes 8 and 7): the fit runs two batches of 5 sharing one set of
// solver blocks, and allocates no more than MaxMemory plus four N-vectors
// (the O(N) vectors it holds beside the blocks, which MaxMemory does not
// count), and no less than the blocks it must hold.
func TestInverseLaplacianMaxMemoryHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 10^6-edge graph; skipped with -short")
	}
	const n, c = 100_000, 10
	defer graph.SetSlicedLimit(graph.SetSlicedLimit(0))
	weighted := randomGraph(t, n, 10*n, true, 3)
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		cols, _ := weighted.Row(i)
		for _, j := range cols {
			edges = append(edges, graph.Edge{U: i, V: int(j), W: 1})
		}
	}
	unit, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax})
	require.NoError(t, err)
	var train []int
	for i := 0; i < n; i += 100 {
		train = append(train, i)
	}
	y := mat.NewDense(len(train), c, nil)
	for p := range train {
		y.Set(p, p%c, 1)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	block := float64(8 * n * c)
	for _, tc := range []struct {
		name   string
		g      *graph.CSR
		blocks float64
	}{{"weighted", weighted, 4}, {"0/1", unit, 4.5}} {
		k, err := NewGraphKernel(tc.g)
		require.NoError(t, err)
		limit := int64(tc.blocks * block)
		r := Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 10, MaxMemory: limit}
		require.Equal(t, 5, r.classBatch(n, c, tc.g.UnitWeights()), tc.name)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		require.NoError(t, r.FitIndexed(context.Background(), k, train, y))
		runtime.ReadMemStats(&after)
		got := float64(after.TotalAlloc - before.TotalAlloc)
		t.Logf("%s: allocated %.0f bytes = %.2f blocks of 8Nc (MaxMemory %d = %.2f blocks)", tc.name, got, got/block, limit, tc.blocks)
		require.GreaterOrEqual(t, got/block, tc.blocks, tc.name)
		require.LessOrEqual(t, got, float64(limit+4*8*n), tc.name)
	}
}
