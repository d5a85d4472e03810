package kernel

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// Kernel is a positive-definite kernel on R^d.
type Kernel interface {
	// Eval returns k(x, y); x and y have the same length.
	Eval(x, y []float64) float64
	// Validate reports a parameter outside its valid range.
	Validate() error
}

// Radial is a kernel that depends on ‖x − y‖² only; Gram evaluates it from
// squared distances computed with a matrix product.
type Radial interface {
	Kernel
	FromSqDist(d2 float64) float64
}

// Gaussian is exp(−‖x−y‖²/(2σ²)).
type Gaussian struct{ Sigma float64 }

// Laplacian is exp(−‖x−y‖/σ).
type Laplacian struct{ Sigma float64 }

// Matern is the Matérn kernel of smoothness Nu ∈ {0.5, 1.5, 2.5} and length
// scale Length.
type Matern struct {
	Nu     float64
	Length float64
}

// Linear is xᵀy + C.
type Linear struct{ C float64 }

// Polynomial is (Gamma·xᵀy + Coef0)^Degree.
type Polynomial struct {
	Degree int
	Gamma  float64
	Coef0  float64
}

func positive(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("kernel: %s=%v is invalid: it must be finite and > 0", name, v)
	}
	return nil
}

// Validate checks σ > 0.
func (k Gaussian) Validate() error { return positive("Gaussian sigma", k.Sigma) }

// FromSqDist returns exp(−d²/(2σ²)).
func (k Gaussian) FromSqDist(d2 float64) float64 { return exp(-d2 / (2 * k.Sigma * k.Sigma)) }

// Eval returns k(x, y).
func (k Gaussian) Eval(x, y []float64) float64 { return k.FromSqDist(sqDist(x, y)) }

// Validate checks σ > 0.
func (k Laplacian) Validate() error { return positive("Laplacian sigma", k.Sigma) }

// FromSqDist returns exp(−d/σ).
func (k Laplacian) FromSqDist(d2 float64) float64 { return exp(-math.Sqrt(d2) / k.Sigma) }

// Eval returns k(x, y).
func (k Laplacian) Eval(x, y []float64) float64 { return k.FromSqDist(sqDist(x, y)) }

// Validate checks ν ∈ {1/2, 3/2, 5/2} and ℓ > 0.
func (k Matern) Validate() error {
	if k.Nu != 0.5 && k.Nu != 1.5 && k.Nu != 2.5 {
		return fmt.Errorf("kernel: Matern nu=%v is invalid: it must be 0.5, 1.5 or 2.5", k.Nu)
	}
	return positive("Matern length", k.Length)
}

// FromSqDist evaluates the Matérn kernel at distance √d2.
func (k Matern) FromSqDist(d2 float64) float64 {
	r := math.Sqrt(d2) / k.Length
	switch k.Nu {
	case 0.5:
		return exp(-r)
	case 1.5:
		s := math.Sqrt(3) * r
		return (1 + s) * exp(-s)
	default:
		s := math.Sqrt(5) * r
		return (1 + s + s*s/3) * exp(-s)
	}
}

// Eval returns k(x, y).
func (k Matern) Eval(x, y []float64) float64 { return k.FromSqDist(sqDist(x, y)) }

// Validate accepts any finite C ≥ 0.
func (k Linear) Validate() error {
	if !(k.C >= 0) || math.IsInf(k.C, 0) {
		return fmt.Errorf("kernel: Linear c=%v is invalid: it must be finite and ≥ 0", k.C)
	}
	return nil
}

// Eval returns xᵀy + C.
func (k Linear) Eval(x, y []float64) float64 { return dot(x, y) + k.C }

// Validate checks Degree ≥ 1, γ > 0, c ≥ 0.
func (k Polynomial) Validate() error {
	if k.Degree < 1 {
		return fmt.Errorf("kernel: Polynomial degree=%d is invalid: it must be ≥ 1", k.Degree)
	}
	if err := positive("Polynomial gamma", k.Gamma); err != nil {
		return err
	}
	if !(k.Coef0 >= 0) || math.IsInf(k.Coef0, 0) {
		return fmt.Errorf("kernel: Polynomial coef0=%v is invalid: it must be finite and ≥ 0", k.Coef0)
	}
	return nil
}

// Eval returns (γ xᵀy + c)^p.
func (k Polynomial) Eval(x, y []float64) float64 {
	return math.Pow(k.Gamma*dot(x, y)+k.Coef0, float64(k.Degree))
}

func sqDist(x, y []float64) float64 {
	var s float64
	for i, v := range x {
		d := v - y[i]
		s += d * d
	}
	return s
}

func dot(x, y []float64) float64 {
	var s float64
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// CheckPoints returns an error naming the first row and column of x holding
// NaN or ±Inf, or a dimension other than d (d < 0 skips that check).
func CheckPoints(what string, x mat.Matrix, d int) error {
	r, c := x.Dims()
	if d >= 0 && c != d {
		return fmt.Errorf("kernel: %s has %d columns, want %d", what, c, d)
	}
	if d, ok := x.(*mat.Dense); ok {
		if i := firstNonFiniteRow(d); i < r {
			for j, v := range d.RawRowView(i) {
				if v-v != 0 { // NaN or ±Inf
					return fmt.Errorf("kernel: %s row %d column %d is %v", what, i, j, v)
				}
			}
		}
		return nil
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("kernel: %s row %d column %d is %v", what, i, j, v)
			}
		}
	}
	return nil
}

