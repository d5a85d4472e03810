package propagate

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/linop"
	"github.com/gssl/gssl/loaders"
)

// DefaultTol is the relative residual at which PPR stops when Settings.Tol
// is zero.
const DefaultTol = 1e-6

// Settings control a PPR solve.
type Settings struct {
	// Tol is the relative residual ‖(1−a)H − (I − aS)F‖_F/‖(1−a)H‖_F at
	// which the iteration stops; 0 means DefaultTol. It must be in (0, 1).
	Tol float64
	// MaxIter caps the iterations; 0 means twice the Chebyshev bound for
	// Tol plus 100 (the bound is 32 for a = 0.9 and Tol = 1e-6).
	MaxIter int
}

// Info describes a finished propagation.
type Info struct {
	Iterations int     // Chebyshev iterations
	Residual   float64 // final true relative residual (Frobenius norm)
	Products   int     // block products with S
}

// PPR returns F = (1 − a)(I − aS)^{-1} X for the features X. For a sparse X
// the first iterate (1 − a)X is built row by row and the first product S·X
// is taken from X's CSR arrays; the n×d iterates are dense (they are the
// output). On failure (non-convergence, cancelled context) the last iterate
// is returned with the error.
func PPR(ctx context.Context, s *Adjacency, x Features, a float64, set Settings) (*mat.Dense, Info, error) {
	if err := x.check(s.Dim()); err != nil {
		return nil, Info{}, err
	}
	if x.Dense != nil {
		return PPRBlock(ctx, s, x.Dense, a, set)
	}
	rhs := sparseRHS{x: x.Sparse, s: s}
	return chebyshev(ctx, s, rhs, a, set)
}

// PPRBlock returns F = (1 − a)(I − aS)^{-1} B for an n×c block B and any
// symmetric operator S with its spectrum in [−1, 1] (the normalised
// adjacencies of this package, laplacian.NormalizedAdjacency): the
// propagation of APPNP's logits and of Correct & Smooth's residuals and
// labels.
func PPRBlock(ctx context.Context, s linop.BlockOperator, b *mat.Dense, a float64, set Settings) (*mat.Dense, Info, error) {
	if r, c := b.Dims(); r != s.Dim() || c == 0 {
		return nil, Info{}, fmt.Errorf("propagate: block is %d×%d, the operator has dimension %d", r, c, s.Dim())
	}
	return chebyshev(ctx, s, denseRHS{b}, a, set)
}

// PPRRows returns the rows at the listed nodes of the PPR of X (len(rows)×d)
// without an n×d matrix: F_R = (Π E_R)ᵀ X with Π = (1−a)(I − aS)^{-1}
// symmetric, one solve with len(rows) columns and one product with X.
func PPRRows(ctx context.Context, s *Adjacency, x Features, a float64, rows []int, set Settings) (*mat.Dense, Info, error) {
	if err := x.check(s.Dim()); err != nil {
		return nil, Info{}, err
	}
	e, err := unitColumns(s.Dim(), rows)
	if err != nil {
		return nil, Info{}, err
	}
	p, info, err := chebyshev(ctx, s, denseRHS{e}, a, set)
	if err != nil {
		return nil, info, err
	}
	return x.TMul(p), info, nil
}

// rhs is the right-hand side H of a solve, dense or sparse.
type rhs interface {
	dims() (int, int)
	// addRow adds c·H_i to row.
	addRow(row []float64, i int, c float64)
	// mul sets dst = c·S·H (the first product).
	mul(dst *mat.Dense, op linop.BlockOperator, c float64)
	norm() float64
}

type denseRHS struct{ b *mat.Dense }

func (r denseRHS) dims() (int, int) { return r.b.Dims() }
func (r denseRHS) addRow(row []float64, i int, c float64) {
	for j, v := range r.b.RawRowView(i) {
		row[j] += c * v
	}
}
func (r denseRHS) mul(dst *mat.Dense, op linop.BlockOperator, c float64) {
	op.MulBlockTo(dst, r.b)
	dst.Scale(c, dst)
}
func (r denseRHS) norm() float64 { return mat.Norm(r.b, 2) }

type sparseRHS struct {
	x *loaders.Sparse
	s *Adjacency
}

