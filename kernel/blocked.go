package kernel

import (
	"context"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/dense"
	"github.com/gssl/gssl/internal/gemm"
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
	// Float32 computes inner products of float32 copies of the points by
	// the project's float32 GEMM (an AVX2 micro-kernel when the CPU has
	// it), several times faster than Float64. For radial kernels the points
	// are centred on the mean of C first; the entries then carry relative
	// errors of order 1e-7·√d·(‖x−μ‖²+‖c−μ‖²)/(2σ²) for the Gaussian kernel.
	// It keeps a packed float32 copy of C (M·d·4 bytes) and packs the rows
	// of X block by block.
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
// stays O(nd + M·BlockRows·workers). Radial, linear and polynomial kernels
// are evaluated from inner products computed by the project's GEMM
// kernels (internal/gemm); the products with K go through the same
// kernels in float64. Build it with NewMatrix; it is safe for concurrent
// use.
type Matrix struct {
	k         Kernel
	rad       Radial
	x, c      *mat.Dense
	n, m, d   int
	prec      Precision
	blockRows int

	dotBased bool      // radial, linear or polynomial: evaluated from ⟨x, c⟩
	shift    []float64 // μ, the mean of C, for radial kernels; nil otherwise
	cn       []float64 // ‖c_j − μ‖² of the packed values
	c32      *gemm.Panels[float32]
	c64      *gemm.Panels[float64]
	spaces   sync.Pool // *workspace
}

// workspace is one goroutine's scratch space: the packed rows of X, a block
// of K and the packed operands of the block products. It is reused across
// calls through Matrix.spaces.
type workspace struct {
	a32    *gemm.Panels[float32]
	a64    *gemm.Panels[float64]
	xn     []float64
	kb     []float64
	kt, ut *gemm.Panels[float64] // Kbᵀ (rows of width MR) and a right operand
	prod   []float64
}

// NewMatrix validates k and the points (same dimension, d ≥ 1, no NaN or
// ±Inf) and returns the blocked kernel matrix K(X, C). blockRows is the
// number of rows evaluated at once; 0 means DefaultBlockRows. X and C are
// kept, not copied: do not change them while the Matrix is in use.
func NewMatrix(k Kernel, x, c *mat.Dense, p Precision, blockRows int) (*Matrix, error) {
	return newMatrix(k, x, c, p, blockRows, true)
}

// NewCheckedMatrix is NewMatrix for points that the caller has already
// validated with CheckPoints (finite, the same dimension): it does not
// read them again (at 60 000 × 784 points the check is a 376 MB pass, as
// long as a tenth of FALKON's M = 1000 fit on two cores takes). Its
// entries are NewMatrix's; with a NaN or ±Inf point they are undefined.
func NewCheckedMatrix(k Kernel, x, c *mat.Dense, p Precision, blockRows int) (*Matrix, error) {
	return newMatrix(k, x, c, p, blockRows, false)
}

func newMatrix(k Kernel, x, c *mat.Dense, p Precision, blockRows int, check bool) (*Matrix, error) {
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
	if check {
		if err := CheckPoints("X", x, d); err != nil {
			return nil, err
		}
		if err := CheckPoints("C", c, d); err != nil {
			return nil, err
		}
	}
	km := &Matrix{k: k, x: x, c: c, n: n, m: m, d: d, prec: p, blockRows: blockRows}
	km.rad, _ = k.(Radial)
	_, lin := k.(Linear)
	_, poly := k.(Polynomial)
	km.dotBased = km.rad != nil || lin || poly
	if !km.dotBased {
		return km, nil
	}
	if km.rad != nil {
		// Distances do not change under a shift, and centring shrinks the
		// norms that the rounding errors of ⟨x, c⟩ are relative to.
		km.shift = dense.ColumnMeans(c)
	}
	km.cn = make([]float64, m)
	if p == Float32 {
		km.c32 = gemm.NewPanels[float32](m, d, gemm.NR32, nil)
		packRows(km.c32, c, km.shift, km.cn)
	} else {
		km.c64 = gemm.NewPanels[float64](m, d, gemm.NR64, nil)
		packRows(km.c64, c, km.shift, km.cn)
	}
	return km, nil
}

// packRows stores the rows of a (minus shift) in p and their squared norms
// in norms, in parallel.
func packRows[T gemm.Float](p *gemm.Panels[T], a *mat.Dense, shift, norms []float64) {
	parallel.For(p.Rows, 64, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			norms[j] = p.SetRow(j, a.RawRowView(j), shift, 1)
		}
	})
}

