package linop

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Operator is a square linear map of dimension Dim. MulVecTo sets dst = A·x;
// dst and x have length Dim and must not overlap. Implementations are safe
// for concurrent calls with distinct dst.
type Operator interface {
	Dim() int
	MulVecTo(dst, x []float64)
}

// BlockOperator is an Operator that can also apply itself to the columns of
// an n×c block in one pass, as a sparse matrix does to a one-hot label matrix.
type BlockOperator interface {
	Operator
	MulBlockTo(dst, x *mat.Dense)
}

// Symmetric is implemented by operators that know whether they are symmetric.
// Solvers that need symmetry (CG, MINRES, Lanczos) use it to refuse operators
// that declare themselves non-symmetric.
type Symmetric interface {
	IsSymmetric() bool
}

// MulBlock sets dst = A·x column by column, using MulBlockTo when a
// implements BlockOperator. dst and x must be Dim×c.
func MulBlock(a Operator, dst, x *mat.Dense) {
	n := a.Dim()
	r, c := x.Dims()
	dr, dc := dst.Dims()
	if r != n || dr != n || dc != c {
		panic(fmt.Sprintf("linop: block dimension mismatch: operator %d, x %d×%d, dst %d×%d", n, r, c, dr, dc))
	}
	if b, ok := a.(BlockOperator); ok {
		b.MulBlockTo(dst, x)
		return
	}
	xc := make([]float64, n)
	dcol := make([]float64, n)
	for j := 0; j < c; j++ {
		mat.Col(xc, j, x)
		a.MulVecTo(dcol, xc)
		dst.SetCol(j, dcol)
	}
}

// CheckVec panics with a message naming who and the lengths when dst or x
// does not have length n. Operators call it at the top of MulVecTo.
func CheckVec(who string, n int, dst, x []float64) {
	if len(dst) != n || len(x) != n {
		panic(fmt.Sprintf("%s: dimension mismatch: operator is %d×%d, dst has length %d, x has length %d", who, n, n, len(dst), len(x)))
	}
}

// Func adapts a function to an Operator.
type Func struct {
	N int
	F func(dst, x []float64)
}

// Dim returns N.
func (f Func) Dim() int { return f.N }

// MulVecTo calls F.
func (f Func) MulVecTo(dst, x []float64) {
	CheckVec("linop.Func", f.N, dst, x)
	f.F(dst, x)
}

// Affine is the operator Shift·I + Scale·A.
type Affine struct {
	A     Operator
	Scale float64
	Shift float64
}

// Dim returns the dimension of A.
func (o Affine) Dim() int { return o.A.Dim() }

// MulVecTo sets dst = Shift·x + Scale·A·x.
func (o Affine) MulVecTo(dst, x []float64) {
	CheckVec("linop.Affine", o.Dim(), dst, x)
	o.A.MulVecTo(dst, x)
	for i, v := range x {
		dst[i] = o.Shift*v + o.Scale*dst[i]
	}
}

// IsSymmetric reports whether A is (when A declares it).
func (o Affine) IsSymmetric() bool { return IsSymmetric(o.A) }

// IsSymmetric reports whether a declares itself symmetric; operators that do
// not implement Symmetric are assumed symmetric (the caller's responsibility).
func IsSymmetric(a Operator) bool {
	if s, ok := a.(Symmetric); ok {
		return s.IsSymmetric()
	}
	return true
}

// Diagonal is the diagonal operator diag(D).
type Diagonal []float64

// Dim returns len(d).
func (d Diagonal) Dim() int { return len(d) }

// MulVecTo sets dst_i = d_i·x_i.
func (d Diagonal) MulVecTo(dst, x []float64) {
	CheckVec("linop.Diagonal", len(d), dst, x)
	for i, v := range d {
		dst[i] = v * x[i]
	}
}

// MulBlockTo sets dst_ij = d_i·x_ij.
func (d Diagonal) MulBlockTo(dst, x *mat.Dense) {
	r, c := x.Dims()
	dr, dc := dst.Dims()
	if r != len(d) || dr != len(d) || dc != c {
		panic(fmt.Sprintf("linop.Diagonal: block dimension mismatch: operator %d, x %d×%d, dst %d×%d", len(d), r, c, dr, dc))
	}
	xm, dm := x.RawMatrix(), dst.RawMatrix()
	for i, v := range d {
		xr := xm.Data[i*xm.Stride : i*xm.Stride+c]
		dr := dm.Data[i*dm.Stride : i*dm.Stride+c]
		for j, xv := range xr {
			dr[j] = v * xv
		}
	}
}

// IsSymmetric returns true.
func (d Diagonal) IsSymmetric() bool { return true }

// Dense wraps a square dense matrix as an Operator. It is the explicit dense
// path: O(n²) memory and O(n²) per product. It is used by tests as a reference
// and by small problems.
type Dense struct {
	M *mat.Dense
}

// NewDense returns the Operator of a square matrix, copying it.
func NewDense(a mat.Matrix) (Dense, error) {
	r, c := a.Dims()
	if r != c {
		return Dense{}, fmt.Errorf("linop: matrix is %d×%d, an operator must be square", r, c)
	}
	return Dense{M: mat.DenseCopyOf(a)}, nil
}

// Dim returns the order of the matrix.
func (d Dense) Dim() int { r, _ := d.M.Dims(); return r }

// MulVecTo sets dst = M·x.
func (d Dense) MulVecTo(dst, x []float64) {
	n := d.Dim()
	CheckVec("linop.Dense", n, dst, x)
	mat.NewVecDense(n, dst).MulVec(d.M, mat.NewVecDense(n, x))
}

// MulBlockTo sets dst = M·x.
func (d Dense) MulBlockTo(dst, x *mat.Dense) { dst.Mul(d.M, x) }

// IsSymmetric reports whether M is exactly symmetric.
func (d Dense) IsSymmetric() bool {
	n := d.Dim()
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			if d.M.At(i, j) != d.M.At(j, i) {
				return false
			}
		}
	}
	return true
}

// ToDense materialises a as a dense matrix by applying it to the unit
// vectors: n products, O(n²) memory. For tests and small problems only.
func ToDense(a Operator) *mat.Dense {
	n := a.Dim()
	out := mat.NewDense(n, n, nil)
	e := make([]float64, n)
	col := make([]float64, n)
	for j := 0; j < n; j++ {
		e[j] = 1
		a.MulVecTo(col, e)
		e[j] = 0
		out.SetCol(j, col)
	}
	return out
}
