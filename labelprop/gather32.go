package labelprop

import "github.com/gssl/gssl/internal/hugepage"

// The float32 gather copy of the CG search directions. The product
// (I − aS)p = u∘p̃ − a t'∘(W p̃) reads, for every stored entry of W, a row of
// p̃ at a random place: it is bound by those gathers. For 5 to 8 classes a
// float64 row of p̃ spans 40 to 64 bytes, and half of the 40-byte rows
// straddle two cache lines; for 9 to 16 classes 72 to 128 bytes. The solve
// then keeps beside p̃ a copy p32 in float32, each row padded to 8 entries
// (32 bytes) or 16 (64 bytes), so that no row straddles a line and the
// footprint is 32n or 64n bytes instead of 8nc, and the product gathers
// from it with graph.CSR.MulBlock32StridedRowsInto (float64 products and
// sums). No SELL-4-σ copy of the graph is built.
//
// For the iterates to stay exact CG iterates of some directions, p̃ itself
// is rounded: Step and Restart round each new p̃ to float32 and store the
// rounded value in both p̃ (as float64) and p32. The product of the
// rounded p̃ is then exact (bitwise the float64 product of the rounded p̃,
// the sums in the same order), and x, r and q move by the same rounded
// direction: r stays the residual of x up to float64 rounding, as in the
// float64 solve. Only the conjugacy of the directions is perturbed, by
// about 2^-24 relative, which the stopping rule does not see. A cold
// solve ends on the bound of resbound.go, whose analysis holds as it is:
// the direction is rounded when it is formed, before the product and x's
// update read it, and both read the same rounded p̃ with the operations of
// the float64 solve; it assumes nothing of the directions' conjugacy.
// Otherwise (a warm start, or a bound above the tolerance) a final true
// residual decides, formed in float64 (below), and a column above the
// tolerance restarts.
//
// The true residual B − (I − aS)X is not rounded: p̃ = t∘x is split into
// its float32 part h and the float32 remainder l = fl32(p̃ − h), and
// W p̃ = W h + W l (two gathers of p32) is exact to about 2^-48 relative —
// a float64 residual.

// gather32Width is the widest row stride, in float32 entries, of p32: 8
// or 16 entries (32 or 64 bytes) take graph's AVX2 kernels for 8 and 16
// float32 columns (or its AVX-512 kernels: Go allocates a large p32
// page-aligned).
const gather32Width = 16

// spreadGather32 turns the float32 gather copy on (the default); the tests
// turn it off to compare the float64 iterates.
var spreadGather32 = true

// gather32Min is the fewest columns for which the product gathers from
// p32: below it a float64 row of p̃ (at most 32 bytes) is no larger than
// p32's. On 3 Dec, when a cold solve with the copy still ended on a true
// residual (the two gathers of splitProduct), the copy made the fit of the
// 5-class, 10 M-edge benchmark graph slower (1.25 s against 1.06 s); with
// the bound of resbound.go it pays from 5 classes: through the command
// (gssl labelprop --json fit_seconds, interleaved under the benchmark
// lock, 4 Dec) 0.067 → 0.059 s at 1 M edges (15 pairs) and 1.13 → 0.82 s
// at 10 M (8 pairs), the same 7 iterations and accuracy; a product at
// 1 M edges gathers 32-byte rows from p32 in about 2.8 ms against 4.4 ms
// for the SELL-4-σ product of the 40-byte rows, and no SELL copy is built.
const gather32Min = 5

// gather32Stride returns the row stride of p32 for a solve of c columns
// in panels, with or without column segments: 8 up to 8 columns,
// gather32Width above, or 0 when the product does not gather from a
// float32 copy of p̃.
func gather32Stride(c, panels int, segmented bool) int {
	switch {
	case !spreadGather32 || c < gather32Min || c > gather32Width || panels != 1 || segmented:
		return 0
	case c <= 8:
		return 8
	}
	return gather32Width
}

// initGather32 allocates p32 when the solve uses it, or takes prev's (a
// previous batch of the same solve, no narrower) cleared.
func (cg *spreadingCG) initGather32(prev *spreadingCG) {
	if cg.p32w = gather32Stride(cg.c, len(cg.panels), cg.seg != nil); cg.p32w == 0 {
		return
	}
	if size := cg.n * cg.p32w; prev != nil && len(prev.p32) >= size {
		cg.p32 = prev.p32[:size:size]
		clear(cg.p32)
		return
	}
	cg.p32 = hugepage.Float32s(cg.n * cg.p32w)
}

