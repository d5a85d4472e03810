package gemm

import (
	"fmt"

	"github.com/gssl/gssl/internal/parallel"
)

// Panels is a matrix of Rows rows and K columns packed for the
// micro-kernels: the rows are grouped in panels of W consecutive rows
// (W = MR for the left operand A, NR[T]() for the right operand B), and
// each panel is stored column by column, so that entry (i, t) is at
//
//	Data[(i/W)·W·K + t·W + i%W].
//
// Rows past Rows in the last panel are zero. Build one with NewPanels.
type Panels[T Float] struct {
	Rows, K, W int
	Data       []T
}

// NewPanels returns zeroed panels for a rows×k matrix in groups of w rows
// (MR, or NR[T]() for a right operand), reusing buf's storage when it is
// large enough.
func NewPanels[T Float](rows, k, w int, buf []T) *Panels[T] {
	p := UnclearedPanels(rows, k, w, buf)
	if cap(buf) >= len(p.Data) { // reused storage: fresh storage is zero already
		clear(p.Data)
	}
	return p
}

// Count returns the number of panels, ⌈Rows/W⌉.
func (p *Panels[T]) Count() int { return (p.Rows + p.W - 1) / p.W }

// Panel returns the storage of panel q (W·K values), as the kernels take it.
func (p *Panels[T]) Panel(q int) []T { return p.Data[q*p.W*p.K : (q+1)*p.W*p.K] }

// SetRow stores row i: (row_t − shift_t)·scale rounded to T, for t < K
// (shift nil means no shift). It returns the squared norm of the stored
// values, summed in float64.
func (p *Panels[T]) SetRow(i int, row, shift []float64, scale float64) float64 {
	if i < 0 || i >= p.Rows || len(row) < p.K || (shift != nil && len(shift) < p.K) {
		panic(fmt.Sprintf("gemm: SetRow(%d) of %d×%d panels with a row of length %d", i, p.Rows, p.K, len(row)))
	}
	if p.K == 0 {
		return 0
	}
	w := p.W
	dst := p.Data[(i/w)*w*p.K+i%w:]
	var s float64
	if shift == nil {
		for t, v := range row[:p.K] {
			c := T(v * scale)
			dst[t*w] = c
			s += float64(c) * float64(c)
		}
		return s
	}
	for t, v := range row[:p.K] {
		c := T((v - shift[t]) * scale)
		dst[t*w] = c
		s += float64(c) * float64(c)
	}
	return s
}

// SetRows stores rows r0 … r1−1 of a row-major matrix held in src (row r
// at src[(r−r0)·ld:], K values), rounded to T, as SetRow(r, row, nil, 1)
// does but without the norm; when r1 is Rows it also sets the padding rows
// of the last panel to zero, so that the panels need not be cleared first
// (UnclearedPanels). Whole panels of width MR are filled six source rows at
// a time, in the panel's order. It is SetShiftedRows with no shift and no
// norms.
func (p *Panels[T]) SetRows(src []float64, ld, r0, r1 int) {
	p.SetShiftedRows(src, ld, r0, r1, nil, nil)
}

// SetShiftedRows stores rows r0 … r1−1 of a row-major matrix held in src
// (row r at src[(r−r0)·ld:]) as SetRow(r, row, shift, 1) does (shift nil
// means no shift), with the squared norm of stored row r in norms[r−r0],
// bitwise SetRow's, unless norms is nil; when r1 is Rows it also sets the
// padding rows of the last panel to zero. Whole panels of width MR are
// filled six source rows at a time, in the panel's order (SetRow writes one
// value every MR), when both shift and norms are given or neither is.
func (p *Panels[T]) SetShiftedRows(src []float64, ld, r0, r1 int, shift, norms []float64) {
	if r0 < 0 || r1 > p.Rows || r0 > r1 || (norms != nil && len(norms) < r1-r0) || (r1 > r0 && (ld < p.K || len(src) < (r1-r0-1)*ld+p.K)) {
		panic(fmt.Sprintf("gemm: SetShiftedRows [%d, %d) of %d×%d panels from %d values with stride %d", r0, r1, p.Rows, p.K, len(src), ld))
	}
	k := p.K
	if k == 0 {
		if norms != nil {
			clear(norms[:r1-r0])
		}
		return
	}
	for r := r0; r < r1; {
		if p.W == MR && r%MR == 0 && r+MR <= r1 {
			d, s := p.Data[r*k:(r+MR)*k], src[(r-r0)*ld:]
			switch {
			case shift == nil && norms == nil:
				setPanelMR(d, s, ld, k)
				r += MR
				continue
			case shift != nil && norms != nil:
				setShiftedMR(d, s, ld, shift[:k], norms[r-r0:r-r0+MR])
				r += MR
				continue
			}
		}
		n := p.SetRow(r, src[(r-r0)*ld:(r-r0)*ld+k], shift, 1)
		if norms != nil {
			norms[r-r0] = n
		}
		r++
	}
	if r1 == p.Rows {
		p.ClearPadding()
	}
}

