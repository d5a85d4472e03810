package laplacian

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/linop"
)

// tol bounds rounding in products and in dense eigen-decompositions of
// matrices with entries of order one and n ≤ 300.
const tol = 1e-10

// randomConnected returns a random weighted graph on n nodes with no isolated
// node: a random spanning path plus random chords and a few self loops.
func randomConnected(rng *rand.Rand, n int) *graph.CSR {
	perm := rng.Perm(n)
	var e []graph.Edge
	for i := 1; i < n; i++ {
		e = append(e, graph.Edge{U: perm[i-1], V: perm[i], W: 0.1 + rng.Float64()})
	}
	for k := 0; k < 2*n; k++ {
		e = append(e, graph.Edge{U: rng.IntN(n), V: rng.IntN(n), W: rng.Float64()})
	}
	g, err := graph.FromEdges(n, e, graph.Options{Duplicates: graph.DuplicateSum})
	if err != nil {
		panic(err)
	}
	return g
}

// reference builds the four matrices from dense W with gonum only.
func reference(w *mat.Dense) map[Kind]*mat.Dense {
	n, _ := w.Dims()
	d := make([]float64, n)
	for i := range d {
		d[i] = mat.Sum(w.RowView(i))
	}
	out := map[Kind]*mat.Dense{}
	un := mat.NewDense(n, n, nil)
	un.Scale(-1, w)
	for i := range d {
		un.Set(i, i, un.At(i, i)+d[i])
	}
	out[Unnormalized] = un
	isq := mat.NewDiagDense(n, nil)
	inv := mat.NewDiagDense(n, nil)
	for i := range d {
		isq.SetDiag(i, 1/math.Sqrt(d[i]))
		inv.SetDiag(i, 1/d[i])
	}
	s := mat.NewDense(n, n, nil)
	s.Product(isq, w, isq)
	out[NormalizedAdjacency] = s
	sym := mat.NewDense(n, n, nil)
	sym.Sub(eye(n), s)
	out[Symmetric] = sym
	p := mat.NewDense(n, n, nil)
	p.Mul(inv, w)
	rw := mat.NewDense(n, n, nil)
	rw.Sub(eye(n), p)
	out[RandomWalk] = rw
	return out
}

func eye(n int) *mat.Dense {
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		m.Set(i, i, 1)
	}
	return m
}

func TestOperatorsAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{2, 17, 300} {
		g := randomConnected(rng, n)
		ref := reference(g.Dense())
		for _, kind := range []Kind{Unnormalized, Symmetric, RandomWalk, NormalizedAdjacency} {
			op, err := New(g, kind, Options{})
			require.NoError(t, err)
			require.True(t, mat.EqualApprox(op.Dense(), ref[kind], tol), "%v n=%d entries", kind, n)
			require.True(t, mat.EqualApprox(linop.ToDense(op), ref[kind], tol), "%v n=%d products", kind, n)
			assert.Equal(t, kind != RandomWalk, op.IsSymmetric())
			// Block products agree with column products.
			x := mat.NewDense(n, 3, nil)
			x.Apply(func(int, int, float64) float64 { return rng.NormFloat64() }, x)
			got := mat.NewDense(n, 3, nil)
			op.MulBlockTo(got, x)
			var want mat.Dense
			want.Mul(ref[kind], x)
			assert.True(t, mat.EqualApprox(got, &want, tol))
		}
		// Row sums: L_un and L_rw annihilate constants.
		ones := make([]float64, n)
		for i := range ones {
			ones[i] = 1
		}
		for _, kind := range []Kind{Unnormalized, RandomWalk} {
			op, _ := New(g, kind, Options{})
			y := make([]float64, n)
			op.MulVecTo(y, ones)
			for i := range y {
				assert.InDelta(t, 0, y[i], tol)
			}
		}
		// L_sym is symmetric with spectrum in [0, 2], smallest eigenvalue 0.
		sym := ref[Symmetric]
		assert.True(t, mat.EqualApprox(sym, sym.T(), tol))
		var es mat.EigenSym
		require.True(t, es.Factorize(mat.NewSymDense(n, sym.RawMatrix().Data), true))
		vals := es.Values(nil)
		assert.InDelta(t, 0, vals[0], tol)
		for _, v := range vals {
			assert.GreaterOrEqual(t, v, -tol)
			assert.LessOrEqual(t, v, 2+tol)
		}
		// L_rw eigenpairs from L_sym's through D^{-1/2}: L_rw f = λ f, FᵀDF = I.
		op, _ := New(g, RandomWalk, Options{})
		dg := op.Degrees()
		var vecs mat.Dense
		es.VectorsTo(&vecs)
		f := make([][]float64, n)
		for j := 0; j < n; j++ {
			u := mat.Col(nil, j, &vecs)
			f[j] = make([]float64, n)
			dg.ToRandomWalk(f[j], u)
			lf := make([]float64, n)
			op.MulVecTo(lf, f[j])
			for i := range lf {
				assert.InDelta(t, vals[j]*f[j][i], lf[i], 1e-9)
			}
			back := make([]float64, n)
			dg.FromRandomWalk(back, f[j])
			assert.InDeltaSlice(t, u, back, tol)
		}
		for a := 0; a < n; a += 1 + n/10 {
			for b := 0; b < n; b += 1 + n/10 {
				want := 0.0
				if a == b {
					want = 1
				}
				assert.InDelta(t, want, dg.DInner(f[a], f[b]), 1e-9)
			}
		}
	}
}

