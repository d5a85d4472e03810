package krylov

import (
	"context"
	"errors"
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
	Residual   []float64 // final true relative residual of each column, or its bound (BlockCGBound)
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
// holds the last iterate, the best in the A-norm of the error. It runs
// BlockCGPassesOf's passes on dense blocks through BlockCGWith.
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
	s, _ = withDefaults("BlockCG", a, s, true) // checked above
	bc := &blockCG{
		a: a, b: b, x: x, n: n, c: c, pre: s.Preconditioner,
		bnorm: colNorms(b),
		r:     mat.NewDense(n, c, nil),
		p:     mat.NewDense(n, c, nil),
		ap:    mat.NewDense(n, c, nil),
	}
	bc.z = bc.r
	if s.Preconditioner != nil {
		bc.z = mat.NewDense(n, c, nil)
	}
	return BlockCGWith(ctx, bc, bc.bnorm, s, "BlockCG")
}

// BlockCGPasses are the block operations of block CG on the n×c blocks X
// (the iterate, initial guess on entry), R = B − AX, Z = M R (Z = R without
// a preconditioner M), P (the search directions) and Q = AP, in whatever
// storage the implementation keeps them (scaled, fused with its product, B
// by its nonzero rows). Column j of every operation is that column's own CG
// recursion; vectors of c entries are per column.
type BlockCGPasses interface {
	// Residual sets R = B − AX and rr_j = ‖R_j‖², and returns the products
	// it took: at the first call (first) an implementation may find X zero
	// and set R = B without one. Columns with B_j = 0 must have X_j = 0
	// (their solution).
	Residual(rr []float64, first bool) int
	// Precondition sets Z = M R and rz_j = R_jᵀZ_j (without M: rz = rr).
	Precondition(rz, rr []float64)
	// Restart sets P = on∘Z (column j scaled by on_j ∈ {0, 1}).
	Restart(on []float64)
	// Product sets Q = AP and pap_j = P_jᵀQ_j.
	Product(pap []float64)
	// Update sets R ← R − α∘Q and rr_j = ‖R_j‖².
	Update(rr, alpha []float64)
	// Step sets X ← X + α∘P, then P ← on∘(Z + β∘P).
	Step(alpha, beta, on []float64)
}

// BlockCGBound is implemented by BlockCGPasses that bound the true residual
// of the iterate without a product: BlockCGWith then skips the final true
// residual when every column's bound meets Tol.
type BlockCGBound interface {
	// ResidualBound sets bound_j to an upper bound on ‖B_j − AX_j‖₂ for
	// the iterate the solve returns after the last Step, rounding
	// included, or returns false when it has none.
	ResidualBound(bound []float64) bool
}

// BlockCGWith runs block CG (see BlockCG) on the passes p for c = len(bnorm)
// columns with ‖B_j‖ = bnorm_j: the one block CG recursion, which BlockCG
// runs on dense blocks and callers with a fused or scaled storage of their
// own (labelprop's spreading) run on theirs. Per iteration: Q = AP and
// α = rz/pᵀq; R −= αQ; the columns whose relative residual ‖R_j‖/‖B_j‖
// meets Tol stop (on_j = 0); Z = M R and β = rz_new/rz; X += αP and
// P = on∘(Z + βP). Once every column has stopped, the true residual is
// recomputed and CG restarts from it where rounding has left a column
// above Tol; passes implementing BlockCGBound skip that product when their
// bound of every column's true residual meets Tol, and the result's
// Residual is then that bound over ‖B_j‖. s.Tol (0 means DefaultTol), s.MaxIter (0 means 100; BlockCG
// passes 2n + 100) and s.Progress apply; a preconditioner is the passes'
// business. method names the solve in errors.
func BlockCGWith(ctx context.Context, p BlockCGPasses, bnorm []float64, s Settings, method string) (BlockResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if s.MaxIter == 0 {
		s.MaxIter = 100
	}
	c := len(bnorm)
	cg := &cgColumns{p: p, bnorm: bnorm, s: s, method: method,
		res: BlockResult{Iterations: make([]int, c), Residual: make([]float64, c)},
		rz:  make([]float64, c), alpha: make([]float64, c), beta: make([]float64, c),
		on: make([]float64, c), rr: make([]float64, c), pap: make([]float64, c), acc: make([]float64, c)}
	return cg.run(ctx)
}

