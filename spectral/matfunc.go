package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"

	"github.com/gssl/gssl/linop"
)

// Function is a real function applied to the spectrum of a symmetric
// operator: f(A) = V f(Λ) Vᵀ for A = V Λ Vᵀ.
type Function struct {
	// Name describes f in error messages, e.g. "exp(−0.5x)".
	Name string
	// F evaluates f. It must be finite on the spectrum of the operator.
	F func(x float64) float64
}

// Exp returns f(x) = exp(−t·x): exp(−tL) is the diffusion (heat) kernel on
// a graph. t must be finite.
func Exp(t float64) Function {
	return Function{Name: fmt.Sprintf("exp(−%gx)", t), F: func(x float64) float64 { return math.Exp(-t * x) }}
}

// Resolvent returns f(x) = 1/(1 + t·x): (I + tL)^{-1} is the regularised
// Laplacian kernel. The operator's spectrum must lie where 1 + t·x > 0.
func Resolvent(t float64) Function {
	return Function{Name: fmt.Sprintf("(1+%gx)^-1", t), F: func(x float64) float64 {
		d := 1 + t*x
		if !(d > 0) {
			return math.NaN()
		}
		return 1 / d
	}}
}

// Power returns f(x) = x^p. For a non-integer p the spectrum must be
// non-negative (x^p with x < 0 is reported as an error).
func Power(p float64) Function {
	return Function{Name: fmt.Sprintf("x^%g", p), F: func(x float64) float64 {
		if x < 0 && p != math.Trunc(p) {
			// Rounding can leave a PSD operator's smallest Ritz value a
			// hair below zero; that is zero.
			if x > -1e-12 {
				return 0
			}
			return math.NaN()
		}
		return math.Pow(x, p)
	}}
}

// Log returns f(x) = log x (for positive definite operators).
func Log() Function {
	return Function{Name: "log(x)", F: func(x float64) float64 {
		if !(x > 0) {
			return math.NaN()
		}
		return math.Log(x)
	}}
}

// DefaultFuncTol is the relative accuracy MatFunc aims at when
// FuncSettings.Tol is 0.
const DefaultFuncTol = 1e-10

// FuncSettings control MatFunc. The zero value is usable.
type FuncSettings struct {
	// Tol is the target relative accuracy: the iteration stops when two
	// successive approximations y_j = ‖b‖ Q_j f(T_j) e₁ differ by at most
	// Tol·‖y_j‖ twice in a row. 0 means DefaultFuncTol; it must lie in
	// [1e-15, 1).
	Tol float64
	// MaxIter caps the Lanczos steps (and the basis kept, n×MaxIter
	// numbers); 0 means min(n, 500).
	MaxIter int
	// Progress, when set, is called after every step with the step count
	// and the current change estimate.
	Progress func(step int, change float64)
}

// FuncResult describes a finished MatFunc.
type FuncResult struct {
	Iterations int     // Lanczos steps (operator products)
	Change     float64 // last relative change ‖y_j − y_{j−1}‖/‖y_j‖ (0 when the Krylov space became invariant)
}

// ErrFunctionDomain is wrapped by errors about a function that is not
// finite on (an approximation of) the operator's spectrum.
var ErrFunctionDomain = errors.New("function not finite on the spectrum")

