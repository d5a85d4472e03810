package svm

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Settings control the SMO solver. The zero value is usable.
type Settings struct {
	// Tol is the stopping tolerance ε on the maximal KKT violation
	// m(α) − M(α) (Fan, Chen & Lin 2005, eq. 9); 0 means 1e-3, LIBSVM's and
	// scikit-learn's default.
	Tol float64
	// MaxIter caps the SMO iterations; 0 means max(10⁷, 100n) as in LIBSVM.
	MaxIter int
}

// DefaultTol is the stopping tolerance used when Settings.Tol is 0.
const DefaultTol = 1e-3

// tau replaces a non-positive curvature a_ij = K_ii + K_jj − 2K_ij (a kernel
// that is not positive definite on the pair), as in Fan, Chen & Lin's WSS 3.
const tau = 1e-12

func (s Settings) validate() error {
	if !(s.Tol >= 0 && s.Tol < 1) {
		return fmt.Errorf("svm: Tol=%v is invalid: it must be in [0, 1) (0 means %g)", s.Tol, DefaultTol)
	}
	if s.MaxIter < 0 {
		return fmt.Errorf("svm: MaxIter=%d is invalid: it must be ≥ 0 (0 means max(10⁷, 100n))", s.MaxIter)
	}
	return nil
}

// Dual is the solution of the C-SVM dual problem
//
//	min_α ½ αᵀQα − eᵀα   subject to 0 ≤ α_i ≤ C, yᵀα = 0,   Q_ij = y_i y_j K_ij
//
// with decision function g(x) = Σ_i α_i y_i k(x_i, x) + B.
type Dual struct {
	Alpha      []float64 // α_i, in [0, C]
	B          float64   // the offset b (LIBSVM's −ρ)
	Iterations int       // SMO iterations (pairs updated)
	Gap        float64   // final maximal violation m(α) − M(α) ≤ Tol
}

// NotConvergedError is returned when SMO stops at MaxIter with a violation
// above the tolerance; Dual holds the last iterate.
type NotConvergedError struct {
	Iterations int
	Gap, Tol   float64
	Dual       Dual
}

func (e *NotConvergedError) Error() string {
	return fmt.Sprintf("svm: SMO did not converge: maximal KKT violation %.3g > tolerance %.3g after %d iterations", e.Gap, e.Tol, e.Iterations)
}

// SolveDual solves the binary C-SVM dual for the Gram matrix k of the
// training points and labels y_i ∈ {−1, +1} by sequential minimal
// optimisation with the second-order working-set selection of Fan, Chen &
// Lin (JMLR 6, 2005, WSS 2, with τ for non-positive curvature as in WSS 3).
// It reads K into a dense n×n array (the precomputed kernel is dense
// anyway), and each iteration costs O(n). It checks ctx every 1000
// iterations.
func SolveDual(ctx context.Context, k mat.Symmetric, y []float64, c float64, s Settings) (Dual, error) {
	if err := s.validate(); err != nil {
		return Dual{}, err
	}
	if !(c > 0) || math.IsInf(c, 0) {
		return Dual{}, fmt.Errorf("svm: C=%v is invalid: it must be finite and > 0", c)
	}
	n := k.SymmetricDim()
	if len(y) != n {
		return Dual{}, fmt.Errorf("svm: the Gram matrix is %d×%d but there are %d labels", n, n, len(y))
	}
	var pos, neg int
	for i, v := range y {
		switch v {
		case 1:
			pos++
		case -1:
			neg++
		default:
			return Dual{}, fmt.Errorf("svm: label y[%d] = %v: binary labels must be −1 or +1", i, v)
		}
	}
	if pos == 0 || neg == 0 {
		return Dual{}, fmt.Errorf("svm: the binary problem needs both classes; got %d positive and %d negative labels", pos, neg)
	}
	kd, err := denseGram(k)
	if err != nil {
		return Dual{}, err
	}
	return smo(ctx, kd, n, y, c, s)
}

// denseGram copies a symmetric matrix into a row-major array, refusing
// non-finite entries.
func denseGram(k mat.Symmetric) ([]float64, error) {
	n := k.SymmetricDim()
	kd := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := k.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("svm: Gram matrix entry (%d, %d) = %v is not finite", i, j, v)
			}
			kd[i*n+j], kd[j*n+i] = v, v
		}
	}
	return kd, nil
}

