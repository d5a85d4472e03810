package gp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/dense"
	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/parallel"
)

// sqDistances returns ‖x_i − y_j‖² for the rows of x and y, computed as
// ‖x‖² + ‖y‖² − 2xᵀy and clamped at 0; a pair whose result is small against
// the norms (cancellation) is recomputed directly.
func sqDistances(x, y *mat.Dense) *mat.Dense {
	n, d := x.Dims()
	m, _ := y.Dims()
	out := mat.NewDense(n, m, nil)
	// xᵀy by the project's GEMM kernels (internal/gemm), all cores
	a := gemm.NewPanels[float64](n, d, gemm.MR, nil)
	for i := 0; i < n; i++ {
		a.SetRow(i, x.RawRowView(i), nil, 1)
	}
	b := gemm.NewPanels[float64](m, d, gemm.NR64, nil)
	for j := 0; j < m; j++ {
		b.SetRow(j, y.RawRowView(j), nil, 1)
	}
	gemm.ParallelMulTTo(out.RawMatrix().Data, m, a, b)
	nx, ny := rowSqNorms(x), rowSqNorms(y)
	parallel.For(n, max(1, 4096/max(m, 1)), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := out.RawRowView(i)
			xi := x.RawRowView(i)
			for j := range row {
				s := nx[i] + ny[j]
				v := s - 2*row[j]
				if v < 1e-8*s {
					v = 0
					yj := y.RawRowView(j)
					for t := 0; t < d; t++ {
						e := xi[t] - yj[t]
						v += e * e
					}
				}
				row[j] = v
			}
		}
	})
	return out
}

func rowSqNorms(x *mat.Dense) []float64 {
	n, _ := x.Dims()
	s := make([]float64, n)
	for i := range s {
		for _, v := range x.RawRowView(i) {
			s[i] += v * v
		}
	}
	return s
}

// unitCov is the covariance with amplitude 1 at squared distance d2.
func unitCov(cov Covariance, d2, length float64) float64 {
	if cov == SquaredExponential {
		return math.Exp(-d2 / (2 * length * length))
	}
	u := math.Sqrt(5*d2) / length
	return (1 + u + u*u/3) * math.Exp(-u)
}

// logDetFromFactor returns log det K = 2 Σ log R_ii for K = RᵀR.
func logDetFromFactor(r *mat.TriDense) float64 {
	rr := r.RawTriangular()
	s := 0.0
	for i := 0; i < rr.N; i++ {
		s += math.Log(rr.Data[i*rr.Stride+i])
	}
	return 2 * s
}

// logLengthSlope is (∂k/∂ log ℓ)/k at squared distance d2: for Matérn 5/2
// with u = √(5d²)/ℓ, k = (1 + u + u²/3)e^{−u} and ∂k/∂ log ℓ = u²(1 + u)e^{−u}/3,
// whose ratio needs no exponential; for the squared exponential, d²/ℓ².
func logLengthSlope(cov Covariance, d2, length float64) float64 {
	if cov == SquaredExponential {
		return d2 / (length * length)
	}
	u := math.Sqrt(5*d2) / length
	return u * u * (1 + u) / (3 * (1 + u + u*u/3))
}

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

// covariance returns a·k(D2) + (v + jitter)·I.
func covariance(cov Covariance, d2 *mat.Dense, h Hyperparameters, jitter float64) *mat.SymDense {
	n, _ := d2.Dims()
	k := mat.NewSymDense(n, nil)
	raw := k.RawSymmetric()
	parallel.For(n, 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			src := d2.RawRowView(i)
			dst := raw.Data[i*raw.Stride : i*raw.Stride+n]
			for j := i; j < n; j++ {
				dst[j] = h.Amplitude * unitCov(cov, src[j], h.LengthScale)
			}
			dst[i] += h.Noise + jitter
		}
	})
	return k
}

// likelihood evaluates the log marginal likelihood and its gradient with
// respect to (log a, log ℓ, log v).
type likelihood struct {
	cov    Covariance
	d2     *mat.Dense
	y      []float64
	jitter float64

	last     Hyperparameters
	lastVal  float64
	lastGrad []float64
	haveGrad bool
}

func (l *likelihood) eval(h Hyperparameters, wantGrad bool) (float64, []float64, error) {
	if h == l.last && l.lastGrad != nil && (l.haveGrad || !wantGrad) {
		return l.lastVal, l.lastGrad, nil
	}
	n := len(l.y)
	k := covariance(l.cov, l.d2, h, l.jitter)
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

// logBox maps a free variable u to a log hyperparameter inside [lo, hi]:
// log θ = lo + (hi − lo)·σ(u), σ the logistic function.
type logBox struct{ lo, hi float64 }

func (b logBox) toFree(logTheta float64) float64 {
	t := (logTheta - b.lo) / (b.hi - b.lo)
	return math.Log(t / (1 - t))
}

func (b logBox) fromFree(u float64) float64 {
	return b.lo + (b.hi-b.lo)/(1+math.Exp(-u))
}

// slope is d log θ / du.
func (b logBox) slope(u float64) float64 {
	s := 1 / (1 + math.Exp(-u))
	return (b.hi - b.lo) * s * (1 - s)
}

func (b logBox) hyper(u []float64) Hyperparameters {
	return Hyperparameters{Amplitude: math.Exp(b.fromFree(u[0])), LengthScale: math.Exp(b.fromFree(u[1])), Noise: math.Exp(b.fromFree(u[2]))}
}
