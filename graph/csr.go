package graph

//go:generate go run gen_blocks.go

import (
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// CSR is an undirected weighted graph stored as a symmetric sparse matrix in
// compressed sparse row form. The zero value is an empty graph with no nodes.
type CSR struct {
	n         int
	indptr    []int     // len n+1: row i is indices[indptr[i]:indptr[i+1]]
	indices   []int32   // column of each stored entry, ascending within a row
	weights   []float64 // weight of each stored entry; nil for unit weights
	degree    []float64 // row sums of W
	selfLoops int       // number of stored diagonal entries
	// unitWeights is true when every stored weight is exactly 1 (set by
	// finish): the graph then stores no weights (weights is nil), and
	// products read the pattern only.
	unitWeights bool
	// sell is the SELL-C-σ copy the vector products use, built on first
	// use (sell.go).
	sell atomic.Pointer[sliced]
	// sellMu makes concurrent first products build one copy, not one each
	// (a second copy of a large graph would double the peak).
	sellMu sync.Mutex
	// rx pools the buffers r∘x of the scaled products of a unit-weight
	// graph (*[]float64: vectors and n×c blocks).
	rx sync.Pool
}

// Nodes returns the number of nodes n.
func (g *CSR) Nodes() int { return g.n }

// Dim returns the number of nodes; with MulVecTo it makes W a linop.Operator.
func (g *CSR) Dim() int { return g.n }

// IsSymmetric returns true: W is symmetric by construction.
func (g *CSR) IsSymmetric() bool { return true }

// NNZ returns the number of stored entries: twice the number of edges between
// distinct nodes plus the number of self loops.
func (g *CSR) NNZ() int { return len(g.indices) }

// Edges returns the number of undirected edges, a self loop counting as one.
func (g *CSR) Edges() int { return (len(g.indices)-g.selfLoops)/2 + g.selfLoops }

// SelfLoops returns the number of nodes with a stored diagonal entry.
func (g *CSR) SelfLoops() int { return g.selfLoops }

// UnitWeights reports whether every stored weight is exactly 1 (an
// unweighted graph). Products with such a graph read only its pattern.
func (g *CSR) UnitWeights() bool { return g.unitWeights }

// Degree returns d_i = Σ_j W_ij.
func (g *CSR) Degree(i int) float64 { return g.degree[i] }

// Degrees returns a new slice holding every node's degree.
func (g *CSR) Degrees() []float64 { return append([]float64(nil), g.degree...) }

// Row returns the neighbours of node i in ascending order and their weights.
// The slices are views into the graph and must not be modified; for a graph
// with unit weights the weights are a view of one read-only slice of ones
// that all graphs share.
func (g *CSR) Row(i int) (cols []int32, weights []float64) {
	lo, hi := g.indptr[i], g.indptr[i+1]
	if g.weights == nil {
		return g.indices[lo:hi:hi], ones(hi - lo)
	}
	return g.indices[lo:hi:hi], g.weights[lo:hi:hi]
}

// sharedOnes is the slice of ones behind the rows of graphs with unit
// weights; it is replaced by a longer one when a longer row asks for it and
// is never written after it is published.
var sharedOnes atomic.Pointer[[]float64]

// ones returns a read-only slice of m ones.
func ones(m int) []float64 {
	if p := sharedOnes.Load(); p != nil && len(*p) >= m {
		return (*p)[:m:m]
	}
	for {
		p := sharedOnes.Load()
		size := m
		if p != nil {
			size = max(m, 2*len(*p))
		}
		v := make([]float64, size)
		for k := range v {
			v[k] = 1
		}
		if sharedOnes.CompareAndSwap(p, &v) {
			return v[:m:m]
		}
		if p := sharedOnes.Load(); len(*p) >= m {
			return (*p)[:m:m]
		}
	}
}

// dropUnitWeights forgets the weights of a graph whose weights are all 1:
// such a graph stores none (see Row).
func (g *CSR) dropUnitWeights() {
	if g.unitWeights {
		g.weights = nil
	}
}

// weight returns the weight of stored entry p.
func (g *CSR) weight(p int) float64 {
	if g.weights == nil {
		return 1
	}
	return g.weights[p]
}

// RowLen returns the number of stored entries of row i.
func (g *CSR) RowLen(i int) int { return g.indptr[i+1] - g.indptr[i] }

// Weight returns W_ij, zero when there is no edge (binary search in row i).
func (g *CSR) Weight(i, j int) float64 {
	cols, w := g.Row(i)
	k := sort.Search(len(cols), func(k int) bool { return int(cols[k]) >= j })
	if k < len(cols) && int(cols[k]) == j {
		return w[k]
	}
	return 0
}

// HasEdge reports whether W_ij is stored.
func (g *CSR) HasEdge(i, j int) bool {
	cols, _ := g.Row(i)
	k := sort.Search(len(cols), func(k int) bool { return int(cols[k]) >= j })
	return k < len(cols) && int(cols[k]) == j
}

// Isolated returns the nodes of degree zero, ascending.
func (g *CSR) Isolated() []int {
	var out []int
	for i, d := range g.degree {
		if d == 0 {
			out = append(out, i)
		}
	}
	return out
}

// ForEachEdge calls fn once per undirected edge {u, v} with u ≤ v, in row
// order.
func (g *CSR) ForEachEdge(fn func(u, v int, w float64)) {
	for u := 0; u < g.n; u++ {
		cols, ws := g.Row(u)
		for k, c := range cols {
			if int(c) >= u {
				fn(u, int(c), ws[k])
			}
		}
	}
}

// Bytes returns the memory held by the graph's arrays: 8 bytes per row
// pointer and per degree, 4 per stored entry and 8 more per entry for a
// weighted graph (a graph with unit weights stores no weights; its rows share
// one slice of ones with every other graph's). It does not count the SELL-C-σ copy
// that vector and block products build on AVX2 CPUs (see ScaledMulVecTo and
// SlicedBytes).
func (g *CSR) Bytes() int {
	return 8*cap(g.indptr) + 4*cap(g.indices) + 8*cap(g.weights) + 8*cap(g.degree)
}

// Dense returns W as a dense n×n matrix: the explicit O(n²) path, for tests
// and small graphs.
func (g *CSR) Dense() *mat.Dense {
	if g.n == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(g.n, g.n, nil)
	for i := 0; i < g.n; i++ {
		cols, ws := g.Row(i)
		for k, c := range cols {
			d.Set(i, int(c), ws[k])
		}
	}
	return d
}

// minParallelWork is the number of stored entries below which a product runs
// on one goroutine: scheduling costs more than it saves on smaller graphs.
const minParallelWork = 1 << 15

// minSlicedParallelWork is the number of stored entries per goroutine below
// which a SELL vector product runs on one goroutine (graphs under 2^15
// entries): from there two of internal/parallel's standing workers beat one
// on PubMed (BenchmarkSliced; BENCHMARKS.md, Sparse products).
const minSlicedParallelWork = 1 << 14

// minSlicedWork is the number of stored entries from which vector products
// use the SELL-C-σ copy: below it building the copy costs more than it saves.
const minSlicedWork = 1 << 10

// MulVecTo sets dst = W·x. It panics if len(dst) or len(x) is not Nodes().
func (g *CSR) MulVecTo(dst, x []float64) {
	g.ScaledMulVecTo(dst, x, Scaling{})
}

// Scaling describes the diagonal factors of ScaledMulVecTo. A nil slice means
// the identity for Left and Right and zero for Diag; non-nil slices have
// length Nodes().
type Scaling struct {
	Diag  []float64 // c
	Left  []float64 // l
	Right []float64 // r
}

// ScaledMulVecTo sets dst = diag(s.Diag)·x + diag(s.Left)·W·diag(s.Right)·x in one
// pass over the graph, in parallel over rows. dst and x must not overlap.
//
// On CPUs with AVX2, graphs of at least minSlicedWork stored entries are
// multiplied from a SELL-4-σ copy (sell.go), built on the first vector
// product and kept: it holds 4 more bytes per stored entry (12 for a
// weighted graph), plus padding (3 % on PubMed) and 8 bytes per node. Each
// row is still summed in column order into one accumulator, so the result is
// bitwise the CSR kernel's.
func (g *CSR) ScaledMulVecTo(dst, x []float64, s Scaling) {
	g.checkScaling(s)
	if len(dst) != g.n || len(x) != g.n {
		panic(fmt.Sprintf("graph: dimension mismatch: graph has %d nodes, dst has length %d, x has length %d", g.n, len(dst), len(x)))
	}
	if s.Right != nil && g.unitWeights {
		// One gather of r∘x instead of two (r and x) per entry.
		p := g.scratch(g.n)
		defer g.rx.Put(p)
		rx := (*p)[:g.n]
		parallel.For(g.n, minSlicedParallelWork, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				rx[i] = s.Right[i] * x[i]
			}
		})
		g.mulVecRX(dst, x, rx, s)
		return
	}
	if g.useSliced() {
		sl := g.sliced()
		parallel.Balanced(sl.off, minSlicedParallelWork, func(lo, hi int) {
			sl.mulVec(dst, x, s, lo, hi)
		})
		return
	}
	parallel.Balanced(g.indptr, minParallelWork, func(lo, hi int) {
		g.scaledRows(dst, x, s, lo, hi)
	})
}

