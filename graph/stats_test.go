package graph

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDescribeCountsByHand checks Describe on a graph whose statistics are
// counted by hand: a triangle 0-1-2, an edge 3-4 with a self loop on 4,
// and an isolated node 5.
func TestDescribeCountsByHand(t *testing.T) {
	g, err := FromEdges(6, []Edge{{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {3, 4, 1}, {4, 4, 1}}, Options{SelfLoops: SelfLoopKeep})
	require.NoError(t, err)
	s := Describe(g)
	require.Equal(t, 6, s.Nodes)
	require.Equal(t, 1, s.SelfLoops)
	require.Equal(t, 1, s.Isolated)
	require.Equal(t, 3, s.Components) // {0,1,2}, {3,4}, {5}
	require.Equal(t, 3, s.LargestComponent)
	require.Equal(t, 0.0, s.DegreeMin)
	require.Equal(t, 2.0, s.DegreeMax)
	// Row lengths 2, 2, 2, 1, 2 (4's neighbour 3 and itself), 0.
	require.InDelta(t, 9.0/6, s.DegreeMean, 1e-15)
	require.Equal(t, g.Bytes(), s.Bytes)
}
