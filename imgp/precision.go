package imgp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/linop"
)

// Precision is the sparse precision matrix of the graph Matérn prior
// (ALGORITHMS.md §3, IMGP Proposition 2) for an integer smoothness ν:
//
//	P = Scale·D(cI + Δ_rw)^ν = Scale·M(D⁻¹M)^{ν−1},   M = (1+c)D − A,   c = 2ν/κ²
//
// where A is the density-normalised KNN weight matrix and D = diag(A1). Scale
// is C/σ² (the inverse of the amplitude s = σ²/C of the unnormalised kernel).
// A product P·u costs ν sparse products with A. P is symmetric positive
// definite. It implements linop.Operator.
type Precision struct {
	A     *graph.CSR
	D     []float64
	Nu    int
	Shift float64 // c = 2ν/κ²
	Scale float64 // C/σ²

	invD []float64
	mScl graph.Scaling // (1+c)D − A
}

// NewPrecision returns the precision for the weights of one bandwidth, a
// positive integer ν, a length scale κ > 0 and a scale C/σ² > 0.
func NewPrecision(w *knngraph.Weights, nu int, kappa, scale float64) (*Precision, error) {
	if w == nil || w.A == nil {
		return nil, fmt.Errorf("imgp: NewPrecision: no graph weights")
	}
	if err := checkNu(nu); err != nil {
		return nil, err
	}
	if err := checkPositive("kappa", kappa); err != nil {
		return nil, err
	}
	if err := checkPositive("scale", scale); err != nil {
		return nil, err
	}
	return newPrecision(w.A, w.D, nu, 2*float64(nu)/(kappa*kappa), scale), nil
}

func newPrecision(a *graph.CSR, d []float64, nu int, shift, scale float64) *Precision {
	n := len(d)
	p := &Precision{A: a, D: d, Nu: nu, Shift: shift, Scale: scale, invD: make([]float64, n)}
	diag := make([]float64, n)
	neg := make([]float64, n)
	for i, v := range d {
		p.invD[i] = 1 / v
		diag[i] = (1 + shift) * v
		neg[i] = -1
	}
	p.mScl = graph.Scaling{Diag: diag, Left: neg}
	return p
}

func checkNu(nu int) error {
	if nu < 1 {
		return fmt.Errorf("imgp: nu = %d is invalid: the sparse precision needs a positive integer smoothness ν ≥ 1", nu)
	}
	return nil
}

func checkPositive(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("imgp: %s = %v is invalid: it must be finite and > 0", name, v)
	}
	return nil
}

// Dim returns the number of graph nodes.
func (p *Precision) Dim() int { return len(p.D) }

// IsSymmetric reports true: P is symmetric.
func (p *Precision) IsSymmetric() bool { return true }

// mulM sets dst = M x = (1+c)D x − A x.
func (p *Precision) mulM(dst, x []float64) { p.A.ScaledMulVecTo(dst, x, p.mScl) }

// mulB sets dst = D⁻¹M x = (cI + Δ_rw) x.
func (p *Precision) mulB(dst, x []float64) {
	p.mulM(dst, x)
	for i := range dst {
		dst[i] *= p.invD[i]
	}
}

// MulVecTo sets dst = P x.
func (p *Precision) MulVecTo(dst, x []float64) {
	if len(dst) != p.Dim() || len(x) != p.Dim() {
		panic(fmt.Sprintf("imgp: dimension mismatch: precision is %d×%d, dst %d, x %d", p.Dim(), p.Dim(), len(dst), len(x)))
	}
	y := x
	if p.Nu > 1 {
		t := make([]float64, len(x))
		y = append([]float64(nil), x...)
		for k := 0; k < p.Nu-1; k++ {
			p.mulB(t, y)
			y, t = t, y
		}
	}
	p.mulM(dst, y)
	for i := range dst {
		dst[i] *= p.Scale
	}
}

// MulBlockTo sets dst = P X for an n×c block X, one pass over the graph per
// factor for all columns (linop.BlockOperator); each column is the
// MulVecTo of that column.
func (p *Precision) MulBlockTo(dst, x *mat.Dense) {
	n := p.Dim()
	r, c := x.Dims()
	if dr, dc := dst.Dims(); r != n || dr != n || dc != c {
		panic(fmt.Sprintf("imgp: block dimension mismatch: precision is %d×%d, x is %d×%d, dst is %d×%d", n, n, r, c, dr, dc))
	}
	y := x
	if p.Nu > 1 {
		y = mat.DenseCopyOf(x)
		t := mat.NewDense(n, c, nil)
		for k := 0; k < p.Nu-1; k++ {
			p.A.ScaledMulBlockTo(t, y, p.mScl) // M y
			for i := 0; i < n; i++ {
				row := t.RawRowView(i)
				for j := range row {
					row[j] *= p.invD[i] // B y = D⁻¹M y
				}
			}
			y, t = t, y
		}
	}
	p.A.ScaledMulBlockTo(dst, y, p.mScl)
	dst.Scale(p.Scale, dst)
}

// Diagonal returns diag(P): exact for ν ≤ 2; for ν > 2 the diagonal of
// Scale·D·diag(B)^ν (a positive stand-in used only as a preconditioner).
func (p *Precision) Diagonal() []float64 {
	n := p.Dim()
	out := make([]float64, n)
	for i := 0; i < n; i++ {
		cols, ws := p.A.Row(i)
		var aii, sq float64
		for k, j := range cols {
			if int(j) == i {
				aii = ws[k]
			} else {
				sq += ws[k] * ws[k] * p.invD[j]
			}
		}
		mii := (1+p.Shift)*p.D[i] - aii
		switch p.Nu {
		case 1:
			out[i] = mii
		case 2:
			out[i] = mii*mii*p.invD[i] + sq
		default:
			out[i] = p.D[i] * math.Pow(mii*p.invD[i], float64(p.Nu))
		}
		out[i] *= p.Scale
	}
	return out
}

// Dense returns P as a dense matrix (N×N: for tests and small graphs only).
func (p *Precision) Dense() *mat.Dense { return linop.ToDense(p) }

// spectralDensity is Φ(λ) = (c + λ)^{−ν} of IMGP eq. 8.
func spectralDensity(lambda, shift float64, nu int) float64 {
	return math.Pow(shift+lambda, -float64(nu))
}
