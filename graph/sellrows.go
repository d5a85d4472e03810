package graph

import "gonum.org/v1/gonum/mat"

// RowWindow is the row alignment of the SELL-4-σ copy's sorting windows
// (σ): the copy reorders rows only within windows [kσ, (k+1)σ), so a row range
// [lo, hi) with lo and hi multiples of RowWindow (or hi = Nodes()) is a run of
// whole windows, and the copy computes exactly those rows. Row-range products
// (ScaledMulBlockRowsTo, ScaledMulBlockRowsInto) of such ranges run from the
// copy; callers that split rows into tasks should use multiples of RowWindow.
const RowWindow = sellSigma

// SlicedRows reports whether a row-range product of rows [lo, hi) with a
// c-column block runs from the SELL-4-σ copy: on CPUs with AVX2, for graphs
// with at least 1024 stored entries, 1 ≤ c ≤ 8 and the range aligned to
// RowWindow (lo a multiple of it, hi a multiple of it or Nodes()). Either
// way the results are bitwise the same; the copy's kernels are 1.7–3× faster
// (BENCHMARKS.md, foundation), the CSR kernels need no copy.
func (g *CSR) SlicedRows(lo, hi, c int) bool {
	return hasSellAVX2 && c >= 1 && c <= maxUnrolled && len(g.indices) >= minSlicedWork &&
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
