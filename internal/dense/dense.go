package dense

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/parallel"
)

// triBlock is the order of the diagonal blocks of the blocked triangular
// solves: the off-diagonal work goes through GEMM, the diagonal blocks by
// substitution.
const triBlock = 64

// triSlab is the number of right-hand sides solved together; wider blocks
// are cut into slabs solved in parallel.
const triSlab = 256

// TriSolve overwrites b (M×c) with op(R)^{−1} b for an upper triangular,
// non-unit R, op(R) = R or Rᵀ (when trans). It is a blocked substitution
// (left-looking: each block of rows is updated by one GEMM with the rows
// already solved, then solved by substitution with its diagonal block), as
// backward stable as the plain one (Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., §8.1 and §13.1).
func TriSolve(r *mat.TriDense, trans bool, b *mat.Dense) {
	rr := r.RawTriangular()
	m, c := b.Dims()
	if rr.N != m {
		panic(fmt.Sprintf("dense: TriSolve: R is %d×%d, b has %d rows", rr.N, rr.N, m))
	}
	if rr.Uplo != blas.Upper || rr.Diag != blas.NonUnit {
		panic("dense: TriSolve: R must be upper triangular with a stored diagonal")
	}
	if m == 0 || c == 0 {
		return
	}
	solveSlabs(rr.Data, rr.Stride, m, trans, nil, b)
}

// solveSlabs overwrites the m×c block b with op(R)^{−1} b, cut into slabs
// of columns solved in parallel, with the off-diagonal panels taken from
// packed when it is not nil (packed[k] for the block of rows starting at
// k·triBlock) or packed on the fly otherwise.
func solveSlabs(r []float64, ldr, m int, trans bool, packed []*gemm.Panels[float64], b *mat.Dense) {
	br := b.RawMatrix()
	c := br.Cols
	slabs := (c + triSlab - 1) / triSlab
	parallel.For(slabs, 1, func(lo, hi int) {
		for s := lo; s < hi; s++ {
			q0, q1 := s*c/slabs, (s+1)*c/slabs
			sv := newTriSolver(r, ldr, m, br.Data[q0:], br.Stride, q1-q0)
			sv.packed = packed
			if trans {
				sv.forward()
			} else {
				sv.backward()
			}
		}
	})
}

// PackedTri is an upper triangular factor R with the off-diagonal blocks
// TriSolve packs for its GEMMs packed once, for repeated solves with the
// same R and orientation. It keeps R itself for the diagonal blocks: R must
// not change while the PackedTri is in use. It costs about m²/2 float64
// (4·m² bytes) beyond R.
type PackedTri struct {
	r      []float64
	ldr, m int
	trans  bool
	panels []*gemm.Panels[float64]
}

// PackTri packs the upper triangular, non-unit R for solves with op(R) = R
// or Rᵀ (when trans).
func PackTri(r *mat.TriDense, trans bool) *PackedTri {
	rr := r.RawTriangular()
	if rr.Uplo != blas.Upper || rr.Diag != blas.NonUnit {
		panic("dense: PackTri: R must be upper triangular with a stored diagonal")
	}
	m := rr.N
	p := &PackedTri{r: rr.Data, ldr: rr.Stride, m: m, trans: trans}
	p.panels = make([]*gemm.Panels[float64], (m+triBlock-1)/triBlock)
	for k := range p.panels {
		p.panels[k] = packBlock(rr.Data, rr.Stride, m, k*triBlock, trans, nil)
	}
	return p
}

// Solve overwrites b (M×c) with op(R)^{−1} b, bitwise as TriSolve does.
func (p *PackedTri) Solve(b *mat.Dense) {
	m, c := b.Dims()
	if p.m != m {
		panic(fmt.Sprintf("dense: PackedTri.Solve: R is %d×%d, b has %d rows", p.m, p.m, m))
	}
	if m == 0 || c == 0 {
		return
	}
	solveSlabs(p.r, p.ldr, m, p.trans, p.panels, b)
}

