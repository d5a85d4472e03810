package logreg

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// hessianBound bounds the curvature of the softmax loss of one row along
// one logit: ∂²/∂z_k² of −log p_y is p_k(1−p_k) ≤ 1/4.
const hessianBound = 0.25

// jacobi is the diagonal change of variables v = θ⊙s of
// Classifier.Precondition: for the coefficient row of column j,
// s_j = √(h‖z_j‖²/m + λ), the square root of a bound on J's Hessian
// diagonal (h = 1/4); for the intercepts s = √h; then every s is divided by
// the largest, so that s ≤ 1 and ‖∇_v J‖_∞ ≤ tol implies ‖∇_θ J‖_∞ ≤ tol
// (∇_v J = ∇_θ J ⊘ s).
type jacobi struct {
	s     []float64 // one per coefficient row (d of W, then b)
	c     int
	theta []float64
	g     []float64
}

// newJacobi returns the preconditioner of a dense or sparse design, nil
// for any other.
func newJacobi(x Design, c int, lambda float64) *jacobi {
	m, d := x.Dims()
	sq := make([]float64, d+1)
	switch x := x.(type) {
	case Dense:
		for i := 0; i < m; i++ {
			for j, v := range x.X.RawRowView(i) {
				sq[j] += v * v
			}
		}
	case Sparse:
		for k := 0; k < m; k++ {
			cols, vals := x.X.Row(x.row(k))
			for t, col := range cols {
				sq[col] += vals[t] * vals[t]
			}
		}
	default:
		return nil
	}
	for j := 0; j < d; j++ {
		sq[j] = math.Sqrt(hessianBound*sq[j]/float64(m) + lambda)
	}
	sq[d] = math.Sqrt(hessianBound)
	top := slices.Max(sq)
	for j := range sq {
		if sq[j] == 0 {
			sq[j] = top // a zero column without penalty: no curvature to match
		}
		sq[j] /= top
	}
	return &jacobi{s: sq, c: c, theta: make([]float64, (d+1)*c), g: make([]float64, (d+1)*c)}
}

// toScaled replaces θ by v = θ⊙s in place.
func (p *jacobi) toScaled(theta []float64) {
	for k := range theta {
		theta[k] *= p.s[k/p.c]
	}
}

// fromScaled returns θ = v⊘s in dst (allocated when nil).
func (p *jacobi) fromScaled(dst, v []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(v))
	}
	for k, x := range v {
		dst[k] = x / p.s[k/p.c]
	}
	return dst
}

func (p *jacobi) value(o *objective) func([]float64) float64 {
	return func(v []float64) float64 {
		return o.value(p.fromScaled(p.theta, v))
	}
}

func (p *jacobi) grad(o *objective) func(g, v []float64) {
	return func(g, v []float64) {
		o.grad(p.g, p.fromScaled(p.theta, v))
		for k, x := range p.g {
			g[k] = x / p.s[k/p.c]
		}
	}
}

// gradientRule is the stopping rule ‖∇_θ J‖_∞ < tol of an unscaled fit for
// L-BFGS on the scaled coefficients v = θ⊙s, whose gradient is
// ∇_v J = ∇_θ J ⊘ s: it is tested on s⊙∇_v J at every major iteration, so
// that a preconditioned fit stops where the unscaled one would by its
// gradient, not at the stricter ‖∇_v J‖_∞ < tol.
type gradientRule struct {
	p   *jacobi
	tol float64
}

func (r gradientRule) Init(int) {}

// Converged reports optimize.GradientThreshold once ‖s⊙∇_v J‖_∞ < tol.
func (r gradientRule) Converged(loc *optimize.Location) optimize.Status {
	for k, g := range loc.Gradient {
		if math.Abs(g*r.p.s[k/r.p.c]) >= r.tol {
			return optimize.NotTerminated
		}
	}
	return optimize.GradientThreshold
}
