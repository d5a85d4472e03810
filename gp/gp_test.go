package gp

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

const (
	// gradTol: central differences with step 1e-5 in log space on a
	// likelihood of order 10 carry errors of about 1e-8 relative.
	gradTol = 1e-5
	// solveTol: Cholesky and LU solutions of a well-conditioned 30×30 system
	// agree to rounding (condition number below 1e4 with noise 0.05).
	solveTol = 1e-9
)

func sample(seed uint64, n, d int) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.Float64()*2)
		}
		y[i] = math.Sin(3*x.At(i, 0)) + 0.5*x.At(i, 1) + 0.1*rng.NormFloat64()
	}
	return x, y
}

// referenceCov evaluates the covariances from their textbook formulas.
func referenceCov(cov Covariance, xi, xj []float64, h Hyperparameters) float64 {
	var r2 float64
	for t := range xi {
		r2 += (xi[t] - xj[t]) * (xi[t] - xj[t])
	}
	r := math.Sqrt(r2)
	if cov == SquaredExponential {
		return h.Amplitude * math.Exp(-r2/(2*h.LengthScale*h.LengthScale))
	}
	s := math.Sqrt(5) * r / h.LengthScale
	return h.Amplitude * (1 + s + 5*r2/(3*h.LengthScale*h.LengthScale)) * math.Exp(-s)
}

// referenceLML is log N(y; 0, K + vI) with an LU determinant and solve.
func referenceLML(cov Covariance, x *mat.Dense, y []float64, h Hyperparameters) float64 {
	n, _ := x.Dims()
	k := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			k.Set(i, j, referenceCov(cov, x.RawRowView(i), x.RawRowView(j), h))
		}
		k.Set(i, i, k.At(i, i)+h.Noise+1e-10)
	}
	var lu mat.LU
	lu.Factorize(k)
	logDet, _ := lu.LogDet()
	a := mat.NewVecDense(n, nil)
	if err := lu.SolveVecTo(a, false, mat.NewVecDense(n, y)); err != nil {
		panic(err)
	}
	return -0.5*mat.Dot(a, mat.NewVecDense(n, y)) - 0.5*logDet - 0.5*float64(n)*math.Log(2*math.Pi)
}

// TestLikelihoodAndGradientAgainstReference: value against a dense LU
// evaluation, gradient against central differences of it; n = 300 runs the
// blocked factorisation, solves and inverse (blocks of 64, 128 and 256).
func TestLikelihoodAndGradientAgainstReference(t *testing.T) {
	for _, n := range []int{30, 300} {
		testLikelihoodAgainstReference(t, n)
	}
}

func testLikelihoodAgainstReference(t *testing.T, n int) {
	x, y := sample(1, n, 3)
	for _, cov := range []Covariance{Matern52, SquaredExponential} {
		h := Hyperparameters{Amplitude: 1.3, LengthScale: 0.7, Noise: 0.05}
		lik := newLikelihood(cov, sqDistances(x, x), y, 1e-10)
		v, g, err := lik.eval(h, true)
		require.NoError(t, err)
		require.InEpsilon(t, referenceLML(cov, x, y, h), v, solveTol, "%v n=%d", cov, n)
		const step = 1e-5
		for p := 0; p < 3; p++ {
			at := func(s float64) float64 { return referenceLML(cov, x, y, scaled(h, p, s)) }
			fd := (at(step) - at(-step)) / (2 * step)
			require.InEpsilon(t, fd, g[p], gradTol, "%v n=%d parameter %d", cov, n, p)
		}
	}
}

