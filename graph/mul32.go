package graph

import "fmt"

// mul32Group is the number of columns of a float32 block wider than
// maxUnrolled summed per sweep of a row: their float64 accumulators stay in
// L1. Blocks of up to maxUnrolled columns have kernels of their own
// (block32Kernels), whose accumulators live in registers.
const mul32Group = 16

// MulBlock32RowsInto sets dst[(i−lo)·c + j] = (W·X)_{ij} for the rows
// [lo, hi) of the graph and an n×c block X of float32 stored row-major in x
// (x[k·c + j] = X_kj), on the calling goroutine. Each product W_ik·X_kj is
// formed in float64 and added into a float64 accumulator per (row, column)
// in the row's column order, so every sum is bitwise that of ScaledMulBlockTo
// (Scaling{}) on the block converted to float64: a float32 block halves the
// memory of the block and of its gathers, and the product loses nothing more
// than the rounding of X itself. It is safe for concurrent use with disjoint
// dst.
//
// dst must have at least (hi−lo)·c entries and x exactly Nodes()·c.
// MulBlock32RowsInto panics otherwise, or if the range is not inside the
// graph.
func (g *CSR) MulBlock32RowsInto(dst []float64, x []float32, c, lo, hi int) {
	if c < 1 || len(x) != g.n*c {
		panic(fmt.Sprintf("graph: MulBlock32RowsInto: x has %d entries, want %d nodes × %d columns", len(x), g.n, c))
	}
	g.MulBlock32StridedRowsInto(dst, x, c, c, lo, hi)
}

// MulBlock32StridedRowsInto is MulBlock32RowsInto for a block whose rows are
// xs ≥ c entries apart (x[k·xs + j] = X_kj, exactly Nodes()·xs entries): a
// block of 12 float32 columns padded to 16 has one 64-byte row per cache
// line, so each stored entry gathers one line instead of 1.5 on average.
// The sums are bitwise those of MulBlock32RowsInto on the unpadded block.
func (g *CSR) MulBlock32StridedRowsInto(dst []float64, x []float32, xs, c, lo, hi int) {
	if c < 1 || xs < c || len(x) != g.n*xs {
		panic(fmt.Sprintf("graph: MulBlock32StridedRowsInto: x has %d entries, want %d nodes × stride %d ≥ %d columns", len(x), g.n, xs, c))
	}
	if lo < 0 || hi > g.n || lo > hi {
		panic(fmt.Sprintf("graph: row range [%d, %d) is not inside [0, %d)", lo, hi, g.n))
	}
	if len(dst) < (hi-lo)*c {
		panic(fmt.Sprintf("graph: MulBlock32RowsInto: dst has %d entries, want (%d−%d)·%d", len(dst), hi, lo, c))
	}
	if g.mulBlock32AVX2(dst, x, xs, c, lo, hi) {
		return
	}
	if c <= maxUnrolled {
		block32Kernels[c](g, dst, x, xs, lo, hi)
		return
	}
	indptr, indices, weights := g.indptr, g.indices, g.weights
	var acc [mul32Group]float64
	for j0 := 0; j0 < c; j0 += mul32Group {
		w := min(mul32Group, c-j0)
		a := acc[:w:w]
		for i := lo; i < hi; i++ {
			clear(a)
			row := indices[indptr[i]:indptr[i+1]]
			if g.unitWeights {
				for _, col := range row {
					o := int(col)*xs + j0
					xr := x[o : o+w : o+w]
					for t, v := range xr {
						a[t] += float64(v)
					}
				}
			} else {
				ws := weights[indptr[i]:indptr[i+1]]
				ws = ws[:len(row)]
				for k, col := range row {
					o := int(col)*xs + j0
					xr := x[o : o+w : o+w]
					wk := ws[k]
					for t, v := range xr {
						a[t] += float64(wk * float64(v))
					}
				}
			}
			copy(dst[(i-lo)*c+j0:(i-lo)*c+j0+w], a)
		}
	}
}
