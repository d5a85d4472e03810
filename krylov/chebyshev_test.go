package krylov

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// Tolerances of the Chebyshev tests.
const (
	// chebTol is the relative residual the solves stop at; the error of the
	// answer is then at most chebTol·‖b‖/(1 − a) per column (‖(I − aS)^{-1}‖
	// = 1/(1 − a)), 1e-9·10 at a = 0.9.
	chebTol = 1e-10
	// cheb32Tol: float32 iterates round each entry to 2^-24 relative, a
	// floor of about 2^-24·(1 + a)/(1 − a) ≈ 1e-6 on the residual at
	// a = 0.9.
	cheb32Tol = 2e-5
)

// denseSpread is (I − aS)X = B with a dense S, for Chebyshev: rows of
// the residual from the stored Z = t∘X.
type denseSpread[T Float] struct {
	s *mat.Dense
	b *mat.Dense
	a float64
	t []float64 // nil: 1
	c int
}

func (d *denseSpread[T]) Residual(r []float64, z []T, lo, hi int) {
	_, n := d.s.Dims()
	for i := lo; i < hi; i++ {
		for j := 0; j < d.c; j++ {
			v := d.b.At(i, j)
			if z != nil {
				x := func(k int) float64 {
					if d.t == nil {
						return float64(z[k*d.c+j])
					}
					return float64(z[k*d.c+j]) / d.t[k]
				}
				v -= x(i)
				for k := 0; k < n; k++ {
					v += d.a * d.s.At(i, k) * x(k)
				}
			}
			r[(i-lo)*d.c+j] = v
		}
	}
}

// randomSpread returns a random symmetric S with spectrum in [−1, 1]
// (D^{-1/2} W D^{-1/2} of a dense positive W) and a right-hand side.
func randomSpread(rng *rand.Rand, n, c int) (*mat.Dense, *mat.Dense) {
	w := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < 0.3 {
				v := rng.Float64()
				w.Set(i, j, v)
				w.Set(j, i, v)
			}
		}
		w.Set(i, (i+1)%n, 1)
		w.Set((i+1)%n, i, 1)
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = 1 / math.Sqrt(mat.Sum(w.RowView(i)))
	}
	s := mat.NewDense(n, n, nil)
	s.Apply(func(i, j int, v float64) float64 { return d[i] * v * d[j] }, w)
	b := mat.NewDense(n, c, nil)
	for i := 0; i < n; i += 3 {
		b.Set(i, rng.IntN(c), 0.1)
	}
	return s, b
}

// denseSolution returns (I − aS)^{-1} B by LU.
func denseSolution(t *testing.T, s, b *mat.Dense, a float64) *mat.Dense {
	n, _ := s.Dims()
	m := mat.NewDense(n, n, nil)
	m.Scale(-a, s)
	for i := 0; i < n; i++ {
		m.Set(i, i, m.At(i, i)+1)
	}
	var x mat.Dense
	require.NoError(t, x.Solve(m, b))
	return &x
}

func TestChebyshevAgainstLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, c = 60, 3
	s, b := randomSpread(rng, n, c)
	bnorm := make([]float64, c)
	for j := range bnorm {
		bnorm[j] = mat.Norm(b.ColView(j), 2)
	}
	scale := make([]float64, n)
	for i := range scale {
		scale[i] = 0.5 + rng.Float64()
	}
	for _, a := range []float64{0.5, 0.9, 0.99} {
		want := denseSolution(t, s, b, a)
		for _, tc := range []struct {
			name      string
			t         []float64
			frobenius bool
		}{{"plain", nil, false}, {"scaled", scale, false}, {"frobenius", nil, true}} {
			sys := &denseSpread[float64]{s: s, b: b, a: a, t: tc.t, c: c}
			cur, prv := make([]float64, n*c), make([]float64, n*c)
			z, res, err := Chebyshev(context.Background(), sys, a, cur, prv, ChebyshevSettings[float64]{
				Settings: Settings{Tol: chebTol}, Method: "test", BNorm: bnorm, Scale: tc.t, Zero: true, Frobenius: tc.frobenius})
			require.NoError(t, err, "%s a=%v", tc.name, a)
			bound := ChebyshevBound(a, chebTol, 1000)
			for j := 0; j < c; j++ {
				assert.LessOrEqual(t, res.Iterations[j], bound, "%s a=%v", tc.name, a)
				assert.LessOrEqual(t, res.Residual[j], chebTol)
				for i := 0; i < n; i++ {
					x := z[i*c+j]
					if tc.t != nil {
						x /= tc.t[i]
					}
					assert.InDelta(t, want.At(i, j), x, 10*chebTol*bnorm[j]/(1-a), "%s a=%v (%d, %d)", tc.name, a, i, j)
				}
			}
		}
		// float32 iterates
		sys := &denseSpread[float32]{s: s, b: b, a: a, c: c}
		cur, prv := make([]float32, n*c), make([]float32, n*c)
		z, _, err := Chebyshev(context.Background(), sys, a, cur, prv, ChebyshevSettings[float32]{
			Settings: Settings{Tol: cheb32Tol}, Method: "test32", BNorm: bnorm, Zero: true})
		require.NoError(t, err, "float32 a=%v", a)
		for i := 0; i < n; i++ {
			for j := 0; j < c; j++ {
				assert.InDelta(t, want.At(i, j), float64(z[i*c+j]), 10*cheb32Tol*bnorm[j]/(1-a), "float32 a=%v", a)
			}
		}
	}
}

func TestChebyshevErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n, c = 30, 2
	s, b := randomSpread(rng, n, c)
	bnorm := []float64{mat.Norm(b.ColView(0), 2), mat.Norm(b.ColView(1), 2)}
	set := func(maxIter int) ChebyshevSettings[float64] {
		return ChebyshevSettings[float64]{Settings: Settings{Tol: 1e-12, MaxIter: maxIter}, Method: "test", BNorm: bnorm, Zero: true}
	}
	run := func(ctx context.Context, a float64, s0 ChebyshevSettings[float64]) (BlockResult, error) {
		_, res, err := Chebyshev(ctx, &denseSpread[float64]{s: s, b: b, a: a, c: c}, a, make([]float64, n*c), make([]float64, n*c), s0)
		return res, err
	}
	_, err := run(context.Background(), 0.99, set(3))
	var nc *NotConvergedError
	require.ErrorAs(t, err, &nc)
	assert.Equal(t, 3, nc.Iterations)
	_, err = run(context.Background(), 1, set(0))
	assert.ErrorContains(t, err, "a = 1 is invalid")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = run(ctx, 0.9, set(0))
	assert.True(t, errors.Is(err, context.Canceled))
	stopped := set(0)
	stopped.Stop = func(k int, _ float64, _ []float64) bool { return k == 2 }
	res, err := run(context.Background(), 0.9, stopped)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 2}, res.Iterations, "Stop ends the solve at its iteration")
	_, _, err = Chebyshev(context.Background(), &denseSpread[float64]{s: s, b: b, a: 0.9, c: c}, 0.9, make([]float64, n*c), make([]float64, n*c+1), set(0))
	assert.ErrorIs(t, err, ErrDimension)
}

func TestChebyshevBound(t *testing.T) {
	assert.Equal(t, 32, ChebyshevBound(0.9, 1e-6, 1000))
	// acosh(1e6)/acosh(1/0.99) = 14.5087/0.142003 = 102.2
	assert.Equal(t, 103, ChebyshevBound(0.99, 1e-6, 1000))
	assert.Equal(t, 1000, ChebyshevBound(1-1e-300, 1e-6, 1000), "1/a rounds to 1: acosh(1) = 0")
}
