package graph

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomGraph builds a random weighted graph with self loops through the
// ordinary constructor, the reference for FromCSRArrays.
func randomGraph(t *testing.T, n, m int, unit bool, seed uint64) *CSR {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	edges := make([]Edge, m)
	for k := range edges {
		w := 1.0
		if !unit {
			w = float64(rng.IntN(5)) / 2
		}
		edges[k] = Edge{U: rng.IntN(n), V: rng.IntN(n), W: w}
	}
	g, err := FromEdges(n, edges, Options{Duplicates: DuplicateMax})
	require.NoError(t, err)
	return g
}

// cloneArrays copies a's slices so that tests can corrupt them.
func cloneArrays(a CSRArrays) CSRArrays {
	return CSRArrays{Indptr: slices.Clone(a.Indptr), Indices: slices.Clone(a.Indices), Weights: slices.Clone(a.Weights), Degrees: slices.Clone(a.Degrees)}
}

func requireSameGraph(t *testing.T, want, got *CSR) {
	t.Helper()
	require.Equal(t, want.Nodes(), got.Nodes())
	require.Equal(t, want.NNZ(), got.NNZ())
	assert.Equal(t, want.SelfLoops(), got.SelfLoops())
	assert.Equal(t, want.UnitWeights(), got.UnitWeights())
	for i := 0; i < want.Nodes(); i++ {
		wc, ww := want.Row(i)
		gc, gw := got.Row(i)
		require.Equal(t, wc, gc, "row %d", i)
		require.Equal(t, ww, gw, "row %d", i)
		require.Equal(t, math.Float64bits(want.Degree(i)), math.Float64bits(got.Degree(i)), "degree %d", i)
	}
}

func TestFromCSRArraysRoundTrip(t *testing.T) {
	// Sizes on both sides of minCheckWork, so that rows are checked on one
	// goroutine and in parallel chunks.
	for _, tc := range []struct {
		n, m int
		unit bool
	}{{1, 1, true}, {30, 60, false}, {30, 60, true}, {5000, 80000, false}, {5000, 80000, true}} {
		g := randomGraph(t, tc.n, tc.m, tc.unit, uint64(tc.n))
		a := cloneArrays(g.Arrays())
		h, err := FromCSRArrays(tc.n, a)
		require.NoError(t, err)
		requireSameGraph(t, g, h)
		// The CSR keeps the given slices.
		assert.Same(t, &a.Indices[0], &h.Arrays().Indices[0])

		// Without degrees and weights (for unit graphs): computed.
		b := cloneArrays(g.Arrays())
		b.Degrees = nil
		if tc.unit {
			b.Weights = nil
		}
		h, err = FromCSRArrays(tc.n, b)
		require.NoError(t, err)
		requireSameGraph(t, g, h)

		h, err = FromCSRArraysTrusted(tc.n, cloneArrays(g.Arrays()), g.SelfLoops(), g.UnitWeights())
		require.NoError(t, err)
		requireSameGraph(t, g, h)
	}
	h, err := FromCSRArrays(0, CSRArrays{Indptr: []int{0}})
	require.NoError(t, err)
	assert.Equal(t, 0, h.Nodes())
	assert.Equal(t, 0, h.NNZ())
}

func TestFromCSRArraysRejects(t *testing.T) {
	// 0–1 (w 2), 1–2 (w 1), self loop on 2 (w 0.5).
	g, err := FromEdges(3, []Edge{{0, 1, 2}, {1, 2, 1}, {2, 2, 0.5}}, Options{})
	require.NoError(t, err)
	base := g.Arrays()
	require.Equal(t, []int{0, 1, 3, 5}, base.Indptr)
	require.Equal(t, []int32{1, 0, 2, 1, 2}, base.Indices)
	for _, tc := range []struct {
		name   string
		n      int
		modify func(a *CSRArrays)
		want   string
	}{
		{"short indptr", 3, func(a *CSRArrays) { a.Indptr = a.Indptr[:3] }, "3 row offsets for 3 nodes"},
		{"weights length", 3, func(a *CSRArrays) { a.Weights = a.Weights[:4] }, "4 weights for 5 stored entries"},
		{"degrees length", 3, func(a *CSRArrays) { a.Degrees = a.Degrees[:2] }, "2 degrees for 3 nodes"},
		{"negative n", -1, func(a *CSRArrays) {}, "out of range"},
		{"indptr start", 3, func(a *CSRArrays) { a.Indptr[0] = 1 }, "row offsets run from 1"},
		{"indptr end", 3, func(a *CSRArrays) { a.Indptr[3] = 4 }, "want 0 to 5"},
		{"indptr decreases", 3, func(a *CSRArrays) { a.Indptr[1] = 4 }, "decrease at row 1"},
		{"column range", 3, func(a *CSRArrays) { a.Indices[4] = 3 }, "column 3 out of range [0, 3)"},
		{"negative column", 3, func(a *CSRArrays) { a.Indices[0] = -1 }, "column -1 out of range"},
		{"not ascending", 3, func(a *CSRArrays) { a.Indices[1], a.Indices[2] = 2, 0 }, "strictly ascending"},
		{"repeated column", 3, func(a *CSRArrays) { a.Indices[1] = 2 }, "strictly ascending"},
		{"negative weight", 3, func(a *CSRArrays) { a.Weights[4] = -1 }, "weight -1"},
		{"NaN weight", 3, func(a *CSRArrays) { a.Weights[0] = math.NaN() }, "weight NaN"},
		{"asymmetric weight", 3, func(a *CSRArrays) { a.Weights[0] = 3; a.Degrees[0] = 3 }, "not symmetric"},
		{"degree", 3, func(a *CSRArrays) { a.Degrees[2] = 1.5 }, "node 2: degree 1.5 given, row sum 1.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := cloneArrays(base)
			tc.modify(&a)
			_, err := FromCSRArrays(tc.n, a)
			if tc.name == "degree" {
				// 1 + 0.5 is 1.5 exactly: corrupt by one ulp instead.
				a = cloneArrays(base)
				a.Degrees[2] = math.Nextafter(1.5, 2)
				_, err = FromCSRArrays(3, a)
				require.Error(t, err)
				assert.Contains(t, err.Error(), "node 2: degree")
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// A missing mirror entry: row 0 lists 1, row 1 does not list 0.
	_, err = FromCSRArrays(2, CSRArrays{Indptr: []int{0, 1, 1}, Indices: []int32{1}})
	assert.ErrorContains(t, err, "not symmetric")
	// Symmetric pattern with the two weights swapped between two edges.
	a := CSRArrays{Indptr: []int{0, 2, 3, 4}, Indices: []int32{1, 2, 0, 0}, Weights: []float64{1, 2, 2, 1}}
	_, err = FromCSRArrays(3, a)
	assert.ErrorContains(t, err, "not symmetric")

	_, err = FromCSRArraysTrusted(3, CSRArrays{Indptr: base.Indptr, Indices: base.Indices, Weights: base.Weights}, 1, false)
	assert.ErrorContains(t, err, "need weights and degrees")
	_, err = FromCSRArraysTrusted(3, base, 4, false)
	assert.ErrorContains(t, err, "self loops out of range")
}

// A corrupted large graph is caught whichever chunk holds the damage, and
// the error names the first bad row.
func TestFromCSRArraysFirstError(t *testing.T) {
	g := randomGraph(t, 5000, 80000, false, 3)
	a := cloneArrays(g.Arrays())
	p1, p2 := a.Indptr[4000], a.Indptr[100]
	a.Weights[p1] = -2
	a.Weights[p2] = -3
	_, err := FromCSRArrays(5000, a)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "row 100,")
}
