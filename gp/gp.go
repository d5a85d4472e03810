package gp

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/dense"
)

// Covariance selects the stationary covariance function.
type Covariance int

const (
	// Matern52 is the Matérn covariance of smoothness 5/2 (the zero value).
	Matern52 Covariance = iota
	// SquaredExponential is the Gaussian (RBF) covariance.
	SquaredExponential
)

func (c Covariance) String() string {
	switch c {
	case Matern52:
		return "matern52"
	case SquaredExponential:
		return "squared-exponential"
	}
	return fmt.Sprintf("Covariance(%d)", int(c))
}

// Hyperparameters of the covariance and the noise.
type Hyperparameters struct {
	Amplitude   float64 // a, the prior variance of f
	LengthScale float64 // ℓ
	Noise       float64 // v, the variance of the Gaussian observation noise
}

func (h Hyperparameters) String() string {
	return fmt.Sprintf("amplitude %.4g, length scale %.4g, noise %.4g", h.Amplitude, h.LengthScale, h.Noise)
}

// Bounds is the box every hyperparameter is kept in during the fit.
type Bounds struct {
	Lower, Upper float64 // 0 means 1e-5 and 1e5 (scikit-learn's defaults)
}

// DefaultMaxIterations is the number of L-BFGS iterations of the
// hyperparameter fit when Regressor.MaxIterations is 0.
const DefaultMaxIterations = 200

// Regressor is an exact Gaussian-process regressor. Set the exported fields,
// then call Fit; they are never changed by Fit.
type Regressor struct {
	Covariance Covariance
	// Initial hyperparameters; a zero field means 1 (amplitude), 1 (length
	// scale), 1e-2 (noise), scikit-learn's ConstantKernel(1)·Matern(1) +
	// WhiteKernel(1e-2).
	Initial Hyperparameters
	Bounds  Bounds
	// Fixed keeps the initial hyperparameters (no optimisation).
	Fixed bool
	// MaxIterations of L-BFGS; 0 means DefaultMaxIterations.
	MaxIterations int
	// Jitter added to the diagonal of K besides the noise; 0 means 1e-10
	// (scikit-learn's alpha).
	Jitter float64
	// Progress, if not nil, is called after each likelihood evaluation with
	// the evaluation count and the log marginal likelihood.
	Progress func(evaluations int, logLikelihood float64)

	fitted *posterior
}

// posterior is the learned state.
type posterior struct {
	hyper  Hyperparameters
	x      *mat.Dense
	r      *mat.TriDense // upper Cholesky factor of the training covariance, RᵀR = K
	alpha  []float64
	lml    float64
	evals  int
	jitter float64
}

func (r *Regressor) initial() Hyperparameters {
	h := r.Initial
	if h.Amplitude == 0 {
		h.Amplitude = 1
	}
	if h.LengthScale == 0 {
		h.LengthScale = 1
	}
	if h.Noise == 0 {
		h.Noise = 1e-2
	}
	return h
}

func (r *Regressor) bounds() (lo, hi float64) {
	lo, hi = r.Bounds.Lower, r.Bounds.Upper
	if lo == 0 {
		lo = 1e-5
	}
	if hi == 0 {
		hi = 1e5
	}
	return lo, hi
}

func (r *Regressor) jitter() float64 {
	if r.Jitter == 0 {
		return 1e-10
	}
	return r.Jitter
}

func checkPositive(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("gp: %s = %v is invalid: it must be finite and > 0", name, v)
	}
	return nil
}

// Validate reports a setting outside its valid range.
func (r *Regressor) Validate() error {
	if r.Covariance != Matern52 && r.Covariance != SquaredExponential {
		return fmt.Errorf("gp: Covariance = %d is invalid: use Matern52 or SquaredExponential", int(r.Covariance))
	}
	h := r.initial()
	for _, p := range []struct {
		name string
		v    float64
	}{{"Initial.Amplitude", h.Amplitude}, {"Initial.LengthScale", h.LengthScale}, {"Initial.Noise", h.Noise}} {
		if err := checkPositive(p.name, p.v); err != nil {
			return err
		}
	}
	lo, hi := r.bounds()
	if err := checkPositive("Bounds.Lower", lo); err != nil {
		return err
	}
	if err := checkPositive("Bounds.Upper", hi); err != nil {
		return err
	}
	if !(lo < hi) {
		return fmt.Errorf("gp: Bounds = [%v, %v] is invalid: Lower must be below Upper", lo, hi)
	}
	if !r.Fixed {
		for _, p := range []struct {
			name string
			v    float64
		}{{"Initial.Amplitude", h.Amplitude}, {"Initial.LengthScale", h.LengthScale}, {"Initial.Noise", h.Noise}} {
			if p.v <= lo || p.v >= hi {
				return fmt.Errorf("gp: %s = %v is invalid: it must lie strictly inside Bounds (%v, %v)", p.name, p.v, lo, hi)
			}
		}
	}
	if r.MaxIterations < 0 {
		return fmt.Errorf("gp: MaxIterations = %d is invalid: it must be ≥ 0 (0 means %d)", r.MaxIterations, DefaultMaxIterations)
	}
	if !(r.Jitter >= 0) || math.IsInf(r.Jitter, 0) {
		return fmt.Errorf("gp: Jitter = %v is invalid: it must be finite and ≥ 0 (0 means 1e-10)", r.Jitter)
	}
	return nil
}

