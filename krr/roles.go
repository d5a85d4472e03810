package krr

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// The four models are point regressors of one target (Fit, Predict) and
// fit several targets at once through FitTargets and PredictTargets.
var (
	_ estimator.PointRegressor = (*Exact)(nil)
	_ estimator.PointRegressor = (*Nystrom)(nil)
	_ estimator.PointRegressor = (*Falkon)(nil)
	_ estimator.PointRegressor = (*RandomFeatures)(nil)
)

// column is y as an n×1 matrix; every target must be known (kernel ridge
// regression is supervised).
func column(y []float64) (*mat.Dense, error) {
	if len(y) == 0 {
		return nil, errors.New("krr: no targets")
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("krr: target %d is %v: kernel ridge regression needs every target, finite", i, v)
		}
	}
	return mat.NewDense(len(y), 1, append([]float64(nil), y...)), nil
}

// regression is the one column of p as a Regression without variances.
func regression(p *mat.Dense, err error) (estimator.Regression, error) {
	if err != nil {
		return estimator.Regression{}, err
	}
	if _, c := p.Dims(); c != 1 {
		return estimator.Regression{}, fmt.Errorf("krr: the model was fitted on %d targets at once: use PredictTargets", c)
	}
	return estimator.Regression{Mean: mat.Col(nil, 0, p)}, nil
}

// fitOne is FitTargets on the column y.
func fitOne(ctx context.Context, m MultiOutput, x *mat.Dense, y []float64) error {
	if err := m.Validate(); err != nil {
		return err
	}
	yc, err := column(y)
	if err != nil {
		return err
	}
	return m.FitTargets(ctx, x, yc)
}

// Fit fits the one target y[i] of each row of x (FitTargets with one
// column).
func (e *Exact) Fit(ctx context.Context, x *mat.Dense, y []float64) error {
	return fitOne(ctx, e, x, y)
}

// Predict returns f(x) for each row of x (no variance). A nil x is an
// error: the model keeps only its expansion.
func (e *Exact) Predict(ctx context.Context, x *mat.Dense) (estimator.Regression, error) {
	return regression(e.PredictTargets(ctx, x))
}

// Info is the zero Info: a direct solve has no iterations.
func (e *Exact) Info() estimator.Info { return estimator.Info{} }

// Kind returns ExactKind.
func (e *Exact) Kind() string { return ExactKind }

// Clone returns an unfitted copy of e with the same hyperparameters.
func (e *Exact) Clone() *Exact {
	return &Exact{Kernel: e.Kernel, Lambda: e.Lambda, Precision: e.Precision}
}

// Fit fits the one target y[i] of each row of x (FitTargets with one
// column).
func (s *Nystrom) Fit(ctx context.Context, x *mat.Dense, y []float64) error {
	return fitOne(ctx, s, x, y)
}

// Predict returns f(x) for each row of x (no variance).
func (s *Nystrom) Predict(ctx context.Context, x *mat.Dense) (estimator.Regression, error) {
	return regression(s.PredictTargets(ctx, x))
}

// Info is the zero Info: a direct solve has no iterations.
func (s *Nystrom) Info() estimator.Info { return estimator.Info{} }

// Kind returns NystromKind.
func (s *Nystrom) Kind() string { return NystromKind }

// Clone returns an unfitted copy of s with the same hyperparameters.
func (s *Nystrom) Clone() *Nystrom {
	return &Nystrom{Kernel: s.Kernel, Lambda: s.Lambda, Centres: s.Centres, Jitter: s.Jitter, Precision: s.Precision, BlockRows: s.BlockRows}
}

// Fit fits the one target y[i] of each row of x (FitTargets with one
// column).
func (f *Falkon) Fit(ctx context.Context, x *mat.Dense, y []float64) error {
	return fitOne(ctx, f, x, y)
}

// Predict returns f(x) for each row of x (no variance).
func (f *Falkon) Predict(ctx context.Context, x *mat.Dense) (estimator.Regression, error) {
	return regression(f.PredictTargets(ctx, x))
}

// Kind returns FalkonKind.
func (f *Falkon) Kind() string { return FalkonKind }

// Clone returns an unfitted copy of f with the same hyperparameters (and
// Progress).
func (f *Falkon) Clone() *Falkon {
	return &Falkon{Kernel: f.Kernel, Lambda: f.Lambda, Centres: f.Centres, Iterations: f.Iterations, Tol: f.Tol,
		Jitter: f.Jitter, Precision: f.Precision, BlockRows: f.BlockRows, Products: f.Products, Progress: f.Progress}
}

// Fit fits the one target y[i] of each row of x (FitTargets with one
// column).
func (r *RandomFeatures) Fit(ctx context.Context, x *mat.Dense, y []float64) error {
	return fitOne(ctx, r, x, y)
}

// Predict returns z(x)ᵀw for each row of x (no variance).
func (r *RandomFeatures) Predict(ctx context.Context, x *mat.Dense) (estimator.Regression, error) {
	return regression(r.PredictTargets(ctx, x))
}

// Info is the zero Info: a direct solve has no iterations.
func (r *RandomFeatures) Info() estimator.Info { return estimator.Info{} }

// Kind returns RandomFeaturesKind.
func (r *RandomFeatures) Kind() string { return RandomFeaturesKind }

// Clone returns an unfitted copy of r with the same hyperparameters.
func (r *RandomFeatures) Clone() *RandomFeatures {
	return &RandomFeatures{Sigma: r.Sigma, D: r.D, Lambda: r.Lambda, Seed: r.Seed, FixedMap: r.FixedMap}
}

// CloneModel returns m.Clone() for any of the four models, as a
// MultiOutput (nil for another type).
func CloneModel(m MultiOutput) MultiOutput {
	switch m := m.(type) {
	case *Exact:
		return m.Clone()
	case *Nystrom:
		return m.Clone()
	case *Falkon:
		return m.Clone()
	case *RandomFeatures:
		return m.Clone()
	}
	return nil
}
