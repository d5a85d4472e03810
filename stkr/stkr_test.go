package stkr

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/linop"
)

// closedFormTol is the agreement required between the iterative estimators
// and the dense closed forms, relative to the largest prediction (the
// issue's 1e-8). The solves run at testTol, far below it.
const closedFormTol = 1e-8

// testTol is the solver tolerance in the comparisons: tight enough that the
// solve error (amplified by the condition number, ~1e3 here) stays well
// under closedFormTol.
const testTol = 1e-13

// roundingTol bounds differences that are pure floating-point reordering
// (the same sums taken in another order).
const roundingTol = 1e-12

// randomGraph returns a weighted graph on n nodes: a ring (so it is
// connected) plus extra random edges, and one isolated node at the end when
// isolated is set. Deterministic in seed.
func randomGraph(t testing.TB, n, extra int, isolated bool, seed uint64) *graph.CSR {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	ring := n
	if isolated {
		ring = n - 1
	}
	var edges []graph.Edge
	for i := 0; i < ring; i++ {
		edges = append(edges, graph.Edge{U: i, V: (i + 1) % ring, W: 0.5 + rng.Float64()})
	}
	for k := 0; k < extra; k++ {
		u, v := rng.IntN(ring), rng.IntN(ring)
		if u != v {
			edges = append(edges, graph.Edge{U: u, V: v, W: 0.5 + rng.Float64()})
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateSum})
	require.NoError(t, err)
	return g
}

// denseS builds S = D^{-1/2} W D^{-1/2} entry by entry from the graph's
// weights (zero row for an isolated node): independent of laplacian.
func denseS(g *graph.CSR) *mat.SymDense {
	n := g.Nodes()
	d := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d[i] += g.Weight(i, j)
		}
	}
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if w := g.Weight(i, j); w != 0 {
				s.SetSym(i, j, w/math.Sqrt(d[i]*d[j]))
			}
		}
	}
	return s
}

// denseGs returns G_s = N·V s(Λ) Vᵀ from a dense eigendecomposition of S.
func denseGs(t testing.TB, s *mat.SymDense, f func(float64) float64) *mat.Dense {
	t.Helper()
	n := s.SymmetricDim()
	var es mat.EigenSym
	require.True(t, es.Factorize(s, true))
	var v mat.Dense
	es.VectorsTo(&v)
	lam := es.Values(nil)
	vs := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			vs.Set(i, k, v.At(i, k)*f(lam[k]))
		}
	}
	var g mat.Dense
	g.Mul(vs, v.T())
	g.Scale(float64(n), &g)
	return &g
}

// denseSTKR solves eq. 7 densely: α = (G_s[n,n] + nβI)^{-1} y and
// F = G_s[:, train] α.
func denseSTKR(t testing.TB, gs *mat.Dense, train []int, y *mat.Dense, beta float64) (alpha, f *mat.Dense) {
	t.Helper()
	n := len(train)
	N, _ := gs.Dims()
	a := mat.NewDense(n, n, nil)
	gcols := mat.NewDense(N, n, nil)
	for p, i := range train {
		for q, j := range train {
			a.Set(p, q, gs.At(i, j))
		}
		a.Set(p, p, a.At(p, p)+float64(n)*beta)
		for r := 0; r < N; r++ {
			gcols.Set(r, p, gs.At(r, i))
		}
	}
	alpha = new(mat.Dense)
	require.NoError(t, alpha.Solve(a, y))
	f = new(mat.Dense)
	f.Mul(gcols, alpha)
	return alpha, f
}

// relDiff is max|a − b| / max|b|.
func relDiff(a, b mat.Matrix) float64 {
	r, c := b.Dims()
	var num, den float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			num = math.Max(num, math.Abs(a.At(i, j)-b.At(i, j)))
			den = math.Max(den, math.Abs(b.At(i, j)))
		}
	}
	return num / den
}

