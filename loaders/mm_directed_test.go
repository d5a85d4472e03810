package loaders

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
)

// TestReadMatrixMarketDirected reads a general, non-symmetric file written
// by scipy.io.mmwrite with each directed rule (the --directed flag) and
// compares W with max(A, Aᵀ) and A + Aᵀ computed by numpy.
func TestReadMatrixMarketDirected(t *testing.T) {
	want := expectedMatrix(t, "graph_directed")
	path := formatsFile("graph_directed.mtx")
	_, err := ReadMatrixMarket(path, graph.Options{})
	requireParseError(t, err, 0, "general matrix is not symmetric")

	g, err := ReadMatrixMarket(path, graph.Options{Symmetrize: graph.DirectedMax})
	require.NoError(t, err)
	checkGraph(t, g)
	assert.Equal(t, want.Max, denseGraph(g))

	g, err = ReadMatrixMarket(path, graph.Options{Symmetrize: graph.DirectedSum})
	require.NoError(t, err)
	checkGraph(t, g)
	sum := append([]float64(nil), want.Sum...)
	for i := 0; i < want.N; i++ {
		// graph keeps a self loop's weight as given under every rule.
		sum[i*want.N+i] = want.Dense[i*want.N+i]
	}
	assert.Equal(t, sum, denseGraph(g))

	g, err = ReadMatrixMarket(path, graph.Options{Symmetrize: graph.DirectedMax, SelfLoops: graph.SelfLoopDrop})
	require.NoError(t, err)
	assert.Zero(t, g.SelfLoops())
	assert.Equal(t, 4, g.Edges(), "{0,1} {1,2} {2,3} {3,4}")

	// The SciPy archive of the same arcs gives the same graphs.
	for _, rule := range []graph.Symmetrization{graph.DirectedMax, graph.DirectedSum, graph.DirectedMean, graph.DirectedMutual} {
		opt := graph.Options{Symmetrize: rule}
		a, err := ReadMatrixMarket(path, opt)
		require.NoError(t, err)
		b, err := ReadScipyGraph(formatsFile("graph_directed_csr.npz"), opt)
		require.NoError(t, err)
		assert.Equal(t, denseGraph(a), denseGraph(b), rule.String())
	}
}
