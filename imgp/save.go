package imgp

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/modelfile"
)

// RegressorKind is the kind of a Regressor in a modelfile container, and
// ModelVersion the newest layout of it this package reads and writes.
const (
	RegressorKind = "imgp.Regressor"
	ModelVersion  = 1
)

// Fit builds the KNN graph of all N rows of x (with a target or not),
// learns α, κ, s and σ_ε² by maximising the marginal likelihood of the
// known targets with Adam and Hutchinson gradient estimates, then computes
// L eigenpairs for prediction and fits the Euclidean GP on the points with
// a target. y is one target per row, NaN for unknown (the estimator
// contract's front door); FitIndexed takes the rows with a target as an
// index list instead.
func (r *Regressor) Fit(ctx context.Context, x *mat.Dense, y []float64) error {
	if x == nil || x.IsEmpty() {
		return errors.New("imgp: no input points")
	}
	n, _ := x.Dims()
	if len(y) != n {
		return fmt.Errorf("imgp: %d points but %d targets: give one per point, NaN for unknown", n, len(y))
	}
	var lab []int
	var ty []float64
	for i, v := range y {
		if !math.IsNaN(v) {
			lab, ty = append(lab, i), append(ty, v)
		}
	}
	if len(lab) == 0 {
		return errors.New("imgp: no point has a target (every target is NaN)")
	}
	return r.FitIndexed(ctx, x, lab, ty)
}

// Features returns the dimension of the fitted points, 0 before Fit.
func (r *Regressor) Features() int {
	if r.fit == nil {
		return 0
	}
	_, d := r.fit.x.Dims()
	return d
}

// Nodes returns the number of graph nodes (fitted points), 0 before Fit.
func (r *Regressor) Nodes() int {
	if r.fit == nil {
		return 0
	}
	n, _ := r.fit.x.Dims()
	return n
}

var _ estimator.PointRegressor = (*Regressor)(nil)

// Kind returns RegressorKind.
func (r *Regressor) Kind() string { return RegressorKind }

// Info reports the fit under the shared names: Iterations is the number of
// Adam steps, Products the conjugate-gradient iterations they used (one
// product with the precision each); IMGP has no single residual.
func (r *Regressor) Info() estimator.Info {
	s, cg := r.Steps()
	return estimator.Info{Iterations: s, Products: cg}
}

type regressorMeta struct {
	K            int             `json:"k"`
	Nu           int             `json:"nu"`
	Eigenpairs   int             `json:"eigenpairs"`
	Initial      Hyperparameters `json:"initial"`
	Iterations   int             `json:"iterations"`
	LearningRate float64         `json:"learning_rate"`
	Probes       int             `json:"probes"`
	Seed         uint64          `json:"seed"`
	Tol          float64         `json:"tol"`
	Distance     string          `json:"distance"`
	MinNoise     float64         `json:"min_noise"`
	Procedure    string          `json:"procedure"`
	// The fit.
	Fitted       Hyperparameters `json:"fitted"`
	FittedNu     int             `json:"fitted_nu"`
	FittedK      int             `json:"fitted_k"`
	Points       int             `json:"points"`
	Features     int             `json:"features"`
	Components   int             `json:"components"`
	Labelled     int             `json:"labelled"`
	Steps        int             `json:"steps"`
	CGIterations int             `json:"cg_iterations"`
	// The setting Scaling (nil: from the known targets) and the scaling
	// fitted with; a file without target_scale was fitted to its targets
	// as they are.
	Scaling     *Scaling `json:"scaling,omitempty"`
	TargetMean  float64  `json:"target_mean,omitempty"`
	TargetScale float64  `json:"target_scale,omitempty"`
}

// regressorCodec stores a Regressor (kind RegressorKind): the settings,
// the fitted hyperparameters, the points (a new point's neighbours are
// searched among them), the degrees D̃ of the graph at the fitted α (all
// the Nyström extension needs of the graph), the L eigenpairs, the rank-L
// posterior of the feature weights, the full-rank node mean, the labelled
// targets and the Euclidean GP (a nested gp.Regressor container). The KNN
// graph itself is not stored: after a round trip FittedGraph is nil and
// LogMarginalLikelihood, which needs it, returns an error; predictions are
// bitwise the same. Progress, Graph, Eigensolver, Approximate and
// Euclidean (the settings, not the fitted GP) are not stored; a model read
// keeps its Progress.
var regressorCodec = modelfile.Codec[Regressor, regressorMeta]{Kind: RegressorKind, Version: ModelVersion,
	Fitted: func(r *Regressor) bool { return r.fit != nil },
	Put:    putRegressor,
	Get:    readRegressor,
}

