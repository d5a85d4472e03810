package graph

import (
	"sync"
	"unsafe"
)

//go:generate go run gen_sell.go

//go:noescape
func sellBlock1AVX2(sums, x *float64, xbytes int, right, weights *float64, wstep int, indices, lens *int32, off *int, chunks int, masks *[8]int64)

//go:noescape
func sellBlock2AVX2(sums, x *float64, xbytes int, right, weights *float64, wstep int, indices, lens *int32, off *int, chunks int, masks *[8]int64)

//go:noescape
func sellBlockRight1AVX2(sums, x *float64, xbytes int, right, weights *float64, wstep int, indices, lens *int32, off *int, chunks int, masks *[8]int64)

//go:noescape
func sellBlockRight2AVX2(sums, x *float64, xbytes int, right, weights *float64, wstep int, indices, lens *int32, off *int, chunks int, masks *[8]int64)

// sellOnes are the weights of a unit-weight graph in the block kernels.
var sellOnes = [sellC]float64{1, 1, 1, 1}

// mulBlock computes the rows held by chunks [lo, hi) of ScaledMulBlockTo for
// a block of c ≤ 8 columns (row strides xs and ds), with the operations of
// the generated CSR block kernels, in the same order. It needs AVX2.
func (s *sliced) mulBlock(dst []float64, ds int, x []float64, xs, c int, sc Scaling, lo, hi int) {
	s.mulBlockAt(dst, ds, 0, x, xs, c, sc, lo, hi)
}

// mulBlockAt is mulBlock writing row i into row i−first of dst. Chunk
// ranges of whole windows (sellSigma rows, the rows a window's slots hold)
// are finished window by window in row order (mulWindows) when the copy's
// sorting windows nest in them.
func (s *sliced) mulBlockAt(dst []float64, ds, first int, x []float64, xs, c int, sc Scaling, lo, hi int) {
	const perWindow = sellSigma / sellC
	if s.sigma > 0 && sellSigma%s.sigma == 0 && lo%perWindow == 0 && (hi%perWindow == 0 || hi == s.chunks()) {
		s.mulWindows(dst, ds, first, x, xs, c, sc, lo, hi)
		return
	}
	masks := blockMasks(c)
	var sums [sellBlockBatch * sellC * 8]float64
	for k := lo; k < hi; k += sellBlockBatch {
		e := min(k+sellBlockBatch, hi)
		s.blockSums(&sums, x, xs, c, sc.Right, &masks, k, e)
		s.finishBlock(dst, ds, first, x, xs, c, sc, sums[:], s.rows[k*sellC:e*sellC])
	}
}

// windowSums holds a window's row sums for mulWindows (64 KiB, reused).
var windowSums = sync.Pool{New: func() any { return new([sellSigma * 8]float64) }}

// mulWindows is mulBlockAt for the chunks [lo, hi) of whole windows: the
// row sums of a window's chunks are computed first, batch by batch, and
// its rows then finished in increasing order, so that x's and dst's rows
// are read and written in sequence (in slot order they are at random
// within the window: on blocks larger than the caches each row was a miss).
// The same operations on the same sums: bitwise finishBlock's rows.
func (s *sliced) mulWindows(dst []float64, ds, first int, x []float64, xs, c int, sc Scaling, lo, hi int) {
	const perWindow = sellSigma / sellC
	const batch = sellBlockBatch * sellC * 8
	masks := blockMasks(c)
	buf := windowSums.Get().(*[sellSigma * 8]float64)
	defer windowSums.Put(buf)
	var slot [sellSigma]int16
	for w := lo; w < hi; w += perWindow {
		we := min(w+perWindow, hi)
		for k := w; k < we; k += sellBlockBatch {
			o := 8 * sellC * (k - w)
			s.blockSums((*[batch]float64)(buf[o:o+batch]), x, xs, c, sc.Right, &masks, k, min(k+sellBlockBatch, we))
		}
		r0 := w * sellC
		for t, i := range s.rows[r0 : we*sellC] {
			if i >= 0 {
				slot[int(i)-r0] = int16(t)
			}
		}
		r1 := min(we*sellC, len(s.rows)) // rows past n hold no slot
		for r1 > r0 && s.rows[r1-1] < 0 {
			r1--
		}
		finishWindow(dst, ds, first, x, xs, c, sc, buf[:], slot[:], r0, r1)
	}
}

// finishWindow writes dst_{i−first} = Diag_i·x_i + Left_i·sums_t for the
// rows i in [r0, r1), row i's sums at slot t = slot[i − r0], as
// finishBlock does.
func finishWindow(dst []float64, ds, first int, x []float64, xs, c int, sc Scaling, sums []float64, slot []int16, r0, r1 int) {
	for i := r0; i < r1; i++ {
		t := int(slot[i-r0])
		acc := (*[8]float64)(sums[8*t : 8*t+8])
		d := dst[(i-first)*ds : (i-first)*ds+c]
		l, di := 1.0, 0.0
		if sc.Left != nil {
			l = sc.Left[i]
		}
		switch {
		case sc.Diag != nil:
			di = sc.Diag[i]
			xi := x[i*xs : i*xs+len(d)]
			for u, v := range xi {
				d[u] = float64(di*v) + float64(l*acc[u&7])
			}
		case sc.Left != nil:
			for u := range d {
				d[u] = l * acc[u&7]
			}
		default:
			for u := range d {
				d[u] = acc[u&7]
			}
		}
	}
}

