package krr

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/linop"
)

// cgResult describes a lockstep conjugate-gradient run.
type cgResult struct {
	iterations int
	residual   float64 // largest recurrence relative residual at the end
	converged  bool    // every column reached tol
}

// blockCG runs c conjugate-gradient recursions on A X = B in lockstep, one
// block product per iteration shared by all columns, from X = 0, for at most
// maxIter iterations; a column stops once its relative residual is ≤ tol.
// It returns the last iterate, as FALKON's Algorithm 1 does: CG minimises
// the A-norm of the error, and its residual need not decrease, so with few
// iterations the smallest-residual iterate (what krylov.BlockCG returns on
// non-convergence) can be a much worse solution, even the initial zero.
func blockCG(ctx context.Context, a linop.BlockOperator, b, x *mat.Dense, tol float64, maxIter int, progress func(int, float64)) (cgResult, error) {
	n, c := b.Dims()
	x.Zero()
	r := mat.DenseCopyOf(b)
	p := mat.DenseCopyOf(b)
	ap := mat.NewDense(n, c, nil)
	bnorm := make([]float64, c)
	rs := make([]float64, c)
	active := make([]bool, c)
	left := 0
	for j := 0; j < c; j++ {
		bnorm[j] = mat.Norm(b.ColView(j), 2)
		rs[j] = bnorm[j] * bnorm[j]
		active[j] = bnorm[j] > 0
		if active[j] {
			left++
		} else {
			zeroCol(p, j)
		}
	}
	var res cgResult
	for res.iterations < maxIter && left > 0 {
		a.MulBlockTo(ap, p)
		res.iterations++
		worst := 0.0
		for j := 0; j < c; j++ {
			if !active[j] {
				continue
			}
			pap := mat.Dot(p.ColView(j), ap.ColView(j))
			if !(pap > 0) {
				return res, fmt.Errorf("krr: CG broke down at iteration %d, column %d: pᵀAp = %g ≤ 0", res.iterations, j, pap)
			}
			alpha := rs[j] / pap
			axpyCol(x, alpha, p, j)
			axpyCol(r, -alpha, ap, j)
			rsNew := mat.Dot(r.ColView(j), r.ColView(j))
			rel := math.Sqrt(rsNew) / bnorm[j]
			worst = math.Max(worst, rel)
			if rel <= tol {
				active[j] = false
				left--
				zeroCol(p, j)
				continue
			}
			// p = r + (rsNew/rs) p
			beta := rsNew / rs[j]
			rs[j] = rsNew
			for i := 0; i < n; i++ {
				p.Set(i, j, r.At(i, j)+beta*p.At(i, j))
			}
		}
		res.residual = worst
		if progress != nil {
			progress(res.iterations, worst)
		}
		if err := ctx.Err(); err != nil {
			return res, fmt.Errorf("krr: CG stopped after %d iterations: %w", res.iterations, err)
		}
	}
	// final relative residuals from the recurrence, every column
	res.residual = 0
	for j := 0; j < c; j++ {
		if bnorm[j] > 0 {
			res.residual = math.Max(res.residual, mat.Norm(r.ColView(j), 2)/bnorm[j])
		}
	}
	res.converged = left == 0
	return res, nil
}

func zeroCol(a *mat.Dense, j int) {
	n, _ := a.Dims()
	for i := 0; i < n; i++ {
		a.Set(i, j, 0)
	}
}

func axpyCol(dst *mat.Dense, s float64, src *mat.Dense, j int) {
	n, _ := dst.Dims()
	for i := 0; i < n; i++ {
		dst.Set(i, j, dst.At(i, j)+s*src.At(i, j))
	}
}
