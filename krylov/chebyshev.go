package krylov

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/gssl/gssl/internal/parallel"
)

// Float is the storage type of Chebyshev's iterates: float64, or float32
// for half the memory and half the bytes of every gather (the residual,
// its norms and the recurrence are float64 either way; only the new
// iterate is rounded).
type Float interface{ ~float32 | ~float64 }

// ChebyshevSystem is a system (I − aS)X = B for Chebyshev: S symmetric
// with its spectrum in [−1, 1], 0 < a < 1, X and B n×c. Chebyshev stores
// the iterates as Z = t∘X (row i scaled by t_i, ChebyshevSettings.Scale),
// row-major, and sees the system only through rows of its residual.
type ChebyshevSystem[T Float] interface {
	// Residual sets r[(i−lo)·c + j] = (B − (I − aS)X)_ij for the rows
	// [lo, hi), X read from z as Z = t∘X, or X = 0 when z is nil. It is
	// called concurrently for disjoint ranges inside the chunks of
	// RowChunk rows (a whole chunk for up to 16 columns, fewer rows for
	// wider blocks, whose scratch r stays at RowChunk·16 entries) and must
	// not write z.
	Residual(r []float64, z []T, lo, hi int)
}

// ChebyshevProduct is implemented by a ChebyshevSystem whose product with
// S is one call for the whole block (a linop.BlockOperator): Chebyshev calls
// Product(z) before each pass whose iterate z is not zero, and Residual
// then reads the product.
type ChebyshevProduct[T Float] interface {
	Product(z []T)
}

// ChebyshevStepper is implemented by a ChebyshevSystem that fuses the step
// with its residual (a product kernel that hands rows over while they are
// in cache). Step must do for the rows [lo, hi) of chunk k exactly what
// Chebyshev does with Residual's rows: add R_ij² to acc[j] and set
//
//	prv_i ← cur_i + ω(cur_i − prv_i) + γ·t_i·R_i
//
// with R computed from cur (all zero when zero is true). Handled reports
// whether Step is used; Chebyshev falls back to Residual when it is not.
type ChebyshevStepper[T Float] interface {
	Handled() bool
	Step(k, lo, hi int, acc []float64, cur, prv []T, omega, gamma float64, zero bool)
}

// ChebyshevSettings control a Chebyshev solve.
type ChebyshevSettings[T Float] struct {
	// Tol is the relative residual at which a column (Frobenius: the
	// block) has converged; 0 means DefaultTol. It must be in (0, 1).
	// MaxIter caps the iterations; 0 means 2·ChebyshevBound(a, Tol) + 100.
	// Progress is called after every iteration with the largest column
	// residual (Frobenius: the block's).
	Settings
	// Method names the solve in errors ("spreading Chebyshev").
	Method string
	// BNorm holds ‖B_j‖₂ for every column, the denominators of the relative
	// residuals; a column with ‖B_j‖ = 0 has residual 0 (its solution is
	// zero: the caller starts it at zero).
	BNorm []float64
	// Frobenius stops on ‖R‖_F/‖B‖_F ≤ Tol, the whole block, instead of
	// every column's ‖R_j‖/‖B_j‖ ≤ Tol (‖B‖_F² = Σ_j BNorm_j²); every entry
	// of the result's Iterations and Residual is then the block's.
	Frobenius bool
	// Scale is t, the row scaling of the stored iterates Z = t∘X; nil
	// means 1 for every row.
	Scale []float64
	// Zero says that the first iterate (cur) is zero: the first pass needs
	// no product.
	Zero bool
	// Passes runs the row passes; nil means NewRowPasses(n, c, n·c).
	Passes *RowPasses
	// Stop, when not nil, is called after every iteration k that has not
	// converged with the largest column residual and the iterate Z_k;
	// returning true ends the solve as converged (labelprop's StopLabels).
	Stop func(k int, worst float64, z []T) bool
}

