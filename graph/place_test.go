package graph

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPlaceAgainstFromEdges(t *testing.T) {
	edges := []Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 2, W: 0.5}, {U: 2, V: 2, W: 1}}
	g, err := FromEdges(3, edges, Options{})
	require.NoError(t, err)
	for _, tc := range []struct {
		n     int
		place []int32
	}{{3, nil}, {5, nil}, {6, []int32{1, 3, 4}}, {3, []int32{0, 1, 2}}} {
		got, err := g.Place(tc.n, tc.place)
		require.NoError(t, err)
		at := func(i int) int {
			if tc.place == nil {
				return i
			}
			return int(tc.place[i])
		}
		var moved []Edge
		for _, e := range edges {
			moved = append(moved, Edge{U: at(e.U), V: at(e.V), W: e.W})
		}
		want, err := FromEdges(tc.n, moved, Options{})
		require.NoError(t, err)
		require.Equal(t, want.Dense(), got.Dense())
		require.Equal(t, want.Degrees(), got.Degrees())
		require.Equal(t, want.SelfLoops(), got.SelfLoops())
		require.Equal(t, want.Isolated(), got.Isolated())
	}
	_, err = g.Place(2, nil)
	require.Error(t, err)
	_, err = g.Place(4, []int32{0, 2, 2})
	require.Error(t, err)
}
