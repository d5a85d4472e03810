package propagate

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/loaders"
)

// Features is a node × feature matrix held dense or sparse: exactly one of
// the two fields is set.
type Features struct {
	Dense  *mat.Dense
	Sparse *loaders.Sparse
}

// Dims returns the numbers of nodes and features (0, 0 when neither field
// is set).
func (f Features) Dims() (n, d int) {
	switch {
	case f.Sparse != nil:
		return f.Sparse.Rows, f.Sparse.Cols
	case f.Dense != nil:
		return f.Dense.Dims()
	}
	return 0, 0
}

// check returns an error unless exactly one field is set and the matrix has
// n rows and at least one column.
func (f Features) check(n int) error {
	if (f.Dense == nil) == (f.Sparse == nil) {
		return fmt.Errorf("propagate: features: exactly one of Dense and Sparse must be set")
	}
	r, c := f.Dims()
	if r != n {
		return fmt.Errorf("propagate: features have %d rows, the graph has %d nodes", r, n)
	}
	if c < 1 {
		return fmt.Errorf("propagate: features have no columns")
	}
	return nil
}

// TMul returns Pᵀ·X (m×d) for an n×m P: for a sparse X in O(m·nnz(X)) time,
// parallel over the m output rows, without a dense copy of X.
func (f Features) TMul(p *mat.Dense) *mat.Dense {
	n, d := f.Dims()
	pr, m := p.Dims()
	if pr != n {
		panic(fmt.Sprintf("propagate: dimension mismatch: P is %d×%d, features are %d×%d", pr, m, n, d))
	}
	dst := mat.NewDense(m, d, nil)
	if f.Dense != nil {
		dst.Mul(p.T(), f.Dense)
		return dst
	}
	pt := mat.DenseCopyOf(p.T())
	x := f.Sparse
	parallel.For(m, 1, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			prow := pt.RawRowView(r)
			out := dst.RawRowView(r)
			for i, c := range prow {
				if c != 0 {
					scatter(out, x, i, c)
				}
			}
		}
	})
	return dst
}

// Mul returns X·W (n×c) for a d×c W, parallel over rows for a sparse X.
func (f Features) Mul(w *mat.Dense) *mat.Dense {
	n, d := f.Dims()
	wr, c := w.Dims()
	if wr != d {
		panic(fmt.Sprintf("propagate: dimension mismatch: features are %d×%d, W is %d×%d", n, d, wr, c))
	}
	dst := mat.NewDense(n, c, nil)
	if f.Dense != nil {
		dst.Mul(f.Dense, w)
		return dst
	}
	x := f.Sparse
	wm := w.RawMatrix()
	parallel.For(n, rowGrain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out := dst.RawRowView(i)
			cols, vals := x.Row(i)
			for k, col := range cols {
				v := vals[k]
				wrow := wm.Data[int(col)*wm.Stride : int(col)*wm.Stride+c]
				for j, wv := range wrow {
					out[j] += v * wv
				}
			}
		}
	})
	return dst
}

// Rows returns the listed rows of X as a dense len(rows)×d matrix (the
// design matrix of a model fitted on those nodes).
func (f Features) Rows(rows []int) *mat.Dense {
	if f.Sparse != nil {
		return f.Sparse.Dense(rows)
	}
	_, d := f.Dims()
	dst := mat.NewDense(len(rows), d, nil)
	for k, i := range rows {
		copy(dst.RawRowView(k), f.Dense.RawRowView(i))
	}
	return dst
}

// unitColumns returns the n×len(rows) matrix E_R of unit columns.
func unitColumns(n int, rows []int) (*mat.Dense, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("propagate: no rows requested")
	}
	e := mat.NewDense(n, len(rows), nil)
	for k, i := range rows {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("propagate: row %d is outside [0, %d)", i, n)
		}
		e.Set(i, k, 1)
	}
	return e, nil
}