// checkData validates training inputs and targets.
func checkData(x *mat.Dense, y []float64) error {
	if x == nil || x.IsEmpty() {
		return errors.New("gp: no training points")
	}
	n, d := x.Dims()
	if len(y) != n {
		return fmt.Errorf("gp: %d training points but %d targets", n, len(y))
	}
	if err := checkPoints("training point", x, d); err != nil {
		return err
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("gp: target %d is %v; targets must be finite", i, v)
		}
	}
	return nil
}

func checkPoints(what string, x *mat.Dense, d int) error {
	n, c := x.Dims()
	if c != d {
		return fmt.Errorf("gp: %ss have %d coordinates, want %d", what, c, d)
	}
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("gp: %s %d, coordinate %d is %v", what, i, j, v)
			}
		}
	}
	return nil
}

// ContextConverger is a gonum optimize.Converger that stops the optimisation
// when Context is done and otherwise defers to Inner.
type ContextConverger struct {
	Context context.Context
	Inner   optimize.Converger
}

// Init implements optimize.Converger.
func (c *ContextConverger) Init(dim int) { c.Inner.Init(dim) }

// Converged implements optimize.Converger.
func (c *ContextConverger) Converged(loc *optimize.Location) optimize.Status {
	if c.Context.Err() != nil {
		return optimize.MethodConverge
	}
	return c.Inner.Converged(loc)
}

// fitKnown is Fit on points whose targets are all known: it learns the
// hyperparameters by maximising the log marginal likelihood (unless Fixed)
// and factorises the training covariance. x is n×d, y has n finite values.
func (r *Regressor) fitKnown(ctx context.Context, x *mat.Dense, y []float64) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if err := checkData(x, y); err != nil {
		return err
	}
	init := r.initial()
	lik := newLikelihood(r.Covariance, sqDistances(x, x), y, r.jitter())
	best := init
	evals := 0
	if !r.Fixed {
		lo, hi := r.bounds()
		box := logBox{lo: math.Log(lo), hi: math.Log(hi)}
		u0 := []float64{box.toFree(math.Log(init.Amplitude)), box.toFree(math.Log(init.LengthScale)), box.toFree(math.Log(init.Noise))}
		var failure error
		problem := optimize.Problem{
			Func: func(u []float64) float64 {
				v, _, err := lik.eval(box.hyper(u), true) // L-BFGS asks for the gradient at almost every point: compute both from one factorisation
				evals++
				if err != nil {
					failure = err
					return math.Inf(1)
				}
				if r.Progress != nil {
					r.Progress(evals, v)
				}
				return -v
			},
			Grad: func(g, u []float64) {
				h := box.hyper(u)
				_, gl, err := lik.eval(h, true)
				if err != nil {
					for i := range g {
						g[i] = math.NaN()
					}
					return
				}
				for i := range g {
					g[i] = -gl[i] * box.slope(u[i])
				}
			},
		}
		maxIter := r.MaxIterations
		if maxIter == 0 {
			maxIter = DefaultMaxIterations
		}
		settings := &optimize.Settings{
			MajorIterations:   maxIter,
			GradientThreshold: 1e-5,
			Converger:         &ContextConverger{Context: ctx, Inner: &optimize.FunctionConverge{Absolute: 1e-9, Relative: 1e-10, Iterations: 5}},
		}
		res, err := optimize.Minimize(problem, u0, settings, &optimize.LBFGS{Linesearcher: &optimize.Backtracking{}})
		if cerr := ctx.Err(); cerr != nil {
			return fmt.Errorf("gp: fit cancelled: %w", cerr)
		}
		if res == nil || res.X == nil {
			if failure != nil {
				return fmt.Errorf("gp: fit: %w", failure)
			}
			return fmt.Errorf("gp: fit: %w", err)
		}
		// A line-search failure after progress still leaves a usable optimum.
		best = box.hyper(res.X)
	}
	dist := lik.dist
	lik = nil // its n×n buffers are no longer needed
	post, err := factor(r.Covariance, x, dist, y, best, r.jitter())
	if err != nil {
		return err
	}
	post.evals = evals
	r.fitted = post
	return nil
}

// Hyperparameters returns the fitted hyperparameters (zero before Fit).
func (r *Regressor) Hyperparameters() Hyperparameters {
	if r.fitted == nil {
		return Hyperparameters{}
	}
	return r.fitted.hyper
}

