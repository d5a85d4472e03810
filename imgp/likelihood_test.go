package imgp

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/spectral"
)

const (
	// exactLikTol: the determinant-lemma route and the quadratic term come
	// from CG solves to a relative residual of 1e-10 with M (condition
	// number below 1e3 here) and Q; the dense reference is Cholesky. Their
	// difference is a few 1e-8 of a log-likelihood of order 100.
	exactLikTol = 1e-7
	// slqExactTol: with the N unit vectors as probes and N Lanczos steps the
	// quadrature is exact (the Krylov space is the whole space), so only
	// rounding in the two N-term traces remains.
	slqExactTol = 1e-6
)

// likelihoodProblem is a small noisy circle with every third node labelled.
func likelihoodProblem(t *testing.T, nu int) (*gmrf, Hyperparameters, int) {
	_, theta, g := noisyCircle(t, 4, 120, 3, 6)
	n := g.Dist2.Nodes()
	var labelled []int
	var y []float64
	for i := 0; i < n; i += 3 {
		labelled = append(labelled, i)
		y = append(y, math.Sin(theta[i])+0.3*math.Cos(2*theta[i]))
	}
	pr := &gmrf{geo: g, nu: nu, labelled: labelled, y: y, tol: 1e-6}
	return pr, Hyperparameters{Alpha: 0.07, Kappa: 8, Amplitude: 0.02, Noise: 1e-3}, n
}

func unitProbes(n int) func(i int, z []float64) {
	return func(i int, z []float64) {
		clear(z)
		z[i] = math.Sqrt(float64(n))
	}
}

func TestLogLikelihoodAgainstDense(t *testing.T) {
	ctx := context.Background()
	for _, nu := range []int{1, 2, 3} {
		pr, h, n := likelihoodProblem(t, nu)
		want := newDenseModel(pr.geo, nu, h).logLikelihood(pr.labelled, pr.y, h.Noise)

		exact, err := pr.logLikelihood(ctx, h, LikelihoodSettings{ExactLabels: len(pr.labelled)}, nil, nil)
		require.NoError(t, err)
		require.True(t, exact.Exact)
		assert.Zero(t, exact.StdErr)
		assert.InEpsilon(t, want, exact.Value, exactLikTol, "ν=%d exact route", nu)

		// Quadrature with the N unit vectors as probes: the exact traces.
		s := LikelihoodSettings{ExactLabels: -1, TraceSettings: spectral.TraceSettings{Probes: n, Steps: n}}
		unit, err := pr.logLikelihood(ctx, h, s, unitProbes(n), nil)
		require.NoError(t, err)
		require.False(t, unit.Exact)
		assert.InEpsilon(t, want, unit.Value, slqExactTol, "ν=%d unit probes", nu)
		assert.InDelta(t, exact.Quadratic, unit.Quadratic, 1e-12*math.Abs(exact.Quadratic))
	}
}