// blockCG is BlockCGPasses on dense row-major n×c blocks and a
// linop.Operator. Every bookkeeping pass walks the rows once and updates all
// columns.
type blockCG struct {
	a        linop.Operator
	pre      linop.Operator
	b, x     *mat.Dense
	n, c     int
	bnorm    []float64
	r, p, ap *mat.Dense
	z        *mat.Dense // = r without a preconditioner
	part     []float64  // per-chunk partial sums of the row passes
}

// cgColumns is the state of one BlockCGWith solve: the scalars of the c
// recursions, with on[j] = 1 for columns still iterating and 0 for finished
// ones (their search direction stays zero).
type cgColumns struct {
	p      BlockCGPasses
	bnorm  []float64
	s      Settings
	method string
	res    BlockResult

	rz, alpha, beta, on, rr, pap, acc []float64
}

func (cg *cgColumns) run(ctx context.Context) (BlockResult, error) {
	if cg.trueResidual(true) == 0 {
		return cg.res, nil
	}
	cg.restart()
	c := len(cg.bnorm)
	for iter := 1; iter <= cg.s.MaxIter; iter++ {
		cg.p.Product(cg.pap)
		cg.res.Products++
		for j := 0; j < c; j++ {
			cg.alpha[j] = 0
			if cg.on[j] == 0 {
				continue
			}
			if !(cg.pap[j] > 0) {
				return cg.fail(&BreakdownError{Method: cg.method, Iterations: iter, Reason: fmt.Sprintf("column %d: pᵀAp = %g ≤ 0: the operator is not positive definite", j, cg.pap[j])})
			}
			cg.alpha[j] = cg.rz[j] / cg.pap[j]
		}
		cg.p.Update(cg.rr, cg.alpha)
		left, worst := 0, 0.0
		for j := 0; j < c; j++ {
			if cg.on[j] == 0 {
				continue
			}
			cg.res.Iterations[j] = iter
			rel := math.Sqrt(cg.rr[j]) / cg.bnorm[j]
			if rel <= cg.s.Tol {
				cg.on[j] = 0
				continue
			}
			worst = math.Max(worst, rel)
			left++
		}
		// β for the columns still iterating (zero for the others, whose
		// direction Step clears); none when all have stopped (a restart
		// follows).
		clear(cg.beta)
		if left > 0 {
			cg.p.Precondition(cg.acc, cg.rr)
			for j := 0; j < c; j++ {
				if cg.on[j] != 0 {
					cg.beta[j] = cg.acc[j] / cg.rz[j]
					cg.rz[j] = cg.acc[j]
				}
			}
		}
		// x += αp for every column that moved (finished ones included),
		// then the next directions.
		cg.p.Step(cg.alpha, cg.beta, cg.on)
		if cg.s.Progress != nil {
			cg.s.Progress(iter, worst)
		}
		if err := ctx.Err(); err != nil {
			return cg.fail(err)
		}
		if left == 0 {
			if cg.bounded() || cg.trueResidual(false) == 0 {
				return cg.res, nil
			}
			cg.restart()
		}
	}
	return cg.fail(nil)
}

// trueResidual has the passes set R = B − AX, records each column's
// relative residual and marks the columns above the tolerance as iterating.
// It returns how many are. first says this is the solve's first residual
// (the passes may then find X zero and skip the product).
func (cg *cgColumns) trueResidual(first bool) int {
	cg.res.Products += cg.p.Residual(cg.rr, first)
	left := 0
	for j := range cg.bnorm {
		cg.on[j] = 0
		if cg.bnorm[j] == 0 {
			cg.res.Residual[j] = 0
			continue
		}
		rel := math.Sqrt(cg.rr[j]) / cg.bnorm[j]
		cg.res.Residual[j] = rel
		if rel > cg.s.Tol {
			cg.on[j] = 1
			left++
		}
	}
	return left
}

// bounded reports whether the passes bound every column's true relative
// residual by Tol (BlockCGBound), and records those bounds if so.
func (cg *cgColumns) bounded() bool {
	b, ok := cg.p.(BlockCGBound)
	if !ok || !b.ResidualBound(cg.acc) {
		return false
	}
	for j, nb := range cg.bnorm {
		if nb != 0 && !(cg.acc[j] <= cg.s.Tol*nb) {
			return false
		}
	}
	for j, nb := range cg.bnorm {
		cg.res.Residual[j] = 0
		if nb != 0 {
			cg.res.Residual[j] = cg.acc[j] / nb
		}
	}
	return true
}