// mulVecRX is ScaledMulVecTo on a unit-weight graph given rx = Right∘x.
func (g *CSR) mulVecRX(dst, x, rx []float64, s Scaling) {
	if g.useSliced() {
		sl := g.sliced()
		parallel.Balanced(sl.off, minSlicedParallelWork, func(lo, hi int) {
			sl.mulVecRX(dst, x, rx, s, lo, hi)
		})
		return
	}
	// scaledRows on rx with Left only, then the diagonal term as it adds it:
	// (Left_i·sum) + Diag_i·x_i.
	parallel.Balanced(g.indptr, minParallelWork, func(lo, hi int) {
		g.scaledRows(dst, rx, Scaling{Left: s.Left}, lo, hi)
		if s.Diag != nil {
			for i := lo; i < hi; i++ {
				dst[i] += float64(s.Diag[i] * x[i])
			}
		}
	})
}

// scratch returns a buffer of at least n entries from the pool of r∘x
// buffers (vectors of ScaledMulVecTo, blocks of ScaledMulBlockTo).
func (g *CSR) scratch(n int) *[]float64 {
	if p, ok := g.rx.Get().(*[]float64); ok && cap(*p) >= n {
		return p
	}
	v := make([]float64, n)
	return &v
}

func (g *CSR) checkScaling(s Scaling) {
	for _, v := range [][]float64{s.Diag, s.Left, s.Right} {
		if v != nil && len(v) != g.n {
			panic(fmt.Sprintf("graph: scaling vector has length %d, graph has %d nodes", len(v), g.n))
		}
	}
}

