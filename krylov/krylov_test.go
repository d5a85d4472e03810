package krylov

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/linop"
)

// solveTol is the residual asked of the solvers in the agreement tests and
// agreeTol the relative error against a dense factorisation: with condition
// numbers below ~1e3 a residual of 1e-12 bounds the error well under 1e-8.
const (
	solveTol = 1e-12
	agreeTol = 1e-8
)

// randomSPD returns QΛQᵀ with eigenvalues spread over [1, cond].
func randomSPD(rng *rand.Rand, n int, cond float64) *mat.SymDense {
	q := randomOrthogonal(rng, n)
	lam := mat.NewDiagDense(n, nil)
	for i := 0; i < n; i++ {
		lam.SetDiag(i, 1+(cond-1)*rng.Float64())
	}
	var m mat.Dense
	m.Product(q, lam, q.T())
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, (m.At(i, j)+m.At(j, i))/2)
		}
	}
	return s
}

func randomOrthogonal(rng *rand.Rand, n int) *mat.Dense {
	g := mat.NewDense(n, n, nil)
	g.Apply(func(int, int, float64) float64 { return rng.NormFloat64() }, g)
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	return &q
}

func randomVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

func relErr(got, want []float64) float64 {
	d := make([]float64, len(got))
	floats.SubTo(d, got, want)
	return floats.Norm(d, 2) / floats.Norm(want, 2)
}

func op(t *testing.T, m mat.Matrix) linop.Dense {
	o, err := linop.NewDense(m)
	require.NoError(t, err)
	return o
}

func TestCGAgainstCholesky(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 10, 120} {
		a := randomSPD(rng, n, 500)
		b := randomVec(rng, n)
		var ch mat.Cholesky
		require.True(t, ch.Factorize(a))
		var want mat.VecDense
		require.NoError(t, ch.SolveVecTo(&want, mat.NewVecDense(n, b)))

		x := make([]float64, n)
		res, err := CG(context.Background(), op(t, a), b, x, Settings{Tol: solveTol})
		require.NoError(t, err)
		assert.LessOrEqual(t, res.Residual, solveTol)
		assert.Less(t, relErr(x, want.RawVector().Data), agreeTol, "CG n=%d", n)

		// Jacobi-preconditioned, on a badly scaled version D A D.
		d := make([]float64, n)
		for i := range d {
			d[i] = math.Pow(10, rng.Float64())
		}
		scaled := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				scaled.SetSym(i, j, d[i]*a.At(i, j)*d[j])
			}
		}
		require.True(t, ch.Factorize(scaled))
		require.NoError(t, ch.SolveVecTo(&want, mat.NewVecDense(n, b)))
		diag := make([]float64, n)
		for i := range diag {
			diag[i] = scaled.At(i, i)
		}
		jac, err := Jacobi(diag)
		require.NoError(t, err)
		x = make([]float64, n)
		pres, err := CG(context.Background(), op(t, scaled), b, x, Settings{Tol: 1e-13, Preconditioner: jac, MaxIter: 20 * n})
		require.NoError(t, err)
		assert.Less(t, relErr(x, want.RawVector().Data), agreeTol, "PCG n=%d", n)
		if n > 10 {
			x = make([]float64, n)
			plain, _ := CG(context.Background(), op(t, scaled), b, x, Settings{Tol: 1e-13, MaxIter: 20 * n})
			assert.Less(t, pres.Iterations, plain.Iterations, "Jacobi should help on a badly scaled matrix")
		}
	}
}

