package krylov

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gssl/gssl/linop"
)

// DefaultTol is the relative residual target used when Settings.Tol is 0.
const DefaultTol = 1e-8

// Settings control a solve. The zero value is usable.
type Settings struct {
	// Tol is the relative residual target ‖b − Ax‖/‖b‖; 0 means DefaultTol.
	// It must be in (0, 1).
	Tol float64
	// MaxIter caps the iterations; 0 means 2n + 100 (for GMRES, inner steps).
	MaxIter int
	// Preconditioner applies M ≈ A^{-1}; nil means none. CG, BlockCG and
	// MINRES need it symmetric positive definite.
	Preconditioner linop.Operator
	// Restart is the Krylov dimension m of GMRES(m); 0 means min(n, 50).
	Restart int
	// Progress, when set, is called after every iteration with the iteration
	// count and the current (recurrence) relative residual.
	Progress func(iteration int, residual float64)
}

// Result describes a finished solve.
type Result struct {
	Iterations int     // iterations (GMRES: inner steps; BlockCG: the most any column took)
	MatVecs    int     // operator products, including residual checks
	Residual   float64 // final true relative residual ‖b − Ax‖/‖b‖
}

// NotConvergedError is returned when the tolerance was not reached within the
// iteration cap. X is the best iterate found (the same slice as the caller's x);
// the block solvers leave it nil, the iterate being the column of their X.
type NotConvergedError struct {
	Method     string
	Iterations int
	Residual   float64
	Tol        float64
	X          []float64
}

func (e *NotConvergedError) Error() string {
	return fmt.Sprintf("krylov: %s did not converge: relative residual %.3g > tolerance %.3g after %d iterations", e.Method, e.Residual, e.Tol, e.Iterations)
}

// BreakdownError reports that a method cannot continue: CG met pᵀAp ≤ 0 (the
// operator is not positive definite), BiCGSTAB a zero inner product, MINRES an
// indefinite preconditioner. x holds the best iterate found.
type BreakdownError struct {
	Method     string
	Iterations int
	Reason     string
}

func (e *BreakdownError) Error() string {
	return fmt.Sprintf("krylov: %s broke down at iteration %d: %s", e.Method, e.Iterations, e.Reason)
}

// ErrDimension is wrapped by errors about vectors whose length does not
// match the operator.
var ErrDimension = errors.New("dimension mismatch")

// Jacobi returns the Jacobi preconditioner diag(1/a_ii) of a matrix with the
// given diagonal. Every entry must be finite and positive (as for an SPD
// matrix); the error names the first that is not.
func Jacobi(diag []float64) (linop.Diagonal, error) {
	inv := make(linop.Diagonal, len(diag))
	for i, d := range diag {
		if !(d > 0) || math.IsInf(d, 0) {
			return nil, fmt.Errorf("krylov: Jacobi: diagonal entry %d is %v; it must be finite and positive", i, d)
		}
		inv[i] = 1 / d
	}
	return inv, nil
}

// solve holds what every method shares: settings with defaults applied,
// ‖b‖, the best iterate, counters.
type solve struct {
	method string
	a      linop.Operator
	b, x   []float64
	n      int
	tol    float64
	max    int
	bnorm  float64
	s      Settings
	ctx    context.Context

	res Result
	// lastIsBest is set by methods whose last iterate is the best one in the
	// norm they minimise (CG: the A-norm of the error), so that no residual-
	// based copy is kept.
	lastIsBest bool
	best       []float64
	bestRes    float64
	tmp        []float64
}

func newSolve(ctx context.Context, method string, a linop.Operator, b, x []float64, s Settings, needSym bool) (*solve, error) {
	n := a.Dim()
	if len(b) != n || len(x) != n {
		return nil, fmt.Errorf("krylov: %s: operator is %d×%d but b has length %d and x has length %d: %w", method, n, n, len(b), len(x), ErrDimension)
	}
	s, err := withDefaults(method, a, s, needSym)
	if err != nil {
		return nil, err
	}
	for i, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("krylov: %s: b[%d] = %v is not finite", method, i, v)
		}
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("krylov: %s: initial guess x[%d] = %v is not finite", method, i, v)
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return &solve{
		method: method, a: a, b: b, x: x, n: n, tol: s.Tol, max: s.MaxIter,
		bnorm: floats.Norm(b, 2), s: s, ctx: ctx, bestRes: math.Inf(1),
		tmp: make([]float64, n),
	}, nil
}

