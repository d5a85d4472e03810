package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/parallel"
)

// randomUpper returns a well-conditioned upper triangle, row-major n×n,
// with random values below the diagonal that invert must not read.
func randomUpper(rng *rand.Rand, n int) ([]float64, *mat.TriDense) {
	r := make([]float64, n*n)
	tri := mat.NewTriDense(n, mat.Upper, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			switch {
			case j < i:
				r[i*n+j] = rng.NormFloat64() * 1e3
			case j == i:
				r[i*n+j] = 1 + rng.Float64()
			default:
				r[i*n+j] = rng.NormFloat64() / math.Sqrt(float64(n))
			}
			if j >= i {
				tri.SetTri(i, j, r[i*n+j])
			}
		}
	}
	return r, tri
}

// TestInverseAgainstGonum: the blocked R⁻¹ in both packings equals gonum's
// InverseTri, and the packed depths left of each row's diagonal are zero,
// across block and panel boundaries.
func TestInverseAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 7, 16, invBlock - 1, invBlock, invBlock + 1, 2*invBlock + 17, 301} {
		r, tri := randomUpper(rng, n)
		var want mat.TriDense
		require.NoError(t, want.InverseTri(tri))
		inv := newInverse(n)
		for rep := 0; rep < 2; rep++ { // the storage is reused
			inv.invert(r)
			for i := 0; i < n; i++ {
				p, q := i/gemm.MR, i/gemm.NR64
				for tt := p * gemm.MR; tt < n; tt++ {
					a := inv.za[inv.offA[p]+(tt-p*gemm.MR)*gemm.MR+i%gemm.MR]
					if tt < i {
						require.Zero(t, a, "n=%d A (%d, %d)", n, i, tt)
						continue
					}
					require.InDelta(t, want.At(i, tt), a, 1e-12, "n=%d A (%d, %d)", n, i, tt)
				}
				for tt := bStart(q); tt < n; tt++ {
					b := inv.zb[inv.offB[q]+(tt-bStart(q))*gemm.NR64+i%gemm.NR64]
					if tt < i {
						require.Zero(t, b, "n=%d B (%d, %d)", n, i, tt)
						continue
					}
					require.InDelta(t, want.At(i, tt), b, 1e-12, "n=%d B (%d, %d)", n, i, tt)
				}
			}
		}
	}
}

// TestLikelihoodAgainstOldPath: the value equals the evaluation with K⁻¹
// stored (oldpath_test.go) bitwise (the same factorisation and solves),
// the gradient to rounding: both form K⁻¹ (differently), whose entries
// carry errors of order κ(K)·ε, so the tolerance is 16·κ(K)·ε relative.
// The blocks' boundaries are crossed; the second evaluation, at other
// hyperparameters, reuses the buffers.
func TestLikelihoodAgainstOldPath(t *testing.T) {
	for _, n := range []int{1, 5, 47, invBlock, invBlock + 1, 301} {
		x, y := sample(3, n, 4)
		for _, cov := range []Covariance{Matern52, SquaredExponential} {
			old := &oldLikelihood{cov: cov, d2: sqDistances(x, x), y: y, jitter: 1e-10}
			lik := newLikelihood(cov, sqDistances(x, x), y, 1e-10)
			for _, h := range []Hyperparameters{{Amplitude: 1.3, LengthScale: 0.7, Noise: 0.05}, {Amplitude: 0.4, LengthScale: 2.5, Noise: 1e-4}} {
				v0, g0, err := old.eval(h, true)
				require.NoError(t, err)
				v1, g1, err := lik.eval(h, true)
				require.NoError(t, err)
				require.Equal(t, v0, v1, "%v n=%d %v", cov, n, h)
				tol := 16 * mat.Cond(oldCovariance(cov, old.d2, h, 1e-10), 2) * 0x1p-52
				for p := range g0 {
					require.InDelta(t, g0[p], g1[p], tol*(1+math.Abs(g0[p])), "%v n=%d %v parameter %d", cov, n, h, p)
				}
			}
		}
	}
}

// TestLikelihoodIndependentOfWorkers: value and gradient are bitwise the
// same on 1, 2 and 3 workers.
func TestLikelihoodIndependentOfWorkers(t *testing.T) {
	defer func(cfg parallel.Config) { require.NoError(t, parallel.Configure(cfg)) }(parallel.Current())
	x, y := sample(4, 2*invBlock+31, 3)
	h := Hyperparameters{Amplitude: 1.1, LengthScale: 0.9, Noise: 0.01}
	var want []float64
	for _, w := range []int{1, 2, 3} {
		require.NoError(t, parallel.Configure(parallel.Config{Workers: w}))
		v, g, err := newLikelihood(Matern52, sqDistances(x, x), y, 1e-10).eval(h, true)
		require.NoError(t, err)
		got := append([]float64{v}, g...)
		if want == nil {
			want = got
			continue
		}
		require.Equal(t, want, got, "%d workers", w)
	}
}