func (g *CSR) scaledRows(dst, x []float64, s Scaling, lo, hi int) {
	indptr, indices, weights := g.indptr, g.indices, g.weights
	a, last := indptr[lo], indptr[hi]-1
	var sink uint64
	// Plain indexed loops: on graphs with a handful of neighbours per row they
	// measured faster than sub-sliced or unrolled ones (rows are too short for
	// unrolling to pay for its set-up). The float64 conversions round every
	// product, so that no build (GOAMD64=v3) fuses it into the add: the
	// products are the same on every amd64 level and bitwise those of the
	// SELL kernels (sell.go). Each entry first loads x of the entry
	// prefetchAhead on, as the block kernels do.
	for i := lo; i < hi; i++ {
		b := indptr[i+1]
		var sum float64
		if r := s.Right; r == nil && g.unitWeights {
			for k := a; k < b; k++ {
				sink ^= math.Float64bits(x[indices[min(k+prefetchAhead, last)]])
				sum += x[indices[k]]
			}
		} else if r == nil {
			for k := a; k < b; k++ {
				sink ^= math.Float64bits(x[indices[min(k+prefetchAhead, last)]])
				sum += float64(weights[k] * x[indices[k]])
			}
		} else if g.unitWeights {
			// (1·r_c)·x_c is r_c·x_c exactly.
			for k := a; k < b; k++ {
				sink ^= math.Float64bits(x[indices[min(k+prefetchAhead, last)]])
				c := indices[k]
				sum += float64(r[c] * x[c])
			}
		} else {
			for k := a; k < b; k++ {
				sink ^= math.Float64bits(x[indices[min(k+prefetchAhead, last)]])
				c := indices[k]
				sum += float64(weights[k] * r[c] * x[c])
			}
		}
		a = b
		if s.Left != nil {
			sum = float64(sum * s.Left[i])
		}
		if s.Diag != nil {
			sum += float64(s.Diag[i] * x[i])
		}
		dst[i] = sum
	}
	keep(sink)
}

// MulBlockTo sets dst = W·x for n×c dense blocks.
func (g *CSR) MulBlockTo(dst, x *mat.Dense) {
	g.ScaledMulBlockTo(dst, x, Scaling{})
}

