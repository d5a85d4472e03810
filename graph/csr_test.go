package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// tol is the tolerance of products compared with dense gonum: a handful of
// rounding errors on sums of at most n terms of order one.
const tol = 1e-12

// randomEdges draws m arcs on n nodes with repeats, self loops and weights in (0, 1].
func randomEdges(rng *rand.Rand, n, m int) []Edge {
	e := make([]Edge, m)
	for k := range e {
		e[k] = Edge{U: rng.IntN(n), V: rng.IntN(n), W: 1 - rng.Float64()}
	}
	return e
}

// denseReference builds W entry by entry, independently of assemble/symmetrize.
func denseReference(n int, edges []Edge, opt Options) *mat.Dense {
	a := mat.NewDense(n, n, nil)
	seen := mat.NewDense(n, n, nil)
	put := func(u, v int, w float64) {
		if seen.At(u, v) == 0 {
			a.Set(u, v, w)
			seen.Set(u, v, 1)
			return
		}
		switch opt.Duplicates {
		case DuplicateSum:
			a.Set(u, v, a.At(u, v)+w)
		case DuplicateMax:
			a.Set(u, v, math.Max(a.At(u, v), w))
		}
	}
	for _, e := range edges {
		if e.U == e.V && opt.SelfLoops == SelfLoopDrop {
			continue
		}
		put(e.U, e.V, e.W)
		if opt.Symmetrize == Undirected && e.U != e.V {
			put(e.V, e.U, e.W)
		}
	}
	if opt.Symmetrize == Undirected {
		return a
	}
	w := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			x, y := a.At(i, j), a.At(j, i)
			hx, hy := seen.At(i, j) != 0, seen.At(j, i) != 0
			var v float64
			switch {
			case i == j:
				v = x
			case opt.Symmetrize == DirectedMax:
				v = math.Max(x, y)
			case opt.Symmetrize == DirectedSum:
				v = x + y
			case opt.Symmetrize == DirectedMean:
				v = (x + y) / 2
			case opt.Symmetrize == DirectedMutual:
				if hx && hy {
					v = math.Min(x, y)
				}
			}
			w.Set(i, j, v)
		}
	}
	return w
}

func TestFromEdgesMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sym := range []Symmetrization{Undirected, DirectedMax, DirectedSum, DirectedMean, DirectedMutual} {
		for _, dup := range []DuplicatePolicy{DuplicateSum, DuplicateMax} {
			for _, loops := range []SelfLoopPolicy{SelfLoopKeep, SelfLoopDrop} {
				opt := Options{Duplicates: dup, SelfLoops: loops, Symmetrize: sym}
				n := 1 + rng.IntN(40)
				edges := randomEdges(rng, n, rng.IntN(4*n))
				g, err := FromEdges(n, edges, opt)
				require.NoError(t, err, "%+v", opt)
				want := denseReference(n, edges, opt)
				require.True(t, mat.EqualApprox(g.Dense(), want, tol), "%+v\n got %v\nwant %v", opt, mat.Formatted(g.Dense()), mat.Formatted(want))
				assert.True(t, mat.Equal(g.Dense(), g.Dense().T()), "not symmetric")
				// Degrees are row sums; NNZ counts stored entries.
				var nnz, loopsSeen int
				for i := 0; i < n; i++ {
					assert.InDelta(t, mat.Sum(want.RowView(i)), g.Degree(i), tol)
					for j := 0; j < n; j++ {
						if g.HasEdge(i, j) {
							nnz++
							if i == j {
								loopsSeen++
							}
						}
					}
				}
				assert.Equal(t, nnz, g.NNZ())
				assert.Equal(t, loopsSeen, g.SelfLoops())
				assert.Equal(t, (nnz-loopsSeen)/2+loopsSeen, g.Edges())
			}
		}
	}
}

