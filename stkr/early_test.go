package stkr

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// earlyTol is the agreement required between a fit stopped after k
// iterations and the same recurrence run densely: the two take the same
// steps with sums in another order, so only rounding (amplified a little
// over at most a few dozen steps) separates them.
const earlyTol = 1e-10

// earlyMinChange is how far a k-step iterate must be from the converged
// solution for the test to show that the fit really stopped early: the
// recurrences here converge over hundreds of steps, so after a handful the
// iterate is still tens of per cent away.
const earlyMinChange = 1e-3

// TestIterationsStopAlgorithm2: with Iterations = k the inverse Laplacian
// runs exactly k steps of Algorithm 2 from zero, and θ equals the
// recurrence
//
//	α ← α − γ(N(Sθ)_n + nβα − y),  θ ← ηSθ + [α; 0],  γ = 1/(N/(1−η) + nβ),
//
// computed with a dense S.
func TestIterationsStopAlgorithm2(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	s := denseS(g)
	N, n := g.Nodes(), len(train)
	_, c := y.Dims()
	const eta, beta = 0.9, 10.0
	conv := &Regressor{Transform: InverseLaplacian{Eta: eta}, Beta: beta, Tol: testTol}
	fitOrFail(t, conv, k, train, y)
	for _, steps := range []int{1, 3, 17} {
		t.Run(fmt.Sprint(steps), func(t *testing.T) {
			gamma := 1 / (float64(N)/(1-eta) + float64(n)*beta)
			alpha := mat.NewDense(n, c, nil)
			theta := mat.NewDense(N, c, nil)
			var st mat.Dense
			for it := 0; it < steps; it++ {
				st.Mul(s, theta)
				for p, i := range train {
					for j := 0; j < c; j++ {
						r := float64(N)*st.At(i, j) + float64(n)*beta*alpha.At(p, j) - y.At(p, j)
						alpha.Set(p, j, alpha.At(p, j)-gamma*r)
					}
				}
				theta.Scale(eta, &st)
				for p, i := range train {
					for j := 0; j < c; j++ {
						theta.Set(i, j, theta.At(i, j)+alpha.At(p, j))
					}
				}
			}
			r := &Regressor{Transform: InverseLaplacian{Eta: eta}, Beta: beta, Iterations: steps}
			fitOrFail(t, r, k, train, y)
			assert.Equal(t, "Richardson, Algorithm 2 (coupled α/θ iteration)", r.Stats().Solver)
			for _, it := range r.Stats().Iterations {
				assert.Equal(t, steps, it)
			}
			assert.Less(t, relDiff(mustVectors(t, r), theta), earlyTol, "θ after %d steps", steps)
			assert.Greater(t, relDiff(mustVectors(t, r), mustVectors(t, conv)), earlyMinChange, "the fit did not stop early")
		})
	}
}

// TestIterationsStopAlgorithm1: with Iterations = k the polynomial s = λ²
// runs exactly k steps of Algorithm 1, α ← α − γ((G_s[n,n] + nβI)α − y) with
// γ = 2/(N + 2nβ) (max|s| = 1 on the spectrum of S), and its predictions
// equal G_s[:, train]α_k with G_s = N·S·S formed densely.
func TestIterationsStopAlgorithm1(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	s := denseS(g)
	N, n := g.Nodes(), len(train)
	_, c := y.Dims()
	const beta = 0.1
	var gs mat.Dense
	gs.Mul(s, s)
	gs.Scale(float64(N), &gs)
	a := mat.NewDense(n, n, nil)
	cols := mat.NewDense(N, n, nil)
	for p, i := range train {
		for q, j := range train {
			a.Set(p, q, gs.At(i, j))
		}
		a.Set(p, p, a.At(p, p)+float64(n)*beta)
		for r := 0; r < N; r++ {
			cols.Set(r, p, gs.At(r, i))
		}
	}
	gamma := 2 / (float64(N) + 2*float64(n)*beta)
	conv := &Regressor{Transform: Power(2), Beta: beta, Tol: testTol}
	fitOrFail(t, conv, k, train, y)
	for _, steps := range []int{1, 4, 25} {
		t.Run(fmt.Sprint(steps), func(t *testing.T) {
			alpha := mat.NewDense(n, c, nil)
			var res mat.Dense
			for it := 0; it < steps; it++ {
				res.Mul(a, alpha)
				res.Sub(&res, y)
				res.Scale(gamma, &res)
				alpha.Sub(alpha, &res)
			}
			var f mat.Dense
			f.Mul(cols, alpha)
			r := &Regressor{Transform: Power(2), Beta: beta, Iterations: steps}
			fitOrFail(t, r, k, train, y)
			assert.Equal(t, steps, r.Stats().Iterations[0])
			assert.Less(t, relDiff(mustAlpha(t, r), alpha), earlyTol, "α after %d steps", steps)
			assert.Less(t, relDiff(mustPredict(t, r), &f), earlyTol, "predictions after %d steps", steps)
			assert.Greater(t, relDiff(mustAlpha(t, r), mustAlpha(t, conv)), earlyMinChange, "the fit did not stop early")
		})
	}
}