// packBlock returns, in panels reusing buf, the off-diagonal part of R the
// blocked solve subtracts from the block of rows i0 … i0+triBlock−1:
// R[i0:i1, i1:m] for R X = B, R[0:i0, i0:i1]ᵀ for Rᵀ X = B. It returns nil
// when there is none (the last block, or the first for Rᵀ).
func packBlock(r []float64, ldr, m, i0 int, trans bool, buf []float64) *gemm.Panels[float64] {
	i1 := min(i0+triBlock, m)
	if trans {
		if i0 == 0 {
			return nil
		}
		a := gemm.NewPanels(i1-i0, i0, gemm.MR, buf)
		a.SetColumns(r[i0:], ldr)
		return a
	}
	if i1 == m {
		return nil
	}
	a := gemm.NewPanels(i1-i0, m-i1, gemm.MR, buf)
	a.SetRows(r[i0*ldr+i1:], ldr, 0, i1-i0)
	return a
}

// triSolver solves for w columns of b (starting at b[0], row stride ldb)
// against the upper triangular R (m×m, row stride ldr).
type triSolver struct {
	r      []float64
	ldr, m int
	b      []float64
	ldb, w int
	a, x   *gemm.Panels[float64]
	packed []*gemm.Panels[float64] // PackTri's panels, or nil
	prod   []float64
}

// newTriSolver returns a solver with its packing space allocated once for
// the largest block.
func newTriSolver(r []float64, ldr, m int, b []float64, ldb, w int) *triSolver {
	sv := &triSolver{r: r, ldr: ldr, m: m, b: b, ldb: ldb, w: w}
	sv.x = gemm.NewPanels[float64](w, m, gemm.NR64, nil)
	sv.prod = make([]float64, triBlock*w)
	return sv
}

// subtract sets b[i0:i1] −= prod (i1−i0 rows of w).
func (sv *triSolver) subtract(i0, i1 int) {
	for i := i0; i < i1; i++ {
		bi := sv.b[i*sv.ldb : i*sv.ldb+sv.w]
		for q, v := range sv.prod[(i-i0)*sv.w : (i-i0+1)*sv.w] {
			bi[q] -= v
		}
	}
}

// update sets B[i0:i1] −= P · X[x0:x0+depth] for the off-diagonal panels P
// of the block at i0 (packBlock's, or the packed ones).
func (sv *triSolver) update(i0, i1, x0 int, trans bool) {
	var a *gemm.Panels[float64]
	if sv.packed != nil {
		a = sv.packed[i0/triBlock]
	} else {
		if sv.a == nil {
			sv.a = gemm.NewPanels[float64](min(triBlock, sv.m), sv.m, gemm.MR, nil)
		}
		sv.a = packBlock(sv.r, sv.ldr, sv.m, i0, trans, sv.a.Data)
		a = sv.a
	}
	sv.x = gemm.NewPanels(sv.w, a.K, gemm.NR64, dataOf(sv.x))
	sv.prod = sv.prod[:(i1-i0)*sv.w]
	sv.x.SetColumns(sv.b[x0*sv.ldb:], sv.ldb)
	gemm.MulTTo(sv.prod, sv.w, a, sv.x)
	sv.subtract(i0, i1)
}

// backward solves R X = B, last block first.
func (sv *triSolver) backward() {
	m, ldr, ldb := sv.m, sv.ldr, sv.ldb
	for i0 := (m - 1) / triBlock * triBlock; i0 >= 0; i0 -= triBlock {
		i1 := min(i0+triBlock, m)
		if i1 < m {
			// B[i0:i1] −= R[i0:i1, i1:m] · X[i1:m]
			sv.update(i0, i1, i1, false)
		}
		for i := i1 - 1; i >= i0; i-- {
			bi := sv.b[i*ldb : i*ldb+sv.w]
			for k := i + 1; k < i1; k++ {
				rik, bk := sv.r[i*ldr+k], sv.b[k*ldb:k*ldb+sv.w]
				if sv.w >= wideRows {
					floats.AddScaled(bi, -rik, bk)
					continue
				}
				for q, v := range bk {
					bi[q] -= rik * v
				}
			}
			divide(bi, sv.r[i*ldr+i])
		}
	}
}

