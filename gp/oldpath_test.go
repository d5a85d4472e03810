package gp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/dense"
	"github.com/gssl/gssl/internal/parallel"
)

// The evaluation of the likelihood before inverse.go, kept as an
// independent reference: K⁻¹ = R⁻¹R⁻ᵀ formed by slab-wise triangular
// solves and a Gram product, the gradient summed over its stored entries.

// upperSlab is the number of columns of R⁻¹ that upperInverse computes
// with one triangular solve.
const upperSlab = 128

// upperInverse returns R⁻¹ for an upper triangular R with a stored
// diagonal. Columns [j0, j1) of R⁻¹ are zero below row j1, so they solve
// R[:j1, :j1]·X = I[:j1, j0:j1] with the leading block only (n³/6
// multiply-adds in all, against n³/2 for a solve with the whole identity);
// the slabs are independent and run in parallel.
func upperInverse(r *mat.TriDense) *mat.TriDense {
	rr := r.RawTriangular()
	n := rr.N
	z := make([]float64, n*n)
	slabs := (n + upperSlab - 1) / upperSlab
	parallel.For(slabs, 1, func(lo, hi int) {
		for s := lo; s < hi; s++ {
			j0, j1 := s*upperSlab, min((s+1)*upperSlab, n)
			var lead mat.TriDense
			lead.SetRawTriangular(blas64.Triangular{N: j1, Stride: rr.Stride, Data: rr.Data, Uplo: blas.Upper, Diag: blas.NonUnit})
			x := mat.NewDense(j1, j1-j0, nil)
			for j := j0; j < j1; j++ {
				x.Set(j, j-j0, 1)
			}
			dense.TriSolve(&lead, false, x)
			for i := 0; i < j1; i++ {
				copy(z[i*n+j0:i*n+j1], x.RawRowView(i))
			}
		}
	})
	return mat.NewTriDense(n, mat.Upper, z)
}

// oldLikelihood is the evaluation before the blocked inverse of inverse.go (kept as the reference of the tests): it evaluates the log marginal likelihood and its gradient with
// respect to (log a, log ℓ, log v).
type oldLikelihood struct {
	cov    Covariance
	d2     *mat.Dense
	y      []float64
	jitter float64

	last     Hyperparameters
	lastVal  float64
	lastGrad []float64
	haveGrad bool
}

func (l *oldLikelihood) eval(h Hyperparameters, wantGrad bool) (float64, []float64, error) {
	if h == l.last && l.lastGrad != nil && (l.haveGrad || !wantGrad) {
		return l.lastVal, l.lastGrad, nil
	}
	n := len(l.y)
	k := oldCovariance(l.cov, l.d2, h, l.jitter)
	// K = RᵀR by the GEMM-based blocked Cholesky of internal/dense, faster
	// than gonum's pure-Go factorisation and inverse (BenchmarkLikelihood).
	r, ok := dense.Cholesky(k)
	if !ok {
		return math.NaN(), nil, fmt.Errorf("covariance not positive definite at %v", h)
	}
	a := mat.NewVecDense(n, append([]float64(nil), l.y...))
	am := a.RawVector()
	av := mat.NewDense(n, 1, am.Data) // α = R^{-1} R^{-T} y, in place
	dense.TriSolve(r, true, av)
	dense.TriSolve(r, false, av)
	yv := mat.NewVecDense(n, l.y)
	val := -0.5*mat.Dot(a, yv) - 0.5*logDetFromFactor(r) - 0.5*float64(n)*math.Log(2*math.Pi)
	grad := make([]float64, 3)
	if wantGrad {
		inv := dense.Gram(upperInverse(r), 1) // K⁻¹ = R⁻¹R⁻ᵀ
		ad := a.RawVector().Data
		ir := inv.RawSymmetric()
		kr := k.RawSymmetric()
		diag := h.Noise + l.jitter
		// W = ααᵀ − K⁻¹; ∂/∂θ = ½ Σ_ij W_ij ∂K_ij (symmetric: diagonal once, off-diagonal twice).
		type part struct{ amp, length, trace float64 }
		parts := make([]part, parallel.Workers()*4)
		chunk := (n + len(parts) - 1) / len(parts)
		parallel.For(len(parts), 1, func(lo, hi int) {
			for p := lo; p < hi; p++ {
				var s part
				for i := p * chunk; i < min(n, (p+1)*chunk); i++ {
					drow := l.d2.RawRowView(i)
					irow := ir.Data[i*ir.Stride:]
					krow := kr.Data[i*kr.Stride:]
					for j := i; j < n; j++ {
						w := ad[i]*ad[j] - irow[j]
						// a·k(d²), read back from K rather than evaluated again
						ak := krow[j]
						if j != i {
							w *= 2
						} else {
							s.trace += w
							ak -= diag
						}
						s.amp += w * ak
						s.length += w * ak * logLengthSlope(l.cov, drow[j], h.LengthScale)
					}
				}
				parts[p] = s
			}
		})
		for _, s := range parts {
			grad[0] += 0.5 * s.amp
			grad[1] += 0.5 * s.length
			grad[2] += 0.5 * s.trace * h.Noise
		}
	}
	l.last, l.lastVal, l.lastGrad, l.haveGrad = h, val, grad, wantGrad
	return val, grad, nil
}

// oldCovariance returns a·k(D2) + (v + jitter)·I from squared distances.
func oldCovariance(cov Covariance, d2 *mat.Dense, h Hyperparameters, jitter float64) *mat.SymDense {
	n, _ := d2.Dims()
	k := mat.NewSymDense(n, nil)
	raw := k.RawSymmetric()
	for i := 0; i < n; i++ {
		src := d2.RawRowView(i)
		dst := raw.Data[i*raw.Stride : i*raw.Stride+n]
		for j := i; j < n; j++ {
			dst[j] = h.Amplitude * unitCov(cov, src[j], h.LengthScale)
		}
		dst[i] += h.Noise + jitter
	}
	return k
}

// logLengthSlope is (∂k/∂ log ℓ)/k at squared distance d2.
func logLengthSlope(cov Covariance, d2, length float64) float64 {
	if cov == SquaredExponential {
		return d2 / (length * length)
	}
	u := math.Sqrt(5*d2) / length
	return u * u * (1 + u) / (3 * (1 + u + u*u/3))
}