// checkGrain is the number of rows of a chunk of firstNonFiniteRow.
const checkGrain = 1024

// firstNonFiniteRow returns the first row of x holding NaN or ±Inf, or its
// number of rows when there is none. The rows are read in parallel chunks
// (the check is bound by memory bandwidth: X is read once per check), and
// the first row is the smallest found, whatever the chunks.
func firstNonFiniteRow(x *mat.Dense) int {
	r, _ := x.Dims()
	first := make([]int, parallel.NumChunks(r, checkGrain))
	parallel.Chunks(r, checkGrain, func(k, lo, hi int) {
		first[k] = r
		for i := lo; i < hi; i++ {
			if !finiteRow(x.RawRowView(i)) {
				first[k] = i
				return
			}
		}
	})
	return slices.Min(append(first, r))
}

// finiteRow reports whether every value of row is finite: v − v is 0 for a
// finite v and NaN for NaN or ±Inf, and NaN stays in a sum. Four
// independent sums let the additions overlap.
func finiteRow(row []float64) bool {
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(row); j += 4 {
		s0 += row[j] - row[j]
		s1 += row[j+1] - row[j+1]
		s2 += row[j+2] - row[j+2]
		s3 += row[j+3] - row[j+3]
	}
	for ; j < len(row); j++ {
		s0 += row[j] - row[j]
	}
	return s0+s1+s2+s3 == 0
}

// cancellation is the relative size of ‖x−y‖² against ‖x‖²+‖y‖² below which
// the expanded form is recomputed directly (it carries errors of order
// 1e-16·(‖x‖²+‖y‖²), which a square root would blow up to 1e-8).
const cancellation = 1e-8

// gramBlock is the number of rows of X per parallel task.
const gramBlock = 256

// Gram returns the dense matrix K_ij = k(x_i, y_j) for the rows of x (n×d)
// and y (m×d). It validates k and the points first. This is the explicit
// dense path: n·m float64s.
func Gram(k Kernel, x, y *mat.Dense) (*mat.Dense, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	n, d := x.Dims()
	m, dy := y.Dims()
	if d != dy {
		return nil, fmt.Errorf("kernel: points have %d and %d dimensions", d, dy)
	}
	if err := CheckPoints("X", x, d); err != nil {
		return nil, err
	}
	if err := CheckPoints("Y", y, d); err != nil {
		return nil, err
	}
	out := mat.NewDense(max(n, 1), max(m, 1), nil)
	if n == 0 || m == 0 {
		return &mat.Dense{}, nil
	}
	GramTo(out, k, x, y)
	return out, nil
}

// GramTo fills dst (n×m) with k(x_i, y_j) without validating: callers that
// evaluate many blocks validate once and call this. Radial kernels go
// through a blocked matrix product; the rest evaluate pairwise.
func GramTo(dst *mat.Dense, k Kernel, x, y *mat.Dense) {
	n, _ := x.Dims()
	m, _ := y.Dims()
	rad, isRadial := k.(Radial)
	var yNorm []float64
	if isRadial {
		yNorm = rowSqNorms(y)
	}
	_, isLinear := k.(Linear)
	_, isPoly := k.(Polynomial)
	parallel.For((n+gramBlock-1)/gramBlock, 1, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			r0, r1 := b*gramBlock, min((b+1)*gramBlock, n)
			xb := x.Slice(r0, r1, 0, x.RawMatrix().Cols).(*mat.Dense)
			db := dst.Slice(r0, r1, 0, m).(*mat.Dense)
			switch {
			case isRadial:
				// db = −2 Xb Yᵀ, then add norms and map.
				blas64.Gemm(blas.NoTrans, blas.Trans, -2, xb.RawMatrix(), y.RawMatrix(), 0, db.RawMatrix())
				xn := rowSqNorms(xb)
				raw := db.RawMatrix()
				for i := 0; i < r1-r0; i++ {
					row := raw.Data[i*raw.Stride : i*raw.Stride+m]
					for j := range row {
						d2 := row[j] + xn[i] + yNorm[j]
						if d2 < cancellation*(xn[i]+yNorm[j]) {
							// Nearly equal points: the expanded form has lost
							// all digits to cancellation; take the difference.
							d2 = sqDist(xb.RawRowView(i), y.RawRowView(j))
						}
						row[j] = rad.FromSqDist(d2)
					}
				}
			case isLinear || isPoly:
				blas64.Gemm(blas.NoTrans, blas.Trans, 1, xb.RawMatrix(), y.RawMatrix(), 0, db.RawMatrix())
				raw := db.RawMatrix()
				for i := 0; i < r1-r0; i++ {
					row := raw.Data[i*raw.Stride : i*raw.Stride+m]
					for j, v := range row {
						if lin, ok := k.(Linear); ok {
							row[j] = v + lin.C
						} else {
							p := k.(Polynomial)
							row[j] = math.Pow(p.Gamma*v+p.Coef0, float64(p.Degree))
						}
					}
				}
			default:
				for i := r0; i < r1; i++ {
					xi := x.RawRowView(i)
					for j := 0; j < m; j++ {
						dst.Set(i, j, k.Eval(xi, y.RawRowView(j)))
					}
				}
			}
		}
	})
}

func rowSqNorms(x *mat.Dense) []float64 {
	r, _ := x.Dims()
	out := make([]float64, r)
	for i := range out {
		row := x.RawRowView(i)
		out[i] = dot(row, row)
	}
	return out
}