// smallProblem is a 60-node graph with one isolated node, 12 labelled
// nodes (including the isolated one) and 3 one-hot classes.
func smallProblem(t testing.TB) (*graph.CSR, []int, *mat.Dense) {
	g := randomGraph(t, 60, 90, true, 1)
	train := []int{0, 3, 7, 12, 18, 22, 30, 35, 41, 47, 53, 59}
	y := mat.NewDense(len(train), 3, nil)
	for p := range train {
		y.Set(p, p%3, 1)
	}
	return g, train, y
}

func fitOrFail(t *testing.T, r *Regressor, k BaseKernel, train []int, y *mat.Dense) {
	t.Helper()
	require.NoError(t, r.FitIndexed(context.Background(), k, train, y))
}

func TestPolynomialMatchesClosedForm(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	s := denseS(g)
	transforms := []Polynomial{Power(8), KRR(), {Coeffs: []float64{0.5, 0, 0.25, 0.125}}, Power(2)}
	for _, tr := range transforms {
		for _, solver := range []Solver{SolverAuto, SolverCG, SolverMINRES, SolverGMRES, SolverRichardson} {
			if solver == SolverCG && !tr.nonNegative() {
				continue // indefinite: CG does not apply
			}
			beta := 0.1
			t.Run(tr.String()+"/"+solver.String(), func(t *testing.T) {
				r := &Regressor{Transform: tr, Beta: beta, Solver: solver, Tol: testTol, MaxIter: 200000}
				if solver == SolverRichardson && !tr.nonNegative() {
					// This system is indefinite (s < 0 on part of the
					// spectrum): no step makes Richardson converge, and
					// it must say so rather than return a wrong α.
					var bd *krylov.BreakdownError
					require.ErrorAs(t, r.FitIndexed(context.Background(), k, train, y), &bd)
					return
				}
				fitOrFail(t, r, k, train, y)
				alphaRef, fRef := denseSTKR(t, denseGs(t, s, tr.Eval), train, y, beta)
				assert.Less(t, relDiff(mustAlpha(t, r), alphaRef), closedFormTol, "α")
				assert.Less(t, relDiff(mustPredict(t, r), fRef), closedFormTol, "predictions")
				st := r.Stats()
				assert.Positive(t, st.MatVecs)
				assert.Len(t, st.Iterations, 3)
			})
		}
	}
}

func TestInverseLaplacianMatchesClosedForm(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	s := denseS(g)
	N := g.Nodes()
	cases := []struct {
		eta, beta float64
		solvers   []Solver
	}{
		{0.9, 0.01, []Solver{SolverAuto, SolverGMRES}},
		{0.5, 1, []Solver{SolverMINRES, SolverGMRES}},
		{0.99, 10, []Solver{SolverMINRES, SolverGMRES, SolverRichardson}},
		{0.5, 100, []Solver{SolverMINRES, SolverRichardson}},
		// η·n·β = N: the symmetric form is undefined, auto falls back to GMRES.
		{0.5, float64(2*N) / float64(len(train)), []Solver{SolverAuto, SolverGMRES}},
	}
	for _, c := range cases {
		tr := InverseLaplacian{Eta: c.eta}
		alphaRef, fRef := denseSTKR(t, denseGs(t, s, tr.Eval), train, y, c.beta)
		// θ = (I − ηS)^{-1}[α; 0]
		a := mat.NewDense(N, N, nil)
		for i := 0; i < N; i++ {
			for j := 0; j < N; j++ {
				a.Set(i, j, -c.eta*s.At(i, j))
			}
			a.Set(i, i, 1+a.At(i, i))
		}
		padded := mat.NewDense(N, 3, nil)
		for p, i := range train {
			padded.SetRow(i, alphaRef.RawRowView(p))
		}
		var thetaRef mat.Dense
		require.NoError(t, thetaRef.Solve(a, padded))
		for _, solver := range c.solvers {
			t.Run(tr.String()+"/"+solver.String(), func(t *testing.T) {
				r := &Regressor{Transform: tr, Beta: c.beta, Solver: solver, Tol: testTol, MaxIter: 500000}
				fitOrFail(t, r, k, train, y)
				if c.eta*float64(len(train))*c.beta == float64(N) {
					assert.Contains(t, r.Stats().Solver, "GMRES")
					explicit := &Regressor{Transform: tr, Beta: c.beta, Solver: SolverMINRES}
					assert.ErrorContains(t, explicit.FitIndexed(context.Background(), k, train, y), "the symmetric form is undefined")
				}
				assert.Less(t, relDiff(mustAlpha(t, r), alphaRef), closedFormTol, "α")
				assert.Less(t, relDiff(mustVectors(t, r), &thetaRef), closedFormTol, "θ")
				assert.Less(t, relDiff(mustPredict(t, r), fRef), closedFormTol, "predictions")
			})
		}
	}
}