// forward solves Rᵀ X = B, first block first.
func (sv *triSolver) forward() {
	m, ldr, ldb := sv.m, sv.ldr, sv.ldb
	for i0 := 0; i0 < m; i0 += triBlock {
		i1 := min(i0+triBlock, m)
		if i0 > 0 {
			// B[i0:i1] −= R[0:i0, i0:i1]ᵀ · X[0:i0]
			sv.update(i0, i1, 0, true)
		}
		for i := i0; i < i1; i++ {
			bi := sv.b[i*ldb : i*ldb+sv.w]
			for k := i0; k < i; k++ {
				rki, bk := sv.r[k*ldr+i], sv.b[k*ldb:k*ldb+sv.w]
				if sv.w >= wideRows {
					floats.AddScaled(bi, -rki, bk)
					continue
				}
				for q, v := range bk {
					bi[q] -= rki * v
				}
			}
			divide(bi, sv.r[i*ldr+i])
		}
	}
}

// wideRows is the number of right-hand sides from which the substitutions
// use gonum's assembly axpy (as in an inverse); narrower blocks (FALKON's
// ~10 columns) stay in the plain loop, cheaper than the call. Both round
// the same.
const wideRows = 32

// divide sets b[q] /= d: a division, not a multiplication by 1/d, so that
// the substitution rounds as the textbook one does.
func divide(b []float64, d float64) {
	for q := range b {
		b[q] /= d
	}
}

func dataOf(p *gemm.Panels[float64]) []float64 {
	if p == nil {
		return nil
	}
	return p.Data
}

// gramSlab is the depth of the slabs in which Gram packs its operand.
const gramSlab = 256

// Gram returns the symmetric matrix s·R Rᵀ for an upper triangular R
// (only its upper triangle is read), accumulated by GEMM over slabs of
// columns on all cores.
func Gram(r *mat.TriDense, s float64) *mat.SymDense {
	rr := r.RawTriangular()
	m := rr.N
	g := make([]float64, m*m)
	// the panels of the widest slab, reused by the others
	depth := min(gramSlab, m)
	abuf := gemm.NewPanels[float64](m, depth, gemm.MR, nil).Data
	bbuf := gemm.NewPanels[float64](m, depth, gemm.NR64, nil).Data
	for t0 := 0; t0 < m; t0 += gramSlab {
		t1 := min(t0+gramSlab, m)
		// rows i ≤ t1 have entries in the slab; R[i][t] = 0 for t < i
		rows := t1
		a := gemm.NewPanels(rows, t1-t0, gemm.MR, abuf)
		b := gemm.NewPanels(rows, t1-t0, gemm.NR64, bbuf)
		parallel.For(rows, 64, func(lo, hi int) {
			row := make([]float64, t1-t0)
			for i := lo; i < hi; i++ {
				clear(row)
				c0 := max(i, t0)
				copy(row[c0-t0:], rr.Data[i*rr.Stride+c0:i*rr.Stride+t1])
				a.SetRow(i, row, nil, 1)
				b.SetRow(i, row, nil, 1)
			}
		})
		gemm.ParallelAddUpperTo(g, m, s, a, b)
	}
	for i := 0; i < m; i++ {
		for j := 0; j < i; j++ {
			g[i*m+j] = g[j*m+i]
		}
	}
	return mat.NewSymDense(m, g)
}

// cholBlock is the order of the diagonal blocks of Cholesky.
const cholBlock = 128