func (r sparseRHS) dims() (int, int) { return r.x.Rows, r.x.Cols }
func (r sparseRHS) addRow(row []float64, i int, c float64) {
	scatter(row, r.x, i, c)
}
func (r sparseRHS) mul(dst *mat.Dense, _ linop.BlockOperator, c float64) {
	r.s.MulSparseTo(dst, r.x, c)
}
func (r sparseRHS) norm() float64 {
	var s float64
	for _, v := range r.x.Values {
		s += v * v
	}
	return math.Sqrt(s)
}

// pprSystem is (I − aS)F = (1 − a)H as krylov.Chebyshev sees it: the
// product S·F_k of a pass is taken whole (op is any linop.BlockOperator),
// then the residual rows (1 − a)H_i − F_i + a(S F)_i are read from it. The
// first product, S·F_1 = (1 − a)S·H, comes from H itself (for sparse
// features from their CSR arrays).
type pprSystem struct {
	op     linop.BlockOperator
	h      rhs
	a      float64
	d      int
	q      *mat.Dense    // S·F_k
	blocks [2]*mat.Dense // the two iterate blocks, for op
	first  bool          // the next product is the first
}

func (p *pprSystem) Product(z []float64) {
	if p.first {
		p.first = false
		p.h.mul(p.q, p.op, 1-p.a) // S F_1 = (1−a) S H
		return
	}
	x := p.blocks[1]
	if &p.blocks[0].RawMatrix().Data[0] == &z[0] {
		x = p.blocks[0]
	}
	p.op.MulBlockTo(p.q, x)
}

func (p *pprSystem) Residual(r []float64, z []float64, lo, hi int) {
	d, a := p.d, p.a
	for i := lo; i < hi; i++ {
		ri := r[(i-lo)*d : (i-lo+1)*d]
		if z == nil {
			clear(ri)
		} else {
			fi, qi := z[i*d:(i+1)*d], p.q.RawRowView(i)
			for j, f := range fi {
				ri[j] = a*qi[j] - f
			}
		}
		p.h.addRow(ri, i, 1-a)
	}
}

// chebyshev solves (I − aS)F = (1−a)H from F_0 = 0 by krylov.Chebyshev
// (see doc.go): F_1 = (1−a)H, then
//
//	F_{k+1} = F_k + ω_k (F_k − F_{k−1}) + γ_k R_k,   R_k = (1−a)H − F_k + aS F_k,
//
// with ρ_0 = a, ρ_k = 1/(2/a − ρ_{k−1}), ω_k = ρ_k ρ_{k−1}, γ_k = 2ρ_k/a,
// until ‖R_k‖_F ≤ Tol·‖(1−a)H‖_F.
func chebyshev(ctx context.Context, op linop.BlockOperator, h rhs, a float64, set Settings) (*mat.Dense, Info, error) {
	if !(a > 0 && a < 1) {
		return nil, Info{}, fmt.Errorf("propagate: a = %v is invalid: it must be inside the open interval (0, 1)", a)
	}
	tol := set.Tol
	if tol == 0 {
		tol = DefaultTol
	}
	if !(tol > 0 && tol < 1) {
		return nil, Info{}, fmt.Errorf("propagate: Tol = %v is invalid: it must be inside the open interval (0, 1)", set.Tol)
	}
	if set.MaxIter < 0 {
		return nil, Info{}, fmt.Errorf("propagate: MaxIter = %d must be ≥ 0", set.MaxIter)
	}
	n, d := h.dims()
	bnorm := (1 - a) * h.norm()
	if bnorm == 0 {
		return mat.NewDense(n, d, nil), Info{}, nil
	}
	cur, prv := make([]float64, n*d), make([]float64, n*d) // F_0 = 0
	p := &pprSystem{op: op, h: h, a: a, d: d, q: mat.NewDense(n, d, nil),
		blocks: [2]*mat.Dense{mat.NewDense(n, d, cur), mat.NewDense(n, d, prv)}, first: true}
	// With Frobenius the stop reads the norms only as ‖B‖_F² = Σ_j BNorm_j²:
	// the whole of it in the first entry.
	norms := make([]float64, d)
	norms[0] = bnorm
	z, res, err := krylov.Chebyshev(ctx, p, a, cur, prv, krylov.ChebyshevSettings[float64]{
		Settings: krylov.Settings{Tol: tol, MaxIter: set.MaxIter},
		Method:   "propagate: PPR Chebyshev", BNorm: norms, Frobenius: true, Zero: true,
		Passes: krylov.NewRowPasses(n, d, n*d),
	})
	info := Info{Iterations: res.Iterations[0], Residual: res.Residual[0], Products: res.Products}
	return mat.NewDense(n, d, z), info, err
}