// Dims returns n and M.
func (km *Matrix) Dims() (n, m int) { return km.n, km.m }

// Kernel returns the kernel.
func (km *Matrix) Kernel() Kernel { return km.k }

// Precision returns the precision of the inner products.
func (km *Matrix) Precision() Precision { return km.prec }

// BlockRows returns the number of rows evaluated at once.
func (km *Matrix) BlockRows() int { return km.blockRows }

func (km *Matrix) space() *workspace {
	if ws, ok := km.spaces.Get().(*workspace); ok {
		return ws
	}
	return &workspace{}
}

// RowsTo fills dst ((r1−r0)×M) with rows r0..r1−1 of K, on the calling
// goroutine. It panics if the range or dst's shape is wrong.
func (km *Matrix) RowsTo(dst *mat.Dense, r0, r1 int) {
	km.checkRows(dst, r0, r1)
	if r0 == r1 {
		return
	}
	raw := dst.RawMatrix()
	ws := km.space()
	km.rowsTo(ws, raw.Data, raw.Stride, r0, r1, 0)
	km.spaces.Put(ws)
}

// UpperRowsTo is RowsTo for the entries (i, j), j ≥ i, of rows r0..r1−1,
// for a square K such as K(C, C) that its caller reads only on and above
// the diagonal (a Cholesky factorisation): it evaluates the columns from
// r0 (rounded down to a panel of the packed C for the kernels evaluated
// from inner products), so that each row of dst
// left of its diagonal holds K's values or is left as it was. Every entry
// it sets is RowsTo's, bitwise; about half of RowsTo's work for a whole K.
func (km *Matrix) UpperRowsTo(dst *mat.Dense, r0, r1 int) {
	km.checkRows(dst, r0, r1)
	if km.n != km.m {
		panic(fmt.Sprintf("kernel: UpperRowsTo on a %d×%d K", km.n, km.m))
	}
	if r0 == r1 {
		return
	}
	raw := dst.RawMatrix()
	ws := km.space()
	c0 := r0
	if km.dotBased {
		w := gemm.NR64
		if km.prec == Float32 {
			w = gemm.NR32
		}
		c0 = r0 / w * w
	}
	km.rowsTo(ws, raw.Data, raw.Stride, r0, r1, c0)
	km.spaces.Put(ws)
}

func (km *Matrix) checkRows(dst *mat.Dense, r0, r1 int) {
	if r0 < 0 || r1 > km.n || r0 > r1 {
		panic(fmt.Sprintf("kernel: rows [%d, %d) outside [0, %d)", r0, r1, km.n))
	}
	if r, c := dst.Dims(); r != r1-r0 || c != km.m {
		panic(fmt.Sprintf("kernel: dst is %d×%d, want %d×%d", r, c, r1-r0, km.m))
	}
}

