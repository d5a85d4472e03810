package labelprop

import (
	"context"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
)

// heapTestGraph returns a random 0/1 graph on n nodes with about m edges
// and c planted classes (70 % of the edges inside a class), and 1 % of the
// nodes labelled.
func heapTestGraph(t *testing.T, n, m, c int) (*graph.CSR, []int, []int) {
	rng := rand.New(rand.NewPCG(10, 6))
	edges := make([]graph.Edge, 0, m)
	for range m {
		u := rng.IntN(n)
		v := rng.IntN(n)
		if rng.Float64() < 0.7 {
			v = v - v%c + u%c
			if v >= n {
				v -= c
			}
		}
		edges = append(edges, graph.Edge{U: u, V: v, W: 1})
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop})
	require.NoError(t, err)
	var nodes, classes []int
	for i := 0; i < n; i += 100 {
		if g.Degree(i) > 0 {
			nodes, classes = append(nodes, i), append(classes, (i/100)%c)
		}
	}
	return g, nodes, classes
}

// TestSpreadingMemoryBytes measures the Go heap a fit allocates (TotalAlloc
// bounds its peak: the fit frees almost nothing before it returns) on a
// generated graph of 10^6 edges, and checks it against MemoryBytes: at most
// 1.3× the formula and at least 0.9× (the formula counts what is there).
func TestSpreadingMemoryBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 10^6-edge graph; skipped with -short")
	}
	const n, m, c = 100_000, 1_000_000, 10
	g, nodes, classes := heapTestGraph(t, n, m, c)
	// Frequent collections: scratch reused across iterations must survive
	// them (a sync.Pool would drop it and the fit would allocate it anew).
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	// a = 0.5 takes few iterations; the memory does not depend on a.
	for _, tc := range []struct {
		limit int64
		m     Spreading
	}{
		{0, Spreading{Alpha: 0.5, Classes: c}},
		{0, Spreading{Alpha: 0.5, Classes: c, Float32: true, Stop: StopLabels}},
		{0, Spreading{Alpha: 0.5, Classes: c, Solver: CG}},
		{graph.DefaultSlicedLimit, Spreading{Alpha: 0.5, Classes: 3}},
	} {
		{
			limit, m := tc.limit, tc.m
			old := graph.SetSlicedLimit(limit)
			gg := g
			if limit > 0 {
				// A fresh copy of the graph, without a SELL copy from an
				// earlier fit.
				gg = regraph(t, g)
			}
			nn, cc := nodes, classes
			if m.Classes == 3 {
				cc = make([]int, len(classes))
				for k := range cc {
					cc[k] = classes[k] % 3
				}
			}
			want := m.MemoryBytes(gg)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			require.NoError(t, m.FitIndexed(context.Background(), gg, nn, cc))
			runtime.ReadMemStats(&after)
			graph.SetSlicedLimit(old)
			got := int64(after.TotalAlloc - before.TotalAlloc)
			t.Logf("limit %d %v float32 %v stop %v c %d: allocated %d, formula %d (%.3f), graph %d, sliced %d",
				limit, m.Solver, m.Float32, m.Stop, m.Classes, got, want, float64(got)/float64(want), gg.Bytes(), gg.SlicedBytes())
			require.LessOrEqual(t, float64(got), 1.3*float64(want))
			require.GreaterOrEqual(t, float64(got), 0.9*float64(want))
		}
	}
}

// regraph returns a copy of g built from its arrays.
func regraph(t *testing.T, g *graph.CSR) *graph.CSR {
	a := g.Arrays()
	h, err := graph.FromCSRArraysTrusted(g.Nodes(), a, g.SelfLoops(), g.UnitWeights())
	require.NoError(t, err)
	return h
}

// TestHarmonicMemoryBytes: as TestSpreadingMemoryBytes, for the harmonic
// function's MemoryBytes.
func TestHarmonicMemoryBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 10^6-edge graph; skipped with -short")
	}
	const n, m, c = 100_000, 1_000_000, 10
	g, nodes, classes := heapTestGraph(t, n, m, c)
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	h := Harmonic{Classes: c}
	want := h.MemoryBytes(g)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	require.NoError(t, h.FitIndexed(context.Background(), g, nodes, classes))
	runtime.ReadMemStats(&after)
	got := int64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("allocated %d, formula %d (%.3f)", got, want, float64(got)/float64(want))
	require.LessOrEqual(t, float64(got), 1.3*float64(want))
	require.GreaterOrEqual(t, float64(got), 0.9*float64(want))
}
