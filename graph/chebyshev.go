package graph

import (
	"fmt"

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
// A's diagonal minus σ. dst must not overlap x or prev. It panics on
// mismatched dimensions, like ScaledMulBlockTo.
func (g *CSR) ChebyshevStepTo(dst, x, prev *mat.Dense, s Scaling, alpha float64) {
	g.checkScaling(s)
	xr, xc := x.Dims()
	dr, dc := dst.Dims()
	if xr != g.n || dr != g.n || dc != xc {
		panic(fmt.Sprintf("graph: block dimension mismatch: graph has %d nodes, x is %d×%d, dst is %d×%d", g.n, xr, xc, dr, dc))
	}
	var pm []float64
	ps := 0
	if prev != nil {
		if pr, pc := prev.Dims(); pr != g.n || pc != xc {
			panic(fmt.Sprintf("graph: block dimension mismatch: graph has %d nodes, x is %d×%d, prev is %d×%d", g.n, xr, xc, pr, pc))
		}
		raw := prev.RawMatrix()
		pm, ps = raw.Data, raw.Stride
	}
	xm, dm := x.RawMatrix(), dst.RawMatrix()
	// finish scales the rows [r0, r1) of the product just computed (still in
	// cache) and subtracts prev.
	finish := func(r0, r1 int) {
		if xc == 4 && pm != nil {
			// the eigensolver's block width, without bounds checks
			for i := r0; i < r1; i++ {
				d := dm.Data[i*dm.Stride : i*dm.Stride+4 : i*dm.Stride+4]
				p := pm[i*ps : i*ps+4 : i*ps+4]
				d[0] = alpha*d[0] - p[0]
				d[1] = alpha*d[1] - p[1]
				d[2] = alpha*d[2] - p[2]
				d[3] = alpha*d[3] - p[3]
			}
			return
		}
		for i := r0; i < r1; i++ {
			drow := dm.Data[i*dm.Stride : i*dm.Stride+xc]
			if pm == nil {
				for t := range drow {
					drow[t] *= alpha
				}
				continue
			}
			prow := pm[i*ps : i*ps+xc]
			for t := range drow {
				drow[t] = alpha*drow[t] - prow[t]
			}
		}
	}
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
			for w := lo; w < hi; w++ {
				sl.mulBlock(dm.Data, dm.Stride, xm.Data, xm.Stride, xc, s, w*perWindow, min((w+1)*perWindow, chunks))
				finish(w*sellSigma, min((w+1)*sellSigma, g.n))
			}
		})
		return
	}
	parallel.Balanced(g.indptr, minParallelWork/2, func(lo, hi int) {
		for r0 := lo; r0 < hi; r0 += stepRows {
			r1 := min(hi, r0+stepRows)
			g.scaledBlockRows(dm.Data, dm.Stride, xm.Data, xm.Stride, xc, s, r0, r1)
			finish(r0, r1)
		}
	})
}