func TestTopDMatchesDenseKernelPCA(t *testing.T) {
	g := randomGraph(t, 50, 120, false, 3)
	train := []int{1, 4, 9, 16, 25, 36, 49, 2, 11, 30}
	y := mat.NewDense(len(train), 2, nil)
	for p := range train {
		y.Set(p, p%2, 1)
		y.Set(p, 1-p%2, -0.5)
	}
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	const d, beta = 6, 0.05
	r := &Regressor{Transform: TopD{D: d}, Beta: beta}
	fitOrFail(t, r, k, train, y)

	// Reference: ψ_k(x_i) = √N u_k(i) from the top-d eigenvectors of a dense
	// S, w = (ΨᵀΨ + nβI)^{-1}ΨᵀY by LU, F = Ψ_all w.
	s := denseS(g)
	var es mat.EigenSym
	require.True(t, es.Factorize(s, true))
	var v mat.Dense
	es.VectorsTo(&v)
	N, n := g.Nodes(), len(train)
	all := mat.NewDense(N, d, nil)
	for i := 0; i < N; i++ {
		for c := 0; c < d; c++ {
			all.Set(i, c, math.Sqrt(float64(N))*v.At(i, N-1-c))
		}
	}
	psi := mat.NewDense(n, d, nil)
	for p, i := range train {
		psi.SetRow(p, all.RawRowView(i))
	}
	var a, rhs, w, fRef mat.Dense
	a.Mul(psi.T(), psi)
	for c := 0; c < d; c++ {
		a.Set(c, c, a.At(c, c)+float64(n)*beta)
	}
	rhs.Mul(psi.T(), y)
	require.NoError(t, w.Solve(&a, &rhs))
	fRef.Mul(all, &w) // invariant to the eigenvectors' signs
	assert.Less(t, relDiff(mustPredict(t, r), &fRef), closedFormTol)
	assert.Nil(t, mustAlpha(t, r))
}

// TestInductiveTrainNodeEqualsTransductive: a visible node's own kernel row
// reproduces its transductive prediction, for every transform.
func TestInductiveTrainNodeEqualsTransductive(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	for _, tr := range []Transform{Power(8), KRR(), InverseLaplacian{Eta: 0.9}, TopD{D: 5}} {
		t.Run(tr.String(), func(t *testing.T) {
			r := &Regressor{Transform: tr, Beta: 0.1}
			fitOrFail(t, r, k, train, y)
			f := mustPredict(t, r)
			got := make([]float64, 3)
			for i := 0; i < g.Nodes(); i++ {
				require.NoError(t, r.PredictRow(got, k.NodeRow(i)))
				for c := range got {
					assert.InDelta(t, f.At(i, c), got[c], roundingTol*math.Max(1, math.Abs(f.At(i, c))), "node %d class %d", i, c)
				}
			}
		})
	}
}

