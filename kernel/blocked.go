package kernel

import (
	"context"
	"fmt"
	"math"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// Precision selects the arithmetic of the inner products ⟨x, c⟩ from which
// a Matrix evaluates its entries. Everything else (norms, the kernel
// function, accumulations) is float64.
type Precision int

const (
	// Float64 computes inner products in float64: the entries agree with
	// the naive formulas to about 1e-12. The zero value.
	Float64 Precision = iota
	// Float32 computes inner products of float32 copies of the points
	// (AVX2 when the CPU has it), about twice as fast as Float64; entries
	// carry relative errors of order 1e-6·(‖x‖²+‖c‖²)/(2σ²) for the
	// Gaussian kernel. It keeps a float32 copy of the points (n·d·4 bytes).
	Float32
)

// String returns "float64" or "float32".
func (p Precision) String() string {
	switch p {
	case Float64:
		return "float64"
	case Float32:
		return "float32"
	}
	return fmt.Sprintf("Precision(%d)", int(p))
}

// cancellation32 plays the role of cancellation for float32 inner products,
// whose relative error is about 1e-7·√d instead of 1e-16.
const cancellation32 = 1e-4

// DefaultBlockRows is the number of rows of K evaluated at once by a Matrix
// when BlockRows is 0.
const DefaultBlockRows = 256

// Matrix is the n×M kernel matrix K_ij = k(x_i, c_j) between the rows of X
// (n×d) and of C (M×d), never stored whole: its products evaluate it in
// blocks of rows, in parallel over the available cores, so that memory
// stays O(nd + M·BlockRows·workers). Build it with NewMatrix; it is safe for
// concurrent use.
type Matrix struct {
	k         Kernel
	rad       Radial
	x, c      *mat.Dense
	n, m, d   int
	prec      Precision
	blockRows int

	xn, cn   []float64 // squared row norms
	x32, c32 []float32 // float32 copies (Float32 only)
	dotBased bool      // radial, linear or polynomial: evaluated from ⟨x, c⟩
}

// NewMatrix validates k and the points (same dimension, d ≥ 1, no NaN or
// ±Inf) and returns the blocked kernel matrix K(X, C). blockRows is the
// number of rows evaluated at once; 0 means DefaultBlockRows. X and C are
// kept, not copied: do not change them while the Matrix is in use.
func NewMatrix(k Kernel, x, c *mat.Dense, p Precision, blockRows int) (*Matrix, error) {
	if k == nil {
		return nil, fmt.Errorf("kernel: NewMatrix: kernel is nil")
	}
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if p != Float64 && p != Float32 {
		return nil, fmt.Errorf("kernel: precision %v is invalid: it must be Float64 or Float32", p)
	}
	if blockRows < 0 {
		return nil, fmt.Errorf("kernel: blockRows=%d is invalid: it must be ≥ 0 (0 means %d)", blockRows, DefaultBlockRows)
	}
	if blockRows == 0 {
		blockRows = DefaultBlockRows
	}
	if x == nil || c == nil || x.IsEmpty() || c.IsEmpty() {
		return nil, fmt.Errorf("kernel: NewMatrix: X and C must be non-empty")
	}
	n, d := x.Dims()
	m, dc := c.Dims()
	if d != dc {
		return nil, fmt.Errorf("kernel: X has %d columns (dimensions) but C has %d", d, dc)
	}
	if err := CheckPoints("X", x, d); err != nil {
		return nil, err
	}
	if err := CheckPoints("C", c, d); err != nil {
		return nil, err
	}
	km := &Matrix{k: k, x: x, c: c, n: n, m: m, d: d, prec: p, blockRows: blockRows}
	km.rad, _ = k.(Radial)
	_, lin := k.(Linear)
	_, poly := k.(Polynomial)
	km.dotBased = km.rad != nil || lin || poly
	if km.dotBased {
		km.xn = rowSqNorms(x)
		km.cn = rowSqNorms(c)
		if p == Float32 {
			km.x32 = toFloat32(x)
			km.c32 = toFloat32(c)
		}
	}
	return km, nil
}

func toFloat32(a *mat.Dense) []float32 {
	r, c := a.Dims()
	out := make([]float32, r*c)
	for i := 0; i < r; i++ {
		row := a.RawRowView(i)
		o := out[i*c : (i+1)*c]
		for j, v := range row {
			o[j] = float32(v)
		}
	}
	return out
}

// Dims returns n and M.
func (km *Matrix) Dims() (n, m int) { return km.n, km.m }

// Kernel returns the kernel.
func (km *Matrix) Kernel() Kernel { return km.k }

// Precision returns the precision of the inner products.
func (km *Matrix) Precision() Precision { return km.prec }

// BlockRows returns the number of rows evaluated at once.
func (km *Matrix) BlockRows() int { return km.blockRows }

// RowsTo fills dst ((r1−r0)×M) with rows r0..r1−1 of K, on the calling
// goroutine. It panics if the range or dst's shape is wrong.
func (km *Matrix) RowsTo(dst *mat.Dense, r0, r1 int) {
	if r0 < 0 || r1 > km.n || r0 > r1 {
		panic(fmt.Sprintf("kernel: rows [%d, %d) outside [0, %d)", r0, r1, km.n))
	}
	if r, c := dst.Dims(); r != r1-r0 || c != km.m {
		panic(fmt.Sprintf("kernel: dst is %d×%d, want %d×%d", r, c, r1-r0, km.m))
	}
	raw := dst.RawMatrix()
	for i := r0; i < r1; i++ {
		km.row(raw.Data[(i-r0)*raw.Stride:(i-r0)*raw.Stride+km.m], i)
	}
}

// row fills out (length M) with row i of K.
func (km *Matrix) row(out []float64, i int) {
	xi := km.x.RawRowView(i)
	if !km.dotBased {
		for j := range out {
			out[j] = km.k.Eval(xi, km.c.RawRowView(j))
		}
		return
	}
	d := km.d
	if km.prec == Float32 {
		xi32 := km.x32[i*d : (i+1)*d]
		for j := range out {
			out[j] = float64(vek32.Dot(xi32, km.c32[j*d:(j+1)*d]))
		}
	} else {
		for j := range out {
			out[j] = vek.Dot(xi, km.c.RawRowView(j))
		}
	}
	switch k := km.k.(type) {
	case Linear:
		for j, v := range out {
			out[j] = v + k.C
		}
		return
	case Polynomial:
		for j, v := range out {
			out[j] = math.Pow(k.Gamma*v+k.Coef0, float64(k.Degree))
		}
		return
	}
	cancel := cancellation
	if km.prec == Float32 {
		cancel = cancellation32
	}
	xn := km.xn[i]
	for j, v := range out {
		s := xn + km.cn[j]
		d2 := s - 2*v
		if d2 < cancel*s {
			// Nearly equal points: the expanded form has lost its digits
			// to cancellation; take the difference directly.
			d2 = sqDist(xi, km.c.RawRowView(j))
		}
		out[j] = km.rad.FromSqDist(d2)
	}
}

// blocks returns the number of row blocks.
func (km *Matrix) blocks() int { return (km.n + km.blockRows - 1) / km.blockRows }

// eachBlock evaluates the row blocks of K in parallel: each worker owns a
// contiguous run of blocks and one block buffer, and calls fn(worker-local
// state index, r0, r1, kb) with kb = K[r0:r1, :]. fn runs concurrently for
// different workers; w identifies the worker (0 ≤ w < workers).
func (km *Matrix) eachBlock(workers int, fn func(w, r0, r1 int, kb *mat.Dense)) {
	nb := km.blocks()
	if workers > nb {
		workers = nb
	}
	parallel.For(workers, 1, func(lo, hi int) {
		for w := lo; w < hi; w++ {
			buf := make([]float64, km.blockRows*km.m)
			for b := w * nb / workers; b < (w+1)*nb/workers; b++ {
				r0, r1 := b*km.blockRows, min((b+1)*km.blockRows, km.n)
				kb := mat.NewDense(r1-r0, km.m, buf[:(r1-r0)*km.m])
				km.RowsTo(kb, r0, r1)
				fn(w, r0, r1, kb)
			}
		}
	})
}

func (km *Matrix) workers() int { return min(parallel.Workers(), km.blocks()) }

// MulTo sets dst (n×c) = K·v for v of size M×c.
func (km *Matrix) MulTo(dst, v *mat.Dense) {
	vr, vc := v.Dims()
	dr, dc := dst.Dims()
	if vr != km.m || dr != km.n || dc != vc {
		panic(fmt.Sprintf("kernel: MulTo: K is %d×%d, v %d×%d, dst %d×%d", km.n, km.m, vr, vc, dr, dc))
	}
	km.eachBlock(km.workers(), func(_, r0, r1 int, kb *mat.Dense) {
		db := dst.Slice(r0, r1, 0, dc).(*mat.Dense)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, kb.RawMatrix(), v.RawMatrix(), 0, db.RawMatrix())
	})
}

