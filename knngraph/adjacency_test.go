package knngraph

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAdjacencyEqualsBruteForce: i and j are joined by a unit edge exactly
// when brute-force search puts j among the K nearest of i or (Or) / and
// (Mutual) i among the K nearest of j; no self loops, even with duplicate
// points at distance zero.
func TestAdjacencyEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	x := randomPoints(rng, 120, 4, 3) // integer coordinates: ties and duplicates
	const k = 5
	n, _ := x.Dims()
	near := make([]map[int]bool, n)
	for i := range near {
		idx, _ := bruteForce(x, x.RawRowView(i), i, k)
		near[i] = map[int]bool{}
		for _, j := range idx {
			near[i][int(j)] = true
		}
	}
	nb, err := Exact(context.Background(), x, k, nil)
	require.NoError(t, err)
	for _, rule := range []Rule{Or, Mutual} {
		g, err := NewGraph(nb, rule)
		require.NoError(t, err)
		a, err := g.Adjacency()
		require.NoError(t, err)
		assert.Equal(t, 0, a.SelfLoops(), "%s", rule)
		assert.True(t, a.UnitWeights(), "%s", rule)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := near[i][j] || near[j][i]
				if rule == Mutual {
					want = near[i][j] && near[j][i]
				}
				if i == j {
					want = false
				}
				if want {
					assert.Equal(t, 1.0, a.Weight(i, j), "%s: edge %d–%d", rule, i, j)
				} else {
					assert.False(t, a.HasEdge(i, j), "%s: no edge %d–%d", rule, i, j)
				}
			}
		}
	}
}
