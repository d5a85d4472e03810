package logreg

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/loaders"
)

// Design is a design matrix of m rows (samples) and d columns (features).
type Design interface {
	// Dims returns m and d.
	Dims() (m, d int)
	// MulTo sets dst = X·W for a d×c W and an m×c dst.
	MulTo(dst, w *mat.Dense)
	// Gram returns XXᵀ (m×m).
	Gram() *mat.SymDense
	// TMulTo sets dst = Xᵀ·R for an m×c R and a d×c dst.
	TMulTo(dst, r *mat.Dense)
}

// Dense is a dense design matrix.
type Dense struct{ X *mat.Dense }

var (
	_ Design = Dense{}
	_ Design = Sparse{}
)

// Dims returns the dimensions of X.
func (x Dense) Dims() (int, int) { return x.X.Dims() }

// MulTo sets dst = X·W.
func (x Dense) MulTo(dst, w *mat.Dense) { dst.Mul(x.X, w) }

// TMulTo sets dst = Xᵀ·R.
func (x Dense) TMulTo(dst, r *mat.Dense) { dst.Mul(x.X.T(), r) }

// Gram returns XXᵀ.
func (x Dense) Gram() *mat.SymDense {
	m, _ := x.X.Dims()
	g := mat.NewSymDense(m, nil)
	g.SymOuterK(1, x.X)
	return g
}

// Sparse is a sparse design matrix: the rows Rows of X (nil: every row), in
// that order. X is read in place, never densified.
type Sparse struct {
	X    *loaders.Sparse
	Rows []int
}

func (x Sparse) row(k int) int {
	if x.Rows == nil {
		return k
	}
	return x.Rows[k]
}

// Dims returns len(Rows) (or X.Rows) and X.Cols.
func (x Sparse) Dims() (int, int) {
	if x.Rows == nil {
		return x.X.Rows, x.X.Cols
	}
	return len(x.Rows), x.X.Cols
}

// MulTo sets dst = X·W, parallel over rows.
func (x Sparse) MulTo(dst, w *mat.Dense) {
	m, d := x.Dims()
	wr, c := w.Dims()
	if dr, dc := dst.Dims(); wr != d || dr != m || dc != c {
		panic(fmt.Sprintf("logreg: dimension mismatch: X is %d×%d, W is %d×%d, dst is %d×%d", m, d, wr, c, dr, dc))
	}
	wm := w.RawMatrix()
	parallel.For(m, 64, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			out := dst.RawRowView(k)
			clear(out)
			cols, vals := x.X.Row(x.row(k))
			for t, col := range cols {
				v := vals[t]
				wrow := wm.Data[int(col)*wm.Stride : int(col)*wm.Stride+c]
				for j, wv := range wrow {
					out[j] += v * wv
				}
			}
		}
	})
}

// TMulTo sets dst = Xᵀ·R, scattering the rows of R (sequential: the
// columns of X are shared by the rows).
func (x Sparse) TMulTo(dst, r *mat.Dense) {
	m, d := x.Dims()
	rr, c := r.Dims()
	if dr, dc := dst.Dims(); rr != m || dr != d || dc != c {
		panic(fmt.Sprintf("logreg: dimension mismatch: X is %d×%d, R is %d×%d, dst is %d×%d", m, d, rr, c, dr, dc))
	}
	dst.Zero()
	dm := dst.RawMatrix()
	for k := 0; k < m; k++ {
		rk := r.RawRowView(k)
		cols, vals := x.X.Row(x.row(k))
		for t, col := range cols {
			v := vals[t]
			out := dm.Data[int(col)*dm.Stride : int(col)*dm.Stride+c]
			for j, rv := range rk {
				out[j] += v * rv
			}
		}
	}
}