// ChebyshevBound returns the smallest k with T_k(1/a) ≥ 1/tol, T_k the
// Chebyshev polynomial (T_k(x) = cosh(k·acosh x) for x ≥ 1): in exact
// arithmetic the semi-iteration on I − aS from X_0 = 0 has
// ‖R_k‖ ≤ ‖B‖/T_k(1/a), so it reaches a relative residual tol within that
// many iterations (32 for a = 0.9 and tol = 1e-6, 103 for a = 0.99). The
// result saturates at limit (a so close to 1 that 1/a rounds to 1 would
// divide by acosh(1) = 0).
func ChebyshevBound(a, tol float64, limit int) int {
	k := math.Ceil(math.Acosh(1/tol) / math.Acosh(1/a))
	if !(k < float64(limit)) {
		return limit
	}
	return int(k)
}

// Chebyshev solves (I − aS)X = B by the Chebyshev semi-iteration (Saad,
// "Iterative Methods for Sparse Linear Systems", 2nd ed., Alg. 12.1). The
// eigenvalues of S lie in [−1, 1], so those of I − aS lie in [1 − a, 1 + a]:
// the centre θ = 1 and half-width δ = a are known exactly, no eigenvalue
// estimate is needed, and the residual obeys
//
//	‖R_k‖ ≤ ‖R_0‖ / T_k(1/a)
//
// (T_k the Chebyshev polynomial), a factor (√κ − 1)/(√κ + 1) per iteration
// with κ = (1 + a)/(1 − a), as for CG. With X_{k+1} = X_k + D_k and
//
//	D_0 = R_0/θ,   ρ_0 = δ/θ,   ρ_k = 1/(2θ/δ − ρ_{k−1}),
//	D_k = ρ_k ρ_{k−1} D_{k−1} + (2ρ_k/δ) R_k,
//
// the step is the three-term recurrence
//
//	X_{k+1} = X_k + ω_k (X_k − X_{k−1}) + γ_k R_k,   ω_k = ρ_k ρ_{k−1}, γ_k = 2ρ_k/a,
//
// (ω_0 = 0, γ_0 = 1), which needs no inner product: an iteration is one row
// pass, which computes R_k from Z_k = cur, adds its squares to the column
// sums and writes Z_{k+1} = t∘X_{k+1} over Z_{k−1} = prv (read only there).
// With X_0 = 0 the first iterate is X_1 = B = (1 − a)Y for the right-hand
// side of (1 − a)(I − aS)^{−1}Y, the label spreading and personalised
// PageRank propagation.
//
// The residual of every pass is the true residual B − (I − aS)X_k, not a
// recursively updated one, so the stopping test cannot be fooled by
// rounding drift (the concern of Gutknecht and Röllin's stable variants).
// All columns share the polynomial; the iteration stops at the first k at
// which every column (Frobenius: the block) has converged and returns Z_k
// (columns that got there earlier keep improving until then).
//
// cur holds Z_0 on entry and prv is the second block, both n·c long, n·c
// a multiple of len(BNorm) = c. Chebyshev returns the one of the two that
// holds the last iterate whose residual is known (Z_k after pass k), with
// that residual, on every path: a *NotConvergedError after MaxIter
// iterations, a *BreakdownError for a residual that is not finite, the
// context's error (wrapped) when it is done.
func Chebyshev[T Float](ctx context.Context, sys ChebyshevSystem[T], a float64, cur, prv []T, s ChebyshevSettings[T]) ([]T, BlockResult, error) {
	c := len(s.BNorm)
	if c == 0 || len(cur)%c != 0 || len(prv) != len(cur) {
		return cur, BlockResult{}, fmt.Errorf("krylov: %s: blocks of %d and %d entries for %d columns: %w", s.Method, len(cur), len(prv), c, ErrDimension)
	}
	n := len(cur) / c
	if s.Scale != nil && len(s.Scale) != n {
		return cur, BlockResult{}, fmt.Errorf("krylov: %s: Scale has %d entries for %d rows: %w", s.Method, len(s.Scale), n, ErrDimension)
	}
	if !(a > 0 && a < 1) {
		return cur, BlockResult{}, fmt.Errorf("krylov: %s: a = %v is invalid: it must be inside the open interval (0, 1)", s.Method, a)
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if !(s.Tol > 0 && s.Tol < 1) {
		return cur, BlockResult{}, fmt.Errorf("krylov: %s: Tol = %v is invalid: it must be inside the open interval (0, 1)", s.Method, s.Tol)
	}
	if s.MaxIter < 0 {
		return cur, BlockResult{}, fmt.Errorf("krylov: %s: MaxIter = %d is invalid: it must be ≥ 0", s.Method, s.MaxIter)
	}
	if s.MaxIter == 0 {
		s.MaxIter = 2*ChebyshevBound(a, s.Tol, math.MaxInt32) + 100
	}
	if s.Passes == nil {
		s.Passes = NewRowPasses(n, c, n*c)
	}
	ch := &chebyshev[T]{sys: sys, c: c, t: s.Scale, s: &s, rr: make([]float64, c)}
	ch.prod, _ = sys.(ChebyshevProduct[T])
	if st, ok := sys.(ChebyshevStepper[T]); ok && st.Handled() {
		ch.step = st
	} else {
		// one RowChunk×c residual block per running chunk, not an n×c block
		ch.scratch.New = func() *[]float64 { r := make([]float64, residualRows(c)*c); return &r }
	}
	return ch.run(ctx, a, cur, prv)
}

// chebyshev is the state of one Chebyshev solve.
type chebyshev[T Float] struct {
	sys     ChebyshevSystem[T]
	prod    ChebyshevProduct[T]
	step    ChebyshevStepper[T]
	c       int
	t       []float64
	s       *ChebyshevSettings[T]
	rr      []float64
	scratch parallel.FreeList[*[]float64]
}

func (ch *chebyshev[T]) run(ctx context.Context, a float64, cur, prv []T) ([]T, BlockResult, error) {
	c, s := ch.c, ch.s
	res := BlockResult{Iterations: make([]int, c), Residual: make([]float64, c)}
	zero := s.Zero
	if !zero {
		res.Products++
	}
	// θ = 1, δ = a: σ₁ = θ/δ = 1/a.
	sigma := 1 / a
	rho := 1 / sigma
	omega, gamma := 0.0, 1.0 // D_0 = R_0/θ
	converged := make([]bool, c)
	var bb float64
	for _, v := range s.BNorm {
		bb += v * v
	}
	for k := 0; ; k++ {
		ch.pass(cur, prv, omega, gamma, zero)
		zero = false
		report, worst, left := ch.measure(k, res, converged, bb)
		if k > 0 && s.Progress != nil {
			s.Progress(k, report)
		}
		if stop, err := ch.stop(ctx, k, res, report, worst, left, cur); stop {
			return cur, res, err
		}
		// prv holds Z_{k+1}; the next pass reads it as Z_k.
		cur, prv = prv, cur
		res.Products++
		next := 1 / (2*sigma - rho)
		omega, gamma = next*rho, 2*next/a
		rho = next
	}
}

// measure sets the residuals and iteration counts of res after k
// iterations from the squared residual norms in rr (columns converged for
// the first time at k get k) and returns the figure reported to Progress
// and Stop (the largest relative residual, or the Frobenius one), the
// largest relative residual of the columns not converged, and their count
// (with Frobenius, 1 unless it is converged).
func (ch *chebyshev[T]) measure(k int, res BlockResult, converged []bool, bb float64) (report, worst float64, left int) {
	s := ch.s
	total := 0.0
	for j := 0; j < ch.c; j++ {
		total += ch.rr[j]
		rel := 0.0
		if s.BNorm[j] > 0 {
			rel = math.Sqrt(ch.rr[j]) / s.BNorm[j]
		}
		res.Residual[j] = rel
		if rel <= s.Tol {
			if !converged[j] {
				converged[j], res.Iterations[j] = true, k
			}
			continue
		}
		converged[j] = false
		res.Iterations[j] = k
		left++
		worst = math.Max(worst, rel)
	}
	report = slices.Max(res.Residual)
	if s.Frobenius {
		report = 0
		if bb > 0 {
			report = math.Sqrt(total / bb)
		}
		left = 0
		if report > s.Tol {
			left = 1
		}
		for j := range res.Iterations {
			res.Iterations[j], res.Residual[j] = k, report
		}
	}
	return report, worst, left
}

// stop reports whether the solve ends after k iterations, and with which
// error: converged (left = 0) or stopped by Stop (none), cancelled, at the
// iteration cap (not converged) or with a residual that is not finite
// (breakdown).
func (ch *chebyshev[T]) stop(ctx context.Context, k int, res BlockResult, report, worst float64, left int, cur []T) (bool, error) {
	s := ch.s
	if left == 0 {
		return true, nil
	}
	if s.Stop != nil && s.Stop(k, report, cur) {
		return true, nil
	}
	if err := ctx.Err(); err != nil {
		return true, fmt.Errorf("krylov: %s stopped after %d iterations: %w", s.Method, k, err)
	}
	if k == s.MaxIter {
		method, resid := s.Method, report
		if !s.Frobenius {
			worstCol := 0
			for j := range res.Residual {
				if res.Residual[j] > res.Residual[worstCol] {
					worstCol = j
				}
			}
			method, resid = fmt.Sprintf("%s (column %d)", s.Method, worstCol), res.Residual[worstCol]
		}
		return true, &NotConvergedError{Method: method, Iterations: k, Residual: resid, Tol: s.Tol}
	}
	if !(report < math.Inf(1)) || !(worst < math.Inf(1)) {
		return true, &BreakdownError{Method: s.Method, Iterations: k, Reason: fmt.Sprintf("relative residual %g is not finite", math.Max(report, worst))}
	}
	return false, nil
}

// pass computes R_k from cur (zero: cur is zero), writes
// Z_{k+1} = cur + ω(cur − prv) + γ·t∘R_k over prv and leaves ‖R_j‖² in rr.
func (ch *chebyshev[T]) pass(cur, prv []T, omega, gamma float64, zero bool) {
	if ch.step != nil {
		ch.s.Passes.Run(ch.rr, func(k, lo, hi int, acc []float64) {
			ch.step.Step(k, lo, hi, acc, cur, prv, omega, gamma, zero)
		})
		return
	}
	z := cur
	if zero {
		z = nil
	} else if ch.prod != nil {
		ch.prod.Product(cur)
	}
	c, t, step := ch.c, ch.t, residualRows(ch.c)
	ch.s.Passes.Run(ch.rr, func(_, lo, hi int, acc []float64) {
		rp := ch.scratch.Get()
		defer ch.scratch.Put(rp)
		for lo := lo; lo < hi; lo += step {
			hi := min(lo+step, hi)
			r := (*rp)[:(hi-lo)*c]
			ch.sys.Residual(r, z, lo, hi)
			cur, prv := cur[lo*c:hi*c], prv[lo*c:hi*c]
			prv, r = prv[:len(cur)], r[:len(cur)]
			if t == nil {
				chebyshevRows(acc, cur, prv, r, omega, gamma)
				continue
			}
			i, j := lo, 0
			ti := t[lo]
			for e, zf := range cur {
				z, re := float64(zf), r[e]
				acc[j] += re * re
				prv[e] = T(z + omega*(z-float64(prv[e])) + gamma*(ti*re))
				if j++; j == c {
					j, i = 0, i+1
					if i < hi {
						ti = t[i]
					}
				}
			}
		}
	})
}

// residualRows is the number of rows per Residual call for c columns: the
// whole chunk up to 16 columns, fewer for wider blocks, so that the scratch
// rows stay within RowChunk·16 entries (a wide block of features must not
// need a chunk of RowChunk·c).
func residualRows(c int) int {
	if c <= 16 {
		return RowChunk
	}
	return max(1, RowChunk*16/c)
}

// chebyshevRows is the step of pass without a row scaling.
func chebyshevRows[T Float](acc []float64, cur, prv []T, r []float64, omega, gamma float64) {
	c := len(acc)
	j := 0
	for e, zf := range cur {
		z, re := float64(zf), r[e]
		acc[j] += re * re
		prv[e] = T(z + omega*(z-float64(prv[e])) + gamma*re)
		if j++; j == c {
			j = 0
		}
	}
}