func TestBlockCGAgainstCholesky(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	n, c := 80, 5
	a := randomSPD(rng, n, 100)
	b := mat.NewDense(n, c, nil)
	for i := 0; i < n; i++ {
		if k := rng.IntN(c + 2); k < c-1 { // column c−1 stays zero: an unlabelled class
			b.Set(i, k, 1)
		}
	}
	var ch mat.Cholesky
	require.True(t, ch.Factorize(a))
	var want mat.Dense
	require.NoError(t, ch.SolveTo(&want, b))
	x := mat.NewDense(n, c, nil)
	res, err := BlockCG(context.Background(), op(t, a), b, x, Settings{Tol: solveTol})
	require.NoError(t, err)
	assert.LessOrEqual(t, res.MaxResidual(), solveTol)
	for j := 0; j < c-1; j++ {
		assert.Less(t, relErr(mat.Col(nil, j, x), mat.Col(nil, j, &want)), agreeTol)
		// Same as the single-vector CG.
		xj := make([]float64, n)
		_, err := CG(context.Background(), op(t, a), mat.Col(nil, j, b), xj, Settings{Tol: solveTol})
		require.NoError(t, err)
		assert.Less(t, relErr(mat.Col(nil, j, x), xj), agreeTol)
	}
	assert.Equal(t, make([]float64, n), mat.Col(nil, c-1, x))
	assert.Equal(t, 0, res.Iterations[c-1])
	// With a Jacobi preconditioner too.
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = a.At(i, i)
	}
	jac, _ := Jacobi(diag)
	x.Zero()
	_, err = BlockCG(context.Background(), op(t, a), b, x, Settings{Tol: solveTol, Preconditioner: jac})
	require.NoError(t, err)
	assert.Less(t, relErr(mat.Col(nil, 0, x), mat.Col(nil, 0, &want)), agreeTol)
}

// randomNonSymmetric is a well-conditioned non-symmetric matrix: I·shift + G/√n.
func randomNonSymmetric(rng *rand.Rand, n int) *mat.Dense {
	g := mat.NewDense(n, n, nil)
	g.Apply(func(i, j int, _ float64) float64 {
		v := rng.NormFloat64() / math.Sqrt(float64(n))
		if i == j {
			v += 3
		}
		return v
	}, g)
	return g
}

func TestGMRESAndBiCGSTABAgainstLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{1, 12, 150} {
		a := randomNonSymmetric(rng, n)
		b := randomVec(rng, n)
		var lu mat.LU
		lu.Factorize(a)
		var want mat.VecDense
		require.NoError(t, lu.SolveVecTo(&want, false, mat.NewVecDense(n, b)))
		for name, solver := range map[string]func(context.Context, linop.Operator, []float64, []float64, Settings) (Result, error){
			"GMRES": GMRES, "BiCGSTAB": BiCGSTAB,
		} {
			for _, restart := range []int{0, 5} {
				x := make([]float64, n)
				res, err := solver(context.Background(), op(t, a), b, x, Settings{Tol: solveTol, Restart: restart})
				require.NoError(t, err, name)
				assert.LessOrEqual(t, res.Residual, solveTol, name)
				assert.Less(t, relErr(x, want.RawVector().Data), agreeTol, "%s n=%d restart=%d", name, n, restart)
			}
		}
		// Preconditioned (Jacobi) GMRES and BiCGSTAB.
		diag := make([]float64, n)
		for i := range diag {
			diag[i] = math.Abs(a.At(i, i))
		}
		jac, err := Jacobi(diag)
		require.NoError(t, err)
		for _, solver := range []func(context.Context, linop.Operator, []float64, []float64, Settings) (Result, error){GMRES, BiCGSTAB} {
			x := make([]float64, n)
			_, err := solver(context.Background(), op(t, a), b, x, Settings{Tol: solveTol, Preconditioner: jac})
			require.NoError(t, err)
			assert.Less(t, relErr(x, want.RawVector().Data), agreeTol)
		}
	}
}

func TestMINRESOnIndefinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	n := 100
	q := randomOrthogonal(rng, n)
	lam := mat.NewDiagDense(n, nil)
	for i := 0; i < n; i++ {
		v := 0.5 + 10*rng.Float64()
		if i%3 == 0 {
			v = -v
		}
		lam.SetDiag(i, v)
	}
	var a mat.Dense
	a.Product(q, lam, q.T())
	sym := mat.NewDense(n, n, nil)
	sym.Add(&a, a.T())
	sym.Scale(0.5, sym)
	b := randomVec(rng, n)
	var lu mat.LU
	lu.Factorize(sym)
	var want mat.VecDense
	require.NoError(t, lu.SolveVecTo(&want, false, mat.NewVecDense(n, b)))
	x := make([]float64, n)
	res, err := MINRES(context.Background(), op(t, sym), b, x, Settings{Tol: solveTol})
	require.NoError(t, err)
	assert.LessOrEqual(t, res.Residual, solveTol)
	assert.Less(t, relErr(x, want.RawVector().Data), agreeTol)

	// CG must refuse (break down on) the same indefinite operator.
	x = make([]float64, n)
	_, err = CG(context.Background(), op(t, sym), b, x, Settings{Tol: solveTol})
	var bd *BreakdownError
	require.True(t, errors.As(err, &bd), "%v", err)
	assert.Contains(t, err.Error(), "not positive definite")

	// MINRES with an SPD preconditioner on an SPD system.
	spd := randomSPD(rng, n, 50)
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = spd.At(i, i)
	}
	jac, _ := Jacobi(diag)
	var ch mat.Cholesky
	require.True(t, ch.Factorize(spd))
	require.NoError(t, ch.SolveVecTo(&want, mat.NewVecDense(n, b)))
	x = make([]float64, n)
	_, err = MINRES(context.Background(), op(t, spd), b, x, Settings{Tol: solveTol, Preconditioner: jac})
	require.NoError(t, err)
	assert.Less(t, relErr(x, want.RawVector().Data), agreeTol)
}