func TestFromCOOAndRowsSorted(t *testing.T) {
	g, err := FromCOO(4, []int{3, 0, 2, 0}, []int{0, 1, 1, 3}, nil, Options{Duplicates: DuplicateMax})
	require.NoError(t, err)
	// edges {0,3} listed twice (as 3-0 and 0-3) merge under max.
	assert.Equal(t, 3, g.Edges())
	cols, ws := g.Row(0)
	assert.Equal(t, []int32{1, 3}, cols)
	assert.Equal(t, []float64{1, 1}, ws)
	assert.Equal(t, 0.0, g.Weight(0, 2))
	assert.Equal(t, 1.0, g.Weight(2, 1))
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		name  string
		n     int
		edges []Edge
		opt   Options
		msg   string
	}{
		{"out of range", 3, []Edge{{0, 3, 1}}, Options{}, "node 3 out of range [0, 3)"},
		{"negative id", 3, []Edge{{-1, 2, 1}}, Options{}, "node -1 out of range"},
		{"NaN weight", 3, []Edge{{0, 1, math.NaN()}}, Options{}, "not finite"},
		{"Inf weight", 3, []Edge{{0, 1, math.Inf(1)}}, Options{}, "not finite"},
		{"negative weight", 3, []Edge{{0, 1, -2}}, Options{}, "negative"},
		{"duplicate", 3, []Edge{{0, 1, 1}, {1, 0, 1}}, Options{}, "duplicate edge"},
		{"directed duplicate", 3, []Edge{{0, 1, 1}, {0, 1, 1}}, Options{Symmetrize: DirectedMax}, "duplicate edge (0, 1)"},
		{"self loop", 3, []Edge{{2, 2, 1}}, Options{SelfLoops: SelfLoopError}, "self loop on node 2"},
		{"negative n", -1, nil, Options{}, "node count -1"},
		{"bad policy", 2, nil, Options{Duplicates: 7}, "unknown duplicate policy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromEdges(c.n, c.edges, c.opt)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.msg)
		})
	}
	_, err := FromCOO(3, []int{0}, []int{1, 2}, nil, Options{})
	assert.ErrorContains(t, err, "differ in length")
}

func TestDirectedDuplicateArcsAreNotMirrorDuplicates(t *testing.T) {
	// (0,1) and (1,0) as arcs are one undirected edge under max, with no error.
	g, err := FromEdges(2, []Edge{{0, 1, 2}, {1, 0, 3}}, Options{Symmetrize: DirectedMax})
	require.NoError(t, err)
	assert.Equal(t, 3.0, g.Weight(0, 1))
	assert.Equal(t, 3.0, g.Weight(1, 0))
	assert.Equal(t, 1, g.Edges())
}

func TestMulVecAndBlockAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 7, 120, 3000} {
		g, err := FromEdges(n, randomEdges(rng, n, 5*n), Options{Duplicates: DuplicateSum})
		require.NoError(t, err)
		w := g.Dense()
		x := make([]float64, n)
		l, r, c := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], l[i], r[i], c[i] = rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		}
		got := make([]float64, n)
		g.MulVecTo(got, x)
		var want mat.VecDense
		want.MulVec(w, mat.NewVecDense(n, x))
		assert.InDeltaSlice(t, want.RawVector().Data, got, tol*float64(n))

		// dst = c∘x + l∘(W (r∘x))
		g.ScaledMulVecTo(got, x, Scaling{Diag: c, Left: l, Right: r})
		full := mat.NewDense(n, n, nil)
		full.Apply(func(i, j int, v float64) float64 { return l[i] * v * r[j] }, w)
		for i := 0; i < n; i++ {
			full.Set(i, i, full.At(i, i)+c[i])
		}
		want.MulVec(full, mat.NewVecDense(n, x))
		assert.InDeltaSlice(t, want.RawVector().Data, got, 1e-10*float64(n))

		for _, cols := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 17} {
			xb := mat.NewDense(n, cols, nil)
			for i := 0; i < n; i++ {
				for j := 0; j < cols; j++ {
					xb.Set(i, j, rng.NormFloat64())
				}
			}
			gotB := mat.NewDense(n, cols, nil)
			var wantB mat.Dense
			g.MulBlockTo(gotB, xb)
			wantB.Mul(w, xb)
			assert.True(t, mat.EqualApprox(gotB, &wantB, tol*float64(n)))
			g.ScaledMulBlockTo(gotB, xb, Scaling{Diag: c, Left: l, Right: r})
			wantB.Mul(full, xb)
			assert.True(t, mat.EqualApprox(gotB, &wantB, 1e-10*float64(n)))
		}
	}
}