// rowsTo fills columns c0..M−1 of rows r0..r1−1 of K into out (row stride
// ld, row r at out[(r−r0)·ld:], column j at its offset j); c0 is a multiple
// of the panel width of the packed C.
func (km *Matrix) rowsTo(ws *workspace, out []float64, ld, r0, r1, c0 int) {
	rows := r1 - r0
	if !km.dotBased {
		for i := r0; i < r1; i++ {
			xi := km.x.RawRowView(i)
			row := out[(i-r0)*ld : (i-r0)*ld+km.m]
			for j := c0; j < km.m; j++ {
				row[j] = km.k.Eval(xi, km.c.RawRowView(j))
			}
		}
		return
	}
	ws.xn = resize(ws.xn, rows)
	xr := km.x.RawMatrix()
	cancel := cancellation
	if km.prec == Float32 {
		cancel = cancellation32
		ws.a32 = gemm.UnclearedPanels(rows, km.d, gemm.MR, dataOf(ws.a32))
		ws.a32.SetShiftedRows(xr.Data[r0*xr.Stride:], xr.Stride, 0, rows, km.shift, ws.xn)
		gemm.MulTTo(out[c0:], ld, ws.a32, columnsFrom(km.c32, c0))
	} else {
		ws.a64 = gemm.UnclearedPanels(rows, km.d, gemm.MR, dataOf(ws.a64))
		ws.a64.SetShiftedRows(xr.Data[r0*xr.Stride:], xr.Stride, 0, rows, km.shift, ws.xn)
		gemm.MulTTo(out[c0:], ld, ws.a64, columnsFrom(km.c64, c0))
	}
	for r := range rows {
		km.finish(out[r*ld+c0:r*ld+km.m], r0+r, c0, ws.xn[r], cancel)
	}
}

// columnsFrom returns the rows c0 … of the packed C (c0 a multiple of
// the panel width), sharing its storage.
func columnsFrom[T gemm.Float](c *gemm.Panels[T], c0 int) *gemm.Panels[T] {
	if c0 == 0 {
		return c
	}
	return &gemm.Panels[T]{Rows: c.Rows - c0, K: c.K, W: c.W, Data: c.Data[c0*c.K:]}
}

func dataOf[T gemm.Float](p *gemm.Panels[T]) []T {
	if p == nil {
		return nil
	}
	return p.Data
}

func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// finish maps the inner products ⟨x_i − μ, c_j − μ⟩ in out (columns j from
// c0) to kernel values; xn is ‖x_i − μ‖².
func (km *Matrix) finish(out []float64, i, c0 int, xn, cancel float64) {
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
	km.sqDists(out, i, c0, xn, cancel)
	if g, ok := km.k.(Gaussian); ok {
		// e^(−d²/(2σ²)) as FromSqDist, eight entries at a time with AVX-512
		expDiv(out, -(2 * g.Sigma * g.Sigma))
		return
	}
	for j, d2 := range out {
		out[j] = km.rad.FromSqDist(d2)
	}
}

// sqDists maps the inner products ⟨x_i − μ, c_j − μ⟩ in out (columns j
// from c0) to squared distances ‖x_i − μ‖² + ‖c_j − μ‖² − 2⟨x_i − μ, c_j − μ⟩,
// or the direct ‖x_i − c_j‖² where cancellation took the digits of the
// expanded form. With AVX-512 sqDistsAVX512 does eight entries at a time,
// bitwise as the loop, and leaves each group of eight with a nearly equal
// pair (rare: a point that is also a centre) to it.
func (km *Matrix) sqDists(out []float64, i, c0 int, xn, cancel float64) {
	cn := km.cn[c0 : c0+len(out)]
	full := 0
	if hasExpVec {
		full = len(out) &^ 7
	}
	for j := 0; j < len(out); {
		if j < full {
			j += sqDistsAVX512(&out[j], &cn[j], full-j, xn, cancel)
			if j == full {
				continue
			}
		}
		end := len(out)
		if j < full {
			end = j + 8
		}
		for ; j < end; j++ {
			s := xn + cn[j]
			d2 := s - 2*out[j]
			if d2 < cancel*s {
				// Nearly equal points: the expanded form has lost its
				// digits to cancellation; take the difference directly.
				d2 = sqDist(km.x.RawRowView(i), km.c.RawRowView(c0+j))
			}
			out[j] = d2
		}
	}
}

// blocks returns the number of row blocks.
func (km *Matrix) blocks() int { return (km.n + km.blockRows - 1) / km.blockRows }