// withDefaults checks the settings against the operator a and fills in the
// defaults (Tol, MaxIter); needSym refuses an operator that declares itself
// non-symmetric.
func withDefaults(method string, a linop.Operator, s Settings, needSym bool) (Settings, error) {
	n := a.Dim()
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if !(s.Tol > 0 && s.Tol < 1) {
		return s, fmt.Errorf("krylov: %s: tolerance %v out of range (0, 1)", method, s.Tol)
	}
	if s.MaxIter < 0 {
		return s, fmt.Errorf("krylov: %s: MaxIter %d is negative", method, s.MaxIter)
	}
	if s.MaxIter == 0 {
		s.MaxIter = 2*n + 100
	}
	if s.Preconditioner != nil && s.Preconditioner.Dim() != n {
		return s, fmt.Errorf("krylov: %s: preconditioner is %d×%d, operator %d×%d: %w", method, s.Preconditioner.Dim(), s.Preconditioner.Dim(), n, n, ErrDimension)
	}
	if needSym && !linop.IsSymmetric(a) {
		return s, fmt.Errorf("krylov: %s needs a symmetric operator; use GMRES or BiCGSTAB", method)
	}
	return s, nil
}

// mul sets dst = A·v and counts it.
func (sv *solve) mul(dst, v []float64) {
	sv.a.MulVecTo(dst, v)
	sv.res.MatVecs++
}

// precond sets dst = M·v, or copies v when there is no preconditioner.
func (sv *solve) precond(dst, v []float64) {
	if sv.s.Preconditioner == nil {
		copy(dst, v)
		return
	}
	sv.s.Preconditioner.MulVecTo(dst, v)
}

// residual sets r = b − A x and returns ‖r‖/‖b‖.
func (sv *solve) residual(r, x []float64) float64 {
	sv.mul(r, x)
	for i := range r {
		r[i] = sv.b[i] - r[i]
	}
	return floats.Norm(r, 2) / sv.bnorm
}

// zeroRHS handles b = 0, whose solution is x = 0.
func (sv *solve) zeroRHS() bool {
	if sv.bnorm != 0 {
		return false
	}
	for i := range sv.x {
		sv.x[i] = 0
	}
	return true
}

// step records iteration k with recurrence residual rel and reports progress.
// It returns a context error if the solve was cancelled.
func (sv *solve) step(rel float64) error {
	sv.res.Iterations++
	if sv.s.Progress != nil {
		sv.s.Progress(sv.res.Iterations, rel)
	}
	return sv.ctx.Err()
}

// remember stores x as the best iterate if its residual (true or from the
// recurrence) is the smallest seen.
func (sv *solve) remember(x []float64, rel float64) {
	if !sv.lastIsBest && rel < sv.bestRes {
		if sv.best == nil {
			sv.best = make([]float64, sv.n)
		}
		copy(sv.best, x)
		sv.bestRes = rel
	}
}

// fail restores the best iterate into the caller's x and builds the error.
func (sv *solve) fail(cause error) (Result, error) {
	if sv.best != nil {
		copy(sv.x, sv.best)
	}
	// Report the true residual of what the caller gets.
	sv.res.Residual = sv.residual(sv.tmp, sv.x)
	if cause != nil {
		var bd *BreakdownError
		if errors.As(cause, &bd) {
			return sv.res, cause
		}
		return sv.res, fmt.Errorf("krylov: %s stopped after %d iterations (relative residual %.3g): %w", sv.method, sv.res.Iterations, sv.res.Residual, cause)
	}
	return sv.res, &NotConvergedError{Method: sv.method, Iterations: sv.res.Iterations, Residual: sv.res.Residual, Tol: sv.tol, X: sv.x}
}

// makeVecs allocates each of dst as a vector of length n.
func makeVecs(n int, dst ...*[]float64) {
	for _, d := range dst {
		*d = make([]float64, n)
	}
}

// atRestart checks the true residual of x, into r, before a (re)start of a
// restarted method: end reports that the solve ends there, converged or at
// the iteration cap, with what to return.
func (sv *solve) atRestart(x, r []float64) (end bool, res Result, err error) {
	if sv.done(x, r) {
		return true, sv.res, nil
	}
	if sv.res.Iterations >= sv.max {
		res, err = sv.fail(nil)
		return true, res, err
	}
	return false, Result{}, nil
}

// afterCycle ends the solve after a cycle that stopped on an error, at the
// iteration cap (not converged), or converged with a true residual within
// the tolerance; otherwise (the recurrence's estimate was optimistic) the
// solve restarts from the residual left in r.
func (sv *solve) afterCycle(x, r []float64, converged bool, cause error) (end bool, res Result, err error) {
	switch {
	case cause != nil:
		res, err = sv.fail(cause)
		return true, res, err
	case !converged:
		res, err = sv.fail(nil)
		return true, res, err
	case sv.done(x, r):
		return true, sv.res, nil
	}
	return false, Result{}, nil
}

// done checks the true residual of x; it returns true when x meets the
// tolerance, and otherwise leaves r = b − Ax for a restart.
func (sv *solve) done(x, r []float64) bool {
	rel := sv.residual(r, x)
	sv.res.Residual = rel
	sv.remember(x, rel)
	return rel <= sv.tol
}