// TestInductiveNewNodeMatchesMonteCarloKernel: a node hidden at fit time is
// predicted by f(x) = Σ_i α_i K_s(x_i, x) with the paper's Monte-Carlo
// kernel K^{(p)}(x, x') = (1/N) Σ_j K(x, x_j) K^{(p−1)}(x_j, x'), built
// densely from the raw weights (for the inverse Laplacian as the series
// Σ_p η^{p−1} K^{(p)}, truncated where η^p < 1e-16).
func TestInductiveNewNodeMatchesMonteCarloKernel(t *testing.T) {
	full := randomGraph(t, 41, 70, false, 5)
	hidden := 40
	visible := make([]int, hidden)
	for i := range visible {
		visible[i] = i
	}
	sub, err := full.Induced(visible)
	require.NoError(t, err)
	k, err := NewGraphKernel(sub.CSR)
	require.NoError(t, err)
	train := []int{0, 5, 10, 15, 20, 25, 30, 35}
	y := mat.NewDense(len(train), 2, nil)
	for p := range train {
		y.Set(p, p%2, 1)
	}
	cols, ws := full.Row(hidden)
	var nbrs []int
	var wts []float64
	for t, j := range cols {
		nbrs = append(nbrs, int(j))
		wts = append(wts, ws[t])
	}
	require.NotEmpty(t, nbrs)
	row, err := k.Row(nbrs, wts)
	require.NoError(t, err)

	N := float64(hidden)
	s := denseS(sub.CSR)
	gk := mat.NewDense(hidden, hidden, nil)
	gk.Scale(N, s)
	var dx float64
	for _, w := range wts {
		dx += w
	}
	kx := make([]float64, hidden) // K(x, x_j) = N w / √(d_x d_j)
	for t, j := range nbrs {
		kx[j] = N * wts[t] / math.Sqrt(dx*sub.Degree(j))
	}
	// kp[p-1][i] = K^{(p)}(x, x_i)
	kernelPowers := func(q int) [][]float64 {
		kp := [][]float64{kx}
		for p := 2; p <= q; p++ {
			prev := kp[p-2]
			next := make([]float64, hidden)
			for i := 0; i < hidden; i++ {
				for j := 0; j < hidden; j++ {
					next[i] += prev[j] * gk.At(j, i) / N
				}
			}
			kp = append(kp, next)
		}
		return kp
	}
	check := func(t *testing.T, tr Spectral, weights func(p int) float64, q int) {
		r := &Regressor{Transform: tr, Beta: 0.1, Tol: testTol}
		fitOrFail(t, r, k, train, y)
		alpha := mustAlpha(t, r)
		kp := kernelPowers(q)
		want := make([]float64, 2)
		for c := 0; c < 2; c++ {
			for pi, i := range train {
				var ks float64
				for p := 1; p <= q; p++ {
					ks += weights(p) * kp[p-1][i]
				}
				want[c] += alpha.At(pi, c) * ks
			}
		}
		got := make([]float64, 2)
		require.NoError(t, r.PredictRow(got, row))
		for c := range got {
			assert.InDelta(t, want[c], got[c], closedFormTol*math.Max(1, math.Abs(want[c])))
		}
	}
	t.Run("poly", func(t *testing.T) {
		tr := Polynomial{Coeffs: []float64{0.3, 0, 1, 0, 0, 0.5}}
		check(t, tr, func(p int) float64 {
			if p <= len(tr.Coeffs) {
				return tr.Coeffs[p-1]
			}
			return 0
		}, len(tr.Coeffs))
	})
	t.Run("inverse-laplacian", func(t *testing.T) {
		const eta = 0.5
		check(t, InverseLaplacian{Eta: eta}, func(p int) float64 { return math.Pow(eta, float64(p-1)) }, 60)
	})
}