// eachBlock evaluates the row blocks of K in parallel: each worker owns a
// contiguous run of blocks and a workspace, and calls fn(w, ws, r0, r1, kb)
// with kb = K[r0:r1, :] (row-major, M columns). fn runs concurrently for
// different workers; w identifies the worker (0 ≤ w < workers).
func (km *Matrix) eachBlock(workers int, fn func(w int, ws *workspace, r0, r1 int, kb []float64)) {
	nb := km.blocks()
	workers = min(workers, nb)
	parallel.For(workers, 1, func(lo, hi int) {
		for w := lo; w < hi; w++ {
			ws := km.space()
			ws.kb = resize(ws.kb, km.blockRows*km.m)
			for b := w * nb / workers; b < (w+1)*nb/workers; b++ {
				r0, r1 := b*km.blockRows, min((b+1)*km.blockRows, km.n)
				kb := ws.kb[:(r1-r0)*km.m]
				km.rowsTo(ws, kb, km.m, r0, r1, 0)
				fn(w, ws, r0, r1, kb)
			}
			km.spaces.Put(ws)
		}
	})
}

func (km *Matrix) workers() int { return min(parallel.Workers(), km.blocks()) }

// columns packs the columns of the r×c row-major matrix a (stride ld) as
// the rows of a right operand (width NR64), reusing p's storage.
func columns(p *gemm.Panels[float64], a []float64, ld, r, c int) *gemm.Panels[float64] {
	return gemm.PackColumns(a, ld, c, r, gemm.NR64, dataOf(p))
}

// mulBlock sets t (rows×c) = Kb·V for the block kb (rows×M) and V packed by
// columns (vp).
func (km *Matrix) mulBlock(ws *workspace, t []float64, c int, kb []float64, rows int, vp *gemm.Panels[float64]) {
	ws.a64 = gemm.UnclearedPanels(rows, km.m, gemm.MR, dataOf(ws.a64))
	ws.a64.SetRows(kb, km.m, 0, rows)
	gemm.MulTTo(t, c, ws.a64, vp)
}

// tMulAddBlock adds Kbᵀ·U (M×c) to dst for the block kb (rows×M) and
// u (rows×c, stride ldu).
func (km *Matrix) tMulAddBlock(ws *workspace, dst *mat.Dense, kb []float64, rows int, u []float64, ldu, c int) {
	ws.kt = gemm.PackColumns(kb, km.m, km.m, rows, gemm.MR, dataOf(ws.kt))
	km.addProduct(ws, dst, ws.kt, u, ldu, rows, c)
}

// addProduct adds A·U to dst (M×c) for A (M rows, depth rows) packed in kt.
func (km *Matrix) addProduct(ws *workspace, dst *mat.Dense, kt *gemm.Panels[float64], u []float64, ldu, rows, c int) {
	ws.ut = columns(ws.ut, u, ldu, rows, c)
	ws.prod = resize(ws.prod, km.m*c)
	gemm.MulTTo(ws.prod, c, kt, ws.ut)
	raw := dst.RawMatrix()
	for j := 0; j < km.m; j++ {
		d := raw.Data[j*raw.Stride : j*raw.Stride+c]
		for q, v := range ws.prod[j*c : (j+1)*c] {
			d[q] += v
		}
	}
}