// setShiftedMR fills the panel d (MR·k values) with the MR rows of k values
// at src, src[ld:], … minus shift, and sets norms to their squared norms.
func setShiftedMR[T Float](d []T, src []float64, ld int, shift, norms []float64) {
	k := len(shift)
	s0, s1, s2 := src[:k], src[ld:ld+k], src[2*ld:2*ld+k]
	s3, s4, s5 := src[3*ld:3*ld+k], src[4*ld:4*ld+k], src[5*ld:5*ld+k]
	var n0, n1, n2, n3, n4, n5 float64
	for t, m := range shift {
		dt := d[t*MR : t*MR+MR]
		c0, c1, c2 := T(s0[t]-m), T(s1[t]-m), T(s2[t]-m)
		c3, c4, c5 := T(s3[t]-m), T(s4[t]-m), T(s5[t]-m)
		dt[0], dt[1], dt[2], dt[3], dt[4], dt[5] = c0, c1, c2, c3, c4, c5
		n0 += float64(c0) * float64(c0)
		n1 += float64(c1) * float64(c1)
		n2 += float64(c2) * float64(c2)
		n3 += float64(c3) * float64(c3)
		n4 += float64(c4) * float64(c4)
		n5 += float64(c5) * float64(c5)
	}
	norms[0], norms[1], norms[2], norms[3], norms[4], norms[5] = n0, n1, n2, n3, n4, n5
}

// ClearPadding sets the padding rows of the last panel (Rows … up to a
// multiple of W) to zero: with SetRow of every row it fills panels from
// UnclearedPanels.
func (p *Panels[T]) ClearPadding() {
	w, k := p.W, p.K
	for i := p.Rows; i < p.Count()*w; i++ {
		dst := p.Data[(i/w)*w*k+i%w:]
		for t := range k {
			dst[t*w] = 0
		}
	}
}

// setPanelMR fills the panel d (MR·k values) with the MR rows of k values
// at src, src[ld:], …
func setPanelMR[T Float](d []T, src []float64, ld, k int) {
	s0, s1, s2 := src[:k], src[ld:ld+k], src[2*ld:2*ld+k]
	s3, s4, s5 := src[3*ld:3*ld+k], src[4*ld:4*ld+k], src[5*ld:5*ld+k]
	for t := range s0 {
		dt := d[t*MR : t*MR+MR]
		dt[0], dt[1], dt[2], dt[3], dt[4], dt[5] = T(s0[t]), T(s1[t]), T(s2[t]), T(s3[t]), T(s4[t]), T(s5[t])
	}
}

// SetColumns stores the transpose of the K×Rows row-major matrix src (row
// stride ld): row i of the panels is column i of src, and the padding rows
// of the last panel are set to zero. It is how the product SᵀS of a block S
// is packed.
func (p *Panels[T]) SetColumns(src []float64, ld int) { p.SetColumnRows(src, ld, 0, p.K) }

