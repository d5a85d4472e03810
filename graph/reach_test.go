package graph

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/parallel"
)

// reachTestGraph is a graph of n nodes in random order: a random giant
// component on the first half, a path of n/10 nodes (a long search), small
// components of up to 7 nodes, zero-weight edges between everything (which
// join nothing) and the rest without edges of positive weight.
func reachTestGraph(t *testing.T, rng *rand.Rand, n int, unit bool) *CSR {
	perm := rng.Perm(n)
	var edges []Edge
	w := func() float64 {
		if unit {
			return 1
		}
		return 0.5 + rng.Float64()
	}
	add := func(u, v int, w float64) { edges = append(edges, Edge{U: perm[u], V: perm[v], W: w}) }
	giant, path := n/2, n/2+n/10
	for k := 0; k < 5*giant; k++ {
		add(rng.IntN(giant), rng.IntN(giant), w())
	}
	for u := giant; u < path-1; u++ {
		add(u, u+1, w())
	}
	for u := path; u < n*9/10; u += 7 {
		for v := u + 1; v < min(u+7, n); v++ {
			if rng.IntN(3) > 0 {
				add(u+rng.IntN(v-u), v, w())
			}
		}
	}
	if !unit {
		for k := 0; k < n/100; k++ {
			add(rng.IntN(n), rng.IntN(n), 0)
		}
	}
	g, err := FromEdges(n, edges, Options{Duplicates: DuplicateMax})
	require.NoError(t, err)
	return g
}

// reachByComponents marks the nodes whose component (Components) holds a
// source: the reference for Reachable.
func reachByComponents(g *CSR, sources []int) []bool {
	comp, count := g.Components()
	has := make([]bool, count)
	for _, s := range sources {
		has[comp[s]] = true
	}
	out := make([]bool, len(comp))
	for i, c := range comp {
		out[i] = has[c]
	}
	return out
}

// TestReachableAgainstComponents checks Reachable against the components
// of its sources (Components), on weighted graphs with zero-weight edges
// and unit ones, for source sets that touch the giant component, the long
// path, small components and isolated nodes, on 1, 2, 3 and 8 workers and
// GOMAXPROCS 1 and 4; and that the searches ran every kind of step.
func TestReachableAgainstComponents(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 15))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	defer parallel.Configure(parallel.Current())
	const n = 300_000
	var steps [3]int
	for _, unit := range []bool{false, true} {
		g := reachTestGraph(t, rng, n, unit)
		sets := [][]int{{}, {rng.IntN(n)}, {rng.IntN(n), rng.IntN(n), rng.IntN(n)}}
		var many []int
		for range 200 {
			many = append(many, rng.IntN(n))
		}
		sets = append(sets, many, append(slices.Clone(many), many[:50]...)) // repeated sources
		for si, src := range sets {
			want := reachByComponents(g, src)
			for _, procs := range []int{1, 4} {
				runtime.GOMAXPROCS(procs)
				for _, workers := range []int{1, 2, 3, 8} {
					require.NoError(t, parallel.Configure(parallel.Config{Workers: workers}))
					r, err := g.reach(src)
					require.NoError(t, err)
					got, err := g.Reachable(src)
					require.NoError(t, err)
					require.True(t, slices.Equal(want, got), "unit %v set %d GOMAXPROCS %d workers %d: Reachable differs from the components of the sources", unit, si, procs, workers)
					for k := range steps {
						steps[k] += r.steps[k]
					}
				}
			}
		}
	}
	require.Positive(t, steps[0], "no serial top-down step ran")
	require.Positive(t, steps[1], "no parallel top-down step ran")
	require.Positive(t, steps[2], "no bottom-up step ran")
}

// TestReachableErrors checks that a source out of range is an error, not a
// panic, and that no sources reach nothing.
func TestReachableErrors(t *testing.T) {
	g := mustGraph(t, 3, []Edge{{U: 0, V: 1, W: 1}})
	for _, bad := range [][]int{{3}, {-1}, {0, 7}} {
		_, err := g.Reachable(bad)
		require.ErrorContains(t, err, "out of range", "sources %v", bad)
	}
	got, err := g.Reachable(nil)
	require.NoError(t, err)
	require.Equal(t, []bool{false, false, false}, got)
	got, err = g.Reachable([]int{1})
	require.NoError(t, err)
	require.Equal(t, []bool{true, true, false}, got)
}
