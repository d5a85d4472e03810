package krr

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/kernel"
)

// Tolerances.
const (
	// exactTol: FALKON with M = n run to convergence against exact KRR (the
	// issue's 1e-6); the systems differ only by εM = 2e-10 in K_MM.
	exactTol = 1e-6
	// solveTol: two float64 solves of the same well-conditioned system
	// (condition number ≲ 1e4 here) in different orders.
	solveTol = 1e-8
	// falkonTol: FALKON stopped at relative residual 1e-12 on a system of
	// condition number ≲ 1e4 against the direct Nyström solution.
	falkonTol = 1e-7
)

var ctx = context.Background()

// problem draws n points in [−2, 2]^d with a smooth two-output target and
// noise 0.1.
func problem(seed uint64, n, d int) (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, d, nil)
	y := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, 4*rng.Float64()-2)
		}
		r := x.RawRowView(i)
		y.Set(i, 0, math.Sin(r[0])+0.5*r[1]*r[1%d]+0.1*rng.NormFloat64())
		y.Set(i, 1, math.Cos(r[0]*r[d-1])+0.1*rng.NormFloat64())
	}
	return x, y
}

// naiveGram evaluates k entry by entry.
func naiveGram(k kernel.Kernel, a, b *mat.Dense) *mat.Dense {
	n, _ := a.Dims()
	m, _ := b.Dims()
	out := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			out.Set(i, j, k.Eval(a.RawRowView(i), b.RawRowView(j)))
		}
	}
	return out
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1)) // max row sum; an upper bound on max |entry|
}

func maxAbs(a mat.Matrix) float64 { return mat.Norm(a, math.Inf(1)) }

func TestExactAgainstLU(t *testing.T) {
	x, y := problem(1, 150, 3)
	k := kernel.Matern{Nu: 2.5, Length: 1.2}
	lambda := 1e-3
	e := &Exact{Kernel: k, Lambda: lambda}
	require.NoError(t, e.Fit(ctx, x, y))
	a := naiveGram(k, x, x)
	for i := 0; i < 150; i++ {
		a.Set(i, i, a.At(i, i)+150*lambda)
	}
	var want mat.Dense
	require.NoError(t, want.Solve(a, y)) // LU
	assert.LessOrEqual(t, maxAbsDiff(&want, e.Coefficients()), solveTol*maxAbs(&want))
	xt, _ := problem(2, 40, 3)
	p, err := e.Predict(xt)
	require.NoError(t, err)
	var wantP mat.Dense
	wantP.Mul(naiveGram(k, xt, x), &want)
	assert.LessOrEqual(t, maxAbsDiff(&wantP, p), solveTol*math.Max(1, maxAbs(&wantP)))
}

func TestFalkonWithAllCentresEqualsExact(t *testing.T) {
	x, y := problem(3, 200, 3)
	xt, _ := problem(4, 50, 3)
	k := kernel.Gaussian{Sigma: 1}
	lambda := 1e-4
	e := &Exact{Kernel: k, Lambda: lambda}
	require.NoError(t, e.Fit(ctx, x, y))
	want, err := e.Predict(xt)
	require.NoError(t, err)
	for _, prod := range []Products{Streamed, NormalMatrix} {
		f := &Falkon{Kernel: k, Lambda: lambda, Centres: Centres{M: 200}, Iterations: 200, Products: prod}
		require.NoError(t, f.Fit(ctx, x, y))
		got, err := f.Predict(xt)
		require.NoError(t, err)
		assert.LessOrEqual(t, maxAbsDiff(want, got), exactTol*math.Max(1, maxAbs(want)), "%v", prod)
		assert.Equal(t, prod, f.Info().Products)
		assert.Less(t, f.Info().Residual, 1e-10, "%v", prod)
	}
}

// denseNystrom solves (K_nMᵀK_nM + nλ(K_MM + εMI)) α = K_nMᵀY with LU.
func denseNystrom(k kernel.Kernel, x, y *mat.Dense, idx []int, lambda, eps float64) *mat.Dense {
	c := rowsOf(x, idx)
	n, _ := x.Dims()
	m := len(idx)
	knm := naiveGram(k, x, c)
	kmm := naiveGram(k, c, c)
	var h mat.Dense
	h.Mul(knm.T(), knm)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			v := kmm.At(i, j)
			if i == j {
				v += eps * float64(m)
			}
			h.Set(i, j, h.At(i, j)+float64(n)*lambda*v)
		}
	}
	var rhs, alpha mat.Dense
	rhs.Mul(knm.T(), y)
	if err := alpha.Solve(&h, &rhs); err != nil {
		panic(err)
	}
	return &alpha
}

