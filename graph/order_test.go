package graph

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// permutationMatrix returns P with P_{i, perm[i]} = 1, so that (P·W·Pᵀ)_ij =
// W_{perm[i], perm[j]}.
func permutationMatrix(perm []int) *mat.Dense {
	p := mat.NewDense(len(perm), len(perm), nil)
	for i, v := range perm {
		p.Set(i, v, 1)
	}
	return p
}

// denseBandwidth is max |i − j| over the nonzero entries of a dense matrix.
func denseBandwidth(a *mat.Dense) int {
	r, _ := a.Dims()
	bw := 0
	for i := 0; i < r; i++ {
		for j := 0; j < r; j++ {
			if a.At(i, j) != 0 {
				bw = max(bw, i-j, j-i)
			}
		}
	}
	return bw
}

func isPermutation(perm []int, n int) bool {
	s := slices.Clone(perm)
	slices.Sort(s)
	for i, v := range s {
		if v != i {
			return false
		}
	}
	return len(s) == n
}

// gridEdges is the r×c grid graph, node (i, j) numbered i·c + j.
func gridEdges(r, c int) []Edge {
	var e []Edge
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if j+1 < c {
				e = append(e, Edge{U: i*c + j, V: i*c + j + 1, W: 1})
			}
			if i+1 < r {
				e = append(e, Edge{U: i*c + j, V: (i+1)*c + j, W: 1})
			}
		}
	}
	return e
}

// relabel renames node v of every edge to perm[v].
func relabel(edges []Edge, perm []int) []Edge {
	out := make([]Edge, len(edges))
	for k, e := range edges {
		out[k] = Edge{U: perm[e.U], V: perm[e.V], W: e.W}
	}
	return out
}

func TestPermuteMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	for _, n := range []int{1, 2, 7, 40} {
		g, err := FromEdges(n, randomEdges(rng, n, 3*n), Options{Duplicates: DuplicateSum, Symmetrize: DirectedMax})
		require.NoError(t, err)
		perm := rng.Perm(n)
		h, err := g.Permute(perm)
		require.NoError(t, err)
		p := permutationMatrix(perm)
		var want mat.Dense
		want.Product(p, g.Dense(), p.T())
		// Permuting moves entries without arithmetic: the match is exact.
		assert.True(t, mat.Equal(&want, h.Dense()), "n=%d: P·W·Pᵀ differs", n)
		assert.Equal(t, g.NNZ(), h.NNZ())
		assert.Equal(t, g.SelfLoops(), h.SelfLoops())
		assert.Equal(t, g.UnitWeights(), h.UnitWeights())
		for i := 0; i < n; i++ {
			cols, _ := h.Row(i)
			assert.True(t, slices.IsSorted(cols), "n=%d: row %d not sorted", n, i)
			// The degree is the row sum of the permuted matrix.
			assert.InDelta(t, mat.Sum(want.RowView(i)), h.Degree(i), tol, "n=%d: degree of %d", n, i)
		}
	}
}

func TestPermuteRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	n := 60
	g, err := FromEdges(n, randomEdges(rng, n, 200), Options{Duplicates: DuplicateMax, Symmetrize: DirectedMax})
	require.NoError(t, err)
	perm := rng.Perm(n)
	inv := make([]int, n)
	for i, p := range perm {
		inv[p] = i
	}
	h, err := g.Permute(perm)
	require.NoError(t, err)
	back, err := h.Permute(inv)
	require.NoError(t, err)
	assert.Equal(t, g.indptr, back.indptr)
	assert.Equal(t, g.indices, back.indices)
	assert.Equal(t, g.weights, back.weights)
	assert.Equal(t, g.degree, back.degree)
}

func TestPermuteBadInput(t *testing.T) {
	g, err := FromEdges(4, []Edge{{0, 1, 1}, {2, 3, 1}}, Options{})
	require.NoError(t, err)
	for _, c := range []struct {
		perm []int
		want string
	}{
		{[]int{0, 1, 2}, "length 3, graph has 4 nodes"},
		{[]int{0, 1, 4, 2}, "perm[2] = 4 is out of range [0, 4)"},
		{[]int{0, -1, 2, 3}, "perm[1] = -1 is out of range"},
		{[]int{3, 1, 2, 1}, "perm[3] = 1 repeats perm[1]"},
	} {
		_, err := g.Permute(c.perm)
		require.Error(t, err, "perm %v", c.perm)
		assert.Contains(t, err.Error(), c.want)
	}
}

func TestReverseCuthillMcKeeBandwidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for _, c := range []struct {
		name  string
		n     int
		edges []Edge
		best  int // the bandwidth of the natural numbering
	}{
		{"path", 200, gridEdges(1, 200), 1},
		{"grid 12×30", 360, gridEdges(12, 30), 12},
		{"grid 30×12", 360, gridEdges(30, 12), 12},
	} {
		shuffle := rng.Perm(c.n)
		g, err := FromEdges(c.n, relabel(c.edges, shuffle), Options{})
		require.NoError(t, err)
		perm := ReverseCuthillMcKee(g)
		require.True(t, isPermutation(perm, c.n), c.name)
		h, err := g.Permute(perm)
		require.NoError(t, err)
		before, after := g.Bandwidth(), h.Bandwidth()
		assert.Equal(t, denseBandwidth(g.Dense()), before, "%s: Bandwidth against a dense scan", c.name)
		assert.Equal(t, denseBandwidth(h.Dense()), after, "%s: Bandwidth against a dense scan", c.name)
		assert.Less(t, after, before, c.name)
		// From a corner, level sets of a grid are its anti-diagonals, at
		// most min(r, c) nodes wide: RCM reaches the natural bandwidth
		// within one.
		assert.LessOrEqual(t, after, c.best+1, "%s: bandwidth %d (shuffled %d)", c.name, after, before)
		assert.Equal(t, perm, ReverseCuthillMcKee(g), "%s: not deterministic", c.name)
	}
}

func TestReverseCuthillMcKeeComponents(t *testing.T) {
	// Three components (a shuffled path of 10, a 4×5 grid, a triangle with
	// a self loop) and three isolated nodes, interleaved in the numbering.
	rng := rand.New(rand.NewPCG(14, 1))
	n := 10 + 20 + 3 + 3
	shuffle := rng.Perm(n)
	var edges []Edge
	edges = append(edges, gridEdges(1, 10)...)
	for _, e := range gridEdges(4, 5) {
		edges = append(edges, Edge{U: e.U + 10, V: e.V + 10, W: 1})
	}
	edges = append(edges, Edge{30, 31, 2}, Edge{31, 32, 3}, Edge{30, 32, 1}, Edge{31, 31, 1})
	g, err := FromEdges(n, relabel(edges, shuffle), Options{})
	require.NoError(t, err)
	perm := ReverseCuthillMcKee(g)
	require.True(t, isPermutation(perm, n))
	h, err := g.Permute(perm)
	require.NoError(t, err)
	// Each component gets a contiguous range of new ids, and the new graph
	// has the same components (sizes) as the old one.
	comp, count := h.Components()
	_, count0 := g.Components()
	assert.Equal(t, count0, count)
	for i := 1; i < n; i++ {
		if comp[i] != comp[i-1] {
			for j := i; j < n; j++ {
				assert.NotEqual(t, comp[i-1], comp[j], "component %d is not contiguous", comp[i-1])
			}
		}
	}
	isolated := g.Isolated()
	var moved []int
	for _, v := range h.Isolated() {
		moved = append(moved, perm[v])
	}
	slices.Sort(moved)
	assert.Equal(t, isolated, moved, "isolated nodes")
	assert.Len(t, isolated, 3)
	assert.Equal(t, 1, h.SelfLoops())
	assert.LessOrEqual(t, h.Bandwidth(), 5, "grid 4×5 within one of its width")
}

func TestReverseCuthillMcKeeEmpty(t *testing.T) {
	g, err := FromEdges(0, nil, Options{})
	require.NoError(t, err)
	assert.Empty(t, ReverseCuthillMcKee(g))
	h, err := g.Permute(nil)
	require.NoError(t, err)
	assert.Equal(t, 0, h.Nodes())
}