// LogMarginalLikelihood returns log p(y) at the fitted hyperparameters.
func (r *Regressor) LogMarginalLikelihood() float64 {
	if r.fitted == nil {
		return math.NaN()
	}
	return r.fitted.lml
}

// Evaluations returns how many times Fit evaluated the likelihood.
func (r *Regressor) Evaluations() int {
	if r.fitted == nil {
		return 0
	}
	return r.fitted.evals
}

// ErrNotFitted is the cause of every prediction's error before a
// successful Fit (errors.Is); it is estimator.ErrNotFitted.
var ErrNotFitted = estimator.ErrNotFitted

var errNotFitted = estimator.NotFitted("gp: Regressor")

// Predict returns the posterior mean and the latent variance of f at the
// rows of x (add Hyperparameters().Noise for the variance of a new
// observation). A nil x asks for the fitted points (the rows with a known
// target). ctx is checked once.
func (r *Regressor) Predict(ctx context.Context, x *mat.Dense) (estimator.Regression, error) {
	p := r.fitted
	if p == nil {
		return estimator.Regression{}, errNotFitted
	}
	if err := ctx.Err(); err != nil {
		return estimator.Regression{}, err
	}
	if x == nil {
		x = p.x
	}
	_, d := p.x.Dims()
	if x.IsEmpty() {
		return estimator.Regression{}, errors.New("gp: Predict: no points")
	}
	if err := checkPoints("query point", x, d); err != nil {
		return estimator.Regression{}, err
	}
	m, _ := x.Dims()
	ks := p.cross(r.Covariance, x) // n×m
	mean := make([]float64, m)
	mat.NewVecDense(m, mean).MulVec(ks.T(), mat.NewVecDense(len(p.alpha), p.alpha))
	v := ks // R⁻ᵀk(X, x), in place
	dense.TriSolve(p.r, true, v)
	variance := make([]float64, m)
	n, _ := v.Dims()
	for j := 0; j < m; j++ {
		var s float64
		for i := 0; i < n; i++ {
			t := v.At(i, j)
			s += t * t
		}
		variance[j] = math.Max(p.hyper.Amplitude-s, 0)
	}
	return estimator.Regression{Mean: mean, Variance: variance}, nil
}

// PosteriorCovariance returns the latent posterior covariance of f at the
// rows of x (m×m, dense).
func (r *Regressor) PosteriorCovariance(x *mat.Dense) (*mat.SymDense, error) {
	p := r.fitted
	if p == nil {
		return nil, errNotFitted
	}
	_, d := p.x.Dims()
	if x == nil || x.IsEmpty() {
		return nil, errors.New("gp: PosteriorCovariance: no points")
	}
	if err := checkPoints("query point", x, d); err != nil {
		return nil, err
	}
	m, _ := x.Dims()
	ks := p.cross(r.Covariance, x)
	v := ks // R⁻ᵀk(X, x), in place
	dense.TriSolve(p.r, true, v)
	prior := sqDistances(x, x)
	out := mat.NewSymDense(m, nil)
	var vtv mat.SymDense
	vtv.SymOuterK(1, v.T())
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			out.SetSym(i, j, p.hyper.Amplitude*unitCov(r.Covariance, prior.At(i, j), p.hyper.LengthScale)-vtv.At(i, j))
		}
	}
	return out, nil
}

// cross returns k(X_train, x) (n×m).
func (p *posterior) cross(cov Covariance, x *mat.Dense) *mat.Dense {
	d2 := sqDistances(p.x, x)
	n, m := d2.Dims()
	for i := 0; i < n; i++ {
		row := d2.RawRowView(i)
		for j := 0; j < m; j++ {
			row[j] = p.hyper.Amplitude * unitCov(cov, row[j], p.hyper.LengthScale)
		}
	}
	return d2
}

// factor builds the posterior at fixed hyperparameters; dist holds the
// covDistance of the squared distances between the rows of x.
func factor(cov Covariance, x, dist *mat.Dense, y []float64, h Hyperparameters, jitter float64) (*posterior, error) {
	n := len(y)
	k := covariance(cov, dist, h, jitter)
	p := &posterior{hyper: h, x: mat.DenseCopyOf(x), jitter: jitter}
	r, ok := dense.Cholesky(k)
	if !ok {
		return nil, fmt.Errorf("gp: the training covariance is not positive definite at %v (add noise or jitter)", h)
	}
	p.r = r
	alpha := append([]float64(nil), y...)
	av := mat.NewDense(n, 1, alpha) // α = R⁻¹R⁻ᵀy, in place
	dense.TriSolve(r, true, av)
	dense.TriSolve(r, false, av)
	p.alpha = alpha
	p.lml = -0.5*floats.Dot(alpha, y) - 0.5*logDetFromFactor(r) - 0.5*float64(n)*math.Log(2*math.Pi)
	return p, nil
}
