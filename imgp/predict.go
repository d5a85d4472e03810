package imgp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/knngraph"
)

// ErrNotFitted is the cause of every prediction's error before a
// successful Fit (errors.Is); it is estimator.ErrNotFitted.
var ErrNotFitted = estimator.ErrNotFitted

var errNotFitted = estimator.NotFitted("imgp: Regressor")

// Prediction is the blended predictive distribution at new points (IMGP
// eq. 12): mean γm_m + (1−γ)m_e and latent variance γ²v_m + (1−γ)²v_e,
// with its parts. Its values are in the standardised units the model is
// fitted in, (y − Scaling.Mean)/Scaling.Scale (see TargetScaling);
// Predict returns the targets' units.
type Prediction struct {
	Mean     []float64
	Variance []float64 // latent variance of f
	// Observation is the variance of a new noisy observation: Variance plus
	// γσ²_ε (graph model) + (1−γ)v (Euclidean GP).
	Observation []float64
	Gamma       []float64 // γ(x) ∈ [0, 1]
	// The two components.
	ManifoldMean, ManifoldVariance   []float64
	EuclideanMean, EuclideanVariance []float64
}

// Hyperparameters returns the fitted hyperparameters.
func (r *Regressor) Hyperparameters() Hyperparameters {
	if r.fit == nil {
		return Hyperparameters{}
	}
	return r.fit.h
}

// Spectrum returns the eigenpairs used for prediction.
func (r *Regressor) Spectrum() *Eigenpairs {
	if r.fit == nil {
		return nil
	}
	return r.fit.eig
}

// EuclideanModel returns the fitted Euclidean GP.
func (r *Regressor) EuclideanModel() *gp.Regressor {
	if r.fit == nil {
		return nil
	}
	return r.fit.eucl
}

// FittedGraph returns the KNN graph Fit used.
func (r *Regressor) FittedGraph() *knngraph.Graph {
	if r.fit == nil {
		return nil
	}
	return r.fit.geo
}

// Steps returns the number of Adam steps taken and the total number of
// conjugate-gradient iterations they used.
func (r *Regressor) Steps() (steps, cgIterations int) {
	if r.fit == nil {
		return 0, 0
	}
	return r.fit.steps, r.fit.cgIters
}

// Timings returns how long the stages of Fit took.
func (r *Regressor) Timings() Timings {
	if r.fit == nil {
		return Timings{}
	}
	return r.fit.times
}

// Variance returns σ² = s·C_L, the mean prior variance over the nodes of the
// rank-L kernel (IMGP eq. 8's normalisation with the truncated sum).
func (r *Regressor) Variance() float64 {
	f := r.fit
	if f == nil {
		return math.NaN()
	}
	n, L := f.eig.Vectors.Dims()
	var s float64
	for i := 0; i < n; i++ {
		for q := 0; q < L; q++ {
			v := f.phiScale[q] * f.eig.Vectors.At(i, q)
			s += v * v
		}
	}
	return s / float64(n)
}

// TargetScaling returns the standardisation of the targets the model was
// fitted with (the zero Scaling before Fit).
func (r *Regressor) TargetScaling() Scaling {
	if r.fit == nil {
		return Scaling{}
	}
	return r.fit.scale
}

// NodeMean returns the full-rank posterior mean on every graph node (the
// GMRF solution Q⁻¹ỹ/σ_ε², no eigenpair truncation), in standardised
// units (see TargetScaling).
func (r *Regressor) NodeMean() []float64 {
	if r.fit == nil {
		return nil
	}
	return append([]float64(nil), r.fit.gmrfMean...)
}

// Extend returns the Nyström extension (IMGP eq. 11) of the L eigenvectors
// at a point with the given extension weights:
//
//	f_l(x) = 1/(1 − λ_l) Σ_j A(x, x_j)/D(x) f_l(x_j).
//
// With e from the node's own graph row (knngraph.Graph.NodeNeighbourhood) it
// reproduces f_l(x_i) exactly; with the K nearest nodes of a query (what
// Predict uses) it is IMGP's definition.
func (r *Regressor) Extend(e knngraph.Extension) ([]float64, error) {
	f := r.fit
	if f == nil {
		return nil, errNotFitted
	}
	return f.extend(e), nil
}

func (f *fitted) extend(e knngraph.Extension) []float64 {
	L := len(f.eig.Values)
	out := make([]float64, L)
	for p, j := range e.Index {
		wj := e.A[p] / e.D
		row := f.eig.Vectors.RawRowView(int(j))
		for q := 0; q < L; q++ {
			out[q] += wj * row[q]
		}
	}
	for q, lam := range f.eig.Values {
		out[q] /= 1 - lam
	}
	return out
}