func TestNystromAgainstDenseReference(t *testing.T) {
	x, y := problem(5, 300, 4)
	k := kernel.Laplacian{Sigma: 2}
	lambda := 1e-2
	for _, prec := range []kernel.Precision{kernel.Float64, kernel.Float32} {
		s := &Nystrom{Kernel: k, Lambda: lambda, Centres: Centres{M: 40, Seed: 9}, Precision: prec, BlockRows: 64}
		require.NoError(t, s.Fit(ctx, x, y))
		want := denseNystrom(k, x, y, s.CentreIndices(), lambda, s.JitterUsed())
		tol := solveTol
		if prec == kernel.Float32 {
			tol = 1e-4 // kernel entries carry float32 inner-product errors
		}
		assert.LessOrEqual(t, maxAbsDiff(want, s.Coefficients()), tol*maxAbs(want), "%v", prec)
	}
}

func TestFalkonConvergesToNystrom(t *testing.T) {
	x, y := problem(6, 400, 5)
	xt, _ := problem(7, 60, 5)
	for _, k := range []kernel.Kernel{kernel.Gaussian{Sigma: 1.5}, kernel.Matern{Nu: 1.5, Length: 2}, kernel.Laplacian{Sigma: 3}} {
		for _, cs := range []Centres{{M: 60, Seed: 1}, {M: 60, Seed: 2, Sampler: Leverage{}}} {
			lambda := 1e-5
			s := &Nystrom{Kernel: k, Lambda: lambda, Centres: cs}
			require.NoError(t, s.Fit(ctx, x, y))
			want, err := s.Predict(xt)
			require.NoError(t, err)
			for _, prod := range []Products{Streamed, NormalMatrix} {
				f := &Falkon{Kernel: k, Lambda: lambda, Centres: cs, Iterations: 300, Tol: 1e-12, Products: prod}
				require.NoError(t, f.Fit(ctx, x, y))
				assert.Equal(t, s.CentreIndices(), f.Info().Centres)
				got, err := f.Predict(xt)
				require.NoError(t, err)
				assert.LessOrEqual(t, maxAbsDiff(want, got), falkonTol*math.Max(1, maxAbs(want)), "%v %v %v", k, cs.Sampler, prod)
			}
		}
	}
}

func TestFalkonFixedIterationsAndProgress(t *testing.T) {
	x, y := problem(8, 300, 3)
	var calls []int
	f := &Falkon{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1e-6, Centres: Centres{M: 50}, Iterations: 4,
		Progress: func(it int, _ float64) { calls = append(calls, it) }}
	require.NoError(t, f.Fit(ctx, x, y))
	assert.Equal(t, []int{1, 2, 3, 4}, calls)
	assert.Equal(t, 4, f.Info().Iterations)
	// with a tolerance that 4 iterations cannot reach: an error, and a usable model
	f.Tol, f.Progress = 1e-15, nil
	err := f.Fit(ctx, x, y)
	assert.ErrorContains(t, err, "tolerance 1e-15 not reached in 4 iterations")
	_, err = f.Predict(x)
	assert.NoError(t, err)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	assert.ErrorIs(t, (&Falkon{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1e-6, Centres: Centres{M: 50}}).Fit(cctx, x, y), context.Canceled)
}

func TestLeverageScoresWithFullPilotAreExact(t *testing.T) {
	x, _ := problem(9, 120, 2)
	k := kernel.Gaussian{Sigma: 0.8}
	lambda := 1e-3
	all := make([]int, 120)
	for i := range all {
		all[i] = i
	}
	got, err := LeverageScores(ctx, k, x, all, lambda, kernel.Float64)
	require.NoError(t, err)
	// ℓ_i = [K (K + nλI)^{-1}]_ii
	kk := naiveGram(k, x, x)
	a := mat.DenseCopyOf(kk)
	for i := 0; i < 120; i++ {
		a.Set(i, i, a.At(i, i)+120*lambda)
	}
	var inv, h mat.Dense
	require.NoError(t, inv.Inverse(a))
	h.Mul(kk, &inv)
	for i := 0; i < 120; i++ {
		assert.InDelta(t, h.At(i, i), got[i], solveTol*120, "row %d", i)
	}
	// sampling: distinct sorted indices, repeatable from the seed
	idx1, err := Leverage{}.Centres(ctx, k, x, 30, lambda, newRand(4))
	require.NoError(t, err)
	idx2, err := Leverage{}.Centres(ctx, k, x, 30, lambda, newRand(4))
	require.NoError(t, err)
	assert.Equal(t, idx1, idx2)
	for i := 1; i < len(idx1); i++ {
		assert.Less(t, idx1[i-1], idx1[i])
	}
}

