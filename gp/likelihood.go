package gp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
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

// covDistance is the form of the squared distance d2 that the covariance
// reads: √(5d²) for Matérn 5/2 (so that u = √(5d²)/ℓ needs no square root
// per evaluation), d² itself for the squared exponential.
func covDistance(cov Covariance, d2 float64) float64 {
	if cov == SquaredExponential {
		return d2
	}
	return math.Sqrt(5 * d2)
}

// unitCov is the covariance with amplitude 1 at squared distance d2.
func unitCov(cov Covariance, d2, length float64) float64 {
	return unitCovAt(cov, covDistance(cov, d2), length)
}

// unitCovAt is the covariance with amplitude 1 at s = covDistance(d²).
func unitCovAt(cov Covariance, s, length float64) float64 {
	if cov == SquaredExponential {
		return math.Exp(-s / (2 * length * length))
	}
	u := s / length
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

// lengthSlopeAt is (∂k/∂ log ℓ)/k at s = covDistance(d²): for Matérn 5/2
// with u = √(5d²)/ℓ, k = (1 + u + u²/3)e^{−u} and ∂k/∂ log ℓ = u²(1 + u)e^{−u}/3,
// whose ratio needs no exponential; for the squared exponential, d²/ℓ².
func lengthSlopeAt(cov Covariance, s, length float64) float64 {
	if cov == SquaredExponential {
		return s / (length * length)
	}
	u := s / length
	return u * u * (1 + u) / (3 * (1 + u + u*u/3))
}

// covariance returns a·k(D) + (v + jitter)·I for the matrix D of
// covDistance values.
func covariance(cov Covariance, dist *mat.Dense, h Hyperparameters, jitter float64) *mat.SymDense {
	n, _ := dist.Dims()
	k := mat.NewSymDense(n, nil)
	raw := k.RawSymmetric()
	parallel.For(n, 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			src := dist.RawRowView(i)
			dst := raw.Data[i*raw.Stride : i*raw.Stride+n]
			for j := i; j < n; j++ {
				dst[j] = h.Amplitude * unitCovAt(cov, src[j], h.LengthScale)
			}
			dst[i] += h.Noise + jitter
		}
	})
	return k
}

// distances returns the matrix of covDistance(‖x_i − x_j‖²), overwriting
// the squared distances d2 (its upper triangle is what is read).
func distances(cov Covariance, d2 *mat.Dense) *mat.Dense {
	n, _ := d2.Dims()
	parallel.For(n, 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := d2.RawRowView(i)
			for j := i; j < n; j++ {
				row[j] = covDistance(cov, row[j])
			}
		}
	})
	return d2
}

// likelihood evaluates the log marginal likelihood and its gradient with
// respect to (log a, log ℓ, log v). Its n×n buffers are kept across
// evaluations: f holds K in its upper triangle (factored in place into R)
// and a·k(D) (the amplitude part of K) below it; inv holds R⁻¹.
type likelihood struct {
	cov    Covariance
	dist   *mat.Dense // covDistance of the squared distances (upper triangle)
	y      []float64
	jitter float64

	f    []float64
	kd   []float64 // the diagonal of K
	a    []float64 // α = K⁻¹y
	inv  *inverse
	grad []float64

	last     Hyperparameters
	lastVal  float64
	lastGrad []float64
	haveGrad bool
}

// newLikelihood returns the likelihood of targets y at points with
// squared distances d2 (overwritten by their covDistance).
func newLikelihood(cov Covariance, d2 *mat.Dense, y []float64, jitter float64) *likelihood {
	return &likelihood{cov: cov, dist: distances(cov, d2), y: y, jitter: jitter}
}

// covTile is the order of the tiles in which fillCovariance writes K and
// its mirror image, so that both stay in cache.
const covTile = 64

// fillCovariance sets the upper triangle of f to K = a·k(D) + (v + jitter)·I
// and the entries below the diagonal to a·k(D) (f[j·n+i] = K_ij, j > i),
// in one pass over D.
func (l *likelihood) fillCovariance(h Hyperparameters) {
	n := len(l.y)
	f, dist := l.f, l.dist.RawMatrix()
	tiles := (n + covTile - 1) / covTile
	prefix := make([]int, tiles+1)
	for t := 0; t < tiles; t++ {
		prefix[t+1] = prefix[t] + (n - t*covTile)
	}
	parallel.Balanced(prefix, 4*covTile*covTile, func(lo, hi int) {
		for ti := lo; ti < hi; ti++ {
			i0, i1 := ti*covTile, min((ti+1)*covTile, n)
			for j0 := i0; j0 < n; j0 += covTile {
				j1 := min(j0+covTile, n)
				for i := i0; i < i1; i++ {
					src := dist.Data[i*dist.Stride : i*dist.Stride+j1]
					for j := max(j0, i); j < j1; j++ {
						v := h.Amplitude * unitCovAt(l.cov, src[j], h.LengthScale)
						f[i*n+j] = v
						f[j*n+i] = v
					}
				}
			}
			for i := i0; i < i1; i++ {
				f[i*n+i] += h.Noise + l.jitter
				l.kd[i] = f[i*n+i]
			}
		}
	})
}

func (l *likelihood) eval(h Hyperparameters, wantGrad bool) (float64, []float64, error) {
	if h == l.last && l.lastGrad != nil && (l.haveGrad || !wantGrad) {
		return l.lastVal, l.lastGrad, nil
	}
	n := len(l.y)
	if l.f == nil {
		l.f, l.kd, l.a = make([]float64, n*n), make([]float64, n), make([]float64, n)
	}
	l.fillCovariance(h)
	// K = RᵀR in place by the GEMM-based blocked Cholesky of internal/dense,
	// which leaves a·k(D) below the diagonal for the gradient.
	if !dense.CholeskyUpper(l.f, n) {
		return math.NaN(), nil, fmt.Errorf("covariance not positive definite at %v", h)
	}
	r := mat.NewTriDense(n, mat.Upper, l.f) // only the upper triangle is read
	copy(l.a, l.y)
	av := mat.NewDense(n, 1, l.a) // α = R^{-1} R^{-T} y, in place
	dense.TriSolve(r, true, av)
	dense.TriSolve(r, false, av)
	val := -0.5*floats.Dot(l.a, l.y) - 0.5*logDetFromFactor(r) - 0.5*float64(n)*math.Log(2*math.Pi)
	grad := make([]float64, 3)
	if wantGrad {
		if l.inv == nil {
			l.inv = newInverse(n)
		}
		l.inv.invert(l.f)
		for _, s := range l.inv.gradientParts(l, h) {
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
