package krylov

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gssl/gssl/linop"
)

// BiCGSTAB solves A x = b for any non-singular A by van der Vorst's
// stabilised bi-conjugate gradients with right preconditioning. Each
// iteration costs two products. x is the initial guess on entry.
func BiCGSTAB(ctx context.Context, a linop.Operator, b, x []float64, s Settings) (Result, error) {
	sv, err := newSolve(ctx, "BiCGSTAB", a, b, x, s, false)
	if err != nil {
		return Result{}, err
	}
	if sv.zeroRHS() {
		return sv.res, nil
	}
	n := sv.n
	r := make([]float64, n)
	rhat := make([]float64, n)
	p := make([]float64, n)
	v := make([]float64, n)
	ph := make([]float64, n)
	sh := make([]float64, n)
	t := make([]float64, n)
	for {
		rel := sv.residual(r, x)
		sv.res.Residual = rel
		sv.remember(x, rel)
		if rel <= sv.tol {
			return sv.res, nil
		}
		if sv.res.Iterations >= sv.max {
			return sv.fail(nil)
		}
		copy(rhat, r)
		rho, alpha, omega := 1.0, 1.0, 1.0
		for i := range p {
			p[i], v[i] = 0, 0
		}
		converged := false
		for sv.res.Iterations < sv.max {
			rhoNew := floats.Dot(rhat, r)
			if rhoNew == 0 || omega == 0 {
				return sv.fail(&BreakdownError{Method: "BiCGSTAB", Iterations: sv.res.Iterations, Reason: fmt.Sprintf("ρ = %g, ω = %g", rhoNew, omega)})
			}
			beta := rhoNew / rho * alpha / omega
			rho = rhoNew
			for i := range p {
				p[i] = r[i] + beta*(p[i]-omega*v[i])
			}
			sv.precond(ph, p)
			sv.mul(v, ph)
			rv := floats.Dot(rhat, v)
			if rv == 0 {
				return sv.fail(&BreakdownError{Method: "BiCGSTAB", Iterations: sv.res.Iterations, Reason: "r̂ᵀv = 0"})
			}
			alpha = rho / rv
			floats.AddScaled(r, -alpha, v) // r is now s
			floats.AddScaled(x, alpha, ph)
			if est := floats.Norm(r, 2) / sv.bnorm; est <= sv.tol {
				sv.remember(x, est)
				if err := sv.step(est); err != nil {
					return sv.fail(err)
				}
				converged = true
				break
			}
			sv.precond(sh, r)
			sv.mul(t, sh)
			tt := floats.Dot(t, t)
			if tt == 0 {
				omega = 0
			} else {
				omega = floats.Dot(t, r) / tt
			}
			floats.AddScaled(x, omega, sh)
			floats.AddScaled(r, -omega, t)
			est := floats.Norm(r, 2) / sv.bnorm
			if math.IsNaN(est) {
				return sv.fail(&BreakdownError{Method: "BiCGSTAB", Iterations: sv.res.Iterations, Reason: "residual became NaN"})
			}
			sv.remember(x, est)
			if err := sv.step(est); err != nil {
				return sv.fail(err)
			}
			if est <= sv.tol {
				converged = true
				break
			}
		}
		if converged && sv.done(x, r) {
			return sv.res, nil
		}
		if !converged {
			return sv.fail(nil)
		}
	}
}