// Cholesky returns the upper Cholesky factor R of a (RᵀR = a), or false
// when a is not numerically positive definite (a pivot ≤ 0 or NaN). It is
// the blocked right-looking algorithm (Golub & Van Loan, Matrix
// Computations, 4th ed., §4.2.9): each block row is factored by the plain
// algorithm on its diagonal block, a triangular solve for the rest of the
// row, and a rank-128 update of the trailing matrix by GEMM on all cores.
// Only the upper triangle of a is read; the storage below R's diagonal
// holds zeros.
func Cholesky(a *mat.SymDense) (*mat.TriDense, bool) {
	m := a.SymmetricDim()
	ar := a.RawSymmetric()
	d := make([]float64, m*m)
	for i := 0; i < m; i++ {
		copy(d[i*m+i:(i+1)*m], ar.Data[i*ar.Stride+i:i*ar.Stride+m])
	}
	return CholeskyInPlace(d, m)
}

// CholeskyInPlace is Cholesky on the m×m row-major matrix d (its upper
// triangle), overwritten by R; the entries below the diagonal are zeroed.
// d is R's storage: no copy of the M×M matrix is made.
func CholeskyInPlace(d []float64, m int) (*mat.TriDense, bool) {
	for i := 1; i < m; i++ {
		clear(d[i*m : i*m+i])
	}
	if !CholeskyUpper(d, m) {
		return nil, false
	}
	return mat.NewTriDense(m, mat.Upper, d), true
}

// CholeskyUpper is CholeskyInPlace without the zeroing: it reads and
// overwrites only the upper triangle of d (the entries j ≥ i of row i),
// so that the caller may keep data of its own below the diagonal. It
// reports false when the matrix is not numerically positive definite.
func CholeskyUpper(d []float64, m int) bool {
	if len(d) < m*m {
		panic(fmt.Sprintf("dense: CholeskyUpper: %d values for a %d×%d matrix", len(d), m, m))
	}
	var pa, pb *gemm.Panels[float64]
	for k0 := 0; k0 < m; k0 += cholBlock {
		k1 := min(k0+cholBlock, m)
		// the diagonal block, row by row: R_jj = √(A_jj − Σ R_tj²),
		// R_ji = (A_ji − Σ R_tj R_ti)/R_jj, t over the rows above in the block
		for j := k0; j < k1; j++ {
			rj := d[j*m : j*m+k1]
			for t := k0; t < j; t++ {
				rt := d[t*m : t*m+k1]
				f := rt[j]
				for i := j; i < k1; i++ {
					rj[i] -= f * rt[i]
				}
			}
			if !(rj[j] > 0) {
				return false
			}
			rj[j] = math.Sqrt(rj[j])
			inv := 1 / rj[j]
			for i := j + 1; i < k1; i++ {
				rj[i] *= inv
			}
		}
		if k1 == m {
			break
		}
		// the rest of the block row: R_kk^{−T} A[k0:k1, k1:m], in slabs
		w := m - k1
		slabs := (w + triSlab - 1) / triSlab
		parallel.For(slabs, 1, func(lo, hi int) {
			for s := lo; s < hi; s++ {
				q0, q1 := s*w/slabs, (s+1)*w/slabs
				sv := newTriSolver(d[k0*m+k0:], m, k1-k0, d[k0*m+k1+q0:], m, q1-q0)
				sv.forward()
			}
		})
		// the trailing matrix: A[k1:, k1:] −= R[k0:k1, k1:]ᵀ R[k0:k1, k1:]
		pa = gemm.NewPanels(w, k1-k0, gemm.MR, dataOf(pa))
		pb = gemm.NewPanels(w, k1-k0, gemm.NR64, dataOf(pb))
		parallel.For(2, 1, func(lo, hi int) {
			for q := lo; q < hi; q++ {
				if q == 0 {
					pa.SetColumns(d[k0*m+k1:], m)
				} else {
					pb.SetColumns(d[k0*m+k1:], m)
				}
			}
		})
		gemm.ParallelAddUpperTo(d[k1*m+k1:], m, -1, pa, pb)
	}
	return true
}

