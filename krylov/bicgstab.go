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
	bs := newBiCGSTAB(sv)
	for {
		if end, res, err := sv.atRestart(x, bs.r); end {
			return res, err
		}
		converged, err := bs.cycle(x)
		if end, res, err := sv.afterCycle(x, bs.r, converged, err); end {
			return res, err
		}
	}
}

// bicgstab is the state of one BiCGSTAB solve: the residual r and the
// shadow residual r̂, the direction p, v = A M p, t = A M s, their
// preconditioned forms M p and M s, and the scalars ρ, α, ω.
type bicgstab struct {
	sv                       *solve
	r, rhat, p, v, ph, sh, t []float64
	rho, alpha, omega        float64
}

func newBiCGSTAB(sv *solve) *bicgstab {
	bs := &bicgstab{sv: sv}
	makeVecs(sv.n, &bs.r, &bs.rhat, &bs.p, &bs.v, &bs.ph, &bs.sh, &bs.t)
	return bs
}

// cycle iterates from the residual in r until the estimate reaches the
// tolerance (true), the iteration cap (false) or an error.
func (bs *bicgstab) cycle(x []float64) (bool, error) {
	sv := bs.sv
	copy(bs.rhat, bs.r)
	bs.rho, bs.alpha, bs.omega = 1, 1, 1
	for i := range bs.p {
		bs.p[i], bs.v[i] = 0, 0
	}
	for sv.res.Iterations < sv.max {
		if err := bs.bicg(x); err != nil {
			return false, err
		}
		if est := floats.Norm(bs.r, 2) / sv.bnorm; est <= sv.tol {
			sv.remember(x, est)
			if err := sv.step(est); err != nil {
				return false, err
			}
			return true, nil
		}
		est, err := bs.stabilise(x)
		if err != nil {
			return false, err
		}
		if est <= sv.tol {
			return true, nil
		}
	}
	return false, nil
}

// bicg is the bi-conjugate gradient half step: p = r + β(p − ω v),
// v = A M p, x += α M p and r becomes s = r − α v.
func (bs *bicgstab) bicg(x []float64) error {
	sv, r, p, v := bs.sv, bs.r, bs.p, bs.v
	rhoNew := floats.Dot(bs.rhat, r)
	if rhoNew == 0 || bs.omega == 0 {
		return &BreakdownError{Method: "BiCGSTAB", Iterations: sv.res.Iterations, Reason: fmt.Sprintf("ρ = %g, ω = %g", rhoNew, bs.omega)}
	}
	beta := rhoNew / bs.rho * bs.alpha / bs.omega
	bs.rho = rhoNew
	omega := bs.omega
	for i := range p {
		p[i] = r[i] + beta*(p[i]-omega*v[i])
	}
	sv.precond(bs.ph, p)
	sv.mul(v, bs.ph)
	rv := floats.Dot(bs.rhat, v)
	if rv == 0 {
		return &BreakdownError{Method: "BiCGSTAB", Iterations: sv.res.Iterations, Reason: "r̂ᵀv = 0"}
	}
	bs.alpha = bs.rho / rv
	floats.AddScaled(r, -bs.alpha, v) // r is now s
	floats.AddScaled(x, bs.alpha, bs.ph)
	return nil
}

// stabilise is the minimal residual half step: t = A M s, ω = tᵀs/tᵀt,
// x += ω M s, r = s − ω t. It returns the relative residual estimate.
func (bs *bicgstab) stabilise(x []float64) (float64, error) {
	sv, r, t := bs.sv, bs.r, bs.t
	sv.precond(bs.sh, r)
	sv.mul(t, bs.sh)
	tt := floats.Dot(t, t)
	if tt == 0 {
		bs.omega = 0
	} else {
		bs.omega = floats.Dot(t, r) / tt
	}
	floats.AddScaled(x, bs.omega, bs.sh)
	floats.AddScaled(r, -bs.omega, t)
	est := floats.Norm(r, 2) / sv.bnorm
	if math.IsNaN(est) {
		return est, &BreakdownError{Method: "BiCGSTAB", Iterations: sv.res.Iterations, Reason: "residual became NaN"}
	}
	sv.remember(x, est)
	if err := sv.step(est); err != nil {
		return est, err
	}
	return est, nil
}