func TestBadInput(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	ctx := context.Background()
	cases := []struct {
		name  string
		r     Regressor
		train []int
		y     *mat.Dense
		want  string
	}{
		{"eta at 1/λmax", Regressor{Transform: InverseLaplacian{Eta: 1}, Beta: 1}, train, y, "eta=1 is invalid"},
		{"eta above 1/λmax", Regressor{Transform: InverseLaplacian{Eta: 1.5}, Beta: 1}, train, y, "(0, 1/λ_max)"},
		{"eta zero", Regressor{Transform: InverseLaplacian{Eta: 0}, Beta: 1}, train, y, "eta=0 is invalid"},
		{"beta zero", Regressor{Transform: Power(8), Beta: 0}, train, y, "Beta=0 is invalid"},
		{"beta negative", Regressor{Transform: Power(8), Beta: -1}, train, y, "Beta=-1 is invalid"},
		{"beta NaN", Regressor{Transform: Power(8), Beta: math.NaN()}, train, y, "Beta=NaN is invalid"},
		{"polynomial without terms", Regressor{Transform: Polynomial{}, Beta: 1}, train, y, "has no terms"},
		{"polynomial all zero", Regressor{Transform: Polynomial{Coeffs: []float64{0, 0}}, Beta: 1}, train, y, "has no terms"},
		{"polynomial NaN", Regressor{Transform: Polynomial{Coeffs: []float64{math.NaN()}}, Beta: 1}, train, y, "π_1 = NaN"},
		{"power zero", Regressor{Transform: Power(0), Beta: 1}, train, y, "has no terms"},
		{"d larger than N", Regressor{Transform: TopD{D: 61}, Beta: 1}, train, y, "d=61 is larger than the number of visible nodes N=60"},
		{"d zero", Regressor{Transform: TopD{D: 0}, Beta: 1}, train, y, "d=0 is invalid"},
		{"no transform", Regressor{Beta: 1}, train, y, "Transform is nil"},
		{"CG on inverse Laplacian", Regressor{Transform: InverseLaplacian{Eta: 0.5}, Beta: 1, Solver: SolverCG}, train, y, "CG does not apply"},
		{"tolerance", Regressor{Transform: Power(8), Beta: 1, Tol: 2}, train, y, "Tol=2 is invalid"},
		{"train out of range", Regressor{Transform: Power(8), Beta: 1}, []int{0, 60}, mat.NewDense(2, 1, nil), "train node 60 (position 1) is out of range [0, 60)"},
		{"train repeated", Regressor{Transform: Power(8), Beta: 1}, []int{4, 4}, mat.NewDense(2, 1, nil), "train node 4 is listed twice"},
		{"no train", Regressor{Transform: Power(8), Beta: 1}, nil, mat.NewDense(1, 1, nil), "no labelled"},
		{"y rows", Regressor{Transform: Power(8), Beta: 1}, train, mat.NewDense(3, 1, nil), "y has 3 rows but there are 12 train nodes"},
		{"y NaN", Regressor{Transform: Power(8), Beta: 1}, []int{1}, mat.NewDense(1, 1, []float64{math.Inf(1)}), "y[0][0] = +Inf (train node 1) is not finite"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.r.FitIndexed(ctx, k, c.train, c.y)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	t.Run("eta bound of an operator kernel", func(t *testing.T) {
		r := Regressor{Transform: InverseLaplacian{Eta: 0.3}, Beta: 1}
		err := r.FitIndexed(ctx, OperatorKernel{M: k, Bound: 4}, train, y)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "(0, 0.25)")
	})
	t.Run("d beyond positive eigenvalues", func(t *testing.T) {
		r := Regressor{Transform: TopD{D: 60}, Beta: 1}
		err := r.FitIndexed(ctx, k, train, y)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "exceeds the number of positive eigenvalues")
	})
	t.Run("kernel rows", func(t *testing.T) {
		_, err := k.Row([]int{3, 60}, nil)
		assert.ErrorContains(t, err, "neighbour 60 (position 1) is not a visible node in [0, 60)")
		_, err = k.Row([]int{3}, []float64{-1})
		assert.ErrorContains(t, err, "weight -1 of neighbour 3")
		_, err = k.Row([]int{3}, []float64{1, 2})
		assert.ErrorContains(t, err, "1 neighbours but 2 weights")
		r := Regressor{Transform: Power(2), Beta: 1}
		fitOrFail(t, &r, k, train, y)
		dst := make([]float64, 3)
		assert.ErrorContains(t, r.PredictRow(dst, KernelRow{Index: []int{70}, Value: []float64{1}}), "index 70 (position 0)")
		assert.ErrorContains(t, r.PredictRow(dst[:2], KernelRow{}), "dst has length 2")
	})
	t.Run("transform spellings", func(t *testing.T) {
		for s, want := range map[string]string{
			"poly":     "needs the power p",
			"poly:0":   "positive integer",
			"topd:x":   "positive integer",
			"krr:2":    "takes no argument",
			"laplace":  "unknown transform",
			"topd":     "needs the dimension d",
			"lap:0.9":  "takes no argument",
			"poly:-3":  "positive integer",
			"topd:1.5": "positive integer",
		} {
			_, err := ParseTransform(s, 0.9)
			assert.ErrorContains(t, err, want, s)
		}
		_, err := ParseSolver("lsqr")
		assert.ErrorContains(t, err, "unknown solver")
	})
}