func smo(ctx context.Context, kd []float64, n int, y []float64, c float64, s Settings) (Dual, error) {
	tol := s.Tol
	if tol == 0 {
		tol = DefaultTol
	}
	maxIter := s.MaxIter
	if maxIter == 0 {
		maxIter = max(10_000_000, 100*n)
	}
	alpha := make([]float64, n)
	grad := make([]float64, n) // ∇f(α) = Qα − e
	for i := range grad {
		grad[i] = -1
	}
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = kd[i*n+i]
	}
	// I_up = {t : y_t = +1, α_t < C or y_t = −1, α_t > 0} and I_low = {t :
	// y_t = +1, α_t > 0 or y_t = −1, α_t < C} (Fan et al. eq. 7), kept as
	// flags and updated for the two variables that move.
	inUp := make([]bool, n)
	inLow := make([]bool, n)
	setSets := func(t int) {
		inUp[t] = (y[t] == 1 && alpha[t] < c) || (y[t] == -1 && alpha[t] > 0)
		inLow[t] = (y[t] == 1 && alpha[t] > 0) || (y[t] == -1 && alpha[t] < c)
	}
	for t := range alpha {
		setSets(t)
	}
	var gap float64
	iter := 0
	for ; ; iter++ {
		if iter%1000 == 0 {
			if err := ctx.Err(); err != nil {
				return Dual{Alpha: alpha, Iterations: iter}, fmt.Errorf("svm: SMO stopped after %d iterations: %w", iter, err)
			}
		}
		// i = argmax over I_up of −y_t ∇_t.
		gmax, i := math.Inf(-1), -1
		for t, up := range inUp {
			if up {
				if v := -y[t] * grad[t]; v >= gmax {
					gmax, i = v, t
				}
			}
		}
		// j minimises −b_it²/a_it over I_low with −y_t ∇_t < gmax; gmax2 is
		// −M(α) = max over I_low of y_t ∇_t.
		gmax2, j := math.Inf(-1), -1
		objMin := math.Inf(1)
		var ki []float64
		if i >= 0 {
			ki = kd[i*n : (i+1)*n]
		}
		for t, low := range inLow {
			if !low {
				continue
			}
			v := y[t] * grad[t]
			if v > gmax2 {
				gmax2 = v
			}
			gdiff := gmax + v
			if i < 0 || gdiff <= 0 {
				continue
			}
			a := diag[i] + diag[t] - 2*ki[t]
			if a <= 0 {
				a = tau
			}
			if obj := -gdiff * gdiff / a; obj <= objMin {
				objMin, j = obj, t
			}
		}
		gap = gmax + gmax2
		if gap < tol || j < 0 {
			break
		}
		if iter >= maxIter {
			d := Dual{Alpha: alpha, B: 0 - offset(alpha, grad, y, c), Iterations: iter, Gap: gap}
			return d, &NotConvergedError{Iterations: iter, Gap: gap, Tol: tol, Dual: d}
		}
		kj := kd[j*n : (j+1)*n]
		oldI, oldJ := alpha[i], alpha[j]
		qij := y[i] * y[j] * ki[j]
		if y[i] != y[j] {
			a := diag[i] + diag[j] + 2*qij
			if a <= 0 {
				a = tau
			}
			delta := (-grad[i] - grad[j]) / a
			diff := alpha[i] - alpha[j]
			alpha[i] += delta
			alpha[j] += delta
			if diff > 0 {
				if alpha[j] < 0 {
					alpha[j], alpha[i] = 0, diff
				}
			} else if alpha[i] < 0 {
				alpha[i], alpha[j] = 0, -diff
			}
			if diff > 0 {
				if alpha[i] > c {
					alpha[i], alpha[j] = c, c-diff
				}
			} else if alpha[j] > c {
				alpha[j], alpha[i] = c, c+diff
			}
		} else {
			a := diag[i] + diag[j] - 2*qij
			if a <= 0 {
				a = tau
			}
			delta := (grad[i] - grad[j]) / a
			sum := alpha[i] + alpha[j]
			alpha[i] -= delta
			alpha[j] += delta
			if sum > c {
				if alpha[i] > c {
					alpha[i], alpha[j] = c, sum-c
				}
			} else if alpha[j] < 0 {
				alpha[j], alpha[i] = 0, sum
			}
			if sum > c {
				if alpha[j] > c {
					alpha[j], alpha[i] = c, sum-c
				}
			} else if alpha[i] < 0 {
				alpha[i], alpha[j] = 0, sum
			}
		}
		setSets(i)
		setSets(j)
		di, dj := alpha[i]-oldI, alpha[j]-oldJ
		yi, yj := y[i]*di, y[j]*dj
		for t := 0; t < n; t++ {
			grad[t] += y[t] * (ki[t]*yi + kj[t]*yj)
		}
	}
	// b = 0 − ρ rather than −ρ, so that ρ = 0 prints as 0, not −0.
	return Dual{Alpha: alpha, B: 0 - offset(alpha, grad, y, c), Iterations: iter, Gap: gap}, nil
}

// offset returns LIBSVM's ρ: the mean of y_i∇_i over free variables, or
// the middle of the feasible interval when no variable is free.
func offset(alpha, grad, y []float64, c float64) float64 {
	ub, lb := math.Inf(1), math.Inf(-1)
	var sum float64
	free := 0
	for i, a := range alpha {
		yg := y[i] * grad[i]
		switch {
		case a >= c:
			if y[i] == -1 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		case a <= 0:
			if y[i] == 1 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		default:
			free++
			sum += yg
		}
	}
	if free > 0 {
		return sum / float64(free)
	}
	return (ub + lb) / 2
}
