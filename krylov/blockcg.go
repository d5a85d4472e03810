package krylov

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/linop"
)

// BlockResult describes a finished BlockCG solve, column by column.
type BlockResult struct {
	Iterations []int     // iterations each column needed
	Residual   []float64 // final true relative residual of each column
	Products   int       // block products with A, including residual checks
}

// MaxResidual returns the largest column residual.
func (r BlockResult) MaxResidual() float64 {
	var m float64
	for _, v := range r.Residual {
		m = math.Max(m, v)
	}
	return m
}

// BlockCG solves A X = B for symmetric positive definite A and an n×c block
// B, as c conjugate gradient recursions run in lockstep: each step costs one
// block product (one pass over a sparse A for all columns), and a column stops
// once its relative residual ‖b_j − A x_j‖/‖b_j‖ meets the tolerance. Columns
// with b_j = 0 get x_j = 0. On entry X is the initial guess. On failure X
// holds the last iterate, the best in the A-norm of the error.
func BlockCG(ctx context.Context, a linop.Operator, b, x *mat.Dense, s Settings) (BlockResult, error) {
	n := a.Dim()
	br, c := b.Dims()
	xr, xc := x.Dims()
	if br != n || xr != n || xc != c {
		return BlockResult{}, fmt.Errorf("krylov: BlockCG: operator is %d×%d, B is %d×%d, X is %d×%d: %w", n, n, br, c, xr, xc, ErrDimension)
	}
	// Validate settings and data through the single-vector checks.
	col := make([]float64, n)
	for j := 0; j < c; j++ {
		if _, err := newSolve(ctx, "BlockCG", a, mat.Col(col, j, b), mat.Col(nil, j, x), s, true); err != nil {
			return BlockResult{}, err
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if s.MaxIter == 0 {
		s.MaxIter = 2*n + 100
	}
	res := BlockResult{Iterations: make([]int, c), Residual: make([]float64, c)}
	bnorm := make([]float64, c)
	for j := 0; j < c; j++ {
		bnorm[j] = mat.Norm(b.ColView(j), 2)
	}
	r := mat.NewDense(n, c, nil)
	p := mat.NewDense(n, c, nil)
	ap := mat.NewDense(n, c, nil)
	z := r
	if s.Preconditioner != nil {
		z = mat.NewDense(n, c, nil)
	}
	rz := make([]float64, c)
	active := make([]bool, c)

	// trueResidual sets R = B − AX and the per-column residuals, and marks
	// columns that still need work. It returns how many do.
	trueResidual := func() int {
		linop.MulBlock(a, r, x)
		res.Products++
		r.Sub(b, r)
		left := 0
		for j := 0; j < c; j++ {
			if bnorm[j] == 0 {
				for i := 0; i < n; i++ {
					x.Set(i, j, 0)
					r.Set(i, j, 0)
				}
				res.Residual[j], active[j] = 0, false
				continue
			}
			rel := mat.Norm(r.ColView(j), 2) / bnorm[j]
			res.Residual[j] = rel
			active[j] = rel > s.Tol
			if active[j] {
				left++
			}
		}
		return left
	}
	restart := func() {
		if s.Preconditioner != nil {
			linop.MulBlock(s.Preconditioner, z, r)
		}
		p.Copy(z)
		for j := 0; j < c; j++ {
			rz[j] = colDot(r, z, j)
			if !active[j] {
				zeroCol(p, j)
			}
		}
	}
	fail := func(cause error) (BlockResult, error) {
		trueResidual()
		worst, it := 0, 0
		for j := 0; j < c; j++ {
			if res.Residual[j] > res.Residual[worst] {
				worst = j
			}
			it = max(it, res.Iterations[j])
		}
		if cause != nil {
			return res, fmt.Errorf("krylov: BlockCG stopped after %d iterations: %w", it, cause)
		}
		return res, &NotConvergedError{Method: fmt.Sprintf("BlockCG (column %d)", worst), Iterations: it, Residual: res.Residual[worst], Tol: s.Tol}
	}

	if trueResidual() == 0 {
		return res, nil
	}
	restart()
	iter := 0
	for iter < s.MaxIter {
		linop.MulBlock(a, ap, p)
		res.Products++
		iter++
		left := 0
		for j := 0; j < c; j++ {
			if !active[j] {
				continue
			}
			pap := colDot(p, ap, j)
			if !(pap > 0) {
				return fail(&BreakdownError{Method: "BlockCG", Iterations: iter, Reason: fmt.Sprintf("column %d: pᵀAp = %g ≤ 0: the operator is not positive definite", j, pap)})
			}
			alpha := rz[j] / pap
			axpyCol(x, alpha, p, j)
			axpyCol(r, -alpha, ap, j)
			res.Iterations[j] = iter
			rel := math.Sqrt(colDot(r, r, j)) / bnorm[j]
			if rel <= s.Tol {
				active[j] = false
				zeroCol(p, j)
				continue
			}
			left++
		}
		if s.Progress != nil {
			worst := 0.0
			for j := 0; j < c; j++ {
				if active[j] {
					worst = math.Max(worst, math.Sqrt(colDot(r, r, j))/bnorm[j])
				}
			}
			s.Progress(iter, worst)
		}
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		if left == 0 {
			if trueResidual() == 0 {
				return res, nil
			}
			restart()
			continue
		}
		if s.Preconditioner != nil {
			linop.MulBlock(s.Preconditioner, z, r)
		}
		for j := 0; j < c; j++ {
			if !active[j] {
				continue
			}
			rzNew := colDot(r, z, j)
			beta := rzNew / rz[j]
			rz[j] = rzNew
			for i := 0; i < n; i++ {
				p.Set(i, j, z.At(i, j)+beta*p.At(i, j))
			}
		}
	}
	return fail(nil)
}

func colDot(a, b *mat.Dense, j int) float64 {
	ar, br := a.RawMatrix(), b.RawMatrix()
	var s float64
	for i := 0; i < ar.Rows; i++ {
		s += ar.Data[i*ar.Stride+j] * br.Data[i*br.Stride+j]
	}
	return s
}

func axpyCol(y *mat.Dense, alpha float64, x *mat.Dense, j int) {
	yr, xr := y.RawMatrix(), x.RawMatrix()
	for i := 0; i < yr.Rows; i++ {
		yr.Data[i*yr.Stride+j] += alpha * xr.Data[i*xr.Stride+j]
	}
}

func zeroCol(a *mat.Dense, j int) {
	ar := a.RawMatrix()
	for i := 0; i < ar.Rows; i++ {
		ar.Data[i*ar.Stride+j] = 0
	}
}