func TestMulVecDimensionMismatchPanicsWithMessage(t *testing.T) {
	g, err := FromEdges(3, []Edge{{0, 1, 1}}, Options{})
	require.NoError(t, err)
	assert.PanicsWithValue(t, "graph: dimension mismatch: graph has 3 nodes, dst has length 3, x has length 2", func() {
		g.MulVecTo(make([]float64, 3), make([]float64, 2))
	})
}

func TestInduced(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 50
	g, err := FromEdges(n, randomEdges(rng, n, 200), Options{Duplicates: DuplicateSum})
	require.NoError(t, err)
	w := g.Dense()
	nodes := rng.Perm(n)[:20]
	s, err := g.Induced(nodes)
	require.NoError(t, err)
	require.Equal(t, 20, s.Nodes())
	for i, p := range nodes {
		assert.Equal(t, p, s.Original[i])
		l, ok := s.Local(p)
		assert.True(t, ok)
		assert.Equal(t, i, l)
		var deg float64
		for j, q := range nodes {
			assert.Equal(t, w.At(p, q), s.Weight(i, j))
			deg += w.At(p, q)
		}
		assert.InDelta(t, deg, s.Degree(i), tol)
		cols, _ := s.Row(i)
		for k := 1; k < len(cols); k++ {
			assert.Less(t, cols[k-1], cols[k], "row %d not sorted", i)
		}
	}
	_, ok := s.Local(nodes[0] + n)
	assert.False(t, ok)
	_, err = g.Induced([]int{1, 2, 1})
	assert.ErrorContains(t, err, "node 1 listed twice")
	_, err = g.Induced([]int{1, 99})
	assert.ErrorContains(t, err, "node 99 (position 1) out of range")
}

func TestComponentsAgainstUnionFind(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 20; trial++ {
		n := 1 + rng.IntN(60)
		edges := randomEdges(rng, n, rng.IntN(n))
		g, err := FromEdges(n, edges, Options{Duplicates: DuplicateMax})
		require.NoError(t, err)
		find := unionFind(n, edges)
		comp, count := g.Components()
		roots := map[int]bool{}
		for i := 0; i < n; i++ {
			roots[find(i)] = true
			for j := 0; j < n; j++ {
				assert.Equal(t, find(i) == find(j), comp[i] == comp[j])
			}
		}
		assert.Equal(t, len(roots), count)
		// numbered in order of smallest node
		next := 0
		for i := 0; i < n; i++ {
			if comp[i] == next {
				next++
			}
			assert.Less(t, comp[i], next)
		}
	}
}

func TestIsolatedAndEmpty(t *testing.T) {
	g, err := FromEdges(5, []Edge{{0, 1, 1}, {3, 3, 2}}, Options{})
	require.NoError(t, err)
	assert.Equal(t, []int{2, 4}, g.Isolated())
	_, count := g.Components()
	assert.Equal(t, 4, count)
	e, err := FromEdges(0, nil, Options{})
	require.NoError(t, err)
	assert.Equal(t, 0, e.Nodes())
	e.MulVecTo(nil, nil)
}

func TestZeroWeightEdgesDoNotConnect(t *testing.T) {
	// Node 2's only edges have weight 0: it has degree 0, so it is isolated,
	// and it must then be a component of its own (the Laplacian sees no
	// edge there). Nodes 3 and 4 are joined by a zero weight only.
	g, err := FromEdges(5, []Edge{{0, 1, 1}, {1, 2, 0}, {2, 2, 0}, {3, 4, 0}}, Options{})
	require.NoError(t, err)
	assert.Equal(t, 4, g.Edges(), "zero weights are stored")
	assert.Equal(t, []int{2, 3, 4}, g.Isolated())
	comp, count := g.Components()
	assert.Equal(t, []int{0, 0, 1, 2, 3}, comp)
	assert.Equal(t, 4, count)
	for _, i := range g.Isolated() {
		for j := range comp {
			assert.Equal(t, i == j, comp[i] == comp[j], "isolated node %d shares a component with %d", i, j)
		}
	}
	lc, err := g.LargestComponent()
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, lc.Original)
}

