package main

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/labelprop"
)

// The adapters in this file give labelprop's two models the node
// classifier role until package labelprop implements it itself (the
// contract's conversion of labelprop, branch lp28); this file is then
// deleted and kinds.go constructs &labelprop.Spreading{} and
// &labelprop.Harmonic{} directly. They add nothing but the role's method
// shapes: Fit and the fitted nodes' probabilities are labelprop's own.

// lpModel is what the two labelprop models have in common.
type lpModel interface {
	Validate() error
	Info() labelprop.Info
	Probabilities() *mat.Dense
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}

type lpRole[M lpModel] struct {
	m      M
	kind   string
	fit    func(ctx context.Context, x estimator.Nodes, labels []int) error
	pn     func(ctx context.Context, nn estimator.NewNodes) ([]labelprop.Prediction, error)
	fitted bool
}

func newSpreadingRole() any {
	m := &labelprop.Spreading{}
	return &lpRole[*labelprop.Spreading]{m: m, kind: labelprop.SpreadingKind,
		fit: func(ctx context.Context, x estimator.Nodes, labels []int) error { return m.Fit(ctx, x.Graph, labels) },
		pn:  m.PredictNodes}
}

func newHarmonicRole() any {
	m := &labelprop.Harmonic{}
	return &lpRole[*labelprop.Harmonic]{m: m, kind: labelprop.HarmonicKind,
		fit: func(ctx context.Context, x estimator.Nodes, labels []int) error { return m.Fit(ctx, x.Graph, labels) },
		pn:  m.PredictNodes}
}

var _ estimator.NodeClassifier = (*lpRole[*labelprop.Spreading])(nil)

func (r *lpRole[M]) hyperparameters() any { return r.m }
func (r *lpRole[M]) Validate() error      { return r.m.Validate() }
func (r *lpRole[M]) Kind() string         { return r.kind }

func (r *lpRole[M]) Info() estimator.Info {
	in := r.m.Info()
	return estimator.Info{Iterations: in.Iterations, Residual: in.Residual, Products: in.Products}
}

func (r *lpRole[M]) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	r.fitted = false
	if err := r.fit(ctx, x, labels); err != nil {
		return err
	}
	r.fitted = true
	return nil
}

func (r *lpRole[M]) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if !r.fitted {
		return nil, estimator.NotFitted("labelprop: " + r.kind + ".Predict")
	}
	if q.New == nil {
		return r.m.Probabilities(), nil
	}
	preds, err := r.pn(ctx, *q.New)
	if err != nil {
		return nil, err
	}
	_, c := r.m.Probabilities().Dims()
	out := mat.NewDense(max(len(preds), 1), c, nil)
	if len(preds) == 0 {
		return &mat.Dense{}, nil
	}
	for i, p := range preds {
		out.SetRow(i, p.Probabilities)
	}
	return out, nil
}

func (r *lpRole[M]) MarshalBinary() ([]byte, error) { return r.m.MarshalBinary() }

func (r *lpRole[M]) UnmarshalBinary(b []byte) error {
	if err := r.m.UnmarshalBinary(b); err != nil {
		return err
	}
	r.fitted = true
	return nil
}
