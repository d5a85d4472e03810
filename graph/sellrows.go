package graph

import (
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// RowWindow is the row alignment of the SELL-4-σ copy's sorting windows
// (σ): the copy reorders rows only within windows [kσ, (k+1)σ), so a row range
// [lo, hi) with lo and hi multiples of RowWindow (or hi = Nodes()) is a run of
// whole windows, and the copy computes exactly those rows. Row-range products
// (ScaledMulBlockRowsTo, ScaledMulBlockRowsInto) of such ranges run from the
// copy; callers that split rows into tasks should use multiples of RowWindow.
const RowWindow = sellSigma

// SlicedRows reports whether a row-range product of rows [lo, hi) with a
// c-column block runs from the SELL-4-σ copy: on CPUs with AVX2, for graphs
// with at least 1024 stored entries whose copy is within SlicedLimit (or
// already built), 1 ≤ c ≤ 8 and the range aligned to RowWindow (lo a multiple of it, hi a multiple of it or Nodes()). Either
// way the results are bitwise the same; the copy's kernels are faster
// (BenchmarkSliced; BENCHMARKS.md, Sparse products), the CSR kernels need no
// copy.
func (g *CSR) SlicedRows(lo, hi, c int) bool {
	return c >= 1 && c <= maxSliced && g.useSliced() &&
		0 <= lo && lo <= hi && hi <= g.n && lo%sellSigma == 0 && (hi%sellSigma == 0 || hi == g.n)
}

// ScaledMulBlockRowsInto is ScaledMulBlockRowsTo writing row i of the
// product into row i − lo of dst, which is (hi−lo)×c: a caller fusing its
// own work with the product can keep the rows in a small scratch block that
// stays in cache. It runs on the calling goroutine, from the SELL-4-σ copy
// when SlicedRows(lo, hi, c) is true; it is safe for concurrent use with
// disjoint dst. dst and x must not overlap.
func (g *CSR) ScaledMulBlockRowsInto(dst, x *mat.Dense, s Scaling, lo, hi int) {
	if lo == hi && lo >= 0 && hi <= g.n {
		return // no rows (and no 0×c mat.Dense to check dst against)
	}
	g.checkRows(dst, x, s, lo, hi, hi-lo)
	xm, dm := x.RawMatrix(), dst.RawMatrix()
	g.blockRowsAt(dm.Data, dm.Stride, lo, xm.Data, xm.Stride, xm.Cols, s, lo, hi)
}

// RowBatch is the largest number of slots MulBlockRowsFunc passes at once.
const RowBatch = sellBlockBatch * sellC

// rowBatches pools the sums and row numbers of MulBlockRowsFunc.
var rowBatches = sync.Pool{New: func() any { return new(rowBatch) }}

type rowBatch struct {
	sums [RowBatch * 8]float64
	rows [RowBatch]int32
}

// MulBlockRowsFunc computes rows [lo, hi) of W·X for an n×c block X,
// 1 ≤ c ≤ 8, in batches of at most RowBatch slots, and calls fn(rows, sums)
// for each batch on the calling goroutine: slot t holds graph row rows[t]
// (a negative number marks an unused slot, to skip), and
// sums[8t + j] = (W·X)_{rows[t], j} for j < c. A solver can do its own work
// on each row while its sums are in L1, without writing the product out.
//
// When SlicedRows(lo, hi, c) holds the batches come from the SELL-4-σ copy,
// each window's rows in the copy's order (sorted by decreasing length);
// otherwise from the CSR kernels, consecutive rows in increasing order.
// Every row sum is bitwise that of ScaledMulBlockTo with Scaling{} either
// way. fn must not keep rows or sums. MulBlockRowsFunc panics if X has more
// than 8 columns or the range is not inside the graph.
func (g *CSR) MulBlockRowsFunc(x *mat.Dense, lo, hi int, fn func(rows []int32, sums []float64)) {
	xr, c := x.Dims()
	if xr != g.n || c < 1 || c > maxSliced {
		panic(fmt.Sprintf("graph: MulBlockRowsFunc: x is %d×%d, want %d rows and 1 to %d columns", xr, c, g.n, maxSliced))
	}
	if lo < 0 || hi > g.n || lo > hi {
		panic(fmt.Sprintf("graph: row range [%d, %d) is not inside [0, %d)", lo, hi, g.n))
	}
	xm := x.RawMatrix()
	b := rowBatches.Get().(*rowBatch)
	defer rowBatches.Put(b)
	if g.SlicedRows(lo, hi, c) {
		g.sliced().mulBlockFunc(xm.Data, xm.Stride, c, lo/sellC, (hi+sellC-1)/sellC, &b.sums, fn)
		return
	}
	for r := lo; r < hi; r += RowBatch {
		e := min(r+RowBatch, hi)
		blockKernels[c](g, b.sums[:], 8, r, xm.Data, xm.Stride, Scaling{}, r, e)
		for t := range e - r {
			b.rows[t] = int32(r + t)
		}
		fn(b.rows[:e-r:e-r], b.sums[:8*(e-r)])
	}
}
