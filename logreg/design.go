package logreg

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

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