// ScaledMulBlockTo is ScaledMulVecTo applied to every column of x at once,
// reading the graph once. dst and x are n×c and must not overlap. The row
// kernels keep the row's accumulators in registers: generated Go kernels of
// up to maxUnrolled columns (blocks_gen.go), and on CPUs with AVX2 assembly
// kernels of any width (blockRowsWide), and four rows at a time from the
// SELL-4-σ copy of ScaledMulVecTo for blocks of up to 8 columns
// (sell_block_amd64.go); all bitwise the same results.
//
// With Right scaling on a unit-weight graph it first scales the rows of x by
// Right into a scratch n×c block (pooled between calls) and gathers from
// it: one random read per stored entry instead of two (Right_j and row j of
// x), which is most of a product's time once neither fits in cache (10 M
// nodes: BENCHMARKS.md, The graph stack at scale). Blocks wider than
// maxUnrolled columns on CPUs with AVX2 skip the copy (see prescales). The
// results are bitwise those of the direct product.
func (g *CSR) ScaledMulBlockTo(dst, x *mat.Dense, s Scaling) {
	g.checkScaling(s)
	xr, xc := x.Dims()
	dr, dc := dst.Dims()
	if xr != g.n || dr != g.n || dc != xc {
		panic(fmt.Sprintf("graph: block dimension mismatch: graph has %d nodes, x is %d×%d, dst is %d×%d", g.n, xr, xc, dr, dc))
	}
	if s.Right != nil && g.unitWeights && g.n > 0 && prescales(xc) {
		g.prescaledMulBlockTo(dst, x, s)
		return
	}
	g.directMulBlockTo(dst, x, s)
}

// prescales reports whether ScaledMulBlockTo scales a block of c columns
// by Right beforehand on a unit-weight graph. Not for c > maxUnrolled on
// CPUs with AVX2: the kernel of those widths (blockRowsWide) reads Right_j
// once per stored entry next to the row's c·8 bytes of x, where the copy
// writes and reads n·c values more and adds a pass for Diag
// (BenchmarkBlockWide, Amazon Photo's size: 0.70 of the time at c = 96 and
// 40, 0.79 at c = 24).
func prescales(c int) bool { return !hasSellAVX2 || c <= maxUnrolled }

// prescaledMulBlockTo is ScaledMulBlockTo on a unit-weight graph with Right
// scaling: rx = Right∘x row by row, the product of rx with Left only, then
// the diagonal term as the kernels add it, Diag_i·x_i + (Left_i·sum).
func (g *CSR) prescaledMulBlockTo(dst, x *mat.Dense, s Scaling) {
	n, c := x.Dims()
	p := g.scratch(n * c)
	defer g.rx.Put(p)
	rx := (*p)[:n*c]
	xm := x.RawMatrix()
	parallel.For(n, prescaleRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			ri, xi, di := s.Right[i], xm.Data[i*xm.Stride:i*xm.Stride+c], rx[i*c:i*c+c]
			for k, v := range xi {
				di[k] = ri * v
			}
		}
	})
	g.directMulBlockTo(dst, mat.NewDense(n, c, rx), Scaling{Left: s.Left})
	if s.Diag == nil {
		return
	}
	dm := dst.RawMatrix()
	parallel.For(n, prescaleRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d, xi, drow := s.Diag[i], xm.Data[i*xm.Stride:i*xm.Stride+c], dm.Data[i*dm.Stride:i*dm.Stride+c]
			for k, v := range xi {
				drow[k] = float64(d*v) + drow[k]
			}
		}
	})
}

// prescaleRows is the least number of rows per task of prescaledMulBlockTo's
// element-wise passes.
const prescaleRows = 4096

// directMulBlockTo is ScaledMulBlockTo with every scaling applied inside the
// kernels.
func (g *CSR) directMulBlockTo(dst, x *mat.Dense, s Scaling) {
	xc := x.RawMatrix().Cols
	xm, dm := x.RawMatrix(), dst.RawMatrix()
	if xc <= maxSliced && g.useSliced() {
		sl := g.sliced()
		parallel.Balanced(sl.off, minParallelWork/2, func(lo, hi int) {
			sl.mulBlock(dm.Data, dm.Stride, xm.Data, xm.Stride, xc, s, lo, hi)
		})
		return
	}
	parallel.Balanced(g.indptr, minParallelWork/2, func(lo, hi int) {
		g.scaledBlockRows(dm.Data, dm.Stride, xm.Data, xm.Stride, xc, s, lo, hi)
	})
}

// ScaledMulBlockRowsTo computes rows [lo, hi) of ScaledMulBlockTo on the
// calling goroutine and leaves the other rows of dst untouched. It lets a
// solver run its own row-parallel passes and fuse work on the rows just
// computed (while they are in cache) with the product. dst and x must not
// overlap.
//
// Ranges aligned to RowWindow (lo and hi multiples of RowWindow, or hi =
// Nodes()) of blocks with at most 8 columns run from the SELL-4-σ copy on
// CPUs with AVX2 (see SlicedRows), other ranges from the CSR kernels; the
// results are bitwise the same either way.
func (g *CSR) ScaledMulBlockRowsTo(dst, x *mat.Dense, s Scaling, lo, hi int) {
	g.checkRows(dst, x, s, lo, hi, g.n)
	xm, dm := x.RawMatrix(), dst.RawMatrix()
	g.blockRowsAt(dm.Data, dm.Stride, 0, xm.Data, xm.Stride, xm.Cols, s, lo, hi)
}

