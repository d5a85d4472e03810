package labelprop

import "math/bits"

// pushProduct is product while p̃ has few nonzero rows (cg.supp) holding
// at most 1/spreadPushShare of W's stored entries, computed from them
// outwards: W p̃ = Σ_j W_{·j} p̃_j over those rows j only. A pull
// over the rows (graph.CSR.ScaledMulBlockRowsSupportTo) reads every stored
// entry of W to test its column against the support; here the
// rows of q are cleared, each support row j adds W_ij·p̃_j to row i of q
// for its neighbours i (a pass over the support's rows of W, one goroutine:
// the rows it adds into are scattered), and a last pass scales every row
// and sums pᵀq. The cost is the support's stored entries instead of all of
// them: the first products of a solve from a few seeds.
//
// Bitwise the support product: W is symmetric (W_ij = W_ji, read from row
// j here and row i there), the columns of a row ascend, and the support
// rows are visited in increasing order, so row i's sum adds the same terms
// in the same order from the same +0 (the skipped terms are zeros); the
// scaling is graph.CSR.ScaledMulBlockRowsTo's, float64(d·p) + float64(l·s).
func (cg *spreadingCG) pushProduct(sums bool) {
	c, q := cg.c, cg.q
	cg.supportProducts++
	cg.pushProducts++
	cg.Run(nil, func(_, lo, hi int, _ []float64) { clear(q[lo*c : hi*c]) })
	cg.scatterSupport()
	d := cg.deflationDegrees()
	var dst []float64
	if sums {
		dst = cg.sums
	}
	cg.Run(dst, func(_, lo, hi int, acc []float64) {
		cg.finishRows(lo, hi)
		if sums {
			addPQ(acc[:c], acc[c:], cg.u, d, cg.p[lo*c:hi*c], q[lo*c:hi*c], c, lo, hi)
		}
	})
}

// scatterSupport adds W_ij·p̃_j into row i of q for every support row j
// (cg.supp) and its neighbours i, the rows j in increasing order, on the
// calling goroutine: q's rows then hold the sums of W p̃ where they held +0.
func (cg *spreadingCG) scatterSupport() {
	c, q := cg.c, cg.q
	unit := cg.g.UnitWeights()
	for k, w := range cg.supp {
		for ; w != 0; w &= w - 1 {
			j := k<<6 + bits.TrailingZeros64(w)
			pj := cg.p[j*c : j*c+c]
			cols, ws := cg.g.Row(j)
			for e, i := range cols {
				qi := q[int(i)*c : int(i)*c+c]
				if unit {
					for t, v := range pj {
						qi[t] += v
					}
					continue
				}
				we := ws[e]
				for t, v := range pj {
					qi[t] += float64(we * v)
				}
			}
		}
	}
}

// finishRows turns rows [lo, hi) of q, holding the sums s of W p̃, into
// those of (I − aS)p: float64(d·p̃) + float64(l·s) with cg.op's Diag and
// Left, as graph.CSR.ScaledMulBlockRowsTo scales its sums.
func (cg *spreadingCG) finishRows(lo, hi int) {
	c, u, left := cg.c, cg.op.Diag, cg.op.Left
	for i := lo; i < hi; i++ {
		di, li := u[i], left[i]
		pi, qi := cg.p[i*c:i*c+c], cg.q[i*c:i*c+c]
		for t, v := range pi {
			qi[t] = float64(di*v) + float64(li*qi[t])
		}
	}
}

// supportProduct is product reading only p̃'s nonzero rows (cg.supp), by
// rows: graph.CSR.ScaledMulBlockRowsSupportTo, in parallel, tests every
// stored entry's column against the support.
func (cg *spreadingCG) supportProduct(sums bool) {
	u, c, d := cg.u, cg.c, cg.deflationDegrees()
	cg.supportProducts++
	var dst []float64
	if sums {
		dst = cg.sums
	}
	cg.Run(dst, func(_, lo, hi int, acc []float64) {
		cg.g.ScaledMulBlockRowsSupportTo(cg.qv[0], cg.pv[0], cg.op, cg.supp, lo, hi)
		if sums {
			addPQ(acc[:c], acc[c:], u, d, cg.p[lo*c:hi*c], cg.q[lo*c:hi*c], c, lo, hi)
		}
	})
}