func TestMapWeightsAndSymmetricScale(t *testing.T) {
	g, err := FromEdges(3, []Edge{{0, 1, 2}, {1, 2, 4}, {2, 2, 1}}, Options{})
	require.NoError(t, err)
	h, err := g.MapWeights(func(w float64) float64 { return w * w })
	require.NoError(t, err)
	assert.Equal(t, 16.0, h.Weight(2, 1))
	assert.Equal(t, 4.0+16, h.Degree(1))
	_, err = g.MapWeights(func(w float64) float64 { return -w })
	assert.ErrorContains(t, err, "must be finite and ≥ 0")
	s, err := g.SymmetricScale([]float64{1, 0.5, 2})
	require.NoError(t, err)
	assert.Equal(t, 1.0, s.Weight(0, 1))
	assert.Equal(t, 4.0, s.Weight(2, 1))
	assert.Equal(t, 4.0, s.Weight(2, 2))
	_, err = g.SymmetricScale([]float64{1, math.NaN(), 2})
	assert.ErrorContains(t, err, "scale of node 1")

	// A graph of several mapping chunks: every weight mapped (the chunks
	// run concurrently), and the first invalid weight is the one reported.
	rng := rand.New(rand.NewPCG(41, 42))
	big, err := FromEdges(5000, randomEdges(rng, 5000, 40000), Options{Duplicates: DuplicateSum})
	require.NoError(t, err)
	require.Greater(t, big.NNZ(), 3*mapChunk)
	sq, err := big.MapWeights(func(w float64) float64 { return math.Exp(-w) })
	require.NoError(t, err)
	for i := 0; i < big.Nodes(); i++ {
		cols, ws := big.Row(i)
		_, got := sq.Row(i)
		for k := range cols {
			require.Equal(t, math.Exp(-ws[k]), got[k], "node %d entry %d", i, k)
		}
	}
	last := big.weights[len(big.weights)-1]
	_, err = big.MapWeights(func(w float64) float64 {
		if w == last {
			return math.NaN()
		}
		return w
	})
	assert.ErrorContains(t, err, fmt.Sprintf("weight %v mapped to NaN", last))
}

func TestForEachEdge(t *testing.T) {
	g, err := FromEdges(4, []Edge{{2, 1, 2}, {0, 3, 4}, {2, 2, 1}}, Options{})
	require.NoError(t, err)
	var got []Edge
	g.ForEachEdge(func(u, v int, w float64) { got = append(got, Edge{u, v, w}) })
	assert.Equal(t, []Edge{{0, 3, 4}, {1, 2, 2}, {2, 2, 1}}, got)
}

// TestConcurrentReads exercises the race detector: many readers on one graph.
func TestConcurrentReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 5000
	g, err := FromEdges(n, randomEdges(rng, n, 10*n), Options{Duplicates: DuplicateSum})
	require.NoError(t, err)
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	done := make(chan []float64)
	for k := 0; k < 4; k++ {
		go func() {
			y := make([]float64, n)
			g.MulVecTo(y, x)
			done <- y
		}()
	}
	first := <-done
	for k := 1; k < 4; k++ {
		assert.Equal(t, first, <-done)
	}
	for i, v := range first {
		assert.InDelta(t, g.Degree(i), v, 1e-9)
	}
}