// TestIsolatedNodePredictsZero: a node of degree 0 has a zero kernel row, so
// the model has no evidence for it (the protocol then predicts the prior).
func TestIsolatedNodePredictsZero(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	r := &Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 1}
	fitOrFail(t, r, k, train, y)
	f := mustPredict(t, r)
	assert.Equal(t, []float64{0, 0, 0}, f.RawRowView(59))
	row, err := k.Row(nil, nil)
	require.NoError(t, err)
	got := []float64{1, 1, 1}
	require.NoError(t, r.PredictRow(got, row))
	assert.Equal(t, []float64{0, 0, 0}, got)
}

func TestRichardsonReportsFailure(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	r := &Regressor{Transform: InverseLaplacian{Eta: 0.99}, Beta: 10, Solver: SolverRichardson, Tol: 1e-9, MaxIter: 3}
	err = r.FitIndexed(context.Background(), k, train, y)
	var nc *krylov.NotConvergedError
	require.ErrorAs(t, err, &nc)
	assert.Equal(t, 3, nc.Iterations)
	assert.Contains(t, err.Error(), "Richardson (Algorithm 2)")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = &Regressor{Transform: Power(8), Beta: 1}
	err = r.FitIndexed(ctx, k, train, y)
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
}

func TestEigenCacheReusesDecomposition(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	cache := &EigenCache{}
	var first *mat.Dense
	for _, beta := range []float64{0.1, 1, 10} {
		r := &Regressor{Transform: TopD{D: 8}, Beta: beta, Eigen: cache}
		fitOrFail(t, r, k, train, y)
		plain := &Regressor{Transform: TopD{D: 8}, Beta: beta}
		fitOrFail(t, plain, k, train, y)
		assert.Less(t, relDiff(mustPredict(t, r), mustPredict(t, plain)), roundingTol)
		if first == nil {
			first = mustPredict(t, r)
		}
	}
	r := &Regressor{Transform: TopD{D: 4}, Beta: 1, Eigen: cache}
	fitOrFail(t, r, k, train, y)
	assert.Equal(t, 1, cache.Calls, "one decomposition serves every β and smaller d")
	other, err := NewGraphKernel(randomGraph(t, 60, 50, false, 9))
	require.NoError(t, err)
	fitOrFail(t, r, other, train, y)
	assert.Equal(t, 2, cache.Calls, "a different kernel is decomposed again")
}

// TestOperatorKernelMatchesGraphKernel: STKR on a base kernel given only as
// a symmetric operator (here S as a dense matrix, as a KNN graph's
// normalised adjacency would be passed) gives the graph kernel's answer.
func TestOperatorKernelMatchesGraphKernel(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	dense, err := linop.NewDense(denseS(g))
	require.NoError(t, err)
	ok := OperatorKernel{M: dense, Bound: 1}
	for _, tr := range []Transform{Power(8), InverseLaplacian{Eta: 0.9}, TopD{D: 4}} {
		a := &Regressor{Transform: tr, Beta: 0.1, Tol: testTol}
		fitOrFail(t, a, k, train, y)
		b := &Regressor{Transform: tr, Beta: 0.1, Tol: testTol}
		fitOrFail(t, b, ok, train, y)
		assert.Less(t, relDiff(mustPredict(t, b), mustPredict(t, a)), closedFormTol, "%s", tr)
	}
}

func TestEigenCacheRecognisesTheGraph(t *testing.T) {
	g, train, y := smallProblem(t)
	cache := &EigenCache{}
	for seed := 0; seed < 2; seed++ {
		k, err := NewGraphKernel(g) // a new kernel on the same graph
		require.NoError(t, err)
		r := &Regressor{Transform: TopD{D: 8}, Beta: 1, Eigen: cache}
		fitOrFail(t, r, k, train[seed:], y.Slice(seed, len(train), 0, 3).(*mat.Dense))
	}
	assert.Equal(t, 1, cache.Calls)
}
