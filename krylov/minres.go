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
	m := newMINRES(sv)
	for {
		// (Re)start from the true residual of x.
		if end, res, err := sv.atRestart(x, m.r1); end {
			return res, err
		}
		converged, err := m.cycle(x, sv.res.Residual)
		if end, res, err := sv.afterCycle(x, m.r1, converged, err); end {
			return res, err
		}
	}
}

// minres is the state of one MINRES solve: the Lanczos vectors r1, r2 and
// y = M r2, the basis vector v, the search directions w, w1, w2, and the
// scalars of the Lanczos recurrence and of the Givens rotations.
type minres struct {
	sv                      *solve
	r1, r2, y, v, w, w1, w2 []float64

	oldb, beta    float64 // the last two Lanczos β
	dbar, epsln   float64 // entries of the rotated tridiagonal
	phibar, scale float64 // the residual estimate and its 2-norm scale
	cs, sn        float64 // the last rotation
}

func newMINRES(sv *solve) *minres {
	m := &minres{sv: sv}
	makeVecs(sv.n, &m.r1, &m.r2, &m.y, &m.v, &m.w, &m.w1, &m.w2)
	return m
}

// restart sets up a cycle from the residual in r1, of relative size rel.
func (m *minres) restart(rel float64) error {
	sv := m.sv
	sv.precond(m.y, m.r1)
	beta1 := floats.Dot(m.r1, m.y)
	if !(beta1 > 0) {
		return &BreakdownError{Method: "MINRES", Iterations: sv.res.Iterations, Reason: fmt.Sprintf("rᵀMr = %g ≤ 0: the preconditioner is not positive definite", beta1)}
	}
	beta1 = math.Sqrt(beta1)
	// In the preconditioned case phibar estimates ‖r‖ in the M-norm; the
	// ratio to its initial value is the convergence measure, mapped to the
	// 2-norm scale by the initial true residual.
	m.scale = rel / beta1
	copy(m.r2, m.r1)
	for i := range m.w {
		m.w[i], m.w2[i] = 0, 0
	}
	m.oldb, m.beta = 0, beta1
	m.dbar, m.epsln = 0, 0
	m.phibar = beta1
	m.cs, m.sn = -1, 0
	return nil
}

// cycle iterates from the residual in r1, of relative size rel, until the
// estimate reaches the tolerance (true), the iteration cap (false) or an
// error.
func (m *minres) cycle(x []float64, rel float64) (bool, error) {
	sv := m.sv
	if err := m.restart(rel); err != nil {
		return false, err
	}
	for k := 1; sv.res.Iterations < sv.max; k++ {
		alfa := m.lanczos(k)
		if err := m.nextBeta(); err != nil {
			return false, err
		}
		phi, delta, gamma, oldeps := m.rotate(alfa)
		// Update the search direction and x.
		m.w1, m.w2, m.w = m.w2, m.w, m.w1
		w, w1, w2, v := m.w, m.w1, m.w2, m.v
		for i := range w {
			w[i] = (v[i] - oldeps*w1[i] - delta*w2[i]) / gamma
		}
		floats.AddScaled(x, phi, w)
		est := m.phibar * m.scale
		sv.remember(x, est)
		if err := sv.step(est); err != nil {
			return false, err
		}
		if est <= sv.tol || m.beta == 0 {
			return true, nil
		}
	}
	return false, nil
}

// lanczos is the k-th Lanczos step: v = y/β, y = A v − (β/β_old) r1 − (α/β) r2
// with α = vᵀ A v, then r1 ← r2 ← y. It returns α.
func (m *minres) lanczos(k int) float64 {
	y, v := m.y, m.v
	s := 1 / m.beta
	for i := range v {
		v[i] = s * y[i]
	}
	m.sv.mul(y, v)
	if k >= 2 {
		floats.AddScaled(y, -m.beta/m.oldb, m.r1)
	}
	alfa := floats.Dot(v, y)
	floats.AddScaled(y, -alfa/m.beta, m.r2)
	m.r1, m.r2 = m.r2, m.r1
	copy(m.r2, y)
	return alfa
}

// nextBeta sets y = M r2 and β = √(r2ᵀ y), keeping the previous β.
func (m *minres) nextBeta() error {
	m.sv.precond(m.y, m.r2)
	m.oldb = m.beta
	beta := floats.Dot(m.r2, m.y)
	if beta < 0 {
		return &BreakdownError{Method: "MINRES", Iterations: m.sv.res.Iterations, Reason: "the preconditioner is not positive definite"}
	}
	m.beta = math.Sqrt(beta)
	return nil
}

// rotate applies the previous rotation to the new column (α, β) of the
// tridiagonal, then computes the next one. It returns the step φ along the
// new direction and the coefficients δ, γ and ε_old of its recurrence.
func (m *minres) rotate(alfa float64) (phi, delta, gamma, oldeps float64) {
	beta := m.beta
	oldeps = m.epsln
	delta = m.cs*m.dbar + m.sn*alfa
	gbar := m.sn*m.dbar - m.cs*alfa
	m.epsln = m.sn * beta
	m.dbar = -m.cs * beta
	gamma = math.Max(math.Hypot(gbar, beta), 1e-300)
	m.cs = gbar / gamma
	m.sn = beta / gamma
	phi = m.cs * m.phibar
	m.phibar = m.sn * m.phibar
	return phi, delta, gamma, oldeps
}
