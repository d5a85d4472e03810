package labelprop

import "math/bits"

// spreadNearShare is the inverse of the largest share of rows near p̃'s
// support (the support and its neighbours) for which the product computes
// those rows only (nearProduct): up to n/8 of them. 0 turns it off
// (tests).
var spreadNearShare = 8

// fewNear marks in cg.near the rows of p̃'s support (cg.supp, known) and
// their neighbours, and reports whether they are at most
// n/spreadNearShare. It stops marking once they are more.
func (cg *spreadingCG) fewNear() bool {
	if spreadNearShare <= 0 || cg.suppRows*spreadNearShare > cg.n {
		return false
	}
	clear(cg.near)
	limit, count := cg.n/spreadNearShare, 0
	mark := func(i int32) {
		if w, b := cg.near[i>>6], uint64(1)<<(i&63); w&b == 0 {
			cg.near[i>>6] = w | b
			count++
		}
	}
	for k, w := range cg.supp {
		for ; w != 0; w &= w - 1 {
			j := k<<6 + bits.TrailingZeros64(w)
			mark(int32(j))
			cols, _ := cg.g.Row(j)
			for _, i := range cols {
				mark(i)
			}
			if count > limit {
				return false
			}
		}
	}
	return true
}

// nearProduct is product computing only the rows of q marked in cg.near
// (by fewNear; the others are zero): the rows of q an earlier product left
// nonzero and the near rows are cleared, the support's rows pushed into
// their neighbours' (scatterSupport), and the near rows scaled
// (finishRows), each as pushProduct computes it; the sums read the rows
// of p̃'s support only (the others add zeros, which leave a sum
// unchanged): bitwise the full product, at a cost in the support's stored
// entries and the near rows instead of the graph and the blocks.
func (cg *spreadingCG) nearProduct(sums bool) {
	u, c, d := cg.u, cg.c, cg.deflationDegrees()
	cg.nearProducts++
	cg.Run(nil, func(_, lo, hi int, _ []float64) {
		for k := lo >> 6; k<<6 < hi; k++ { // lo is a multiple of 64
			stale := cg.qNear[k]
			if cg.qAll {
				stale = ^uint64(0)
			}
			for w := stale | cg.near[k]; w != 0; w &= w - 1 {
				i := k<<6 + bits.TrailingZeros64(w)
				if i >= hi {
					break
				}
				clear(cg.q[i*c : i*c+c])
			}
		}
	})
	cg.scatterSupport()
	var dst []float64
	if sums {
		dst = cg.sums
	}
	cg.Run(dst, func(_, lo, hi int, acc []float64) {
		for k := lo >> 6; k<<6 < hi; k++ {
			for w := cg.near[k]; w != 0; w &= w - 1 {
				b := bits.TrailingZeros64(w)
				i := k<<6 + b
				if i >= hi {
					break
				}
				cg.finishRows(i, i+1)
				if sums && cg.supp[k]&(1<<b) != 0 {
					addPQ(acc[:c], acc[c:], u, d, cg.p[i*c:i*c+c], cg.q[i*c:i*c+c], c, i, i+1)
				}
			}
		}
	})
	copy(cg.qNear, cg.near)
	cg.qAll = false
	cg.addLive(cg.near)
}