// SetColumnRows is SetColumns for rows t0 … t1−1 of the K×Rows matrix
// alone, held in src (row t at src[(t−t0)·ld:]): it sets the depths
// [t0, t1) of every panel, so that disjoint row ranges may be packed
// concurrently. It fills one panel after the other, reading a strip of W
// columns of src (held in L1 from one panel to the next) and writing the
// panel in order.
func (p *Panels[T]) SetColumnRows(src []float64, ld, t0, t1 int) {
	if t0 < 0 || t1 > p.K || t0 > t1 || (t1 > t0 && (ld < p.Rows || len(src) < (t1-t0-1)*ld+p.Rows)) {
		panic(fmt.Sprintf("gemm: SetColumnRows [%d, %d) of %d×%d panels from %d values with stride %d", t0, t1, p.Rows, p.K, len(src), ld))
	}
	w, k := p.W, p.K
	for q := 0; q < p.Count(); q++ {
		panel := p.Data[q*w*k : (q+1)*w*k]
		c0 := q * w
		switch {
		case c0+w > p.Rows:
			nc := p.Rows - c0
			for t := t0; t < t1; t++ {
				d := panel[t*w : t*w+w]
				for i, v := range src[(t-t0)*ld+c0 : (t-t0)*ld+c0+nc] {
					d[i] = T(v)
				}
				clear(d[nc:])
			}
		case w == MR:
			for t := t0; t < t1; t++ {
				s := src[(t-t0)*ld+c0 : (t-t0)*ld+c0+MR]
				d := panel[t*MR : t*MR+MR]
				d[0], d[1], d[2], d[3], d[4], d[5] = T(s[0]), T(s[1]), T(s[2]), T(s[3]), T(s[4]), T(s[5])
			}
		case w == 8: // NR64, unrolled as MR: twice as fast as the loop
			for t := t0; t < t1; t++ {
				s := src[(t-t0)*ld+c0 : (t-t0)*ld+c0+8]
				d := panel[t*8 : t*8+8]
				d[0], d[1], d[2], d[3] = T(s[0]), T(s[1]), T(s[2]), T(s[3])
				d[4], d[5], d[6], d[7] = T(s[4]), T(s[5]), T(s[6]), T(s[7])
			}
		default:
			for t := t0; t < t1; t++ {
				d := panel[t*w : t*w+w]
				for i, v := range src[(t-t0)*ld+c0 : (t-t0)*ld+c0+w] {
					d[i] = T(v)
				}
			}
		}
	}
}

// PackColumns returns rows×k panels of width w holding the transpose of the
// k×rows row-major matrix src (row stride ld), as SetColumns stores it, in
// buf's storage when it is large enough: unlike NewPanels followed by
// SetColumns it does not clear the storage first, since every entry is
// written.
func PackColumns[T Float](src []float64, ld, rows, k, w int, buf []T) *Panels[T] {
	p := UnclearedPanels(rows, k, w, buf)
	p.SetColumns(src, ld)
	return p
}

// UnclearedPanels is NewPanels without clearing the reused storage, for
// callers that write every entry, padding included (SetColumnRows over
// all depths).
func UnclearedPanels[T Float](rows, k, w int, buf []T) *Panels[T] {
	if w != MR && w != NR[T]() {
		panic(fmt.Sprintf("gemm: panel width %d: want %d or %d", w, MR, NR[T]()))
	}
	if rows < 0 || k < 0 {
		panic(fmt.Sprintf("gemm: %d×%d panels", rows, k))
	}
	size := (rows + w - 1) / w * w * k
	if cap(buf) >= size {
		buf = buf[:size]
	} else {
		buf = make([]T, size)
	}
	return &Panels[T]{Rows: rows, K: k, W: w, Data: buf}
}

// groupA is the number of A panels multiplied against one B panel before
// moving to the next: 8·MR float32 rows at K = 784 are 150 kB, which stay
// in a core's L2 cache while the panels of B stream past.
const groupA = 8

// MulTTo sets the Rows(A)×Rows(B) matrix C = A·Bᵀ, row-major with row
// stride ldc, in float64, on the calling goroutine. A must have panel width
// MR and B width NR[T](), with the same K. Each entry is a dot product in
// precision T accumulated in order of t.
func MulTTo[T Float](c []float64, ldc int, a, b *Panels[T]) {
	check(c, ldc, a, b)
	mulT(c, ldc, nil, a, b, 0, a.Count())
}

// ParallelMulTTo is MulTTo with the panels of A shared among
// parallel.Workers() goroutines.
func ParallelMulTTo[T Float](c []float64, ldc int, a, b *Panels[T]) {
	check(c, ldc, a, b)
	parallel.For(a.Count(), groupA, func(lo, hi int) { mulT(c, ldc, nil, a, b, lo, hi) })
}

