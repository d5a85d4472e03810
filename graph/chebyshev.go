package graph

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// stepRows is the number of rows ChebyshevStepTo finishes at a time: the
// rows of dst it has just written are still in cache when it scales them
// and subtracts prev.
const stepRows = 256

// ChebyshevStepTo sets
//
//	dst = alpha·(diag(s.Diag)·x + diag(s.Left)·W·diag(s.Right)·x) − prev
//
// for n×c blocks (prev nil: no subtraction) in one pass over the graph and
// the blocks: the three-term step Y_{i+1} = 2α(A − σI)Y_i − Y_{i−1} of a
// Chebyshev polynomial filter of a graph operator A, with s.Diag holding
// A's diagonal minus σ. dst must not overlap x. It may be prev itself (the
// same elements, so that a recursion needs two blocks instead of three):
// the product's rows then go to a scratch block that stays in cache before
// they are combined with prev, and the result is bitwise that of a
// separate dst. Other overlaps of dst and prev are not allowed. It panics
// on mismatched dimensions, like ScaledMulBlockTo.
func (g *CSR) ChebyshevStepTo(dst, x, prev *mat.Dense, s Scaling, alpha float64) {
	g.checkScaling(s)
	xr, xc := x.Dims()
	dr, dc := dst.Dims()
	if xr != g.n || dr != g.n || dc != xc {
		panic(fmt.Sprintf("graph: block dimension mismatch: graph has %d nodes, x is %d×%d, dst is %d×%d", g.n, xr, xc, dr, dc))
	}
	st := chebyshevStep{alpha: alpha, c: xc, dst: dst.RawMatrix()}
	if prev != nil {
		if pr, pc := prev.Dims(); pr != g.n || pc != xc {
			panic(fmt.Sprintf("graph: block dimension mismatch: graph has %d nodes, x is %d×%d, prev is %d×%d", g.n, xr, xc, pr, pc))
		}
		raw := prev.RawMatrix()
		st.prev, st.ps = raw.Data, raw.Stride
		st.inPlace = len(raw.Data) > 0 && len(st.dst.Data) > 0 && &raw.Data[0] == &st.dst.Data[0]
	}
	xm := x.RawMatrix()
	if g.SlicedRows(0, g.n, xc) {
		// From the SELL-4-σ copy, one sorting window (σ rows, 256 chunks) at
		// a time: a window's chunks write exactly its rows, in an order of
		// their own, so the window is finished after its product.
		sl := g.sliced()
		const perWindow = sellSigma / sellC
		chunks := sl.chunks()
		windows := (chunks + perWindow - 1) / perWindow
		work := make([]int, windows+1)
		for w := range work {
			work[w] = sl.off[min(w*perWindow, chunks)]
		}
		parallel.Balanced(work, minParallelWork/2, func(lo, hi int) {
			out, outStride := st.scratch(sellSigma)
			for w := lo; w < hi; w++ {
				r0, r1 := w*sellSigma, min((w+1)*sellSigma, g.n)
				first := st.first(r0)
				sl.mulBlockAt(out, outStride, first, xm.Data, xm.Stride, xc, s, w*perWindow, min((w+1)*perWindow, chunks))
				st.finish(out, outStride, first, r0, r1)
			}
		})
		return
	}
	parallel.Balanced(g.indptr, minParallelWork/2, func(lo, hi int) {
		out, outStride := st.scratch(stepRows)
		for r0 := lo; r0 < hi; r0 += stepRows {
			r1 := min(hi, r0+stepRows)
			first := st.first(r0)
			g.scaledBlockRowsAt(out, outStride, first, xm.Data, xm.Stride, xc, s, r0, r1)
			st.finish(out, outStride, first, r0, r1)
		}
	})
}

// chebyshevStep combines the rows of a product with prev for
// ChebyshevStepTo: dst = alpha·product − prev, prev nil meaning none.
type chebyshevStep struct {
	alpha   float64
	c       int // columns
	dst     blas64.General
	prev    []float64 // nil for none
	ps      int       // row stride of prev
	inPlace bool      // dst is prev: the product goes to a scratch block first
}

// scratch returns where a task writes the product's rows, and its row
// stride: dst itself, or, when dst is prev, a scratch block of rows rows.
func (st *chebyshevStep) scratch(rows int) ([]float64, int) {
	if st.inPlace {
		return make([]float64, rows*st.c), st.c
	}
	return st.dst.Data, st.dst.Stride
}

// first returns the row whose product goes to the first row of the task's
// output when its rows start at r0.
func (st *chebyshevStep) first(r0 int) int {
	if st.inPlace {
		return r0
	}
	return 0
}

// finish sets rows [r0, r1) of dst to alpha times the product's rows, held
// in out (row i at row i−first, row stride stride; still in cache), minus prev.
func (st *chebyshevStep) finish(out []float64, stride, first, r0, r1 int) {
	alpha, c, pm, ps := st.alpha, st.c, st.prev, st.ps
	dm := st.dst
	if c == 4 && pm != nil {
		// the eigensolver's block width, without bounds checks
		for i := r0; i < r1; i++ {
			d := dm.Data[i*dm.Stride : i*dm.Stride+4 : i*dm.Stride+4]
			y := out[(i-first)*stride : (i-first)*stride+4 : (i-first)*stride+4]
			p := pm[i*ps : i*ps+4 : i*ps+4]
			d[0] = alpha*y[0] - p[0]
			d[1] = alpha*y[1] - p[1]
			d[2] = alpha*y[2] - p[2]
			d[3] = alpha*y[3] - p[3]
		}
		return
	}
	for i := r0; i < r1; i++ {
		drow := dm.Data[i*dm.Stride : i*dm.Stride+c]
		yrow := out[(i-first)*stride : (i-first)*stride+c]
		if pm == nil {
			for t := range drow {
				drow[t] = alpha * yrow[t]
			}
			continue
		}
		prow := pm[i*ps : i*ps+c]
		for t := range drow {
			drow[t] = alpha*yrow[t] - prow[t]
		}
	}
}
