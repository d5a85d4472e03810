package krylov

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/linop"
)

// BlockResult describes a finished block solve (BlockCG, MINRESColumns),
// column by column.
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
	bc := &blockCG{
		a: a, b: b, x: x, n: n, c: c, s: s,
		res:   BlockResult{Iterations: make([]int, c), Residual: make([]float64, c)},
		bnorm: colNorms(b),
		r:     mat.NewDense(n, c, nil),
		p:     mat.NewDense(n, c, nil),
		ap:    mat.NewDense(n, c, nil),
		rz:    make([]float64, c), alpha: make([]float64, c), beta: make([]float64, c),
		on:   make([]float64, c),
		acc1: make([]float64, c), acc2: make([]float64, c),
	}
	bc.z = bc.r
	if s.Preconditioner != nil {
		bc.z = mat.NewDense(n, c, nil)
	}
	return bc.run(ctx)
}

// blockCG is the state of one BlockCG solve. Vectors are the columns of
// row-major n×c blocks; every bookkeeping pass walks the rows once and
// updates all columns, with on[j] = 1 for columns still iterating and 0 for
// finished ones (their search direction stays zero).
type blockCG struct {
	a        linop.Operator
	b, x     *mat.Dense
	n, c     int
	s        Settings
	res      BlockResult
	bnorm    []float64
	r, p, ap *mat.Dense
	z        *mat.Dense // = r without a preconditioner
	rz       []float64
	alpha    []float64
	beta     []float64
	on       []float64
	acc1     []float64
	acc2     []float64
	part     []float64 // per-chunk partial sums of the row passes
}

func (bc *blockCG) run(ctx context.Context) (BlockResult, error) {
	if bc.trueResidual(isZero(bc.x)) == 0 {
		return bc.res, nil
	}
	bc.restart()
	for iter := 1; iter <= bc.s.MaxIter; iter++ {
		linop.MulBlock(bc.a, bc.ap, bc.p)
		bc.res.Products++
		// pᵀAp per column.
		pap := bc.colDots(bc.p, bc.ap, bc.acc1)
		for j := 0; j < bc.c; j++ {
			bc.alpha[j] = 0
			if bc.on[j] == 0 {
				continue
			}
			if !(pap[j] > 0) {
				return bc.fail(&BreakdownError{Method: "BlockCG", Iterations: iter, Reason: fmt.Sprintf("column %d: pᵀAp = %g ≤ 0: the operator is not positive definite", j, pap[j])})
			}
			bc.alpha[j] = bc.rz[j] / pap[j]
		}
		// x += αp, r −= αAp, and ‖r‖² per column, in one pass.
		rr := bc.update()
		left := 0
		worst := 0.0
		for j := 0; j < bc.c; j++ {
			if bc.on[j] == 0 {
				continue
			}
			bc.res.Iterations[j] = iter
			rel := math.Sqrt(rr[j]) / bc.bnorm[j]
			if rel <= bc.s.Tol {
				bc.on[j] = 0
				continue
			}
			worst = math.Max(worst, rel)
			left++
		}
		if bc.s.Progress != nil {
			bc.s.Progress(iter, worst)
		}
		if err := ctx.Err(); err != nil {
			return bc.fail(err)
		}
		if left == 0 {
			if bc.trueResidual(false) == 0 {
				return bc.res, nil
			}
			bc.restart()
			continue
		}
		var rz []float64
		if bc.s.Preconditioner != nil {
			linop.MulBlock(bc.s.Preconditioner, bc.z, bc.r)
			rz = bc.colDots(bc.r, bc.z, bc.acc1)
		} else {
			rz = rr
		}
		for j := 0; j < bc.c; j++ {
			bc.beta[j] = 0
			if bc.on[j] != 0 {
				bc.beta[j] = rz[j] / bc.rz[j]
				bc.rz[j] = rz[j]
			}
		}
		bc.direction()
	}
	return bc.fail(nil)
}

// trueResidual sets R = B − AX (R = B when xZero), records each column's
// relative residual, zeroes columns with b_j = 0, and marks the columns above
// the tolerance as iterating. It returns how many are.
func (bc *blockCG) trueResidual(xZero bool) int {
	if xZero {
		bc.r.Copy(bc.b)
	} else {
		linop.MulBlock(bc.a, bc.r, bc.x)
		bc.res.Products++
		bc.r.Sub(bc.b, bc.r)
	}
	rr := bc.colDots(bc.r, bc.r, bc.acc2)
	left := 0
	for j := 0; j < bc.c; j++ {
		bc.on[j] = 0
		if bc.bnorm[j] == 0 {
			zeroCol(bc.x, j)
			zeroCol(bc.r, j)
			bc.res.Residual[j] = 0
			continue
		}
		rel := math.Sqrt(rr[j]) / bc.bnorm[j]
		bc.res.Residual[j] = rel
		if rel > bc.s.Tol {
			bc.on[j] = 1
			left++
		}
	}
	return left
}