// TMulTo sets dst (M×c) = Kᵀ·u for u of size n×c.
func (km *Matrix) TMulTo(dst, u *mat.Dense) {
	ur, uc := u.Dims()
	dr, dc := dst.Dims()
	if ur != km.n || dr != km.m || dc != uc {
		panic(fmt.Sprintf("kernel: TMulTo: K is %d×%d, u %d×%d, dst %d×%d", km.n, km.m, ur, uc, dr, dc))
	}
	w := km.workers()
	part := make([]*mat.Dense, w)
	for i := range part {
		part[i] = mat.NewDense(km.m, uc, nil)
	}
	km.eachBlock(w, func(w, r0, r1 int, kb *mat.Dense) {
		ub := u.Slice(r0, r1, 0, uc).(*mat.Dense)
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, kb.RawMatrix(), ub.RawMatrix(), 1, part[w].RawMatrix())
	})
	dst.Copy(part[0])
	for _, p := range part[1:] {
		dst.Add(dst, p)
	}
}

// NormalTo sets dst (M×c) = Kᵀ(K·v) for v of size M×c in one pass over the
// rows of K: each block is evaluated once, multiplied by v and its transpose
// applied at once. This is FALKON's product with K_nMᵀK_nM.
func (km *Matrix) NormalTo(dst, v *mat.Dense) {
	vr, vc := v.Dims()
	dr, dc := dst.Dims()
	if vr != km.m || dr != km.m || dc != vc {
		panic(fmt.Sprintf("kernel: NormalTo: K is %d×%d, v %d×%d, dst %d×%d", km.n, km.m, vr, vc, dr, dc))
	}
	w := km.workers()
	part := make([]*mat.Dense, w)
	tmp := make([]*mat.Dense, w)
	for i := range part {
		part[i] = mat.NewDense(km.m, vc, nil)
		tmp[i] = mat.NewDense(km.blockRows, vc, nil)
	}
	km.eachBlock(w, func(w, r0, r1 int, kb *mat.Dense) {
		t := tmp[w].Slice(0, r1-r0, 0, vc).(*mat.Dense)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, kb.RawMatrix(), v.RawMatrix(), 0, t.RawMatrix())
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, kb.RawMatrix(), t.RawMatrix(), 1, part[w].RawMatrix())
	})
	dst.Copy(part[0])
	for _, p := range part[1:] {
		dst.Add(dst, p)
	}
}

