package graph

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// ScaledMulBlockRowsSupportTo is ScaledMulBlockRowsTo for a block x whose
// nonzero rows are marked in support (bit j%64 of support[j/64] is set for
// every row j of x that holds a nonzero entry; the caller promises that the
// other rows are zero, +0 or −0). Each row's sum skips the terms of the
// unmarked rows and adds the others in column order, as the kernels do, and
// a sum that starts at +0 is not changed by adding a zero, so the results
// are bitwise those of ScaledMulBlockRowsTo. It reads each row's column
// indices and the bits, not the unmarked rows of x: while x has few nonzero
// rows (the first iterations of a solve from labels on a few nodes) a
// product costs one sequential pass over the indices instead of a random
// gather per stored entry. It runs on the calling goroutine; dst and x must
// not overlap.
func (g *CSR) ScaledMulBlockRowsSupportTo(dst, x *mat.Dense, s Scaling, support []uint64, lo, hi int) {
	g.checkRows(dst, x, s, lo, hi, g.n)
	if len(support) < (g.n+63)/64 {
		panic(fmt.Sprintf("graph: support has %d words, want %d for %d nodes", len(support), (g.n+63)/64, g.n))
	}
	xm, dm := x.RawMatrix(), dst.RawMatrix()
	c, xs, ds := xm.Cols, xm.Stride, dm.Stride
	var accs [16]float64
	acc := accs[:0]
	if c <= len(accs) {
		acc = accs[:c]
	} else {
		acc = make([]float64, c)
	}
	indptr, indices, weights := g.indptr, g.indices, g.weights
	for i := lo; i < hi; i++ {
		clear(acc)
		for k := indptr[i]; k < indptr[i+1]; k++ {
			col := indices[k]
			if support[col>>6]&(1<<(col&63)) == 0 {
				continue
			}
			xr := xm.Data[int(col)*xs : int(col)*xs+c]
			xr = xr[:len(acc)]
			switch {
			case s.Right == nil && g.unitWeights:
				for t, v := range xr {
					acc[t] += v
				}
			case s.Right == nil:
				w := weights[k]
				for t, v := range xr {
					acc[t] += float64(w * v)
				}
			case g.unitWeights:
				w := s.Right[col]
				for t, v := range xr {
					acc[t] += float64(w * v)
				}
			default:
				w := weights[k] * s.Right[col]
				for t, v := range xr {
					acc[t] += float64(w * v)
				}
			}
		}
		g.finishBlockRow(dm.Data[i*ds:i*ds+c], xm.Data[i*xs:i*xs+c], acc, s, i)
	}
}