// MatFunc sets dst = f(A)·b for a symmetric operator A by the Lanczos method
// (Saad 1992; Higham, "Functions of Matrices", 2008, §13.2): with
// A Q_j = Q_j T_j + β_{j+1} q_{j+1} e_jᵀ and q₁ = b/‖b‖,
//
//	f(A) b ≈ ‖b‖ Q_j f(T_j) e₁,
//
// exact once the Krylov space is invariant. The basis is re-orthogonalised
// in full. The error is estimated by the change between successive
// approximations (for the resolvent this is the CG error in disguise, for
// exp(−tA) it decays superlinearly once j exceeds ‖tA‖). When MaxIter is
// reached the best approximation is left in dst with a *FuncNotConvergedError.
func MatFunc(ctx context.Context, a linop.Operator, f Function, dst, b []float64, s FuncSettings) (FuncResult, error) {
	tol, maxIter, err := checkMatFunc(a, f, dst, b, s)
	if err != nil {
		return FuncResult{}, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	bnorm := floats.Norm(b, 2)
	if bnorm == 0 {
		for i := range dst {
			dst[i] = 0
		}
		return FuncResult{}, nil
	}
	kb := newKrylovBasis(a, maxIter)
	kb.start(b)
	var res FuncResult
	var prev, coef []float64
	small := 0
	for {
		invariant, _ := kb.step()
		j := kb.size()
		res.Iterations = j
		if err := ctx.Err(); err != nil {
			kb.combine(dst, coef, bnorm)
			return res, fmt.Errorf("spectral: MatFunc stopped after %d steps: %w", j, err)
		}
		if !invariant && j != maxIter && j >= 40 && j%4 != 0 {
			continue
		}
		c, err := kb.funcCoefficients(f)
		if err != nil {
			kb.combine(dst, coef, bnorm)
			return res, err
		}
		change := 1.0
		if prev != nil {
			change = relativeChange(c, prev)
		}
		prev, coef = c, c
		res.Change = change
		if invariant {
			res.Change = 0
		}
		if s.Progress != nil {
			s.Progress(j, res.Change)
		}
		if change <= tol {
			small++
		} else {
			small = 0
		}
		if invariant || small >= 2 {
			kb.combine(dst, coef, bnorm)
			return res, nil
		}
		if j == maxIter {
			kb.combine(dst, coef, bnorm)
			return res, &FuncNotConvergedError{Function: f.Name, Iterations: j, Change: change, Tol: tol}
		}
	}
}

// checkMatFunc validates the arguments of MatFunc and returns the
// tolerance and the step cap, defaults applied.
func checkMatFunc(a linop.Operator, f Function, dst, b []float64, s FuncSettings) (tol float64, maxIter int, err error) {
	if a == nil {
		return 0, 0, errors.New("spectral: MatFunc: operator is nil")
	}
	if f.F == nil {
		return 0, 0, errors.New("spectral: MatFunc: function is nil")
	}
	n := a.Dim()
	if len(dst) != n || len(b) != n {
		return 0, 0, fmt.Errorf("spectral: MatFunc: operator is %d×%d but b has length %d and dst has length %d", n, n, len(b), len(dst))
	}
	if !linop.IsSymmetric(a) {
		return 0, 0, fmt.Errorf("spectral: MatFunc needs a symmetric operator: %w", ErrNotSymmetric)
	}
	tol = s.Tol
	if tol == 0 {
		tol = DefaultFuncTol
	}
	if !(tol >= 1e-15 && tol < 1) {
		return 0, 0, fmt.Errorf("spectral: MatFunc: Tol = %v is invalid: it must lie in [1e-15, 1) (0 means %g)", s.Tol, DefaultFuncTol)
	}
	if s.MaxIter < 0 {
		return 0, 0, fmt.Errorf("spectral: MatFunc: MaxIter = %d is invalid: it must be ≥ 0 (0 means min(n, 500))", s.MaxIter)
	}
	maxIter = s.MaxIter
	if maxIter == 0 {
		maxIter = 500
	}
	maxIter = min(maxIter, n)
	for i, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, fmt.Errorf("spectral: MatFunc: b[%d] = %v is not finite", i, v)
		}
	}
	return tol, maxIter, nil
}

// relativeChange returns ‖c − prev‖/‖c‖ (‖c − prev‖ when c is zero), prev
// padded with zeros to the length of c.
func relativeChange(c, prev []float64) float64 {
	var d2, c2 float64
	for i, x := range c {
		p := 0.0
		if i < len(prev) {
			p = prev[i]
		}
		d2 += (x - p) * (x - p)
		c2 += x * x
	}
	if c2 > 0 {
		return math.Sqrt(d2 / c2)
	}
	return math.Sqrt(d2)
}

// FuncNotConvergedError is returned by MatFunc when MaxIter steps did not
// reach the tolerance; dst holds the last approximation.
type FuncNotConvergedError struct {
	Function   string
	Iterations int
	Change     float64
	Tol        float64
}

func (e *FuncNotConvergedError) Error() string {
	return fmt.Sprintf("spectral: MatFunc(%s) did not converge: relative change %.3g > tolerance %.3g after %d Lanczos steps; raise MaxIter", e.Function, e.Change, e.Tol, e.Iterations)
}