// MulTo sets dst (n×c) = K·v for v of size M×c.
func (km *Matrix) MulTo(dst, v *mat.Dense) {
	vr, vc := v.Dims()
	dr, dc := dst.Dims()
	if vr != km.m || dr != km.n || dc != vc {
		panic(fmt.Sprintf("kernel: MulTo: K is %d×%d, v %d×%d, dst %d×%d", km.n, km.m, vr, vc, dr, dc))
	}
	vraw := v.RawMatrix()
	vp := columns(nil, vraw.Data, vraw.Stride, km.m, vc)
	draw := dst.RawMatrix()
	km.eachBlock(km.workers(), func(_ int, ws *workspace, r0, r1 int, kb []float64) {
		km.mulBlock(ws, draw.Data[r0*draw.Stride:], draw.Stride, kb, r1-r0, vp)
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
	uraw := u.RawMatrix()
	km.eachBlock(w, func(w int, ws *workspace, r0, r1 int, kb []float64) {
		km.tMulAddBlock(ws, part[w], kb, r1-r0, uraw.Data[r0*uraw.Stride:], uraw.Stride, uc)
	})
	sumInto(dst, part)
}

func sumInto(dst *mat.Dense, part []*mat.Dense) {
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
	tmp := make([][]float64, w)
	for i := range part {
		part[i] = mat.NewDense(km.m, vc, nil)
		tmp[i] = make([]float64, km.blockRows*vc)
	}
	vraw := v.RawMatrix()
	vp := columns(nil, vraw.Data, vraw.Stride, km.m, vc)
	km.eachBlock(w, func(w int, ws *workspace, r0, r1 int, kb []float64) {
		rows := r1 - r0
		t := tmp[w][:rows*vc]
		km.mulBlock(ws, t, vc, kb, rows, vp)
		km.tMulAddBlock(ws, part[w], kb, rows, t, vc, vc)
	})
	sumInto(dst, part)
}

// normalGroup is the number of row blocks whose KbᵀKb Normal adds to KᵀK
// at once, which cuts the sweeps of the M×M matrix by as much, for
// 16·BlockRows·M bytes of packed operands per block (at M = 5000 on
// Fashion-MNIST a sweep per block of 256 rows cost half as much as the
// multiply-adds of the block). With the AVX-512 kernels the tiles of a
// group are one FMA chain over its rows (gemm.ParallelAddUpperSumTo), so
// the group costs no extra additions and it pays at any M: 16 blocks below
// normalGroupMinM (each sweep of the M×M matrix adds its tiles at scattered
// rows and runs at the memory's latency: at M = 1000 on 10 000 MNIST images
// 16 blocks instead of 8 took the fit from 0.47–0.51 s to 0.44 s, 4 Dec), 8
// from it, where the packed blocks are the larger cost. Without them each
// block's tiles are summed separately, and a group of 8 pays only once the
// M×M matrix (8M² bytes) no longer fits in the last-level cache
// (M ≥ normalGroupMinM).
func normalGroup(m int) int {
	switch {
	case !gemm.HasAVX512 && m < normalGroupMinM:
		return 1
	case gemm.HasAVX512 && m < normalGroupMinM:
		return 16
	}
	return 8
}

// normalGroupMinM is the M from which Normal groups blocks (a variable so
// that tests reach the grouped path with small M).
var normalGroupMinM = 2048

// normalSubRows is the number of rows of K that Normal evaluates and packs
// at once on one goroutine: 128 rows of M = 1000 centres are 1 MB, still in
// L2 cache when they are packed.
const normalSubRows = 128

// Normal computes, in one pass over the rows of K, the M×M matrix KᵀK and,
// when y (n×c) is not nil, the M×c matrix Kᵀy. Memory is O(M² +
// M·BlockRows·normalGroup(M)); time O(nMd + nM²). ctx is checked once per
// group of blocks; progress, if not nil, is called after each group with the
// number of rows done and n (from one goroutine at a time).
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
	// The blocks of a group of normalGroup(m) are evaluated in parallel,
	// each by one goroutine that packs its rows into Kbᵀ twice (as left and
	// right operand) while they are in cache, and multiplies Kbᵀ by its rows
	// of y; a group of one block is shared among the goroutines by rows. The
	// block products are added to Kᵀy in block order, and the upper triangle
	// of Σ KbᵀKb over the group to g at once (one FMA chain per entry), so
	// that the result does not depend on the number of goroutines.
	group, nb := normalGroup(m), km.blocks()
	kt := make([]*gemm.Panels[float64], group) // Kbᵀ as left operands
	kr := make([]*gemm.Panels[float64], group) // and as right operands
	ky := make([]*mat.Dense, group)            // Kbᵀ yb
	for b0 := 0; b0 < nb; b0 += group {
		r0 := b0 * km.blockRows
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("kernel: Normal stopped at row %d of %d: %w", r0, km.n, err)
		}
		nbg := min(group, nb-b0)
		for i := range nbg {
			rows := min(km.blockRows, km.n-(b0+i)*km.blockRows)
			kt[i], kr[i] = gemm.UnclearedPanels(m, rows, gemm.MR, dataOf(kt[i])), gemm.UnclearedPanels(m, rows, gemm.NR64, dataOf(kr[i]))
			if y != nil && ky[i] == nil {
				ky[i] = mat.NewDense(m, c, nil)
			}
		}
		km.evalGroup(b0, nbg, kt, kr, ky, y)
		for i := 0; y != nil && i < nbg; i++ {
			kty.Add(kty, ky[i])
		}
		gemm.ParallelAddUpperSumTo(g, m, 1, kt[:nbg], kr[:nbg])
		if progress != nil {
			progress(min(r0+nbg*km.blockRows, km.n), km.n)
		}
	}
	for j := 0; j < m; j++ {
		for k := 0; k < j; k++ {
			g[j*m+k] = g[k*m+j]
		}
	}
	return mat.NewSymDense(m, g), kty, nil
}

