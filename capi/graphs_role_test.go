package main

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphkernels"
)

func wlTestGraphs(t *testing.T) []graphkernels.Graph {
	t.Helper()
	var out []graphkernels.Graph
	for n := 3; n <= 7; n++ {
		edges := make([]graph.Edge, 0, n)
		for i := range n - 1 {
			edges = append(edges, graph.Edge{U: i, V: i + 1, W: 1})
		}
		if n%2 == 1 {
			edges = append(edges, graph.Edge{U: 0, V: n - 1, W: 1}) // a cycle
		}
		g, err := graph.FromEdges(n, edges, graph.Options{})
		require.NoError(t, err)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = i % 3
		}
		out = append(out, graphkernels.Graph{Adj: g, Labels: labels})
	}
	return out
}

// The kernel of the training graphs as queries is their Gram matrix, and
// the normalised kernel is the Gram matrix scaled by its diagonal.
func TestWLKernelQueryOfTrainingGraphsIsGram(t *testing.T) {
	gs := wlTestGraphs(t)
	ctx := context.Background()
	gram, err := wlKernel(ctx, 2, false, gs, nil)
	require.NoError(t, err)
	cross, err := wlKernel(ctx, 2, false, gs, gs)
	require.NoError(t, err)
	require.Equal(t, len(gs), gram.rows)
	require.Equal(t, gram.f64, cross.f64)
	norm, err := wlKernel(ctx, 2, true, gs, nil)
	require.NoError(t, err)
	n := len(gs)
	for i := range n {
		for j := range n {
			want := gram.f64[i*n+j] / math.Sqrt(gram.f64[i*n+i]*gram.f64[j*n+j])
			require.InDelta(t, want, norm.f64[i*n+j], 1e-15)
		}
	}
	_, err = wlKernel(ctx, 65, false, gs, nil)
	require.ErrorContains(t, err, "H=65 is invalid")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = wlKernel(cancelled, 2, false, gs, nil)
	require.ErrorIs(t, err, context.Canceled)
}