func TestRichardson(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	n := 40
	a := randomSPD(rng, n, 5) // eigenvalues in [1, 5]: ω = 2/6 converges fast
	b := randomVec(rng, n)
	var ch mat.Cholesky
	require.True(t, ch.Factorize(a))
	var want mat.VecDense
	require.NoError(t, ch.SolveVecTo(&want, mat.NewVecDense(n, b)))
	x := make([]float64, n)
	res, err := Richardson(context.Background(), op(t, a), b, x, 1.0/3, Settings{Tol: solveTol})
	require.NoError(t, err)
	assert.Less(t, relErr(x, want.RawVector().Data), agreeTol)
	assert.Greater(t, res.Iterations, 10)

	// ω beyond 2/λ_max diverges, and says so.
	x = make([]float64, n)
	_, err = Richardson(context.Background(), op(t, a), b, x, 1, Settings{Tol: solveTol, MaxIter: 10000})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "diverged")
	_, err = Richardson(context.Background(), op(t, a), b, x, -1, Settings{})
	assert.ErrorContains(t, err, "step ω = -1")
}

func TestNotConvergedCarriesBestIterate(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	n := 200
	a := randomSPD(rng, n, 1e4)
	b := randomVec(rng, n)
	solvers := map[string]func(x []float64) (Result, error){
		"CG":       func(x []float64) (Result, error) { return CG(nil, op(t, a), b, x, Settings{MaxIter: 5}) },
		"MINRES":   func(x []float64) (Result, error) { return MINRES(nil, op(t, a), b, x, Settings{MaxIter: 5}) },
		"GMRES":    func(x []float64) (Result, error) { return GMRES(nil, op(t, a), b, x, Settings{MaxIter: 5}) },
		"BiCGSTAB": func(x []float64) (Result, error) { return BiCGSTAB(nil, op(t, a), b, x, Settings{MaxIter: 5}) },
		"Richardson": func(x []float64) (Result, error) {
			return Richardson(nil, op(t, a), b, x, 1e-4, Settings{MaxIter: 5})
		},
	}
	for name, solve := range solvers {
		x := make([]float64, n)
		res, err := solve(x)
		var nc *NotConvergedError
		require.True(t, errors.As(err, &nc), "%s: %v", name, err)
		assert.Equal(t, 5, nc.Iterations, name)
		assert.Contains(t, err.Error(), "did not converge", name)
		// x is an improvement on 0, and the reported residual is its true one.
		r := make([]float64, n)
		mat.NewVecDense(n, r).MulVec(a, mat.NewVecDense(n, x))
		floats.SubTo(r, b, r)
		rel := floats.Norm(r, 2) / floats.Norm(b, 2)
		assert.InDelta(t, rel, res.Residual, 1e-12, name)
		assert.Less(t, rel, 1.0, name)
		assert.InDelta(t, nc.Residual, rel, 1e-12, name)
	}
	// BlockCG
	x := mat.NewDense(n, 2, nil)
	bb := mat.NewDense(n, 2, nil)
	bb.SetCol(0, b)
	bb.SetCol(1, randomVec(rng, n))
	_, err := BlockCG(nil, op(t, a), bb, x, Settings{MaxIter: 5})
	var nc *NotConvergedError
	require.True(t, errors.As(err, &nc), "%v", err)
	assert.Greater(t, mat.Norm(x, 2), 0.0)
}

func TestContextCancelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	n := 100
	a := randomSPD(rng, n, 1e3)
	b := randomVec(rng, n)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := make([]float64, n)
	_, err := CG(ctx, op(t, a), b, x, Settings{})
	require.ErrorIs(t, err, context.Canceled)
	_, err = GMRES(ctx, op(t, a), b, x, Settings{})
	require.ErrorIs(t, err, context.Canceled)
	_, err = MINRES(ctx, op(t, a), b, x, Settings{})
	require.ErrorIs(t, err, context.Canceled)
	_, err = BiCGSTAB(ctx, op(t, a), b, x, Settings{})
	require.ErrorIs(t, err, context.Canceled)
	_, err = BlockCG(ctx, op(t, a), mat.NewDense(n, 1, b), mat.NewDense(n, 1, nil), Settings{})
	require.ErrorIs(t, err, context.Canceled)
	// The progress callback sees every iteration.
	var seen []int
	x = make([]float64, n)
	_, err = CG(context.Background(), op(t, a), b, x, Settings{Progress: func(it int, _ float64) { seen = append(seen, it) }})
	require.NoError(t, err)
	for i, it := range seen {
		assert.Equal(t, i+1, it)
	}
}

func TestBadArguments(t *testing.T) {
	a := op(t, mat.NewDiagDense(3, []float64{1, 2, 3}))
	_, err := CG(nil, a, make([]float64, 2), make([]float64, 3), Settings{})
	require.ErrorIs(t, err, ErrDimension)
	assert.Contains(t, err.Error(), "b has length 2")
	_, err = GMRES(nil, a, make([]float64, 3), make([]float64, 4), Settings{})
	require.ErrorIs(t, err, ErrDimension)
	_, err = BlockCG(nil, a, mat.NewDense(3, 2, nil), mat.NewDense(3, 1, nil), Settings{})
	require.ErrorIs(t, err, ErrDimension)
	_, err = CG(nil, a, []float64{1, math.NaN(), 0}, make([]float64, 3), Settings{})
	assert.ErrorContains(t, err, "b[1] = NaN")
	_, err = CG(nil, a, []float64{1, 1, 1}, make([]float64, 3), Settings{Tol: 2})
	assert.ErrorContains(t, err, "tolerance 2 out of range")
	_, err = CG(nil, a, []float64{1, 1, 1}, make([]float64, 3), Settings{Preconditioner: linop.Diagonal{1}})
	require.ErrorIs(t, err, ErrDimension)
	_, err = Jacobi([]float64{1, 0, 2})
	assert.ErrorContains(t, err, "diagonal entry 1 is 0")
	nonsym := op(t, mat.NewDense(2, 2, []float64{1, 2, 0, 1}))
	_, err = CG(nil, nonsym, []float64{1, 1}, make([]float64, 2), Settings{})
	assert.ErrorContains(t, err, "needs a symmetric operator")
	// b = 0 gives x = 0 at once.
	x := []float64{5, 5, 5}
	res, err := CG(nil, a, make([]float64, 3), x, Settings{})
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0, 0}, x)
	assert.Equal(t, 0, res.Iterations)
}

// On non-convergence CG and BlockCG return their last iterate, whose A-norm
// error is below that of the start even when its residual is not.
func TestCGReturnsLastIterateOnFailure(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	n := 150
	a := randomSPD(rng, n, 1e5)
	b := randomVec(rng, n)
	var ch mat.Cholesky
	require.True(t, ch.Factorize(a))
	var exact mat.VecDense
	require.NoError(t, ch.SolveVecTo(&exact, mat.NewVecDense(n, b)))
	aNormErr := func(x []float64) float64 {
		e := mat.NewVecDense(n, nil)
		e.SubVec(mat.NewVecDense(n, x), &exact)
		var ae mat.VecDense
		ae.MulVec(a, e)
		return math.Sqrt(mat.Dot(e, &ae))
	}
	for _, iters := range []int{1, 3, 10} {
		x := make([]float64, n)
		_, err := CG(nil, op(t, a), b, x, Settings{MaxIter: iters})
		require.Error(t, err)
		assert.Less(t, aNormErr(x), aNormErr(make([]float64, n)))
		xb := mat.NewDense(n, 1, nil)
		_, err = BlockCG(nil, op(t, a), mat.NewDense(n, 1, b), xb, Settings{MaxIter: iters})
		require.Error(t, err)
		assert.InDeltaSlice(t, x, mat.Col(nil, 0, xb), 1e-10, "BlockCG and CG differ after %d iterations", iters)
	}
}