// restart sets P = Z = M·R for the iterating columns (zero for the others).
func (bc *blockCG) restart() {
	if bc.s.Preconditioner != nil {
		linop.MulBlock(bc.s.Preconditioner, bc.z, bc.r)
	}
	rz := bc.colDots(bc.r, bc.z, bc.acc1)
	copy(bc.rz, rz)
	for j := range bc.beta {
		bc.beta[j] = 0
	}
	bc.p.Zero()
	bc.direction()
}

// rowChunk is the number of rows per task of the bookkeeping passes. It is
// fixed, not derived from the core count, so that column sums reduced chunk by
// chunk are the same on every machine.
const rowChunk = 2048

// direction sets p_j = on_j·(z_j + β_j p_j).
func (bc *blockCG) direction() {
	pm, zm := bc.p.RawMatrix(), bc.z.RawMatrix()
	c := bc.c
	on, beta := bc.on[:c], bc.beta[:c]
	parallel.Chunks(bc.n, rowChunk, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			pr := pm.Data[i*pm.Stride : i*pm.Stride+c]
			zr := zm.Data[i*zm.Stride : i*zm.Stride+c]
			for j := range pr {
				pr[j] = on[j] * (zr[j] + beta[j]*pr[j])
			}
		}
	})
}

// update applies x += αp, r −= α·Ap and returns ‖r_j‖² for every column.
func (bc *blockCG) update() []float64 {
	xm, rm, pm, am := bc.x.RawMatrix(), bc.r.RawMatrix(), bc.p.RawMatrix(), bc.ap.RawMatrix()
	c := bc.c
	alpha := bc.alpha[:c]
	part := bc.partials()
	parallel.Chunks(bc.n, rowChunk, func(k, lo, hi int) {
		updateRows(part[k*c:(k+1)*c], alpha, xm.Data, xm.Stride, rm.Data, rm.Stride, pm.Data, pm.Stride, am.Data, am.Stride, lo, hi)
	})
	return bc.reduce(part, bc.acc2)
}

// colDots returns the column-wise dot products of u and v in dst.
func (bc *blockCG) colDots(u, v *mat.Dense, dst []float64) []float64 {
	um, vm := u.RawMatrix(), v.RawMatrix()
	c := bc.c
	part := bc.partials()
	parallel.Chunks(bc.n, rowChunk, func(k, lo, hi int) {
		addColDots(part[k*c:(k+1)*c], um.Data, um.Stride, vm.Data, vm.Stride, lo, hi)
	})
	return bc.reduce(part, dst)
}

// partials returns zeroed storage for one c-vector of partial sums per chunk.
func (bc *blockCG) partials() []float64 {
	m := parallel.NumChunks(bc.n, rowChunk) * bc.c
	if cap(bc.part) < m {
		bc.part = make([]float64, m)
	}
	bc.part = bc.part[:m]
	clear(bc.part)
	return bc.part
}

// reduce sums the per-chunk partials in chunk order into dst.
func (bc *blockCG) reduce(part, dst []float64) []float64 {
	c := bc.c
	dst = dst[:c]
	clear(dst)
	for k := 0; k < len(part); k += c {
		for j := range dst {
			dst[j] += part[k+j]
		}
	}
	return dst
}

func (bc *blockCG) fail(cause error) (BlockResult, error) {
	bc.trueResidual(false)
	worst, it := 0, 0
	for j := 0; j < bc.c; j++ {
		if bc.res.Residual[j] > bc.res.Residual[worst] {
			worst = j
		}
		it = max(it, bc.res.Iterations[j])
	}
	if cause != nil {
		return bc.res, fmt.Errorf("krylov: BlockCG stopped after %d iterations: %w", it, cause)
	}
	return bc.res, &NotConvergedError{Method: fmt.Sprintf("BlockCG (column %d)", worst), Iterations: it, Residual: bc.res.Residual[worst], Tol: bc.s.Tol}
}

func colNorms(b *mat.Dense) []float64 {
	_, c := b.Dims()
	out := make([]float64, c)
	for j := range out {
		out[j] = mat.Norm(b.ColView(j), 2)
	}
	return out
}

func isZero(x *mat.Dense) bool {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		for _, v := range x.RawRowView(i)[:c] {
			if v != 0 {
				return false
			}
		}
	}
	return true
}

func zeroCol(a *mat.Dense, j int) {
	ar := a.RawMatrix()
	for i := 0; i < ar.Rows; i++ {
		ar.Data[i*ar.Stride+j] = 0
	}
}