// Normal computes, in one pass over the rows of K, the M×M matrix KᵀK and,
// when y (n×c) is not nil, the M×c matrix Kᵀy. Memory is O(M² +
// M·BlockRows); time O(nMd + nM²). ctx is checked once per block;
// progress, if not nil, is called after each block with the number of rows
// done and n (from one goroutine at a time).
func (km *Matrix) Normal(ctx context.Context, y *mat.Dense, progress func(done, total int)) (*mat.SymDense, *mat.Dense, error) {
	var c int
	if y != nil {
		var yr int
		yr, c = y.Dims()
		if yr != km.n {
			return nil, nil, fmt.Errorf("kernel: Normal: y has %d rows, K has %d", yr, km.n)
		}
	}
	m := km.m
	g := make([]float64, m*m) // upper triangle of KᵀK, row-major
	var kty *mat.Dense
	if y != nil {
		kty = mat.NewDense(m, c, nil)
	}
	// Blocks are processed one after another; inside a block the rows of K
	// are evaluated in parallel, then the columns of KbT (rows of Kbᵀ) are
	// dotted in parallel, split so that each worker gets the same share of
	// the triangle.
	br := km.blockRows
	kb := mat.NewDense(br, m, nil)
	kbt := make([]float64, m*br)
	w := parallel.Workers()
	bounds := triangleSplit(m, w)
	for r0 := 0; r0 < km.n; r0 += br {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("kernel: Normal stopped at row %d of %d: %w", r0, km.n, err)
		}
		r1 := min(r0+br, km.n)
		rows := r1 - r0
		blk := kb.Slice(0, rows, 0, m).(*mat.Dense)
		parallel.For(rows, 8, func(lo, hi int) {
			km.RowsTo(blk.Slice(lo, hi, 0, m).(*mat.Dense), r0+lo, r0+hi)
		})
		// transpose into kbt (m×rows, contiguous rows)
		parallel.For(m, 64, func(lo, hi int) {
			raw := blk.RawMatrix()
			for j := lo; j < hi; j++ {
				col := kbt[j*rows : (j+1)*rows]
				for i := 0; i < rows; i++ {
					col[i] = raw.Data[i*raw.Stride+j]
				}
			}
		})
		parallel.For(len(bounds)-1, 1, func(lo, hi int) {
			for p := lo; p < hi; p++ {
				for j := bounds[p]; j < bounds[p+1]; j++ {
					cj := kbt[j*rows : (j+1)*rows]
					gr := g[j*m : (j+1)*m]
					for k := j; k < m; k++ {
						gr[k] += vek.Dot(cj, kbt[k*rows:(k+1)*rows])
					}
				}
			}
		})
		if y != nil {
			yb := y.Slice(r0, r1, 0, c).(*mat.Dense)
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, blk.RawMatrix(), yb.RawMatrix(), 1, kty.RawMatrix())
		}
		if progress != nil {
			progress(r1, km.n)
		}
	}
	for j := 0; j < m; j++ {
		for k := 0; k < j; k++ {
			g[j*m+k] = g[k*m+j]
		}
	}
	return mat.NewSymDense(m, g), kty, nil
}

// triangleSplit returns w+1 row bounds of an m×m upper triangle so that
// each range of rows holds about the same number of entries.
func triangleSplit(m, w int) []int {
	if w < 1 {
		w = 1
	}
	// Row j holds m−j entries; rows [0, r) hold m·r − r(r−1)/2.
	total := float64(m) * float64(m+1) / 2
	b := []int{0}
	for p := 1; p < w; p++ {
		target := total * float64(p) / float64(w)
		// solve m r − r²/2 ≈ target for r
		r := int(float64(m) + 0.5 - math.Sqrt(math.Max(0, (float64(m)+0.5)*(float64(m)+0.5)-2*target)))
		r = max(b[len(b)-1], min(r, m))
		b = append(b, r)
	}
	return append(b, m)
}