func TestRandomFeaturesConvergeToKernel(t *testing.T) {
	x, _ := problem(10, 60, 3)
	sigma := 1.2
	ref := naiveGram(kernel.Gaussian{Sigma: sigma}, x, x)
	var errs []float64
	for _, D := range []int{100, 1000, 10000} {
		fm, err := NewFourierMap(sigma, 3, D, 11)
		require.NoError(t, err)
		z := mat.NewDense(60, D, nil)
		fm.MapTo(z, x)
		var approx, diff mat.Dense
		approx.Mul(z, z.T())
		diff.Sub(&approx, ref)
		// root mean square error over all pairs
		errs = append(errs, mat.Norm(&diff, 2)/60)
	}
	// Monte Carlo: the error falls like 1/√D, a factor √10 ≈ 3.2 per step;
	// ask for a factor 2 to leave room for the randomness.
	assert.Less(t, errs[1], errs[0]/2, "%v", errs)
	assert.Less(t, errs[2], errs[1]/2, "%v", errs)
	assert.Less(t, errs[2], 0.02, "%v", errs)
}

// courseProblem is the kernel-methods course's chapter 9 experiment: d = 5,
// X ~ N(0, I), f*(x) = sin x0 + cos(x1 x2) + 0.5 x3, noise 0.2.
func courseProblem(seed uint64, n int, noise float64) (*mat.Dense, *mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	x := mat.NewDense(n, 5, nil)
	y := mat.NewDense(n, 1, nil)
	f := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < 5; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
		r := x.RawRowView(i)
		f[i] = math.Sin(r[0]) + math.Cos(r[1]*r[2]) + 0.5*r[3]
		y.Set(i, 0, f[i]+noise*rng.NormFloat64())
	}
	return x, y, f
}

func mse(p *mat.Dense, f []float64) float64 {
	var s float64
	for i, v := range f {
		d := p.At(i, 0) - v
		s += d * d
	}
	return s / float64(len(f))
}

// TestCourseChapter9 reruns the course's "how many features are enough?"
// experiment with our own random draws. The course (and krr.py course,
// which reproduces its stream) reports test MSE 0.0237 exact, 0.0253
// Nyström m = 800, 0.0363 random features D = 800. Those numbers come from
// one lucky draw: the same numpy code with default_rng(1), (2), (3) gives
// exact-KRR test MSE 0.040, 0.037, 0.050. So the check is the band
// [0.015, 0.06] for exact KRR and the course's relations: Nyström m = 800
// within 10 % of exact, random features D = 800 worse than Nyström but
// within a factor 2, FALKON (30 iterations) equal to Nyström.
func TestCourseChapter9(t *testing.T) {
	x, y, _ := courseProblem(0, 3000, 0.2)
	xt, _, ft := courseProblem(1, 1000, 0)
	sigma, lambda := 1.5, 1e-4
	k := kernel.Gaussian{Sigma: sigma}
	models := map[string]Regressor{
		"exact":   &Exact{Kernel: k, Lambda: lambda},
		"nystrom": &Nystrom{Kernel: k, Lambda: lambda, Centres: Centres{M: 800}},
		"falkon":  &Falkon{Kernel: k, Lambda: lambda, Centres: Centres{M: 800}, Iterations: 30},
		"rff":     &RandomFeatures{Sigma: sigma, D: 800, Lambda: lambda},
	}
	got := map[string]float64{}
	for name, m := range models {
		require.NoError(t, m.Fit(ctx, x, y), name)
		p, err := m.Predict(xt)
		require.NoError(t, err, name)
		got[name] = mse(p, ft)
	}
	t.Logf("test MSE: %v", got)
	assert.True(t, got["exact"] > 0.015 && got["exact"] < 0.06, "exact %v", got["exact"])
	assert.InEpsilon(t, got["exact"], got["nystrom"], 0.1)
	assert.InEpsilon(t, got["nystrom"], got["falkon"], 1e-3)
	assert.Less(t, got["nystrom"], got["rff"])
	assert.Less(t, got["rff"], 2*got["nystrom"])
}