// ParallelAddUpperTo adds alpha times the entries j ≥ i of A·Bᵀ to C
// (row-major, row stride ldc), leaving the entries below the diagonal
// untouched, with the rows shared among parallel.Workers() goroutines in
// parts of equal work. With B packing the same matrix as A it accumulates
// the upper triangle of a Gram matrix SᵀS over blocks S. It is
// ParallelAddUpperSumTo of the one pair.
func ParallelAddUpperTo[T Float](c []float64, ldc int, alpha float64, a, b *Panels[T]) {
	ParallelAddUpperSumTo(c, ldc, alpha, []*Panels[T]{a}, []*Panels[T]{b})
}

// ParallelAddUpperSumTo is ParallelAddUpperTo for the sum Σ_s A_s·B_sᵀ of
// several pairs (the A_s with the same Rows, the B_s too; each pair with
// its own K): each tile of C is summed over the pairs before it is added,
// so that C is swept once per call instead of once per pair. With the
// AVX-512 kernels the sum is one FMA chain per entry over the joined depths
// in precision T (mulTSumDeep); otherwise each pair's tile is added in
// float64. With A_s and B_s packing block s of S it accumulates SᵀS over a
// deep S split in blocks of rows.
func ParallelAddUpperSumTo[T Float](c []float64, ldc int, alpha float64, a, b []*Panels[T]) {
	if len(a) != len(b) {
		panic(fmt.Sprintf("gemm: %d left and %d right operands", len(a), len(b)))
	}
	if len(a) == 0 {
		return
	}
	for s := range a {
		check(c, ldc, a[s], b[s])
		if a[s].Rows != a[0].Rows || b[s].Rows != b[0].Rows {
			panic(fmt.Sprintf("gemm: pair %d is %d×%d, pair 0 %d×%d", s, a[s].Rows, b[s].Rows, a[0].Rows, b[0].Rows))
		}
	}
	np := a[0].Count()
	prefix := make([]int, np+1)
	for p := 0; p < np; p++ {
		prefix[p+1] = prefix[p] + max(b[0].Rows-p*MR, 1)
	}
	parallel.Balanced(prefix, groupA*MR*NR[T](), func(lo, hi int) { mulTSum(c, ldc, a, b, lo, hi, alpha) })
}

// mulTSum adds alpha·Σ_s A_s·B_sᵀ to the entries j ≥ i of the rows of C
// held by A panels [p0, p1): each tile is summed over the pairs in a local
// buffer and added to C once.
func mulTSum[T Float](c []float64, ldc int, a, b []*Panels[T], p0, p1 int, alpha float64) {
	if kern := pairAccFor[T](); kern != nil && p1 > p0 && (len(a) > 1 || a[0].K > kcMax) && positiveDepths(a) {
		mulTSumDeep(c, ldc, a, b, p0, p1, alpha, kern)
		return
	}
	var tile [2 * MR * NR32]T
	var acc [2 * MR * NR32]float64
	tl := newTiler[T]()
	nr, nb := b[0].W, b[0].Count()
	rows, cols := a[0].Rows, b[0].Rows
	for g0 := p0; g0 < p1; g0 += groupA {
		g1 := min(g0+groupA, p1)
		for q := g0 * MR / nr; q < nb; {
			n := tl.step(q, nb)
			for pa := g0; pa < g1; pa++ {
				row0 := pa * MR
				if min((q+n)*nr, cols) <= row0 {
					continue // the tiles lie below the diagonal
				}
				if len(a) == 1 {
					// one pair: the tile is added as it comes (0 + v is
					// what the sum over one pair holds, bitwise)
					tl.run(n, a[0].K, a[0].Panel(pa), b[0], q, tile[:])
					addTiles(c, ldc, alpha, tile[:n*MR*nr], n, nr, row0, q, rows, cols)
					continue
				}
				sumTiles(acc[:n*MR*nr], tile[:n*MR*nr], tl, a, b, pa, q, n)
				addTiles(c, ldc, alpha, acc[:n*MR*nr], n, nr, row0, q, rows, cols)
			}
			q += n
		}
	}
}

// positiveDepths reports whether every operand has K > 0.
func positiveDepths[T Float](a []*Panels[T]) bool {
	for _, p := range a {
		if p.K == 0 {
			return false
		}
	}
	return true
}