// Gram returns XXᵀ by sparse row dot products (O(m²·nnz per row)).
func (x Sparse) Gram() *mat.SymDense {
	m, d := x.Dims()
	g := mat.NewSymDense(m, nil)
	parallel.For(m, 8, func(lo, hi int) {
		dense := make([]float64, d)
		for a := lo; a < hi; a++ {
			ca, va := x.X.Row(x.row(a))
			for t, col := range ca {
				dense[col] = va[t]
			}
			for b := a; b < m; b++ {
				cb, vb := x.X.Row(x.row(b))
				var s float64
				for t, col := range cb {
					s += dense[col] * vb[t]
				}
				g.SetSym(a, b, s)
			}
			for _, col := range ca {
				dense[col] = 0
			}
		}
	})
	return g
}

// packed is a dense design packed once for the two products of every
// evaluation of a fit (internal/gemm's panels, the register-blocked
// micro-kernels): X for X·W and Xᵀ for Xᵀ·R. Each entry of a product is a
// dot product accumulated in order, on one goroutine, so the result does
// not depend on the number of workers. gonum's Dgemm, which Dense uses,
// spends most of its time on the short rows of W and R (c entries) when
// the design is small, as the row-space designs are.
type packed struct {
	Dense
	x, xt  *gemm.Panels[float64]
	bw, br *gemm.Panels[float64] // Wᵀ and Rᵀ, packed per product
}

// newPacked packs the design x: 2·m·d values besides X, X and Xᵀ on two
// goroutines when there are two workers.
func newPacked(x Dense) *packed {
	m, d := x.Dims()
	p := &packed{Dense: x, x: gemm.NewPanels[float64](m, d, gemm.MR, nil), xt: gemm.NewPanels[float64](d, m, gemm.MR, nil)}
	parallel.For(2, 1, func(lo, hi int) {
		for k := lo; k < hi; k++ {
			if k == 0 {
				for i := 0; i < m; i++ {
					p.x.SetRow(i, x.X.RawRowView(i), nil, 1)
				}
				continue
			}
			raw := x.X.RawMatrix()
			p.xt.SetColumns(raw.Data, raw.Stride)
		}
	})
	return p
}

// MulTo sets dst = X·W.
func (p *packed) MulTo(dst, w *mat.Dense) { p.bw = mul(dst, p.x, w, p.bw) }

// TMulTo sets dst = Xᵀ·R.
func (p *packed) TMulTo(dst, r *mat.Dense) { p.br = mul(dst, p.xt, r, p.br) }

// mul sets dst = A·B for the packed A (Rows×K) and B (K×c), packing the
// columns of B in buf's storage, which it returns.
func mul(dst *mat.Dense, a *gemm.Panels[float64], b *mat.Dense, buf *gemm.Panels[float64]) *gemm.Panels[float64] {
	k, c := b.Dims()
	if dr, dc := dst.Dims(); k != a.K || dr != a.Rows || dc != c {
		panic(fmt.Sprintf("logreg: dimension mismatch: %d×%d times %d×%d into %d×%d", a.Rows, a.K, k, c, dr, dc))
	}
	buf = columnPanels(buf, b)
	mulTo(dst, a, buf)
	return buf
}

// columnPanels packs the columns of a (K×c) as the c rows of right-operand
// panels, reusing p's storage.
func columnPanels(p *gemm.Panels[float64], a *mat.Dense) *gemm.Panels[float64] {
	k, c := a.Dims()
	var buf []float64
	if p != nil {
		buf = p.Data
	}
	p = gemm.NewPanels(c, k, gemm.NR[float64](), buf)
	raw := a.RawMatrix()
	p.SetColumns(raw.Data, raw.Stride)
	return p
}

// mulTo sets dst = A·Bᵀ, in parallel over the panels of A when there are
// many.
func mulTo(dst *mat.Dense, a, b *gemm.Panels[float64]) {
	raw := dst.RawMatrix()
	if a.Rows == 0 || b.Rows == 0 {
		return
	}
	if a.K == 0 {
		dst.Zero()
		return
	}
	gemm.ParallelMulTTo(raw.Data, raw.Stride, a, b)
}