// checkRows panics with a message if the row range [lo, hi) is not inside
// the graph, x is not n×c or dst is not rows×c for the same c.
func (g *CSR) checkRows(dst, x *mat.Dense, s Scaling, lo, hi, rows int) {
	g.checkScaling(s)
	xr, xc := x.Dims()
	dr, dc := dst.Dims()
	if xr != g.n || dr != rows || dc != xc {
		panic(fmt.Sprintf("graph: block dimension mismatch: graph has %d nodes, x is %d×%d, dst is %d×%d (want %d×%d)", g.n, xr, xc, dr, dc, rows, xc))
	}
	if lo < 0 || hi > g.n || lo > hi {
		panic(fmt.Sprintf("graph: row range [%d, %d) is not inside [0, %d)", lo, hi, g.n))
	}
}

// blockRowsAt computes rows [lo, hi) of the scaled block product into rows
// [lo−first, hi−first) of dst, from the SELL copy when SlicedRows allows it.
func (g *CSR) blockRowsAt(dst []float64, ds, first int, x []float64, xs, c int, s Scaling, lo, hi int) {
	if g.SlicedRows(lo, hi, c) {
		sl := g.sliced()
		sl.mulBlockAt(dst, ds, first, x, xs, c, s, lo/sellC, (hi+sellC-1)/sellC)
		return
	}
	g.scaledBlockRowsAt(dst, ds, first, x, xs, c, s, lo, hi)
}

func (g *CSR) scaledBlockRows(dst []float64, ds int, x []float64, xs int, c int, s Scaling, lo, hi int) {
	g.scaledBlockRowsAt(dst, ds, 0, x, xs, c, s, lo, hi)
}

// scaledBlockRowsAt is the CSR kernel of blockRowsAt: the AVX2 kernels of
// 8, 12 and 16 columns, the kernel of any width (blockRowsWide) for the
// others, and without AVX2 the generated Go kernels up to maxUnrolled
// columns and blockRowsLoop above; all bitwise the same.
func (g *CSR) scaledBlockRowsAt(dst []float64, ds, first int, x []float64, xs int, c int, s Scaling, lo, hi int) {
	if g.blockRowsAVX2(dst, ds, first, x, xs, c, s, lo, hi) {
		return
	}
	if g.blockRowsWide(dst, ds, first, x, xs, c, s, lo, hi) {
		return
	}
	if c <= maxUnrolled {
		blockKernels[c](g, dst, ds, first, x, xs, s, lo, hi)
		return
	}
	g.blockRowsLoop(dst, ds, first, x, xs, c, s, lo, hi)
}

// blockRowsLoop is scaledBlockRowsAt for any width, with the accumulators
// in a slice: the reference of blockRowsWide and its fallback.
func (g *CSR) blockRowsLoop(dst []float64, ds, first int, x []float64, xs int, c int, s Scaling, lo, hi int) {
	indptr, indices, weights := g.indptr, g.indices, g.weights
	acc := make([]float64, c)
	a := indptr[lo]
	for i := lo; i < hi; i++ {
		b := indptr[i+1]
		clear(acc)
		for k := a; k < b; k++ {
			col := indices[k]
			w := 1.0
			if !g.unitWeights {
				w = weights[k]
			}
			if s.Right != nil {
				w *= s.Right[col]
			}
			xr := x[int(col)*xs : int(col)*xs+c]
			xr = xr[:len(acc)]
			for t, v := range xr {
				acc[t] += float64(w * v)
			}
		}
		a = b
		o := (i - first) * ds
		g.finishBlockRow(dst[o:o+c], x[i*xs:i*xs+c], acc, s, i)
	}
}

// finishBlockRow writes dst = Diag_i·xi + Left_i·acc for one row.
func (g *CSR) finishBlockRow(drow, xi, acc []float64, s Scaling, i int) {
	l := 1.0
	if s.Left != nil {
		l = s.Left[i]
	}
	drow = drow[:len(acc)]
	if s.Diag != nil {
		d := s.Diag[i]
		xi = xi[:len(acc)]
		for t := range drow {
			drow[t] = float64(d*xi[t]) + float64(l*acc[t])
		}
		return
	}
	for t := range drow {
		drow[t] = l * acc[t]
	}
}