// Gamma is IMGP's bump γ = exp(1 − r²/(r² − d²)) for d < r = 3α, else 0.
func Gamma(dist, alpha float64) float64 {
	r2 := 9 * alpha * alpha
	d2 := dist * dist
	if d2 >= r2 {
		return 0
	}
	return math.Exp(1 - r2/(r2-d2))
}

// query finds the K nearest nodes of the rows of x, the blend weights γ and,
// where γ > 0, the extension weights (a point with γ = 0 uses no graph
// features: far from the graph the weights may underflow).
func (f *fitted) query(ctx context.Context, rule DistanceRule, x *mat.Dense) ([]knngraph.Extension, []float64, error) {
	_, d := f.x.Dims()
	if x == nil || x.IsEmpty() {
		return nil, nil, errors.New("imgp: no query points")
	}
	if _, dq := x.Dims(); dq != d {
		return nil, nil, fmt.Errorf("imgp: query points have %d coordinates, the graph's have %d", dq, d)
	}
	for i := 0; i < x.RawMatrix().Rows; i++ {
		for j, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("imgp: query point %d, coordinate %d is %v", i, j, v)
			}
		}
	}
	nb, err := knngraph.Query(ctx, f.x, x, f.k, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("imgp: %w", err)
	}
	ext := make([]knngraph.Extension, nb.N)
	gam := make([]float64, nb.N)
	for i := range ext {
		idx, d2 := nb.Row(i)
		dist := math.Sqrt(d2[0])
		if rule == MeanNeighbour {
			dist = 0
			for _, v := range d2 {
				dist += math.Sqrt(v)
			}
			dist /= float64(len(d2))
		}
		gam[i] = Gamma(dist, f.h.Alpha)
		if gam[i] == 0 {
			continue
		}
		if ext[i], err = f.w.Extend(idx, d2); err != nil {
			return nil, nil, fmt.Errorf("imgp: query point %d: %w", i, err)
		}
	}
	return ext, gam, nil
}

// features returns the m×L matrix of φ_l(x) = √(sΦ(λ_l)) f_l(x).
func (f *fitted) features(ext []knngraph.Extension) *mat.Dense {
	L := len(f.eig.Values)
	phi := mat.NewDense(len(ext), L, nil)
	for i, e := range ext {
		row := phi.RawRowView(i)
		for q, v := range f.extend(e) {
			row[q] = f.phiScale[q] * v
		}
	}
	return phi
}

// Predict returns the predictive mean and latent variance of f in the
// targets' units: at the rows of x, the blend of the graph model and the
// Euclidean GP (Posterior has its parts); for a nil x, on every fitted
// point, the rank-L graph posterior (γ = 1, the node values of the
// eigenvectors).
func (r *Regressor) Predict(ctx context.Context, x *mat.Dense) (estimator.Regression, error) {
	f := r.fit
	if f == nil {
		return estimator.Regression{}, errNotFitted
	}
	p, err := r.Posterior(ctx, x)
	if err != nil {
		return estimator.Regression{}, err
	}
	mean, variance := p.Mean, p.Variance
	if s := f.scale; s != (Scaling{Scale: 1}) {
		for i := range mean {
			mean[i] = s.Mean + s.Scale*mean[i]
			variance[i] = s.Scale * s.Scale * variance[i]
		}
	}
	return estimator.Regression{Mean: mean, Variance: variance}, nil
}