// TestUnitWeightProductsAgainstDense checks the pattern-only product path
// (every weight 1) and ScaledMulBlockRowsTo against dense gonum products.
func TestUnitWeightProductsAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 9, 150, 3000} {
		edges := randomEdges(rng, n, 5*n)
		for k := range edges {
			edges[k].W = 1
		}
		g, err := FromEdges(n, edges, Options{Duplicates: DuplicateMax})
		require.NoError(t, err)
		require.True(t, g.UnitWeights(), "n=%d: 0/1 graph not recognised", n)
		scaled, err := g.MapWeights(func(w float64) float64 { return 2 * w })
		require.NoError(t, err)
		if g.NNZ() > 0 {
			assert.False(t, scaled.UnitWeights(), "weights 2 taken for unit weights")
		}
		w := g.Dense()
		for i := 0; i < n; i++ { // the reference must not rely on the flag
			cols, _ := g.Row(i)
			for _, c := range cols {
				require.Equal(t, 1.0, w.At(i, int(c)))
			}
		}
		x := make([]float64, n)
		l, r, c := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], l[i], r[i], c[i] = rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		}
		full := func(s Scaling) *mat.Dense {
			m := mat.NewDense(n, n, nil)
			m.Apply(func(i, j int, v float64) float64 {
				if s.Left != nil {
					v *= s.Left[i]
				}
				if s.Right != nil {
					v *= s.Right[j]
				}
				if i == j && s.Diag != nil {
					v += s.Diag[i]
				}
				return v
			}, w)
			return m
		}
		for _, s := range []Scaling{{}, {Diag: c, Left: l}, {Diag: c, Left: l, Right: r}} {
			a := full(s)
			got := make([]float64, n)
			g.ScaledMulVecTo(got, x, s)
			var want mat.VecDense
			want.MulVec(a, mat.NewVecDense(n, x))
			assert.InDeltaSlice(t, want.RawVector().Data, got, 1e-10*float64(n))
			for _, cols := range []int{1, 3, 8, 9} {
				xb := mat.NewDense(n, cols, nil)
				for i := 0; i < n; i++ {
					for j := 0; j < cols; j++ {
						xb.Set(i, j, rng.NormFloat64())
					}
				}
				var wantB mat.Dense
				wantB.Mul(a, xb)
				gotB := mat.NewDense(n, cols, nil)
				g.ScaledMulBlockTo(gotB, xb, s)
				assert.True(t, mat.EqualApprox(gotB, &wantB, 1e-10*float64(n)), "n=%d cols=%d", n, cols)
				// Rows [lo, hi) only; the others keep their sentinel.
				lo, hi := n/3, n-n/4
				part := mat.NewDense(n, cols, nil)
				for i := 0; i < n; i++ {
					for j := 0; j < cols; j++ {
						part.Set(i, j, math.NaN())
					}
				}
				g.ScaledMulBlockRowsTo(part, xb, s, lo, hi)
				for i := 0; i < n; i++ {
					for j := 0; j < cols; j++ {
						if i >= lo && i < hi {
							assert.InDelta(t, wantB.At(i, j), part.At(i, j), 1e-10*float64(n))
						} else {
							assert.True(t, math.IsNaN(part.At(i, j)), "row %d outside [%d, %d) written", i, lo, hi)
						}
					}
				}
			}
		}
	}
	g, err := FromEdges(3, []Edge{{0, 1, 1}}, Options{})
	require.NoError(t, err)
	assert.PanicsWithValue(t, "graph: row range [2, 4) is not inside [0, 3)", func() {
		g.ScaledMulBlockRowsTo(mat.NewDense(3, 2, nil), mat.NewDense(3, 2, nil), Scaling{}, 2, 4)
	})
}

// TestLargestComponent: the kept nodes are exactly those of the biggest
// union-find class (the one with the smallest node on ties), and every edge
// between them survives with its weight.
func TestLargestComponent(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for trial := 0; trial < 20; trial++ {
		n := 1 + rng.IntN(60)
		edges := randomEdges(rng, n, rng.IntN(n))
		g, err := FromEdges(n, edges, Options{Duplicates: DuplicateMax})
		require.NoError(t, err)
		find := unionFind(n, edges)
		size := map[int]int{}
		first := map[int]int{}
		for i := n - 1; i >= 0; i-- {
			size[find(i)]++
			first[find(i)] = i
		}
		best := -1
		for r, s := range size {
			if best < 0 || s > size[best] || (s == size[best] && first[r] < first[best]) {
				best = r
			}
		}
		var want []int
		for i := 0; i < n; i++ {
			if find(i) == best {
				want = append(want, i)
			}
		}
		sub, err := g.LargestComponent()
		require.NoError(t, err)
		require.Equal(t, want, sub.Original)
		_, count := sub.Components()
		assert.Equal(t, 1, count)
		for a, p := range sub.Original {
			for b, q := range sub.Original {
				assert.Equal(t, g.Weight(p, q), sub.Weight(a, b))
			}
		}
	}
}

// unionFind joins the end points of every edge and returns the find function
// of the result: an independent reference for connected components.
func unionFind(n int, edges []Edge) func(int) int {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for _, e := range edges {
		parent[find(e.U)] = find(e.V)
	}
	return find
}