func TestFitIncreasesLikelihoodAndPredicts(t *testing.T) {
	x, y := sample(2, 40, 2)
	xt, yt := sample(3, 20, 2)
	r := &Regressor{}
	require.NoError(t, r.Fit(context.Background(), x, y))
	h := r.Hyperparameters()
	require.Greater(t, r.LogMarginalLikelihood(), referenceLML(Matern52, x, y, Hyperparameters{1, 1, 1e-2}))
	// The optimum is stationary: central differences of the reference vanish
	// (relative to the likelihood's curvature scale) in every direction.
	for p := 0; p < 3; p++ {
		at := func(s float64) float64 { return referenceLML(Matern52, x, y, scaled(h, p, s)) }
		require.Less(t, math.Abs(at(1e-4)-at(-1e-4))/2e-4, 1e-3, "parameter %d not stationary", p)
	}
	mean, variance, err := predict(r, xt)
	require.NoError(t, err)
	// Reference posterior from the textbook formulas with a dense LU solve.
	n, _ := x.Dims()
	m, _ := xt.Dims()
	k := mat.NewDense(n, n, nil)
	ks := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			k.Set(i, j, referenceCov(Matern52, x.RawRowView(i), x.RawRowView(j), h))
		}
		k.Set(i, i, k.At(i, i)+h.Noise+1e-10)
		for j := 0; j < m; j++ {
			ks.Set(i, j, referenceCov(Matern52, x.RawRowView(i), xt.RawRowView(j), h))
		}
	}
	var sol mat.Dense
	require.NoError(t, sol.Solve(k, ks))
	cov, err := r.PosteriorCovariance(xt)
	require.NoError(t, err)
	for j := 0; j < m; j++ {
		var mu, q float64
		for i := 0; i < n; i++ {
			mu += sol.At(i, j) * y[i]
			q += sol.At(i, j) * ks.At(i, j)
		}
		require.InDelta(t, mu, mean[j], solveTol)
		require.InDelta(t, h.Amplitude-q, variance[j], solveTol)
		require.InDelta(t, variance[j], cov.At(j, j), solveTol)
	}
	var sse float64
	for j := range yt {
		sse += (mean[j] - yt[j]) * (mean[j] - yt[j])
	}
	require.Less(t, math.Sqrt(sse/float64(m)), 0.3, "a fitted GP should predict a smooth function")
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	x, y := sample(4, 5, 2)
	cases := map[string]struct {
		r    Regressor
		x    *mat.Dense
		y    []float64
		want string
	}{
		"no points":      {Regressor{}, &mat.Dense{}, nil, "no training points"},
		"length":         {Regressor{}, x, y[:4], "5 points but 4 targets: give one per point"},
		"inf target":     {Regressor{}, x, []float64{0, math.NaN(), 1, math.Inf(-1), 0}, "target 3 is -Inf"},
		"no known":       {Regressor{}, x, []float64{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}, "every target is NaN"},
		"negative scale": {Regressor{Initial: Hyperparameters{LengthScale: -1}}, x, y, "Initial.LengthScale = -1"},
		"bounds":         {Regressor{Bounds: Bounds{Lower: 2, Upper: 1}}, x, y, "Lower must be below Upper"},
		"outside bounds": {Regressor{Initial: Hyperparameters{Noise: 1e-7}}, x, y, "strictly inside Bounds"},
		"covariance":     {Regressor{Covariance: 7}, x, y, "Covariance = 7"},
	}
	for name, c := range cases {
		err := c.r.Fit(ctx, c.x, c.y)
		require.ErrorContains(t, err, c.want, name)
	}
	bad := mat.DenseCopyOf(x)
	bad.Set(3, 1, math.Inf(1))
	r := Regressor{}
	require.ErrorContains(t, r.Fit(ctx, bad, y), "training point 3, coordinate 1 is +Inf")
	_, _, err := predict(&r, x)
	require.ErrorIs(t, err, errNotFitted)
	require.NoError(t, r.Fit(ctx, x, y))
	_, _, err = predict(&r, mat.NewDense(1, 3, nil))
	require.ErrorContains(t, err, "have 3 coordinates, want 2")
}

func TestCancelled(t *testing.T) {
	x, y := sample(5, 20, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := Regressor{}
	require.ErrorIs(t, r.Fit(ctx, x, y), context.Canceled)
}

// scaled multiplies hyperparameter p (amplitude, length scale, noise) by e^s.
func scaled(h Hyperparameters, p int, s float64) Hyperparameters {
	switch p {
	case 0:
		h.Amplitude *= math.Exp(s)
	case 1:
		h.LengthScale *= math.Exp(s)
	case 2:
		h.Noise *= math.Exp(s)
	}
	return h
}

// TestOldUpperInverseAgainstGonum: the slab-wise inverse of the old path of a triangle equals
// gonum's, across slab boundaries.
func TestOldUpperInverseAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 7, upperSlab, upperSlab + 1, 3*upperSlab + 5} {
		r := mat.NewTriDense(n, mat.Upper, nil)
		for i := 0; i < n; i++ {
			r.SetTri(i, i, 1+rng.Float64())
			for j := i + 1; j < n; j++ {
				r.SetTri(i, j, rng.NormFloat64()/math.Sqrt(float64(n)))
			}
		}
		var want mat.TriDense
		require.NoError(t, want.InverseTri(r))
		got := upperInverse(r)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				require.InDelta(t, want.At(i, j), got.At(i, j), 1e-12, "n=%d (%d, %d)", n, i, j)
			}
		}
	}
}

// TestSqDistancesAgainstDirectSums: the GEMM form ‖x‖² + ‖y‖² − 2xᵀy equals
// the direct sums, also for points far from the origin and close to each
// other, where the GEMM form cancels: a pair is recomputed when its result
// is below 1e-8 of ‖x‖² + ‖y‖², so the relative error stays within a few
// ε/1e-8 ≈ 1e-7.
func TestSqDistancesAgainstDirectSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, offset := range []float64{0, 1e4} {
		x, y := mat.NewDense(37, 13, nil), mat.NewDense(29, 13, nil)
		for _, m := range []*mat.Dense{x, y} {
			r, c := m.Dims()
			for i := 0; i < r; i++ {
				for j := 0; j < c; j++ {
					m.Set(i, j, offset+rng.NormFloat64())
				}
			}
		}
		got := sqDistances(x, y)
		for i := 0; i < 37; i++ {
			for j := 0; j < 29; j++ {
				var want float64
				for t := 0; t < 13; t++ {
					e := x.At(i, t) - y.At(j, t)
					want += e * e
				}
				require.InEpsilon(t, want, got.At(i, j), 1e-7, "offset %g pair (%d, %d)", offset, i, j)
			}
		}
	}
}
