package krr

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/dense"
	"github.com/gssl/gssl/kernel"
)

// Exact is kernel ridge regression solved by a dense Cholesky factorisation
// of K + nλI. It is the explicit dense path: n² float64s of memory and
// O(n³) time, for n up to a few thousand and as a reference.
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
	if err := ctx.Err(); err != nil {
		return err
	}
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, (k.At(i, j)+k.At(j, i))/2)
		}
		sym.SetSym(i, i, sym.At(i, i)+float64(n)*e.Lambda)
	}
	r, ok := dense.Cholesky(sym)
	if !ok {
		return fmt.Errorf("krr: Exact: K + nλI is not numerically positive definite (λ=%v); increase Lambda", e.Lambda)
	}
	// α = R^{-1} R^{-T} Y
	alpha := mat.DenseCopyOf(y)
	dense.TriSolve(r, true, alpha)
	dense.TriSolve(r, false, alpha)
	e.fit = expansion{k: e.Kernel, centres: mat.DenseCopyOf(x), alpha: alpha, prec: e.Precision}
	return nil
}

// PredictTargets returns f(x) for each row of x.
func (e *Exact) PredictTargets(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	return e.fit.predict(ctx, x)
}

// Coefficients returns α (n×c), or nil before Fit.
func (e *Exact) Coefficients() *mat.Dense { return e.fit.alpha }
