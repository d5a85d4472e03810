package gp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// sqDistances returns ‖x_i − y_j‖² for the rows of x and y, computed as
// ‖x‖² + ‖y‖² − 2xᵀy and clamped at 0; a pair whose result is small against
// the norms (cancellation) is recomputed directly.
func sqDistances(x, y *mat.Dense) *mat.Dense {
	n, d := x.Dims()
	m, _ := y.Dims()
	out := mat.NewDense(n, m, nil)
	out.Mul(x, y.T())
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

// unitCovDLogLength is ∂unitCov/∂ log ℓ.
func unitCovDLogLength(cov Covariance, d2, length float64) float64 {
	if cov == SquaredExponential {
		return math.Exp(-d2/(2*length*length)) * d2 / (length * length)
	}
	u := math.Sqrt(5*d2) / length
	return u * u * (1 + u) / 3 * math.Exp(-u)
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
	var ch mat.Cholesky
	if ok := ch.Factorize(k); !ok {
		return math.NaN(), nil, fmt.Errorf("covariance not positive definite at %v", h)
	}
	a := mat.NewVecDense(n, nil)
	yv := mat.NewVecDense(n, l.y)
	if err := ch.SolveVecTo(a, yv); err != nil {
		return math.NaN(), nil, err
	}
	val := -0.5*mat.Dot(a, yv) - 0.5*ch.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi)
	grad := make([]float64, 3)
	if wantGrad {
		var inv mat.SymDense
		if err := ch.InverseTo(&inv); err != nil {
			return math.NaN(), nil, err
		}
		ad := a.RawVector().Data
		ir := inv.RawSymmetric()
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
					for j := i; j < n; j++ {
						w := ad[i]*ad[j] - irow[j]
						if j != i {
							w *= 2
						} else {
							s.trace += w
						}
						s.amp += w * h.Amplitude * unitCov(l.cov, drow[j], h.LengthScale)
						s.length += w * h.Amplitude * unitCovDLogLength(l.cov, drow[j], h.LengthScale)
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
