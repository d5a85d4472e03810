package gp

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// RegressorKind is the kind of a Regressor in a modelfile container, and
// ModelVersion the newest layout of it this package reads and writes.
const (
	RegressorKind = "gp.Regressor"
	ModelVersion  = 1
)

// Fit learns the hyperparameters by maximising the log marginal likelihood
// (unless Fixed) and factorises the training covariance of the rows of x
// whose target is known: y is one vector aligned with the rows, NaN for
// unknown (the estimator contract's front door). The rows with NaN are left
// out: the model is the exact GP of the other rows (when every target is
// known, x is used as it is).
func (r *Regressor) Fit(ctx context.Context, x *mat.Dense, y []float64) error {
	if x == nil || x.IsEmpty() {
		return errors.New("gp: no training points")
	}
	n, d := x.Dims()
	if len(y) != n {
		return fmt.Errorf("gp: %d points but %d targets: give one per point, NaN for unknown", n, len(y))
	}
	known := 0
	for i, v := range y {
		switch {
		case math.IsInf(v, 0):
			return fmt.Errorf("gp: target %d is %v; targets must be finite (NaN marks an unknown one)", i, v)
		case !math.IsNaN(v):
			known++
		}
	}
	if known == 0 {
		return errors.New("gp: no point has a target (every target is NaN)")
	}
	if known == n {
		return r.fitKnown(ctx, x, y)
	}
	rows := make([]float64, 0, known*d)
	ty := make([]float64, 0, known)
	for i, v := range y {
		if math.IsNaN(v) {
			continue
		}
		rows = append(rows, x.RawRowView(i)...)
		ty = append(ty, v)
	}
	return r.fitKnown(ctx, mat.NewDense(known, d, rows), ty)
}

// Features returns the dimension of the training points, 0 before Fit.
func (r *Regressor) Features() int {
	if r.fitted == nil {
		return 0
	}
	_, d := r.fitted.x.Dims()
	return d
}

var _ estimator.PointRegressor = (*Regressor)(nil)

// Kind returns RegressorKind.
func (r *Regressor) Kind() string { return RegressorKind }

// Clone returns an unfitted copy of r with the same hyperparameters (and
// Progress).
func (r *Regressor) Clone() *Regressor {
	c := *r
	c.fitted = nil
	return &c
}

// Info reports the fit under the shared names: Iterations is the number of
// likelihood evaluations of the hyperparameter search; a GP has no
// residual or operator products.
func (r *Regressor) Info() estimator.Info {
	return estimator.Info{Iterations: r.Evaluations()}
}

type regressorMeta struct {
	Covariance    string          `json:"covariance"`
	Initial       Hyperparameters `json:"initial"`
	Bounds        Bounds          `json:"bounds"`
	Fixed         bool            `json:"fixed"`
	MaxIterations int             `json:"max_iterations"`
	Jitter        float64         `json:"jitter"`
	Points        int             `json:"points"`
	Features      int             `json:"features"`
	Evaluations   int             `json:"evaluations"`
}

// regressorCodec stores a Regressor: the hyperparameters, the fitted
// ones, the training points, the Cholesky factor of their covariance (n²,
// the exact GP's own cost) and α. Progress is not stored; a model read
// keeps its own.
var regressorCodec = modelfile.Codec[Regressor, regressorMeta]{Kind: RegressorKind, Version: ModelVersion,
	Fitted: func(r *Regressor) bool { return r.fitted != nil },
	Put: func(r *Regressor, f *modelfile.File) (regressorMeta, error) {
		p := r.fitted
		n, d := p.x.Dims()
		f.PutFloat64s("hyper", []float64{p.hyper.Amplitude, p.hyper.LengthScale, p.hyper.Noise, p.lml, p.jitter})
		f.PutDense("x", p.x)
		rt := p.r.RawTriangular() // its storage as it is, the lower part included
		chol := make([]float64, 0, n*n)
		for i := 0; i < n; i++ {
			chol = append(chol, rt.Data[i*rt.Stride:i*rt.Stride+n]...)
		}
		f.PutFloat64s("cholesky", chol)
		f.PutFloat64s("alpha", p.alpha)
		return regressorMeta{Covariance: r.Covariance.String(), Initial: r.Initial, Bounds: r.Bounds, Fixed: r.Fixed,
			MaxIterations: r.MaxIterations, Jitter: r.Jitter, Points: n, Features: d, Evaluations: p.evals}, nil
	},
	Get: readRegressor,
}

func readRegressor(f *modelfile.File, meta regressorMeta, dst *Regressor) error {
	out := Regressor{Initial: meta.Initial, Bounds: meta.Bounds, Fixed: meta.Fixed, MaxIterations: meta.MaxIterations, Jitter: meta.Jitter, Progress: dst.Progress}
	switch meta.Covariance {
	case Matern52.String():
		out.Covariance = Matern52
	case SquaredExponential.String():
		out.Covariance = SquaredExponential
	default:
		return fmt.Errorf("the model file's covariance %q is not one this gssl knows", meta.Covariance)
	}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's settings: %w", err)
	}
	n, d := meta.Points, meta.Features
	h, err := f.Float64sLen("hyper", 5)
	if err != nil {
		return err
	}
	hyper := Hyperparameters{Amplitude: h[0], LengthScale: h[1], Noise: h[2]}
	for _, v := range []float64{h[0], h[1], h[2], h[4]} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("the model file's hyperparameters %v are not finite and ≥ 0", h)
		}
	}
	x, err := f.Dense("x", n, d)
	if err != nil {
		return err
	}
	chol, err := f.Dense("cholesky", n, n)
	if err != nil {
		return err
	}
	alpha, err := f.Float64sLen("alpha", n)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if !(chol.At(i, i) > 0) {
			return fmt.Errorf("the model file's Cholesky factor has %v on its diagonal (row %d)", chol.At(i, i), i)
		}
	}
	out.fitted = &posterior{hyper: hyper, x: x, r: mat.NewTriDense(n, mat.Upper, chol.RawMatrix().Data), alpha: alpha,
		lml: h[3], evals: meta.Evaluations, jitter: h[4]}
	*dst = out
	return nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// RegressorKind).
func (r *Regressor) ModelFile() (*modelfile.File, error) { return regressorCodec.File(r) }

// ReadModelFile replaces r by the model in f (Progress is kept); on an
// error r is unchanged.
func (r *Regressor) ReadModelFile(f *modelfile.File) error { return regressorCodec.Read(f, r) }

// MarshalBinary encodes the fitted model as a modelfile container; a model
// read back predicts bitwise the same. Progress is not stored.
func (r *Regressor) MarshalBinary() ([]byte, error) { return regressorCodec.Marshal(r) }

// UnmarshalBinary replaces r by the model encoded in data (Progress is
// kept); on an error r is unchanged.
func (r *Regressor) UnmarshalBinary(data []byte) error { return regressorCodec.Unmarshal(data, r) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (r Regressor) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("gp: Regressor: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (r *Regressor) UnmarshalJSON([]byte) error {
	return fmt.Errorf("gp: Regressor: %w", estimator.ErrJSON)
}

// TrainingPoints returns a copy of the points the model was fitted on (the
// rows with a known target), nil before Fit.
func (r *Regressor) TrainingPoints() *mat.Dense {
	if r.fitted == nil {
		return nil
	}
	return mat.DenseCopyOf(r.fitted.x)
}
