package krylov

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gssl/gssl/linop"
)

// MINRES solves A x = b for symmetric, possibly indefinite, non-singular A by
// the minimum residual method of Paige and Saunders (1975), following the
// structure of their SYMMLQ/MINRES reference code. An optional preconditioner
// must be symmetric positive definite. x is the initial guess on entry.
func MINRES(ctx context.Context, a linop.Operator, b, x []float64, s Settings) (Result, error) {
	sv, err := newSolve(ctx, "MINRES", a, b, x, s, true)
	if err != nil {
		return Result{}, err
	}
	if sv.zeroRHS() {
		return sv.res, nil
	}
	n := sv.n
	r1 := make([]float64, n)
	r2 := make([]float64, n)
	y := make([]float64, n)
	v := make([]float64, n)
	w := make([]float64, n)
	w1 := make([]float64, n)
	w2 := make([]float64, n)
	for {
		// (Re)start from the true residual of x.
		rel := sv.residual(r1, x)
		sv.res.Residual = rel
		sv.remember(x, rel)
		if rel <= sv.tol {
			return sv.res, nil
		}
		if sv.res.Iterations >= sv.max {
			return sv.fail(nil)
		}
		sv.precond(y, r1)
		beta1 := floats.Dot(r1, y)
		if !(beta1 > 0) {
			return sv.fail(&BreakdownError{Method: "MINRES", Iterations: sv.res.Iterations, Reason: fmt.Sprintf("rᵀMr = %g ≤ 0: the preconditioner is not positive definite", beta1)})
		}
		beta1 = math.Sqrt(beta1)
		// In the preconditioned case phibar estimates ‖r‖ in the M-norm; the
		// ratio to its initial value is the convergence measure, mapped to the
		// 2-norm scale by the initial true residual.
		scale := rel / beta1
		copy(r2, r1)
		for i := range w {
			w[i], w2[i] = 0, 0
		}
		oldb, beta := 0.0, beta1
		dbar, epsln := 0.0, 0.0
		phibar := beta1
		cs, sn := -1.0, 0.0
		converged := false
		for k := 1; sv.res.Iterations < sv.max; k++ {
			s := 1 / beta
			for i := range v {
				v[i] = s * y[i]
			}
			sv.mul(y, v)
			if k >= 2 {
				floats.AddScaled(y, -beta/oldb, r1)
			}
			alfa := floats.Dot(v, y)
			floats.AddScaled(y, -alfa/beta, r2)
			r1, r2 = r2, r1
			copy(r2, y)
			sv.precond(y, r2)
			oldb = beta
			beta = floats.Dot(r2, y)
			if beta < 0 {
				return sv.fail(&BreakdownError{Method: "MINRES", Iterations: sv.res.Iterations, Reason: "the preconditioner is not positive definite"})
			}
			beta = math.Sqrt(beta)
			// Apply the previous rotation, then compute the next one.
			oldeps := epsln
			delta := cs*dbar + sn*alfa
			gbar := sn*dbar - cs*alfa
			epsln = sn * beta
			dbar = -cs * beta
			gamma := math.Max(math.Hypot(gbar, beta), 1e-300)
			cs = gbar / gamma
			sn = beta / gamma
			phi := cs * phibar
			phibar = sn * phibar
			// Update the search direction and x.
			w1, w2, w = w2, w, w1
			for i := range w {
				w[i] = (v[i] - oldeps*w1[i] - delta*w2[i]) / gamma
			}
			floats.AddScaled(x, phi, w)
			est := phibar * scale
			sv.remember(x, est)
			if err := sv.step(est); err != nil {
				return sv.fail(err)
			}
			if est <= sv.tol || beta == 0 {
				converged = true
				break
			}
		}
		if converged && sv.done(x, r1) {
			return sv.res, nil
		}
		if !converged {
			return sv.fail(nil)
		}
	}
}