func putRegressor(r *Regressor, out *modelfile.File) (regressorMeta, error) {
	f := r.fit
	n, d := f.x.Dims()
	L := len(f.eig.Values)
	eucl, err := f.eucl.ModelFile()
	if err != nil {
		return regressorMeta{}, fmt.Errorf("imgp: the Euclidean GP: %w", err)
	}
	out.PutDense("x", f.x)
	out.PutFloat64s("dtilde", f.w.DTilde)
	out.PutFloat64s("eigenvalues", f.eig.Values)
	out.PutDense("eigenvectors", f.eig.Vectors)
	out.PutFloat64s("phi_scale", f.phiScale)
	out.PutFloat64s("mu", f.mu)
	rs := f.sigma.RawSymmetric() // its storage as it is, the lower part included
	sigma := make([]float64, 0, L*L)
	for i := 0; i < L; i++ {
		sigma = append(sigma, rs.Data[i*rs.Stride:i*rs.Stride+L]...)
	}
	out.PutFloat64s("sigma", sigma)
	out.PutFloat64s("node_mean", f.gmrfMean)
	out.PutInts("labelled", f.labelled)
	out.PutFloat64s("y", f.y)
	if err := out.PutNested("euclidean", eucl); err != nil {
		return regressorMeta{}, fmt.Errorf("imgp: the Euclidean GP: %w", err)
	}
	return regressorMeta{K: r.K, Nu: r.Nu, Eigenpairs: r.Eigenpairs, Initial: r.Initial, Iterations: r.Iterations,
		LearningRate: r.LearningRate, Probes: r.Probes, Seed: r.Seed, Tol: r.Tol, Distance: r.Distance.String(),
		MinNoise: r.MinNoise, Procedure: r.Procedure.String(),
		Fitted: f.h, FittedNu: f.nu, FittedK: f.k, Points: n, Features: d, Components: L, Labelled: len(f.labelled),
		Steps: f.steps, CGIterations: f.cgIters, Scaling: r.Scaling, TargetMean: f.scale.Mean, TargetScale: f.scale.Scale}, nil
}

func readRegressor(f *modelfile.File, meta regressorMeta, dst *Regressor) error {
	out, err := regressorSettings(meta, dst.Progress)
	if err != nil {
		return err
	}
	fit, err := fittedFromMeta(meta)
	if err != nil {
		return err
	}
	if err := fit.readSpectrum(f, meta); err != nil {
		return err
	}
	if err := fit.readTargets(f, meta); err != nil {
		return err
	}
	out.fit = fit
	*dst = out
	return nil
}

// regressorSettings is the unfitted Regressor of a model file's settings,
// with the caller's progress callback, validated.
func regressorSettings(meta regressorMeta, progress func(int, Hyperparameters, [4]float64)) (Regressor, error) {
	out := Regressor{K: meta.K, Nu: meta.Nu, Eigenpairs: meta.Eigenpairs, Initial: meta.Initial, Iterations: meta.Iterations,
		LearningRate: meta.LearningRate, Probes: meta.Probes, Seed: meta.Seed, Tol: meta.Tol, MinNoise: meta.MinNoise,
		Scaling: meta.Scaling, Progress: progress}
	switch meta.Distance {
	case NearestNode.String():
		out.Distance = NearestNode
	case MeanNeighbour.String():
		out.Distance = MeanNeighbour
	default:
		return out, fmt.Errorf("the model file's distance rule %q is not one this gssl knows", meta.Distance)
	}
	p, err := ParseProcedure(meta.Procedure)
	if err != nil {
		return out, fmt.Errorf("the model file's procedure: %w", err)
	}
	out.Procedure = p
	if err := out.Validate(); err != nil {
		return out, fmt.Errorf("the model file's settings: %w", err)
	}
	return out, nil
}

// fittedFromMeta checks the fitted hyperparameters and sizes a model file
// declares and returns the fitted state they make, without its sections.
func fittedFromMeta(meta regressorMeta) (*fitted, error) {
	if err := meta.Fitted.validate("fitted "); err != nil {
		return nil, fmt.Errorf("the model file's fitted hyperparameters: %w", err)
	}
	n, d, L, nl := meta.Points, meta.Features, meta.Components, meta.Labelled
	if n < 2 || d < 1 || L < 1 || L > n || nl < 1 || nl > n {
		return nil, fmt.Errorf("the model file declares %d points of %d features, %d eigenpairs and %d labelled points", n, d, L, nl)
	}
	if meta.FittedK < 1 || meta.FittedK >= n {
		return nil, fmt.Errorf("the model file's K = %d is invalid for %d points", meta.FittedK, n)
	}
	if err := checkNu(meta.FittedNu); err != nil || meta.FittedNu < 1 {
		return nil, fmt.Errorf("the model file's ν = %d is invalid", meta.FittedNu)
	}
	fit := &fitted{h: meta.Fitted, nu: meta.FittedNu, k: meta.FittedK, steps: meta.Steps, cgIters: meta.CGIterations,
		scale: Scaling{Mean: meta.TargetMean, Scale: meta.TargetScale}}
	if meta.TargetScale == 0 && meta.TargetMean == 0 {
		fit.scale.Scale = 1
	}
	if s := fit.scale; math.IsNaN(s.Mean) || math.IsInf(s.Mean, 0) || !(s.Scale > 0) || math.IsInf(s.Scale, 0) {
		return nil, fmt.Errorf("the model file's target scaling %+v is invalid: the mean must be finite and the scale finite and > 0", s)
	}
	return fit, nil
}