// symRows is the number of rows of G packed at once by SymMulTo.
const symRows = 8 * gemm.MR

// SymMulTo sets dst (M×c) = G·v for a symmetric G (its upper triangle),
// by GEMM on all cores; the rows of G are packed 48 at a time, so that no
// copy of G is made (PackSym packs G once for repeated products).
func SymMulTo(dst *mat.Dense, g *mat.SymDense, v *mat.Dense) {
	gr := g.RawSymmetric()
	m := gr.N
	_, c := v.Dims()
	vr := v.RawMatrix()
	b := gemm.NewPanels[float64](c, m, gemm.NR64, nil)
	b.SetColumns(vr.Data, vr.Stride)
	dr := dst.RawMatrix()
	chunks := (m + symRows - 1) / symRows
	parallel.For(chunks, 1, func(lo, hi int) {
		var a *gemm.Panels[float64]
		row := make([]float64, m)
		for ch := lo; ch < hi; ch++ {
			i0, i1 := ch*symRows, min((ch+1)*symRows, m)
			a = gemm.NewPanels(i1-i0, m, gemm.MR, dataOf(a))
			for i := i0; i < i1; i++ {
				a.SetRow(i-i0, symRowTo(row, g, i), nil, 1)
			}
			gemm.MulTTo(dr.Data[i0*dr.Stride:], dr.Stride, a, b)
		}
	})
}

// symRowTo sets row (M values) to row i of the symmetric G, of which only
// the upper triangle is stored, and returns it.
func symRowTo(row []float64, g *mat.SymDense, i int) []float64 {
	gr := g.RawSymmetric()
	for j := 0; j < i; j++ {
		row[j] = gr.Data[j*gr.Stride+i]
	}
	copy(row[i:], gr.Data[i*gr.Stride+i:i*gr.Stride+gr.N])
	return row
}

// PackedSym is a symmetric M×M matrix packed once as the left operand of
// the GEMM kernels, for repeated products with the same G (FALKON's CG
// iterations) without SymMulTo's packing of G at every call, which costs
// more than the product with a few columns. It takes M² float64 beyond G
// (SymMulTo makes no copy). Its products are bitwise SymMulTo's: each
// entry is the same dot product over a full row of G.
type PackedSym struct {
	a *gemm.Panels[float64]
}

// PackSym packs G (its upper triangle) in parallel over the rows.
func PackSym(g *mat.SymDense) *PackedSym {
	m := g.SymmetricDim()
	a := gemm.NewPanels[float64](m, m, gemm.MR, nil)
	parallel.For(m, 64, func(lo, hi int) {
		row := make([]float64, m)
		for i := lo; i < hi; i++ {
			a.SetRow(i, symRowTo(row, g, i), nil, 1)
		}
	})
	return &PackedSym{a: a}
}

// MulTo sets dst (M×c, contiguous rows) = G·v.
func (p *PackedSym) MulTo(dst, v *mat.Dense) {
	vr, dr := v.RawMatrix(), dst.RawMatrix()
	b := gemm.PackColumns(vr.Data, vr.Stride, vr.Cols, vr.Rows, gemm.NR64, []float64(nil))
	gemm.ParallelMulTTo(dr.Data, dr.Stride, p.a, b)
}

// ColumnMeans returns the mean of each column of a over its rows.
func ColumnMeans(a *mat.Dense) []float64 {
	r, c := a.Dims()
	mu := make([]float64, c)
	for i := 0; i < r; i++ {
		for t, v := range a.RawRowView(i) {
			mu[t] += v
		}
	}
	for t := range mu {
		mu[t] /= float64(r)
	}
	return mu
}