// restart sets P = on∘Z and rz from the residual just computed.
func (cg *cgColumns) restart() {
	cg.p.Precondition(cg.rz, cg.rr)
	cg.p.Restart(cg.on)
}

func (cg *cgColumns) fail(cause error) (BlockResult, error) {
	cg.trueResidual(false)
	worst, it := 0, 0
	for j := range cg.bnorm {
		if cg.res.Residual[j] > cg.res.Residual[worst] {
			worst = j
		}
		it = max(it, cg.res.Iterations[j])
	}
	if cause != nil {
		var bd *BreakdownError
		if errors.As(cause, &bd) {
			return cg.res, cause
		}
		return cg.res, fmt.Errorf("krylov: %s stopped after %d iterations: %w", cg.method, it, cause)
	}
	return cg.res, &NotConvergedError{Method: fmt.Sprintf("%s (column %d)", cg.method, worst), Iterations: it, Residual: cg.res.Residual[worst], Tol: cg.s.Tol}
}

// Residual sets R = B − AX (R = B when first and X is zero) and zeroes the
// columns with b_j = 0 in X and R.
func (bc *blockCG) Residual(rr []float64, first bool) int {
	products := 0
	if first && isZero(bc.x) {
		bc.r.Copy(bc.b)
	} else {
		linop.MulBlock(bc.a, bc.r, bc.x)
		products++
		bc.r.Sub(bc.b, bc.r)
	}
	for j := 0; j < bc.c; j++ {
		if bc.bnorm[j] == 0 {
			zeroCol(bc.x, j)
			zeroCol(bc.r, j)
		}
	}
	bc.colDots(bc.r, bc.r, rr)
	return products
}

// Precondition sets Z = M R and rz = RᵀZ per column.
func (bc *blockCG) Precondition(rz, rr []float64) {
	if bc.pre == nil {
		copy(rz, rr)
		return
	}
	linop.MulBlock(bc.pre, bc.z, bc.r)
	bc.colDots(bc.r, bc.z, rz)
}

// Restart sets P = on∘Z.
func (bc *blockCG) Restart(on []float64) {
	pm, zm := bc.p.RawMatrix(), bc.z.RawMatrix()
	c := bc.c
	on = on[:c]
	parallel.Chunks(bc.n, rowChunk, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			pr := pm.Data[i*pm.Stride : i*pm.Stride+c]
			zr := zm.Data[i*zm.Stride : i*zm.Stride+c]
			for j := range pr {
				pr[j] = on[j] * zr[j]
			}
		}
	})
}

// Product sets AP and pᵀAp per column.
func (bc *blockCG) Product(pap []float64) {
	linop.MulBlock(bc.a, bc.ap, bc.p)
	bc.colDots(bc.p, bc.ap, pap)
}

// rowChunk is the number of rows per task of the bookkeeping passes. It is
// fixed, not derived from the core count, so that column sums reduced chunk by
// chunk are the same on every machine.
const rowChunk = 2048

// Step applies x_j += α_j p_j and then p_j = on_j·(z_j + β_j p_j).
func (bc *blockCG) Step(alpha, beta, on []float64) {
	xm, pm, zm := bc.x.RawMatrix(), bc.p.RawMatrix(), bc.z.RawMatrix()
	c := bc.c
	alpha, beta, on = alpha[:c], beta[:c], on[:c]
	parallel.Chunks(bc.n, rowChunk, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			xr := xm.Data[i*xm.Stride : i*xm.Stride+c]
			pr := pm.Data[i*pm.Stride : i*pm.Stride+c]
			zr := zm.Data[i*zm.Stride : i*zm.Stride+c]
			for j := range pr {
				xr[j] += alpha[j] * pr[j]
				pr[j] = on[j] * (zr[j] + beta[j]*pr[j])
			}
		}
	})
}

// Update applies r −= α·Ap and sets ‖r_j‖² for every column in rr.
func (bc *blockCG) Update(rr, alpha []float64) {
	rm, am := bc.r.RawMatrix(), bc.ap.RawMatrix()
	c := bc.c
	part := bc.partials()
	parallel.Chunks(bc.n, rowChunk, func(k, lo, hi int) {
		updateRows(part[k*c:(k+1)*c], alpha[:c], rm.Data, rm.Stride, am.Data, am.Stride, lo, hi)
	})
	bc.reduce(part, rr)
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