// readSpectrum reads the points, the graph's degrees, the eigenpairs and
// the posterior of the weights on them, checking each.
func (fit *fitted) readSpectrum(f *modelfile.File, meta regressorMeta) error {
	n, d, L := meta.Points, meta.Features, meta.Components
	var err error
	if fit.x, err = f.Dense("x", n, d); err != nil {
		return err
	}
	dt, err := f.Float64sLen("dtilde", n)
	if err != nil {
		return err
	}
	for i, v := range dt {
		if !(v >= 1) {
			return fmt.Errorf("the model file's degree D̃ of node %d is %v; it must be finite and ≥ 1", i, v)
		}
	}
	fit.w = &knngraph.Weights{Alpha: meta.Fitted.Alpha, DTilde: dt}
	vals, err := f.Float64sLen("eigenvalues", L)
	if err != nil {
		return err
	}
	for q, v := range vals {
		if v == 1 {
			return fmt.Errorf("the model file's eigenvalue %d is %v; it must be finite and ≠ 1", q, v)
		}
	}
	vecs, err := f.Dense("eigenvectors", n, L)
	if err != nil {
		return err
	}
	fit.eig = &Eigenpairs{Values: vals, Vectors: vecs}
	if fit.phiScale, err = f.Float64sLen("phi_scale", L); err != nil {
		return err
	}
	if fit.mu, err = f.Float64sLen("mu", L); err != nil {
		return err
	}
	sigma, err := f.Dense("sigma", L, L)
	if err != nil {
		return err
	}
	fit.sigma = mat.NewSymDense(L, sigma.RawMatrix().Data)
	if !fit.chol.Factorize(fit.sigma) {
		return errors.New("the model file's posterior covariance is not positive definite")
	}
	return nil
}

// readTargets reads the node means, the labelled points and their targets,
// and the Euclidean GP, checking each.
func (fit *fitted) readTargets(f *modelfile.File, meta regressorMeta) error {
	n, d, nl := meta.Points, meta.Features, meta.Labelled
	var err error
	if fit.gmrfMean, err = f.Float64sLen("node_mean", n); err != nil {
		return err
	}
	if fit.labelled, err = f.Indices("labelled", n); err != nil {
		return err
	}
	if len(fit.labelled) != nl {
		return fmt.Errorf("the model file's section \"labelled\" has %d values, want %d", len(fit.labelled), nl)
	}
	if fit.y, err = f.Float64sLen("y", nl); err != nil {
		return err
	}
	eucl, err := f.Nested("euclidean")
	if err == nil {
		fit.eucl = &gp.Regressor{}
		err = fit.eucl.ReadModelFile(eucl)
	}
	if err != nil {
		return fmt.Errorf("the model file's Euclidean GP: %w", err)
	}
	if fit.eucl.Features() != d {
		return fmt.Errorf("the model file's Euclidean GP has %d features, the points %d", fit.eucl.Features(), d)
	}
	return nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// RegressorKind; see regressorCodec).
func (r *Regressor) ModelFile() (*modelfile.File, error) { return regressorCodec.File(r) }

// ReadModelFile replaces r by the model in f (see UnmarshalBinary).
func (r *Regressor) ReadModelFile(f *modelfile.File) error { return regressorCodec.Read(f, r) }

// MarshalBinary encodes the fitted model as a modelfile container (see
// regressorCodec); a model read back predicts bitwise the same.
func (r *Regressor) MarshalBinary() ([]byte, error) { return regressorCodec.Marshal(r) }

// UnmarshalBinary replaces r by the model encoded in data (Progress is
// kept); on an error r is unchanged.
func (r *Regressor) UnmarshalBinary(data []byte) error { return regressorCodec.Unmarshal(data, r) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (r Regressor) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("imgp: Regressor: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (r *Regressor) UnmarshalJSON([]byte) error {
	return fmt.Errorf("imgp: Regressor: %w", estimator.ErrJSON)
}