func TestIsolatedNode(t *testing.T) {
	g, err := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 3, W: 2}}, graph.Options{})
	require.NoError(t, err)
	for _, kind := range []Kind{Symmetric, RandomWalk, NormalizedAdjacency} {
		_, err := New(g, kind, Options{Isolated: IsolatedError})
		var iso *IsolatedNodeError
		require.True(t, errors.As(err, &iso), "%v: %v", kind, err)
		assert.Equal(t, []int{2}, iso.Nodes)
		assert.Contains(t, err.Error(), "node 2 has degree 0")
	}
	// L_un needs no inverse.
	_, err = New(g, Unnormalized, Options{})
	require.NoError(t, err)

	// IsolatedZero: S has a zero row and column at node 2, L_sym a unit row.
	s, err := New(g, NormalizedAdjacency, Options{Isolated: IsolatedZero})
	require.NoError(t, err)
	sd := s.Dense()
	for j := 0; j < 4; j++ {
		assert.Equal(t, 0.0, sd.At(2, j))
		assert.Equal(t, 0.0, sd.At(j, 2))
	}
	l, err := New(g, Symmetric, Options{Isolated: IsolatedZero})
	require.NoError(t, err)
	x := []float64{1, 2, 3, 4}
	y := make([]float64, 4)
	l.MulVecTo(y, x)
	assert.Equal(t, 3.0, y[2])
	for _, v := range y {
		assert.False(t, math.IsNaN(v))
	}
}

// TestIsolatedComponentMatchesScipy compares the default policy with
// scipy.sparse.csgraph.laplacian(A, normed=True) (networkx's
// normalized_laplacian_matrix prints the same) for
//
//	A = [[0,1,0,0],[1,0,2,0],[0,2,0,0],[0,0,0,0]]
//
// whose node 3 is isolated: a zero row, and the eigenvalues 0, 0, 1, 2
// (one 0 per component, node 3 being one).
func TestIsolatedComponentMatchesScipy(t *testing.T) {
	g, err := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 2}}, graph.Options{})
	require.NoError(t, err)
	// scipy's output, to the digits it prints.
	const scipyTol = 1e-8
	scipy := mat.NewDense(4, 4, []float64{
		1, -0.57735027, 0, 0,
		-0.57735027, 1, -0.81649658, 0,
		0, -0.81649658, 1, 0,
		0, 0, 0, 0,
	})
	l, err := New(g, Symmetric, Options{})
	require.NoError(t, err)
	assert.True(t, mat.EqualApprox(scipy, l.Dense(), scipyTol), "L_sym:\n%v", mat.Formatted(l.Dense()))
	// The operator and its dense form agree, row 3 included.
	y := make([]float64, 4)
	l.MulVecTo(y, []float64{1, 2, 3, 4})
	assert.Equal(t, 0.0, y[3])
	var es mat.EigenSym
	require.True(t, es.Factorize(denseSym(l.Dense()), false))
	// Dense eigenvalues of a 4×4 matrix: rounding only.
	const eigTol = 1e-12
	for i, want := range []float64{0, 0, 1, 2} {
		assert.InDelta(t, want, es.Values(nil)[i], eigTol)
	}
	// L_rw: a zero row too; S is unchanged by the policy.
	rw, err := New(g, RandomWalk, Options{})
	require.NoError(t, err)
	for j := 0; j < 4; j++ {
		assert.Equal(t, 0.0, rw.Dense().At(3, j))
	}
	s0, err := New(g, NormalizedAdjacency, Options{})
	require.NoError(t, err)
	sz, err := New(g, NormalizedAdjacency, Options{Isolated: IsolatedZero})
	require.NoError(t, err)
	assert.True(t, mat.Equal(s0.Dense(), sz.Dense()))
	_, err = New(g, Symmetric, Options{Isolated: 9})
	assert.ErrorContains(t, err, "Isolated = 9 is invalid")
}

