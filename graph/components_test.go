package graph

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestComponentsConcurrentAgainstUnionFind checks the concurrent union–find
// of Components on a graph large enough for every pass to be split into
// many chunks: a random giant component, a long path in random node order
// (deep trees for link), thousands of small components, isolated nodes and
// zero-weight edges that must not join anything. The labels must equal
// those of a serial union–find numbered by smallest node, under GOMAXPROCS
// 1, 2 and 8.
func TestComponentsConcurrentAgainstUnionFind(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 17))
	const n = 200_000
	perm := rng.Perm(n)
	var edges []Edge
	add := func(u, v int, w float64) { edges = append(edges, Edge{U: perm[u], V: perm[v], W: w}) }
	for k := 0; k < 3*100_000; k++ { // giant: nodes 0..99 999 of perm
		add(rng.IntN(100_000), rng.IntN(100_000), 1)
	}
	for u := 100_000; u < 120_000-1; u++ { // a path of 20 000 nodes
		add(u, u+1, 0.5)
	}
	for u := 120_000; u < 190_000; u += 7 { // small components of up to 7 nodes
		for v := u + 1; v < u+7; v++ {
			if rng.IntN(3) > 0 {
				add(u+rng.IntN(v-u), v, 1+rng.Float64())
			}
		}
	}
	for k := 0; k < 2000; k++ { // zero weights between everything
		add(rng.IntN(n), rng.IntN(n), 0)
	}
	// nodes 190 000.. of perm have no edge of positive weight
	g, err := FromEdges(n, edges, Options{Duplicates: DuplicateMax})
	require.NoError(t, err)

	var positive []Edge
	for _, e := range edges {
		if e.W > 0 {
			positive = append(positive, e)
		}
	}
	find := unionFind(n, positive)
	want, label := make([]int, n), map[int]int{}
	for i := range want {
		r := find(i)
		if _, ok := label[r]; !ok {
			label[r] = len(label)
		}
		want[i] = label[r]
	}
	require.Greater(t, len(label), 10_000)

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(p)
		comp, count := g.Components()
		require.Equal(t, len(label), count, "GOMAXPROCS %d", p)
		require.Equal(t, want, comp, "GOMAXPROCS %d", p)
	}
}
