package krylov

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gssl/gssl/linop"
)

// divergence is the growth of the residual over its initial value at which
// Richardson gives up and reports divergence.
const divergence = 1e12

// Richardson solves A x = b by the stationary iteration
//
//	x ← x + ω·M·(b − A x)
//
// (M the preconditioner, or I). It converges when the spectral radius of
// I − ωMA is below one; for SPD A and M = I that is 0 < ω < 2/λ_max(A). It
// reports divergence as an error as soon as the residual grows by 1e12.
func Richardson(ctx context.Context, a linop.Operator, b, x []float64, omega float64, s Settings) (Result, error) {
	sv, err := newSolve(ctx, "Richardson", a, b, x, s, false)
	if err != nil {
		return Result{}, err
	}
	if !(omega > 0) || math.IsInf(omega, 0) {
		return Result{}, fmt.Errorf("krylov: Richardson: step ω = %v must be finite and positive", omega)
	}
	if sv.zeroRHS() {
		return sv.res, nil
	}
	n := sv.n
	r := make([]float64, n)
	z := make([]float64, n)
	rel := sv.residual(r, x)
	first := rel
	sv.res.Residual = rel
	sv.remember(x, rel)
	for rel > sv.tol {
		if sv.res.Iterations >= sv.max {
			return sv.fail(nil)
		}
		sv.precond(z, r)
		floats.AddScaled(x, omega, z)
		rel = sv.residual(r, x)
		sv.res.Residual = rel
		sv.remember(x, rel)
		if err := sv.step(rel); err != nil {
			return sv.fail(err)
		}
		if math.IsNaN(rel) || rel > divergence*first {
			return sv.fail(&BreakdownError{Method: "Richardson", Iterations: sv.res.Iterations, Reason: fmt.Sprintf("diverged: relative residual grew from %.3g to %.3g; ω = %g is too large for this operator", first, rel, omega)})
		}
	}
	return sv.res, nil
}