// TestIterationsStopMINRES: with an explicit Krylov solver, Iterations = k
// stops MINRES after k iterations without an error, and its iterate is the
// minimiser of ‖b − Ax‖ over the Krylov space span{b, Ab, …, A^{k−1}b},
// computed densely by least squares on an orthonormal basis (A = G_s[n,n] +
// nβI for s = λ^8).
func TestIterationsStopMINRES(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	s := denseS(g)
	n := len(train)
	const beta = 0.01
	gs := denseGs(t, s, func(l float64) float64 { l2 := l * l; l4 := l2 * l2; return l4 * l4 })
	a := mat.NewDense(n, n, nil)
	for p, i := range train {
		for q, j := range train {
			a.Set(p, q, gs.At(i, j))
		}
		a.Set(p, p, a.At(p, p)+float64(n)*beta)
	}
	for _, steps := range []int{2, 4} {
		t.Run(fmt.Sprint(steps), func(t *testing.T) {
			r := &Regressor{Transform: Power(8), Beta: beta, Solver: SolverMINRES, Tol: testTol, Iterations: steps}
			fitOrFail(t, r, k, train, y)
			for col, it := range r.Stats().Iterations {
				assert.Equal(t, steps, it, "column %d", col)
				b := mat.Col(nil, col, y)
				// Orthonormal Krylov basis by QR of [b, Ab, …].
				kr := mat.NewDense(n, steps, nil)
				v := mat.NewVecDense(n, b)
				for j := 0; j < steps; j++ {
					kr.SetCol(j, v.RawVector().Data)
					next := mat.NewVecDense(n, nil)
					next.MulVec(a, v)
					v = next
				}
				var qr mat.QR
				qr.Factorize(kr)
				var q mat.Dense
				qr.QTo(&q)
				basis := q.Slice(0, n, 0, steps)
				var aq mat.Dense
				aq.Mul(a, basis)
				var z mat.Dense
				require.NoError(t, z.Solve(&aq, mat.NewVecDense(n, b)))
				var x mat.Dense
				x.Mul(basis, &z)
				got := mustAlpha(t, r).ColView(col)
				assert.Less(t, relDiff(got, &x), minresEarlyTol, "column %d after %d steps", col, steps)
			}
		})
	}
}

// minresEarlyTol is looser than earlyTol: the dense reference goes through
// a monomial Krylov basis [b, Ab, A²b, …], whose conditioning (A's
// eigenvalues spread over several decades) costs a few digits.
const minresEarlyTol = 1e-7

func TestIterationsBadInput(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		r    Regressor
		want string
	}{
		{"negative", Regressor{Transform: Power(8), Beta: 1, Iterations: -1}, "Iterations=-1 is invalid: it must be ≥ 0"},
		{"kernel PCA", Regressor{Transform: TopD{D: 4}, Beta: 1, Iterations: 8}, "Iterations=8 does not apply to kernel PCA"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.r.FitIndexed(context.Background(), k, train, y)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
