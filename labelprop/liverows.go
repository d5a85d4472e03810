package labelprop

import "math/bits"

// spreadLiveRows turns on the live rows of the spreading CG (the default);
// the tests turn it off to compare the passes over every row.
var spreadLiveRows = true

// Live rows. From x_0 = 0, R = B and P̃ = t∘R are zero outside B's rows,
// and while the products are near products (nearproduct.go) Q is zero
// outside the near rows: R, P̃ and Q stay zero outside the union of B's
// rows and the near rows so far, which cg.live marks. Until a product
// computes every row of Q (or a true residual, or an explicit projection,
// fills R), the residual, restart, update and step passes visit the live
// rows only: a row outside them would add zeros to the sums (leaving them
// unchanged), keep R, P̃ and Q zero and X as it is, so the iterates are
// bitwise those of passes over every row. From labels on a few nodes this
// makes the bookkeeping of the first iterations, like their products,
// cost in the seeds' neighbourhoods instead of n·c.

// initLive marks B's rows live, or every row (liveAll) when the solve has
// several panels or the live rows are off.
func (cg *spreadingCG) initLive() {
	if !spreadLiveRows || len(cg.panels) != 1 {
		cg.liveAll = true
		return
	}
	cg.live = make([]uint64, (cg.n+63)/64)
	for _, i := range cg.b.rows {
		cg.live[i>>6] |= 1 << (i & 63)
	}
}

// addLive marks the rows of marks (a bitmap of n rows) live.
func (cg *spreadingCG) addLive(marks []uint64) {
	if cg.liveAll {
		return
	}
	for k, w := range marks {
		cg.live[k] |= w
	}
}

// eachLive calls f on the live rows of [lo, hi), lo a multiple of 64, in
// increasing order.
func (cg *spreadingCG) eachLive(lo, hi int, f func(i int)) {
	for k := lo >> 6; k<<6 < hi; k++ {
		for w := cg.live[k]; w != 0; w &= w - 1 {
			i := k<<6 + bits.TrailingZeros64(w)
			if i >= hi {
				return
			}
			f(i)
		}
	}
}

// eachLiveRun calls f(a, b) on every maximal run [a, b) of consecutive
// live rows of [lo, hi), lo a multiple of 64, in increasing order: one call
// per run, so that a pass over the live rows runs its kernel on whole runs.
func (cg *spreadingCG) eachLiveRun(lo, hi int, f func(a, b int)) {
	a := -1 // the start of the open run, or −1
	for k := lo >> 6; k<<6 < hi; k++ {
		w, base, pos := cg.live[k], k<<6, 0
		for pos < 64 {
			if a < 0 {
				v := w >> pos
				if v == 0 {
					break
				}
				pos += bits.TrailingZeros64(v)
				if base+pos >= hi {
					return
				}
				a = base + pos
			}
			// the ones from pos: ^(w >> pos) has ones where w >> pos shifted in zeros
			if pos += bits.TrailingZeros64(^(w >> pos)); pos < 64 {
				f(a, min(base+pos, hi))
				a = -1
			}
		}
	}
	if a >= 0 {
		f(a, hi)
	}
}

// residualLive is residualRows of an X that is zero (R = B) on the live
// rows of [lo, hi) (row chunk ch), R being zero on the others.
func (cg *spreadingCG) residualLive(acc []float64, ch, lo, hi int) {
	c, b := cg.c, cg.b
	p := cg.bChunk[ch]
	cg.eachLive(lo, hi, func(i int) {
		r := cg.r[i*c : i*c+c]
		clear(r)
		for ; p < len(b.rows) && b.rows[p] < i; p++ {
		}
		if p < len(b.rows) && b.rows[p] == i {
			copy(r, b.vals[p*c:p*c+c])
		}
		for j, v := range r {
			acc[j] += v * v
		}
		if cg.defl != nil {
			ei := cg.deg[i] * cg.t[i]
			for j, v := range r {
				acc[c+j] += ei * v
			}
		}
	})
}