func TestBadInput(t *testing.T) {
	x, y := problem(12, 30, 2)
	g := kernel.Gaussian{Sigma: 1}
	nan := mat.DenseCopyOf(x)
	nan.Set(7, 1, math.NaN())
	ynan := mat.DenseCopyOf(y)
	ynan.Set(3, 0, math.Inf(-1))
	cases := []struct {
		name string
		m    Regressor
		x, y *mat.Dense
		msg  string
	}{
		{"lambda 0", &Falkon{Kernel: g, Lambda: 0}, x, y, "Lambda=0 is invalid: it must be finite and > 0"},
		{"lambda <0", &Exact{Kernel: g, Lambda: -1}, x, y, "Lambda=-1 is invalid"},
		{"lambda <0 nystrom", &Nystrom{Kernel: g, Lambda: -1}, x, y, "Lambda=-1 is invalid"},
		{"lambda rff", &RandomFeatures{Sigma: 1, Lambda: math.NaN()}, x, y, "Lambda=NaN is invalid"},
		{"M > n", &Falkon{Kernel: g, Lambda: 1, Centres: Centres{M: 31}}, x, y, "M=31 is invalid: it must be in [1, n=30]"},
		{"M > n nystrom", &Nystrom{Kernel: g, Lambda: 1, Centres: Centres{M: 31}}, x, y, "M=31 is invalid"},
		{"M < 0", &Falkon{Kernel: g, Lambda: 1, Centres: Centres{M: -2}}, x, y, "M=-2 is invalid"},
		{"sigma 0", &Falkon{Kernel: kernel.Gaussian{Sigma: 0}, Lambda: 1}, x, y, "Gaussian sigma=0 is invalid"},
		{"sigma <0", &Exact{Kernel: kernel.Gaussian{Sigma: -2}, Lambda: 1}, x, y, "Gaussian sigma=-2 is invalid"},
		{"sigma rff", &RandomFeatures{Sigma: 0, Lambda: 1}, x, y, "Gaussian sigma=0 is invalid"},
		{"nil kernel", &Falkon{Lambda: 1}, x, y, "Kernel is nil"},
		{"NaN X", &Falkon{Kernel: g, Lambda: 1}, nan, y, "X row 7 column 1 is NaN"},
		{"NaN X exact", &Exact{Kernel: g, Lambda: 1}, nan, y, "X row 7 column 1 is NaN"},
		{"NaN X rff", &RandomFeatures{Sigma: 1, Lambda: 1}, nan, y, "X row 7 column 1 is NaN"},
		{"Inf Y", &Nystrom{Kernel: g, Lambda: 1}, x, ynan, "Y row 3 column 0 is -Inf"},
		{"rows", &Falkon{Kernel: g, Lambda: 1}, x, mat.NewDense(29, 2, nil), "Y has 29 rows but X has 30"},
		{"rows exact", &Exact{Kernel: g, Lambda: 1}, x, mat.NewDense(31, 1, nil), "Y has 31 rows but X has 30"},
		{"iterations", &Falkon{Kernel: g, Lambda: 1, Iterations: -1}, x, y, "Iterations=-1 is invalid"},
		{"tol", &Falkon{Kernel: g, Lambda: 1, Tol: 1}, x, y, "Tol=1 is invalid"},
		{"jitter", &Falkon{Kernel: g, Lambda: 1, Jitter: -1}, x, y, "Jitter=-1 is invalid"},
		{"D", &RandomFeatures{Sigma: 1, Lambda: 1, D: -5}, x, y, "D=-5 random features is invalid"},
		{"fixed", &Falkon{Kernel: g, Lambda: 1, Centres: Centres{Sampler: Fixed{1, 30}}}, x, y, "fixed centre index 30 is outside [0, n=30)"},
		{"fixed dup", &Falkon{Kernel: g, Lambda: 1, Centres: Centres{Sampler: Fixed{2, 2}}}, x, y, "fixed centre index 2 appears twice"},
		{"fixed M", &Falkon{Kernel: g, Lambda: 1, Centres: Centres{M: 3, Sampler: Fixed{2, 1}}}, x, y, "M=3 but 2 fixed centres were given"},
		{"pilot", &Falkon{Kernel: g, Lambda: 1, Centres: Centres{M: 3, Sampler: Leverage{Pilot: 40}}}, x, y, "Leverage Pilot=40 is invalid"},
		{"empty", &Falkon{Kernel: g, Lambda: 1}, &mat.Dense{}, y, "X is empty"},
	}
	for _, c := range cases {
		assert.ErrorContains(t, c.m.Fit(ctx, c.x, c.y), c.msg, c.name)
	}
	// Predict: before Fit, and with the wrong dimension or NaN
	for _, m := range []Regressor{&Exact{Kernel: g, Lambda: 1}, &Nystrom{Kernel: g, Lambda: 1}, &Falkon{Kernel: g, Lambda: 1}, &RandomFeatures{Sigma: 1, Lambda: 1}} {
		_, err := m.Predict(x)
		assert.ErrorIs(t, err, ErrNotFitted)
		require.NoError(t, m.Fit(ctx, x, y))
		_, err = m.Predict(mat.NewDense(3, 5, nil))
		assert.ErrorContains(t, err, "X to predict has 5 columns, want 2")
		_, err = m.Predict(nan)
		assert.ErrorContains(t, err, "X to predict row 7 column 1 is NaN")
	}
	_, err := OneHot([]int{0, 3}, 3)
	assert.ErrorContains(t, err, "label 3 of row 1 is outside [0, 3)")
}

func TestOneHotArgmax(t *testing.T) {
	y, err := OneHot([]int{2, 0, 1}, 3)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0, 1, 1, 0, 0, 0, 1, 0}, y.RawMatrix().Data)
	assert.Equal(t, []int{2, 0, 1}, Argmax(y))
}
