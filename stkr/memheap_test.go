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

// heapGraphs are the graphs of the heap tests, 10^5 nodes and about 10^6
// edges: a weighted random graph and its 0/1 pattern, with every 100th node
// labelled in one of 10 classes.
type heapGraphs struct {
	weighted, unit *graph.CSR
	train          []int
	y              *mat.Dense
}

const heapN, heapC = 100_000, 10

func newHeapGraphs(t *testing.T) heapGraphs {
	t.Helper()
	if testing.Short() {
		t.Skip("allocates a 10^6-edge graph; skipped with -short")
	}
	weighted := randomGraph(t, heapN, 10*heapN, true, 3)
	var edges []graph.Edge
	for i := 0; i < heapN; i++ {
		cols, _ := weighted.Row(i)
		for _, j := range cols {
			edges = append(edges, graph.Edge{U: i, V: int(j), W: 1})
		}
	}
	unit, err := graph.FromEdges(heapN, edges, graph.Options{Duplicates: graph.DuplicateMax})
	require.NoError(t, err)
	require.True(t, unit.UnitWeights())
	var train []int
	for i := 0; i < heapN; i += 100 {
		train = append(train, i)
	}
	y := mat.NewDense(len(train), heapC, nil)
	for p := range train {
		y.Set(p, p%heapC, 1)
	}
	return heapGraphs{weighted, unit, train, y}
}

// allocatedBlocks fits r on g with the collector off and returns the bytes
// the fit allocated (TotalAlloc: every allocation counts once) in blocks of
// 8Nc.
func (h heapGraphs) allocatedBlocks(t *testing.T, r *Regressor, g *graph.CSR) float64 {
	t.Helper()
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	require.NoError(t, r.FitIndexed(context.Background(), k, h.train, h.y))
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(8*heapN*heapC)
}

// TestInverseLaplacianMINRESHeap measures the Go heap an inverse-Laplacian
// fit by MINRES allocates on a graph of 10^5 nodes and 10 classes, and
// checks it against the doc's count of N×c blocks: θ, MINRESColumns' four
// (r1, r2 and two w's) and the product's input (lapColumns: the Lanczos
// block v scaled by D^{-1/2} on a 0/1 graph, v on a weighted one), 6
// blocks of 8Nc bytes on either graph, plus O(N) vectors. The right-hand
// side enters by its train rows and α is formed from the train rows of M,
// so neither takes a block. The SELL copy of the graph (built for
// products of at most 8 columns below graph.SetSlicedLimit) is turned off
// here, as it is at scale.
func TestInverseLaplacianMINRESHeap(t *testing.T) {
	h := newHeapGraphs(t)
	defer graph.SetSlicedLimit(graph.SetSlicedLimit(0))
	for _, tc := range []struct {
		name   string
		g      *graph.CSR
		blocks float64
	}{{"weighted", h.weighted, 6}, {"0/1", h.unit, 6}} {
		r := Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 10}
		got := h.allocatedBlocks(t, &r, tc.g)
		t.Logf("%s: allocated %.2f blocks of 8Nc, %d iterations", tc.name, got, r.Stats().Iterations[0])
		require.GreaterOrEqual(t, got, tc.blocks, tc.name)
		require.LessOrEqual(t, got, tc.blocks+0.5, tc.name)
	}
}

// TestInverseLaplacianMaxMemoryHeap is TestInverseLaplacianMINRESHeap with
// MaxMemory set to θ plus the blocks of a batch of half the classes (3.5
// blocks of 8Nc; the one-batch fit takes 6): the fit runs two batches of 5
// sharing one set of solver blocks, and allocates no more than MaxMemory
// plus four N-vectors (the O(N) vectors it holds beside the blocks, which
// MaxMemory does not count), and no less than the blocks it must hold.
func TestInverseLaplacianMaxMemoryHeap(t *testing.T) {
	h := newHeapGraphs(t)
	defer graph.SetSlicedLimit(graph.SetSlicedLimit(0))
	block := float64(8 * heapN * heapC)
	for _, tc := range []struct {
		name   string
		g      *graph.CSR
		blocks float64
	}{{"weighted", h.weighted, 3.5}, {"0/1", h.unit, 3.5}} {
		limit := int64(tc.blocks * block)
		r := Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 10, MaxMemory: limit}
		require.Equal(t, 5, r.classBatch(heapN, heapC, true), tc.name)
		got := h.allocatedBlocks(t, &r, tc.g)
		t.Logf("%s: allocated %.2f blocks of 8Nc (MaxMemory %d = %.2f blocks)", tc.name, got, limit, tc.blocks)
		require.GreaterOrEqual(t, got, tc.blocks, tc.name)
		require.LessOrEqual(t, got*block, float64(limit+4*8*heapN), tc.name)
	}
}
