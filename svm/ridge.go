package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/krr"
)

// KernelRidge is kernel ridge classification on a precomputed kernel:
// one-hot targets Y (n×c), coefficients α = (K + rI)^{-1} Y by krr.SolveGram
// (the one dense Cholesky kernel ridge solve, shared with krr.Exact, which
// passes r = nλ; O(n³) time, O(n²) memory: the explicit dense path), scores
// k(x)ᵀα and the class of the largest score.
type KernelRidge struct {
	// Ridge is r > 0 (scikit-learn's KernelRidge alpha; n·λ in the course's
	// notation); 0 means 1.
	Ridge float64

	classes []int
	alpha   *mat.Dense
}

func (r *KernelRidge) ridge() float64 {
	if r.Ridge == 0 {
		return 1
	}
	return r.Ridge
}

// Validate checks Ridge.
func (r *KernelRidge) Validate() error {
	if v := r.Ridge; v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("svm: KernelRidge Ridge=%v is invalid: it must be finite and > 0 (0 means 1)", v)
	}
	return nil
}

// Fit solves (K + rI) α = Y for the training Gram matrix k (its upper
// triangle is read) and classes. It checks ctx before the factorisation.
func (r *KernelRidge) Fit(ctx context.Context, k mat.Symmetric, labels []int) error {
	if err := r.Validate(); err != nil {
		return err
	}
	n := k.SymmetricDim()
	if len(labels) != n {
		return fmt.Errorf("svm: KernelRidge: the Gram matrix is %d×%d but there are %d labels", n, n, len(labels))
	}
	for i, l := range labels {
		if l < 0 {
			return fmt.Errorf("svm: KernelRidge: label %d of item %d is negative; every training item needs a class", l, i)
		}
		if l > MaxClass {
			return fmt.Errorf("svm: KernelRidge: label %d of item %d is above %d: number the classes from 0 (Predict has one column per class up to the largest)", l, i, MaxClass)
		}
	}
	if n == 0 {
		return fmt.Errorf("svm: KernelRidge: no training items")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	classes := slices.Compact(slices.Sorted(slices.Values(labels)))
	y := mat.NewDense(n, len(classes), nil)
	for i, l := range labels {
		c, _ := slices.BinarySearch(classes, l)
		y.Set(i, c, 1)
	}
	rv := r.ridge()
	alpha, err := krr.SolveGram(ctx, k, rv, y)
	if errors.Is(err, krr.ErrNotPositiveDefinite) {
		return fmt.Errorf("svm: KernelRidge: K + %g·I is not positive definite (is the kernel PSD?); increase Ridge", rv)
	}
	if err != nil {
		return fmt.Errorf("svm: KernelRidge: %w", err)
	}
	r.classes, r.alpha = classes, alpha
	return nil
}

// Scores returns cross·α: row i holds the score of every class (in
// Classes order) for the item whose kernel row against the training items
// is row i of cross.
func (r *KernelRidge) Scores(cross mat.Matrix) (*mat.Dense, error) {
	if r.alpha == nil {
		return nil, estimator.NotFitted("svm: KernelRidge.Scores")
	}
	_, n := cross.Dims()
	if tr, _ := r.alpha.Dims(); n != tr {
		return nil, fmt.Errorf("svm: KernelRidge: the kernel matrix has %d columns but the model was trained on %d items", n, tr)
	}
	var s mat.Dense
	s.Mul(cross, r.alpha)
	return &s, nil
}

// Classes returns the classes seen at Fit, ascending.
func (r *KernelRidge) Classes() []int { return r.classes }

// Predict returns, for each row of cross (m × n_train: k(x, x_j) for the
// training items), the score of every class 0..C−1 (C = 1 + the largest
// class seen at Fit): column c holds Scores' column for class c, and a
// class not seen at Fit scores −Inf, so that it is never predicted. The
// predicted class is the row's first maximum (estimator.Argmax), the
// smallest of the classes with the largest score. ctx is checked once.
func (r *KernelRidge) Predict(ctx context.Context, cross mat.Matrix) (*mat.Dense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := r.Scores(cross)
	if err != nil {
		return nil, err
	}
	m, _ := s.Dims()
	out := mat.NewDense(m, r.classes[len(r.classes)-1]+1, nil)
	for i := 0; i < m; i++ {
		row := out.RawRowView(i)
		for c := range row {
			row[c] = math.Inf(-1)
		}
		for j, c := range r.classes {
			row[c] = s.At(i, j)
		}
	}
	return out, nil
}

// Output declares that Predict returns decision values, not probabilities
// (estimator.OutputDeclarer).
func (r *KernelRidge) Output() estimator.Output { return estimator.DecisionValues }

// KernelRidge is a classifier on a precomputed kernel, as SVC: fitted on
// the Gram matrix of the training items, it scores items from their kernel
// rows to them.
var _ estimator.Classifier[mat.Symmetric, mat.Matrix] = (*KernelRidge)(nil)

// Info is the zero Info: the Cholesky solve has no iterations.
func (r *KernelRidge) Info() estimator.Info { return estimator.Info{} }

// Kind returns KernelRidgeKind.
func (r *KernelRidge) Kind() string { return KernelRidgeKind }

// Clone returns an unfitted copy of r with the same hyperparameters.
func (r *KernelRidge) Clone() *KernelRidge { return &KernelRidge{Ridge: r.Ridge} }