// TestLogLikelihoodSLQConverges: Rademacher probes with 50 Lanczos steps.
// The error must lie within the reported standard error's 4σ band plus the
// quadrature bias, and must shrink from few to many probes.
func TestLogLikelihoodSLQConverges(t *testing.T) {
	ctx := context.Background()
	pr, h, _ := likelihoodProblem(t, 2)
	want := newDenseModel(pr.geo, 2, h).logLikelihood(pr.labelled, pr.y, h.Noise)
	// quadBias: the spectra of Q̂ and of (1+c)I − D^{−1/2}AD^{−1/2} have
	// condition numbers below 1e3 here; 50-point Gauss quadrature of log on
	// such an interval errs by far less than 1e-6 per probe (Ubaru, Chen &
	// Saad 2017, Theorem 4.1).
	const quadBias = 1e-6
	at := func(probes int, defl *Eigenpairs) LogLikelihood {
		s := LikelihoodSettings{ExactLabels: -1, TraceSettings: spectral.TraceSettings{Probes: probes, Steps: 50, Seed: 11}}
		ll, err := pr.logLikelihood(ctx, h, s, rademacherProbe(11), defl)
		require.NoError(t, err)
		require.Equal(t, probes, ll.Probes)
		return ll
	}
	few, many := at(4, nil), at(400, nil)
	t.Logf("exact %.6f; 4 probes %.6f ± %.4f; 400 probes %.6f ± %.4f", want, few.Value, few.StdErr, many.Value, many.StdErr)
	// 4σ: a seeded check that fails with probability 6e-5 for a fresh seed.
	assert.LessOrEqual(t, math.Abs(many.Value-want), 4*many.StdErr+quadBias)
	assert.Less(t, math.Abs(many.Value-want), math.Abs(few.Value-want))
	assert.Less(t, many.StdErr, few.StdErr/5) // ≈ √100 = 10 × smaller

	// Deflation by the 20 smallest eigenpairs of Δ_rw (from an independent
	// dense eigendecomposition): still unbiased, with a smaller error.
	_, lam, f := newDenseModel(pr.geo, 2, h).eigenKernel(2, h)
	const L = 20
	defl := &Eigenpairs{Values: lam[:L], Vectors: mat.DenseCopyOf(f.Slice(0, len(lam), 0, L))}
	deflated := at(400, defl)
	t.Logf("deflated: 400 probes %.6f ± %.4f", deflated.Value, deflated.StdErr)
	assert.LessOrEqual(t, math.Abs(deflated.Value-want), 4*deflated.StdErr+quadBias)
	assert.Less(t, deflated.StdErr, many.StdErr/1.5)
	n := len(lam)
	s := LikelihoodSettings{ExactLabels: -1, TraceSettings: spectral.TraceSettings{Probes: n, Steps: n}}
	unit, err := pr.logLikelihood(ctx, h, s, unitProbes(n), defl)
	require.NoError(t, err)
	assert.InEpsilon(t, want, unit.Value, slqExactTol, "deflated, unit probes")
}

func TestLogMarginalLikelihoodOfFittedRegressor(t *testing.T) {
	ctx := context.Background()
	_, err := (&Regressor{}).LogMarginalLikelihood(ctx, LikelihoodSettings{})
	require.ErrorIs(t, err, errNotFitted)
	r, _, theta := fitCircle(t, 3)
	var lab []int
	var y []float64
	for i := 0; i < len(theta); i += 4 { // fitCircle's labels
		lab = append(lab, i)
		y = append(y, math.Cos(theta[i]))
	}
	h := r.Hyperparameters()
	want := newDenseModel(r.FittedGraph(), 2, h).logLikelihood(lab, y, h.Noise)
	got, err := r.LogMarginalLikelihood(ctx, LikelihoodSettings{})
	require.NoError(t, err)
	require.True(t, got.Exact) // 50 labels ≤ 128
	assert.InEpsilon(t, want, got.Value, exactLikTol)

	calls := 0
	slq, err := r.LogMarginalLikelihood(ctx, LikelihoodSettings{ExactLabels: -1,
		TraceSettings: spectral.TraceSettings{Probes: 200, Seed: 3, Progress: func(done, total int) { calls++ }}})
	require.NoError(t, err)
	assert.Equal(t, 200, calls)
	assert.LessOrEqual(t, math.Abs(slq.Value-want), 4*slq.StdErr+1e-6)

	for _, bad := range []spectral.TraceSettings{{Probes: -1}, {Steps: -2}} {
		_, err := r.LogMarginalLikelihood(ctx, LikelihoodSettings{TraceSettings: bad})
		require.Error(t, err)
		assert.ErrorContains(t, err, "is invalid")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = r.LogMarginalLikelihood(cancelled, LikelihoodSettings{ExactLabels: -1})
	require.ErrorIs(t, err, context.Canceled)
}
