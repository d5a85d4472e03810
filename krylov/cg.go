package krylov

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/floats"

	"github.com/gssl/gssl/linop"
)

// CG solves A x = b for symmetric positive definite A by the (preconditioned)
// conjugate gradient method. On entry x is the initial guess (zeros are
// fine); on return it holds the solution, or the best iterate with an error.
func CG(ctx context.Context, a linop.Operator, b, x []float64, s Settings) (Result, error) {
	sv, err := newSolve(ctx, "CG", a, b, x, s, true)
	if err != nil {
		return Result{}, err
	}
	sv.lastIsBest = true
	if sv.zeroRHS() {
		return sv.res, nil
	}
	n := sv.n
	r := make([]float64, n)
	rel := sv.residual(r, x)
	sv.res.Residual = rel
	sv.remember(x, rel)
	if rel <= sv.tol {
		return sv.res, nil
	}
	pre := s.Preconditioner != nil
	z := r
	if pre {
		z = make([]float64, n)
	}
	p := make([]float64, n)
	ap := make([]float64, n)
	sv.precond(z, r)
	copy(p, z)
	rz := floats.Dot(r, z)
	for sv.res.Iterations < sv.max {
		sv.mul(ap, p)
		pap := floats.Dot(p, ap)
		if !(pap > 0) {
			return sv.fail(&BreakdownError{Method: "CG", Iterations: sv.res.Iterations, Reason: fmt.Sprintf("pᵀAp = %g ≤ 0: the operator (or preconditioner) is not positive definite", pap)})
		}
		alpha := rz / pap
		floats.AddScaled(x, alpha, p)
		floats.AddScaled(r, -alpha, ap)
		rel = floats.Norm(r, 2) / sv.bnorm
		if err := sv.step(rel); err != nil {
			return sv.fail(err)
		}
		if rel <= sv.tol {
			if sv.done(x, r) {
				return sv.res, nil
			}
			// Rounding made the recurrence drift: restart from the true residual.
			sv.precond(z, r)
			copy(p, z)
			rz = floats.Dot(r, z)
			continue
		}
		if pre {
			sv.precond(z, r)
		}
		rzNew := floats.Dot(r, z)
		beta := rzNew / rz
		rz = rzNew
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return sv.fail(nil)
}