// addTiles adds alpha times the entries j ≥ i of the n tiles src (A rows
// from row0, B panels from q) to C.
func addTiles[S Float](c []float64, ldc int, alpha float64, src []S, n, nr, row0, q, rows, cols int) {
	for h := range n {
		col0 := (q + h) * nr
		ncol := min(nr, cols-col0)
		for i := 0; i < min(MR, rows-row0); i++ {
			dst := c[(row0+i)*ldc+col0 : (row0+i)*ldc+col0+ncol]
			s := src[(h*MR+i)*nr : (h*MR+i)*nr+ncol]
			for j := max(0, row0+i-col0); j < ncol; j++ {
				dst[j] += alpha * (0 + float64(s[j]))
			}
		}
	}
}

// sumTiles sets acc to the sum over the pairs s of the tiles of A_s panel
// pa against B_s panels q…q+n−1, tile being the kernels' scratch.
func sumTiles[T Float](acc []float64, tile []T, tl tiler[T], a, b []*Panels[T], pa, q, n int) {
	clear(acc)
	for s := range a {
		tl.run(n, a[s].K, a[s].Panel(pa), b[s], q, tile)
		for i, v := range tile {
			acc[i] += float64(v)
		}
	}
}

func check[T Float](c []float64, ldc int, a, b *Panels[T]) {
	if a.W != MR || b.W != NR[T]() || a.K != b.K {
		panic(fmt.Sprintf("gemm: A is %d×%d in panels of %d, B is %d×%d in panels of %d: want widths %d and %d and the same K",
			a.Rows, a.K, a.W, b.Rows, b.K, b.W, MR, NR[T]()))
	}
	if a.Rows > 0 && b.Rows > 0 && (ldc < b.Rows || len(c) < (a.Rows-1)*ldc+b.Rows) {
		panic(fmt.Sprintf("gemm: C has %d values with stride %d, want %d×%d", len(c), ldc, a.Rows, b.Rows))
	}
}

// kernelFor returns the micro-kernel of precision T.
func kernelFor[T Float]() func(k int, a, b, c []T) {
	var z T
	if _, ok := any(z).(float32); ok {
		return any(Kernel32).(func(int, []T, []T, []T))
	}
	return any(Kernel64).(func(int, []T, []T, []T))
}

// tiler computes the tiles of one A panel against one B panel, or against
// two consecutive ones in one pass when the two-panel kernel runs
// (kernelPairFor); both give every tile bitwise as the one-panel kernel.
type tiler[T Float] struct{ one, pair func(k int, a, b, c []T) }

func newTiler[T Float]() tiler[T] { return tiler[T]{kernelFor[T](), kernelPairFor[T]()} }

// step is the number of B panels from q that the next run covers: 2 when
// the two-panel kernel runs and panel q+1 exists, else 1.
func (tl tiler[T]) step(q, nb int) int {
	if tl.pair != nil && q+1 < nb {
		return 2
	}
	return 1
}

// run sets tile[h·MR·W : (h+1)·MR·W] to the tile of the A panel a (depth
// k) against B panel q+h, h < n.
func (tl tiler[T]) run(n, k int, a []T, b *Panels[T], q int, tile []T) {
	w := b.W
	switch {
	case n == 1:
		tl.one(k, a, b.Panel(q), tile)
	case k == 0:
		clear(tile[:n*MR*w])
	default:
		tl.pair(k, a, b.Data[q*w*k:(q+2)*w*k], tile)
	}
}

// mulT sets the rows of C held by A panels [p0, p1) to A·Bᵀ, row r of A·Bᵀ
// written to row idx[r] of C (to row r when idx is nil). Beyond a depth of
// kcMax the AVX-512 path cuts the depth in chunks (mulTDeep).
func mulT[T Float](c []float64, ldc int, idx []int, a, b *Panels[T], p0, p1 int) {
	if kern := pairAccFor[T](); kern != nil && a.K > kcMax && p1 > p0 {
		mulTDeep(c, ldc, idx, a, b, p0, p1, kern)
		return
	}
	var tile [2 * MR * NR32]T
	tl := newTiler[T]()
	nr, nb := b.W, b.Count()
	k := a.K
	for g0 := p0; g0 < p1; g0 += groupA {
		g1 := min(g0+groupA, p1)
		for q := 0; q < nb; {
			n := tl.step(q, nb)
			for pa := g0; pa < g1; pa++ {
				tl.run(n, k, a.Panel(pa), b, q, tile[:])
				writeTiles(c, ldc, idx, tile[:n*MR*nr], n, nr, pa*MR, q, a.Rows, b.Rows)
			}
			q += n
		}
	}
}