// Posterior returns the blended predictive distribution at the rows of x
// with its parts, in standardised units (see Prediction). For a nil x it
// is the rank-L graph posterior on every fitted point: γ = 1, the
// Euclidean parts nil.
func (r *Regressor) Posterior(ctx context.Context, x *mat.Dense) (*Prediction, error) {
	f := r.fit
	if f == nil {
		return nil, errNotFitted
	}
	if x == nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		mean, variance := f.nodes()
		p := &Prediction{Mean: mean, Variance: variance, Observation: make([]float64, len(mean)), Gamma: make([]float64, len(mean)),
			ManifoldMean: mean, ManifoldVariance: variance}
		for i, v := range variance {
			p.Observation[i], p.Gamma[i] = v+f.h.Noise, 1
		}
		return p, nil
	}
	ext, gam, err := f.query(ctx, r.Distance, x)
	if err != nil {
		return nil, err
	}
	m := len(ext)
	phi := f.features(ext)
	ep, err := f.eucl.Predict(ctx, x)
	if err != nil {
		return nil, fmt.Errorf("imgp: Euclidean GP: %w", err)
	}
	em, ev := ep.Mean, ep.Variance
	out := &Prediction{Mean: make([]float64, m), Variance: make([]float64, m), Observation: make([]float64, m),
		Gamma: make([]float64, m), ManifoldMean: make([]float64, m), ManifoldVariance: make([]float64, m),
		EuclideanMean: em, EuclideanVariance: ev}
	mu := mat.NewVecDense(len(f.mu), f.mu)
	en := f.eucl.Hyperparameters().Noise
	for i := 0; i < m; i++ {
		row := phi.RowView(i)
		mm := mat.Dot(row, mu)
		mv := math.Max(mat.Inner(row, f.sigma, row), 0)
		g := gam[i]
		out.ManifoldMean[i], out.ManifoldVariance[i], out.Gamma[i] = mm, mv, g
		out.Mean[i] = g*mm + (1-g)*em[i]
		out.Variance[i] = g*g*mv + (1-g)*(1-g)*ev[i]
		out.Observation[i] = out.Variance[i] + g*f.h.Noise + (1-g)*en
	}
	return out, nil
}

// nodes returns the rank-L posterior mean and latent variance on every
// graph node, in standardised units.
func (f *fitted) nodes() (mean, variance []float64) {
	n, L := f.eig.Vectors.Dims()
	mean, variance = make([]float64, n), make([]float64, n)
	row := mat.NewVecDense(L, nil)
	for i := 0; i < n; i++ {
		for q := 0; q < L; q++ {
			row.SetVec(q, f.phiScale[q]*f.eig.Vectors.At(i, q))
		}
		mean[i] = mat.Dot(row, mat.NewVecDense(L, f.mu))
		variance[i] = math.Max(mat.Inner(row, f.sigma, row), 0)
	}
	return mean, variance
}

// Sample draws count joint posterior samples of f at the rows of x (a
// count×m matrix): f = γ f_m + (1−γ) f_e with independent draws of the
// rank-L graph model and the Euclidean GP, whose covariance is
// γ(x)γ(x′)k_m(x,x′) + (1−γ(x))(1−γ(x′))k_e(x,x′). The Euclidean part uses a
// dense m×m Cholesky factor (plus jitter 1e-10·amplitude). The samples are
// in standardised units (see Prediction).
func (r *Regressor) Sample(ctx context.Context, x *mat.Dense, count int, seed uint64) (*mat.Dense, error) {
	f := r.fit
	if f == nil {
		return nil, errNotFitted
	}
	if count < 1 {
		return nil, fmt.Errorf("imgp: Sample: count = %d is invalid: it must be ≥ 1", count)
	}
	ext, gam, err := f.query(ctx, r.Distance, x)
	if err != nil {
		return nil, err
	}
	m := len(ext)
	phi := f.features(ext)
	ep, err := f.eucl.Predict(ctx, x)
	if err != nil {
		return nil, err
	}
	em := ep.Mean
	ec, err := f.eucl.PosteriorCovariance(x)
	if err != nil {
		return nil, err
	}
	jit := 1e-10 * f.eucl.Hyperparameters().Amplitude
	for i := 0; i < m; i++ {
		ec.SetSym(i, i, ec.At(i, i)+jit)
	}
	var echol mat.Cholesky
	if !echol.Factorize(ec) {
		return nil, errors.New("imgp: Sample: the Euclidean posterior covariance is not positive definite")
	}
	var el, wl mat.TriDense
	echol.LTo(&el)
	f.chol.LTo(&wl)
	L := len(f.mu)
	rng := rand.New(rand.NewPCG(seed, 0x5a3b1e))
	out := mat.NewDense(count, m, nil)
	zw := mat.NewVecDense(L, nil)
	ze := mat.NewVecDense(m, nil)
	var w, fe, fm mat.VecDense
	for s := 0; s < count; s++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for q := 0; q < L; q++ {
			zw.SetVec(q, rng.NormFloat64())
		}
		for i := 0; i < m; i++ {
			ze.SetVec(i, rng.NormFloat64())
		}
		w.MulVec(&wl, zw)
		w.AddVec(&w, mat.NewVecDense(L, f.mu))
		fm.MulVec(phi, &w)
		fe.MulVec(&el, ze)
		for i := 0; i < m; i++ {
			out.Set(s, i, gam[i]*fm.AtVec(i)+(1-gam[i])*(em[i]+fe.AtVec(i)))
		}
	}
	return out, nil
}