// denseSym copies a symmetric dense matrix into a SymDense.
func denseSym(a *mat.Dense) *mat.SymDense {
	n, _ := a.Dims()
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, a.At(i, j))
		}
	}
	return s
}

func TestParseIsolated(t *testing.T) {
	for _, p := range []IsolatedPolicy{IsolatedComponent, IsolatedError, IsolatedZero} {
		got, err := ParseIsolated(p.String())
		require.NoError(t, err)
		assert.Equal(t, p, got)
	}
	_, err := ParseIsolated("drop")
	assert.ErrorContains(t, err, `unknown isolated-node policy "drop"`)
}

func TestParseKind(t *testing.T) {
	for s, k := range map[string]Kind{"un": Unnormalized, "sym": Symmetric, "rw": RandomWalk, "adj": NormalizedAdjacency} {
		got, err := ParseKind(s)
		require.NoError(t, err)
		assert.Equal(t, k, got)
		back, err := ParseKind(k.String())
		require.NoError(t, err)
		assert.Equal(t, k, back)
	}
	_, err := ParseKind("lap")
	assert.ErrorContains(t, err, `unknown kind "lap"`)
}

func TestDimensionMismatchPanics(t *testing.T) {
	g, _ := graph.FromEdges(2, []graph.Edge{{U: 0, V: 1, W: 1}}, graph.Options{})
	op, _ := New(g, Symmetric, Options{})
	assert.PanicsWithValue(t, "laplacian: dimension mismatch: operator is 2×2, dst has length 2, x has length 3", func() {
		op.MulVecTo(make([]float64, 2), make([]float64, 3))
	})
}

// TestBlockPrescaleBitwise: the operator's block product is bitwise the
// graph's scaled product with the kind's scaling (which, on a 0/1 graph,
// gathers from rows scaled by d^{-1/2} beforehand: graph's
// TestPrescaledBlockBitwise), for every kind, on 0/1 and weighted graphs
// with an isolated node, for blocks of 1 to 17 columns.
func TestBlockPrescaleBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 3000
	var unit, weighted []graph.Edge
	for k := 0; k < 8*n; k++ {
		u, v := rng.IntN(n-1), rng.IntN(n-1) // node n−1 stays isolated
		if u != v {
			unit = append(unit, graph.Edge{U: u, V: v, W: 1})
			weighted = append(weighted, graph.Edge{U: u, V: v, W: 0.1 + rng.Float64()})
		}
	}
	for name, e := range map[string][]graph.Edge{"unit": unit, "weighted": weighted} {
		g, err := graph.FromEdges(n, e, graph.Options{Duplicates: graph.DuplicateMax})
		if err != nil {
			t.Fatal(err)
		}
		if g.UnitWeights() != (name == "unit") {
			t.Fatalf("%s graph: UnitWeights() = %v", name, g.UnitWeights())
		}
		for _, kind := range []Kind{Unnormalized, Symmetric, RandomWalk, NormalizedAdjacency} {
			op, err := New(g, kind, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []int{1, 3, 5, 8, 10, 16, 17} {
				x := mat.NewDense(n, c, nil)
				for i := range n {
					for j := range c {
						x.Set(i, j, rng.NormFloat64())
					}
				}
				got, want := mat.NewDense(n, c, nil), mat.NewDense(n, c, nil)
				op.MulBlockTo(got, x)
				g.ScaledMulBlockTo(want, x, op.scaling)
				for i := range n {
					for j := range c {
						if a, b := got.At(i, j), want.At(i, j); math.Float64bits(a) != math.Float64bits(b) {
							t.Fatalf("%s graph, %v, c = %d: entry (%d, %d) = %v, the direct product gives %v", name, kind, c, i, j, a, b)
						}
					}
				}
			}
		}
	}
}
