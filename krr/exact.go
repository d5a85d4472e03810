package krr

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/dense"
	"github.com/gssl/gssl/kernel"
)

// ErrNotPositiveDefinite is wrapped by SolveGram's error when K + rI has no
// Cholesky factor (a pivot ≤ 0 or NaN): the kernel is not positive
// semidefinite, or r is too small for its rounding.
var ErrNotPositiveDefinite = errors.New("not numerically positive definite")

// SolveGram returns the kernel ridge coefficients α = (K + rI)^{−1} Y for
// an n×n Gram matrix K and n×c targets Y, by a dense Cholesky factorisation
// (internal/dense: blocked, on all cores): the explicit dense path, n²
// float64s for the factor and O(n³) time. Only the upper triangle of K is
// read (K.At(i, j), j ≥ i). r is the shift itself: Exact passes nλ for
// its objective (1/n)Σ‖f(x_i) − y_i‖² + λ‖f‖², svm.KernelRidge passes its
// Ridge (scikit-learn's alpha, the unnormalised Σ‖f(x_i) − y_i‖² + r‖f‖²);
// both are the same system for r = nλ. A non-finite entry of K is an
// error naming it; a matrix without a factor wraps ErrNotPositiveDefinite.
// ctx is checked before the factorisation.
func SolveGram(ctx context.Context, k mat.Symmetric, r float64, y *mat.Dense) (*mat.Dense, error) {
	n := k.SymmetricDim()
	if yr, _ := y.Dims(); yr != n {
		return nil, fmt.Errorf("krr: the Gram matrix is %d×%d but Y has %d rows", n, n, yr)
	}
	if !(r > 0) || math.IsInf(r, 0) {
		return nil, fmt.Errorf("krr: ridge shift r=%v is invalid: it must be finite and > 0", r)
	}
	d := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := k.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("krr: Gram matrix entry (%d, %d) = %v is not finite", i, j, v)
			}
			d[i*n+j] = v
		}
		d[i*n+i] += r
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rf, ok := dense.CholeskyInPlace(d, n)
	if !ok {
		return nil, fmt.Errorf("krr: K + %g·I is %w", r, ErrNotPositiveDefinite)
	}
	// α = R^{−1} R^{−T} Y
	alpha := mat.DenseCopyOf(y)
	dense.TriSolve(rf, true, alpha)
	dense.TriSolve(rf, false, alpha)
	return alpha, nil
}

// symmetrised is the symmetric part (K + Kᵀ)/2 of a square matrix, read
// entry by entry: kernel.Gram's K is symmetric up to rounding.
type symmetrised struct{ k *mat.Dense }

func (s symmetrised) SymmetricDim() int   { r, _ := s.k.Dims(); return r }
func (s symmetrised) Dims() (int, int)    { r, _ := s.k.Dims(); return r, r }
func (s symmetrised) At(i, j int) float64 { return (s.k.At(i, j) + s.k.At(j, i)) / 2 }
func (s symmetrised) T() mat.Matrix       { return s }

// Exact is kernel ridge regression solved by a dense Cholesky factorisation
// of K + nλI (SolveGram). It is the explicit dense path: n² float64s of
// memory and O(n³) time, for n up to a few thousand and as a reference.
type Exact struct {
	// Kernel is required.
	Kernel kernel.Kernel
	// Lambda is the ridge parameter λ > 0 of (1/n)Σ‖f(x_i)−y_i‖² + λ‖f‖².
	Lambda float64
	// Precision of the inner products at prediction; the zero value is
	// kernel.Float64. The Gram matrix of the fit is always float64.
	Precision kernel.Precision

	fit expansion
}

// Validate reports a hyperparameter outside its valid range.
func (e *Exact) Validate() error {
	if err := checkKernel(e.Kernel); err != nil {
		return err
	}
	return checkLambda(e.Lambda)
}

// FitTargets solves (K + nλI) α = Y.
func (e *Exact) FitTargets(ctx context.Context, x, y *mat.Dense) error {
	if err := e.Validate(); err != nil {
		return err
	}
	n, _, _, err := checkData(x, y)
	if err != nil {
		return err
	}
	k, err := kernel.Gram(e.Kernel, x, x)
	if err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	alpha, err := SolveGram(ctx, symmetrised{k}, float64(n)*e.Lambda, y)
	if errors.Is(err, ErrNotPositiveDefinite) {
		return fmt.Errorf("krr: Exact: K + nλI is not numerically positive definite (λ=%v); increase Lambda", e.Lambda)
	}
	if err != nil {
		return err
	}
	e.fit = expansion{k: e.Kernel, centres: mat.DenseCopyOf(x), alpha: alpha, prec: e.Precision}
	return nil
}

// PredictTargets returns f(x) for each row of x.
func (e *Exact) PredictTargets(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	return e.fit.predict(ctx, x)
}

// Coefficients returns α (n×c), or nil before Fit.
func (e *Exact) Coefficients() *mat.Dense { return e.fit.alpha }