// evalGroup evaluates the nbg blocks of rows from block b0 into the
// panels kt[i] (width MR) and kr[i] (width NR64), and, when y is not nil,
// sets ky[i] to Kbᵀ yb: in parallel over the blocks, or over the rows of
// a lone block.
func (km *Matrix) evalGroup(b0, nbg int, kt, kr []*gemm.Panels[float64], ky []*mat.Dense, y *mat.Dense) {
	if nbg > 1 || parallel.Workers() == 1 {
		parallel.For(nbg, 1, func(lo, hi int) {
			ws := km.space()
			defer km.spaces.Put(ws)
			for i := lo; i < hi; i++ {
				r0 := (b0 + i) * km.blockRows
				km.packRowsOfK(ws, r0, 0, kt[i].K, kt[i], kr[i])
				km.blockTY(ws, ky[i], kt[i], y, r0)
			}
		})
		return
	}
	r0 := b0 * km.blockRows
	parallel.For(kt[0].K, 2*gemm.MR, func(lo, hi int) {
		ws := km.space()
		km.packRowsOfK(ws, r0, lo, hi, kt[0], kr[0])
		km.spaces.Put(ws)
	})
	ws := km.space()
	km.blockTY(ws, ky[0], kt[0], y, r0)
	km.spaces.Put(ws)
}

// packRowsOfK evaluates rows r0+lo … r0+hi−1 of K, normalSubRows at a time
// in ws.kb, and stores them as the depths [lo, hi) of at and ar.
func (km *Matrix) packRowsOfK(ws *workspace, r0, lo, hi int, at, ar *gemm.Panels[float64]) {
	m := km.m
	ws.kb = resize(ws.kb, min(normalSubRows, hi-lo)*m)
	for s0 := lo; s0 < hi; s0 += normalSubRows {
		s1 := min(s0+normalSubRows, hi)
		km.rowsTo(ws, ws.kb, m, r0+s0, r0+s1, 0)
		at.SetColumnRows(ws.kb, m, s0, s1)
		ar.SetColumnRows(ws.kb, m, s0, s1)
	}
}

// blockTY sets dst (M×c) to Kbᵀ yb for the block packed in kt (its depth
// the rows r0 … of y), or does nothing when y is nil.
func (km *Matrix) blockTY(ws *workspace, dst *mat.Dense, kt *gemm.Panels[float64], y *mat.Dense, r0 int) {
	if y == nil {
		return
	}
	_, c := y.Dims()
	dst.Zero()
	yraw := y.RawMatrix()
	km.addProduct(ws, dst, kt, yraw.Data[r0*yraw.Stride:], yraw.Stride, kt.K, c)
}