// krylovBasis is a single-vector Lanczos recursion with full
// re-orthogonalisation: A Q_j = Q_j T_j + β_{j+1} q_{j+1} e_jᵀ.
type krylovBasis struct {
	a     linop.Operator
	n     int
	q     [][]float64 // basis vectors; q[j] is unit
	alpha []float64
	beta  []float64 // beta[j] couples q[j] and q[j+1]
	w     []float64
	max   int
}

func newKrylovBasis(a linop.Operator, maxSteps int) *krylovBasis {
	return &krylovBasis{a: a, n: a.Dim(), w: make([]float64, a.Dim()), max: maxSteps}
}

// start sets q₁ = v/‖v‖ (v ≠ 0).
func (kb *krylovBasis) start(v []float64) {
	q := append([]float64(nil), v...)
	floats.Scale(1/floats.Norm(q, 2), q)
	kb.q = append(kb.q[:0], q)
	kb.alpha, kb.beta = kb.alpha[:0], kb.beta[:0]
}

// size returns the number of columns with a complete row of T.
func (kb *krylovBasis) size() int { return len(kb.alpha) }

// step extends the recursion by one vector: it completes row j of T and adds
// q_{j+1}. It reports whether the Krylov space is invariant (β_{j+1} is
// negligible) and whether the step cap is reached; in both cases no vector is
// added.
func (kb *krylovBasis) step() (invariant, full bool) {
	j := len(kb.alpha)
	qj := kb.q[j]
	w := kb.w
	kb.a.MulVecTo(w, qj)
	alpha := floats.Dot(qj, w)
	wnorm0 := floats.Norm(w, 2)
	// Full re-orthogonalisation, twice.
	for pass := 0; pass < 2; pass++ {
		for _, q := range kb.q {
			floats.AddScaled(w, -floats.Dot(q, w), q)
		}
	}
	kb.alpha = append(kb.alpha, alpha)
	beta := floats.Norm(w, 2)
	if beta == 0 || beta <= 1e-14*math.Max(wnorm0, math.Abs(alpha)) {
		return true, false
	}
	if j+1 >= kb.max {
		return false, true
	}
	kb.beta = append(kb.beta, beta)
	q := make([]float64, kb.n)
	floats.ScaleTo(q, 1/beta, w)
	kb.q = append(kb.q, q)
	return false, false
}

// tridiagEig returns the eigenvalues of T_j (ascending) and its eigenvectors
// (row-major j×j, column i for value i).
func (kb *krylovBasis) tridiagEig() ([]float64, []float64, error) {
	j := len(kb.alpha)
	d := append([]float64(nil), kb.alpha...)
	e := make([]float64, max(j-1, 0))
	copy(e, kb.beta[:max(j-1, 0)])
	z := make([]float64, j*j)
	work := make([]float64, max(1, 2*j-2))
	if !(lapackgonum.Implementation{}).Dsteqr(lapack.EVTridiag, j, d, e, z, j, work) {
		return nil, nil, errors.New("spectral: tridiagonal eigensolver failed to converge")
	}
	return d, z, nil
}

// funcCoefficients returns f(T_j) e₁.
func (kb *krylovBasis) funcCoefficients(f Function) ([]float64, error) {
	theta, z, err := kb.tridiagEig()
	if err != nil {
		return nil, err
	}
	j := len(theta)
	fz := make([]float64, j)
	for i, t := range theta {
		v := f.F(t)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("spectral: %s is %v at the Ritz value %v of the operator: %w", f.Name, v, t, ErrFunctionDomain)
		}
		fz[i] = v * z[i] // z[0*j+i]: first component of eigenvector i
	}
	c := make([]float64, j)
	for r := 0; r < j; r++ {
		var s float64
		for i := 0; i < j; i++ {
			s += z[r*j+i] * fz[i]
		}
		c[r] = s
	}
	return c, nil
}

// combine sets dst = scale · Q c (dst = 0 for nil c).
func (kb *krylovBasis) combine(dst, c []float64, scale float64) {
	for i := range dst {
		dst[i] = 0
	}
	for r, x := range c {
		floats.AddScaled(dst, scale*x, kb.q[r])
	}
}