// blockMasks returns the column masks of a c-column block for the kernels.
func blockMasks(c int) [8]int64 {
	var masks [8]int64
	for t := range c {
		masks[t] = -1
	}
	return masks
}

// blockSums sets sums[8t + j] to the row sums Σ_k W_ik·r_k·x_kj (r_k = 1
// when right is nil) of the rows held by the slots t of chunks [k, e),
// e − k ≤ sellBlockBatch.
func (s *sliced) blockSums(sums *[sellBlockBatch * sellC * 8]float64, x []float64, xs, c int, right []float64, masks *[8]int64, k, e int) {
	weights, wstep := &sellOnes[0], 0
	if s.weights != nil {
		weights, wstep = unsafe.SliceData(s.weights), 8
	}
	// Direct calls (not through a func value) keep sums on the caller's stack.
	xp, rp, ip, lp, op := unsafe.SliceData(x), unsafe.SliceData(right), unsafe.SliceData(s.indices), &s.lens[k*sellC], &s.off[k]
	switch {
	case right == nil && c <= 4:
		sellBlock1AVX2(&sums[0], xp, 8*xs, rp, weights, wstep, ip, lp, op, e-k, masks)
	case right == nil:
		sellBlock2AVX2(&sums[0], xp, 8*xs, rp, weights, wstep, ip, lp, op, e-k, masks)
	case c <= 4:
		sellBlockRight1AVX2(&sums[0], xp, 8*xs, rp, weights, wstep, ip, lp, op, e-k, masks)
	default:
		sellBlockRight2AVX2(&sums[0], xp, 8*xs, rp, weights, wstep, ip, lp, op, e-k, masks)
	}
}

// mulBlockFunc is CSR.MulBlockRowsFunc from the copy, for chunks [lo, hi).
func (s *sliced) mulBlockFunc(x []float64, xs, c int, lo, hi int, sums *[sellBlockBatch * sellC * 8]float64, fn func(rows []int32, sums []float64)) {
	masks := blockMasks(c)
	for k := lo; k < hi; k += sellBlockBatch {
		e := min(k+sellBlockBatch, hi)
		s.blockSums(sums, x, xs, c, nil, &masks, k, e)
		fn(s.rows[k*sellC:e*sellC:e*sellC], sums[:8*sellC*(e-k)])
	}
}

// finishBlock writes dst_{i−first} = Diag_i·x_i + Left_i·sums_t for the row i
// held by each slot t of rows (skipping empty slots), as the CSR kernels do.
func (s *sliced) finishBlock(dst []float64, ds, first int, x []float64, xs, c int, sc Scaling, sums []float64, rows []int32) {
	if c == 3 {
		finishBlock3(dst, ds, first, x, xs, sc, sums, rows)
		return
	}
	switch {
	case sc.Left == nil && sc.Diag == nil:
		for t, i := range rows {
			if i >= 0 {
				o := (int(i) - first) * ds
				acc := sums[8*t : 8*t+8]
				d := dst[o : o+c]
				for u := range d {
					d[u] = acc[u&7]
				}
			}
		}
	case sc.Diag == nil:
		for t, i := range rows {
			if i >= 0 {
				o, l := (int(i)-first)*ds, sc.Left[i]
				acc := sums[8*t : 8*t+8]
				d := dst[o : o+c]
				for u := range d {
					d[u] = l * acc[u&7]
				}
			}
		}
	default:
		for t, i := range rows {
			if i >= 0 {
				l := 1.0
				if sc.Left != nil {
					l = sc.Left[i]
				}
				o, di := (int(i)-first)*ds, sc.Diag[i]
				acc := sums[8*t : 8*t+8]
				xi := x[int(i)*xs : int(i)*xs+c]
				d := dst[o : o+len(xi)]
				for u := range d {
					d[u] = float64(di*xi[u]) + float64(l*acc[u&7])
				}
			}
		}
	}
}

// finishBlock3 is finishBlock for three columns (PubMed's classes), unrolled:
// the general loop's per-row overhead cost as much as the kernel there.
func finishBlock3(dst []float64, ds, first int, x []float64, xs int, sc Scaling, sums []float64, rows []int32) {
	for t, i := range rows {
		if i < 0 {
			continue
		}
		o := (int(i) - first) * ds
		acc := (*[8]float64)(sums[8*t : 8*t+8])
		d := (*[3]float64)(dst[o : o+3])
		switch {
		case sc.Left == nil && sc.Diag == nil:
			d[0], d[1], d[2] = acc[0], acc[1], acc[2]
		case sc.Diag == nil:
			l := sc.Left[i]
			d[0], d[1], d[2] = l*acc[0], l*acc[1], l*acc[2]
		default:
			l := 1.0
			if sc.Left != nil {
				l = sc.Left[i]
			}
			di := sc.Diag[i]
			xi := (*[3]float64)(x[int(i)*xs : int(i)*xs+3])
			d[0] = float64(di*xi[0]) + float64(l*acc[0])
			d[1] = float64(di*xi[1]) + float64(l*acc[1])
			d[2] = float64(di*xi[2]) + float64(l*acc[2])
		}
	}
}