// round32 rounds rows [lo, hi) of p̃ to float32 and writes them into p32:
// after it p̃ and p32 hold the same values. Without p32 it does nothing.
func (cg *spreadingCG) round32(lo, hi int) {
	if cg.p32 == nil {
		return
	}
	c, w := cg.c, cg.p32w
	for i := lo; i < hi; i++ {
		row := cg.p[i*c : i*c+c]
		dst := cg.p32[i*w : i*w+c]
		for j, v := range row {
			f := float32(v)
			dst[j] = f
			row[j] = float64(f)
		}
	}
}

// split32 writes into rows [lo, hi) of p32 the float32 part h of p̃, or
// with rest the remainder fl32(p̃ − h), p32 holding h.
func (cg *spreadingCG) split32(lo, hi int, rest bool) {
	c, w := cg.c, cg.p32w
	for i := lo; i < hi; i++ {
		row := cg.p[i*c : i*c+c]
		dst := cg.p32[i*w : i*w+c]
		for j, v := range row {
			if rest {
				dst[j] = float32(v - float64(dst[j]))
			} else {
				dst[j] = float32(v)
			}
		}
	}
}

// gather32Rows is the number of rows whose sums W·p32 gather32Product
// forms at once: 64 rows of at most 16 float64 sums (8 KiB) stay in L1.
const gather32Rows = 64

// mul32Rows sets rows [lo, hi) of q to u∘p̃ + Left∘(W·p32) (the Scaling of
// the solve, with the terms rounded as graph's kernels round them), or
// with add adds Left∘(W·p32) to them. With acc (2c entries) it also adds
// addPQ's sums of those rows to acc; for rows of 8 entries the generated
// finish32 (or its AVX2 kernels, finish32SIMD, for panels of 5 to 8
// columns) forms them with the rows of q, while they are in registers.
func (cg *spreadingCG) mul32Rows(lo, hi int, add bool, acc []float64) {
	var s [gather32Rows * gather32Width]float64
	c, w, diag, left := cg.c, cg.p32w, cg.op.Diag, cg.op.Left
	d := cg.deflationDegrees()
	var accD []float64
	if acc != nil {
		acc, accD = acc[:c], acc[c:]
	}
	for r0 := lo; r0 < hi; r0 += gather32Rows {
		r1 := min(r0+gather32Rows, hi)
		cg.g.MulBlock32StridedRowsInto(s[:], cg.p32, w, w, r0, r1)
		p, q := cg.p[r0*c:r1*c], cg.q[r0*c:r1*c]
		if !add && w == 8 && (finish32SIMD(acc, accD, q, p, s[:], diag, left, cg.u, d, c, r0, r1) ||
			finish32W(acc, accD, q, p, s[:], diag, left, cg.u, d, c, r0, r1)) {
			continue
		}
		finish32Loop(q, p, s[:], diag, left, c, w, add, r0, r1)
		if acc != nil {
			addPQ(acc, accD, cg.u, d, p, q, c, r0, r1)
		}
	}
}

// finish32Loop sets the rows [lo, hi) of q (c entries each, as p) to
// diag_i·p_i + left_i·s_i, s_i the row sums (w entries a row), or with add
// adds left_i·s_i to them: the reference of the generated finish32W.
func finish32Loop(q, p, s, diag, left []float64, c, w int, add bool, lo, hi int) {
	for i := lo; i < hi; i++ {
		qi := q[(i-lo)*c : (i-lo+1)*c]
		si := s[(i-lo)*w:]
		si = si[:len(qi)]
		l := left[i]
		if add {
			for j, v := range si {
				qi[j] += l * v
			}
			continue
		}
		d, pi := diag[i], p[(i-lo)*c:(i-lo+1)*c]
		pi = pi[:len(qi)]
		for j, v := range si {
			qi[j] = float64(d*pi[j]) + float64(l*v)
		}
	}
}

// gather32Product is product from p32, which holds p̃: one pass over the
// rows, with the sums of addPQ.
func (cg *spreadingCG) gather32Product(sums bool) {
	var dst []float64
	if sums {
		dst = cg.sums
	}
	cg.Run(dst, func(_, lo, hi int, acc []float64) {
		if !sums {
			acc = nil
		}
		cg.mul32Rows(lo, hi, false, acc)
	})
}

// splitProduct is product of a p̃ that is not rounded (the true
// residual's t∘x) through p32: q = u∘p̃ + Left∘(W h) + Left∘(W l) for
// p̃'s float32 part h and remainder l. It leaves p32 stale; it forms no
// sums.
func (cg *spreadingCG) splitProduct() {
	for _, rest := range []bool{false, true} {
		cg.Run(nil, func(_, lo, hi int, _ []float64) { cg.split32(lo, hi, rest) })
		cg.Run(nil, func(_, lo, hi int, _ []float64) { cg.mul32Rows(lo, hi, rest, nil) })
	}
	cg.p32ok = false
}
