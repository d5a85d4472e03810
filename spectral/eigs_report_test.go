package spectral

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/memlimit"
)

// TestEigsReportOnACycle: the smallest eigenvalues of L_sym of the cycle
// C_n are 1 − cos(2πj/n) (each nonzero one twice), a closed form the
// solve must reproduce; Report describes the graph and refuses a basis
// above the budget or more eigenpairs than nodes.
func TestEigsReportOnACycle(t *testing.T) {
	n := 40
	edges := make([]graph.Edge, n)
	for i := range edges {
		edges[i] = graph.Edge{U: i, V: (i + 1) % n, W: 1}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{})
	require.NoError(t, err)
	s := EigsSpec{Eigenpairs: 5, Laplacian: "sym", Method: "auto", Isolated: "component"}
	big := memlimit.Budget{Bytes: 1 << 40, Name: "--max-memory"}
	rep, err := s.Report("cycle", g, big)
	require.NoError(t, err)
	assert.Equal(t, EigsReport{Data: "cycle", Nodes: n, Edges: n, Components: 1, Laplacian: "sym", K: 5, Tol: DefaultTol}, *rep)
	r, err := s.Solve(context.Background(), g, 1, nil, rep)
	require.NoError(t, err)
	require.NotNil(t, r)
	want := []float64{0, 1 - math.Cos(2*math.Pi/float64(n)), 1 - math.Cos(2*math.Pi/float64(n)), 1 - math.Cos(4*math.Pi/float64(n)), 1 - math.Cos(4*math.Pi/float64(n))}
	require.Len(t, rep.Eigenvalues, 5)
	for i, w := range want {
		assert.InDelta(t, w, rep.Eigenvalues[i], 1e-8, "eigenvalue %d", i)
	}
	assert.Equal(t, 1, rep.ZeroFound)
	assert.Greater(t, rep.Seconds, 0.0)

	_, err = s.Report("cycle", g, memlimit.Budget{Bytes: 100, Name: "--max-memory"})
	require.ErrorIs(t, err, memlimit.ErrTooMuch)
	assert.Contains(t, err.Error(), "basis vectors × 40 nodes")
	s.Eigenpairs = 41
	_, err = s.Report("cycle", g, big)
	assert.Error(t, err)
}
