package krr

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
)

// MultiOutput is what Exact, Nystrom, Falkon and RandomFeatures share
// besides their role (estimator.PointRegressor of one target): a fit on
// the rows of X (n×d) with several targets Y (n×c) at once, sharing every
// pass over the kernel, and the m×c prediction for the rows of a new m×d
// X. Classifier fits one-hot targets through it.
type MultiOutput interface {
	estimator.Estimator
	FitTargets(ctx context.Context, x, y *mat.Dense) error
	PredictTargets(ctx context.Context, x *mat.Dense) (*mat.Dense, error)
}

var (
	_ MultiOutput = (*Exact)(nil)
	_ MultiOutput = (*Nystrom)(nil)
	_ MultiOutput = (*Falkon)(nil)
	_ MultiOutput = (*RandomFeatures)(nil)
)

// ErrNotFitted is the cause of Predict's error before a successful Fit
// (errors.Is); it is estimator.ErrNotFitted.
var ErrNotFitted = estimator.ErrNotFitted

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909)) }

func checkLambda(lambda float64) error {
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return fmt.Errorf("krr: Lambda=%v is invalid: it must be finite and > 0", lambda)
	}
	return nil
}

func checkKernel(k kernel.Kernel) error {
	if k == nil {
		return fmt.Errorf("krr: Kernel is nil: set a kernel such as kernel.Gaussian{Sigma: 1}")
	}
	return k.Validate()
}

// checkData validates the training data: X non-empty and finite, Y with
// as many rows as X and finite.
func checkData(x, y *mat.Dense) (n, d, c int, err error) {
	if x == nil || x.IsEmpty() {
		return 0, 0, 0, fmt.Errorf("krr: X is empty")
	}
	if y == nil || y.IsEmpty() {
		return 0, 0, 0, fmt.Errorf("krr: Y is empty")
	}
	n, d = x.Dims()
	yr, c := y.Dims()
	if yr != n {
		return 0, 0, 0, fmt.Errorf("krr: Y has %d rows but X has %d", yr, n)
	}
	if err := kernel.CheckPoints("X", x, d); err != nil {
		return 0, 0, 0, fmt.Errorf("krr: %w", err)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < c; j++ {
			if v := y.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, 0, 0, fmt.Errorf("krr: Y row %d column %d is %v", i, j, v)
			}
		}
	}
	return n, d, c, nil
}

// checkPredict validates the points to predict against the fitted dimension.
func checkPredict(x *mat.Dense, d int) error {
	if x == nil || x.IsEmpty() {
		return fmt.Errorf("krr: X to predict is empty")
	}
	if err := kernel.CheckPoints("X to predict", x, d); err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	return nil
}

// expansion is a fitted f(x) = Σ_j α_j k(x, c_j).
type expansion struct {
	k         kernel.Kernel
	centres   *mat.Dense // M×d
	alpha     *mat.Dense // M×c
	prec      kernel.Precision
	blockRows int
}

func (e *expansion) predict(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	if e.alpha == nil {
		return nil, ErrNotFitted
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	_, d := e.centres.Dims()
	if err := checkPredict(x, d); err != nil {
		return nil, err
	}
	// the centres of a model read from a file have not been checked yet
	if err := kernel.CheckPoints("centres", e.centres, d); err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	km, err := kernel.NewCheckedMatrix(e.k, x, e.centres, e.prec, e.blockRows)
	if err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	n, _ := x.Dims()
	_, c := e.alpha.Dims()
	out := mat.NewDense(n, c, nil)
	km.MulTo(out, e.alpha)
	return out, nil
}

// rowsOf copies the rows idx of x.
func rowsOf(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(idx), d, nil)
	for i, r := range idx {
		out.SetRow(i, x.RawRowView(r))
	}
	return out
}

// OneHot returns the n×classes matrix with a 1 in column labels[i] of row i.
// Labels must be in [0, classes), and at most half of the classes may have no
// row (classes ≤ 2·distinct labels): the n×classes block is sized by a
// number, which the labels must justify (a label 2147483647 is not 2³¹
// classes; number the classes 0..C−1).
func OneHot(labels []int, classes int) (*mat.Dense, error) {
	if len(labels) == 0 {
		return nil, fmt.Errorf("krr: OneHot: no labels")
	}
	if classes < 1 {
		return nil, fmt.Errorf("krr: OneHot: classes=%d is invalid: it must be ≥ 1", classes)
	}
	for i, l := range labels {
		if l < 0 || l >= classes {
			return nil, fmt.Errorf("krr: OneHot: label %d of row %d is outside [0, %d)", l, i, classes)
		}
	}
	distinct := len(slices.Compact(slices.Sorted(slices.Values(labels))))
	if classes > 2*distinct {
		return nil, fmt.Errorf("krr: OneHot: classes=%d is invalid for %d distinct labels: at most half the classes may have no row (number the classes 0..C−1)", classes, distinct)
	}
	y := mat.NewDense(len(labels), classes, nil)
	for i, l := range labels {
		y.Set(i, l, 1)
	}
	return y, nil
}
