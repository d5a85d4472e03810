package graph

import (
	"math/bits"
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:noescape
func csr32G2AVX2(dst *float64, x *float32, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr32G3AVX2(dst *float64, x *float32, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr32G4AVX2(dst *float64, x *float32, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr32U8AVX512(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi int)

//go:noescape
func csr32U8PAVX512(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr32W8AVX512(dst *float64, x *float32, xshift int, weights *float64, indptr *int, indices *int32, lo, hi int)

//go:noescape
func csr32W8PAVX512(dst *float64, x *float32, xshift int, weights *float64, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr32U16AVX512(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi int)

//go:noescape
func csr32U16PAVX512(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr32W16AVX512(dst *float64, x *float32, xshift int, weights *float64, indptr *int, indices *int32, lo, hi int)

//go:noescape
func csr32W16PAVX512(dst *float64, x *float32, xshift int, weights *float64, indptr *int, indices *int32, lo, hi, last int)

// hasCSR512 reports whether the AVX-512 kernels run (AVX-512F, its register
// state saved by the OS); the tests turn it off to compare the AVX2 kernel.
var hasCSR512 = hasSellAVX2 && cpu.X86.HasAVX512F

// csrOne is the weight of every entry of a unit-weight graph in the
// assembly kernels (wstep 0).
var csrOne = 1.0

// mulBlock32AVX2 computes rows [lo, hi) of W·X into dst[(i−lo)·c:] for a
// float32 block of c = 8, 12 or 16 columns with row stride xs ≥ c by the AVX2
// kernels of csrblock_amd64.s, bitwise as block32Kernels[c], and reports
// whether it did (false: another width, no AVX2, or an empty range). Eight
// or sixteen columns in rows aligned to their width (32 or 64 bytes) and a
// power of two bytes apart take the AVX-512 kernels (mulBlock32AVX512)
// where the CPU has them, bitwise the same.
func (g *CSR) mulBlock32AVX2(dst []float64, x []float32, xs, c, lo, hi int) bool {
	if !hasSellAVX2 || hi <= lo || g.indptr[hi] == g.indptr[lo] {
		return false
	}
	if sh := bits.TrailingZeros(uint(4 * xs)); (c == 8 || c == 16) && hasCSR512 && 4*xs == 1<<sh && xs >= c &&
		uintptr(unsafe.Pointer(unsafe.SliceData(x)))%uintptr(4*c) == 0 {
		_ = dst[(hi-lo)*c-1]
		g.mulBlock32AVX512(&dst[0], x, sh, c, lo, hi)
		return true
	}
	var kernel func(*float64, *float32, int, *float64, int, *int, *int32, int, int, int)
	switch c {
	case 8:
		kernel = csr32G2AVX2
	case 12:
		kernel = csr32G3AVX2
	case 16:
		kernel = csr32G4AVX2
	default:
		return false
	}
	_ = dst[(hi-lo)*c-1]
	w, wstep := g.kernelWeights()
	kernel(&dst[0], unsafe.SliceData(x), 4*xs, w, wstep, unsafe.SliceData(g.indptr), unsafe.SliceData(g.indices), lo, hi, g.indptr[hi]-1)
	return true
}

// csr32PrefetchBytes is the smallest float32 block for which the AVX-512
// kernels prefetch the block row of the entry 16 or 32 ahead: from a
// smaller block, which the last-level cache holds, out-of-order execution
// overlaps the gathers' misses as well, and the prefetch's six
// instructions an entry cost more than they save (see csrblock_amd64.s).
// A variable so that the tests can send small blocks to either kernel.
var csr32PrefetchBytes = 16 << 20

// mulBlock32AVX512 computes rows [lo, hi) of W·X into dst for a float32
// block of c = 8 or 16 columns whose rows are 1<<xshift bytes apart, by
// the AVX-512 kernel of its width and weights, with the prefetch for a
// block of csr32PrefetchBytes or more.
func (g *CSR) mulBlock32AVX512(dst *float64, x []float32, xshift, c, lo, hi int) {
	xp, ip, ix, w := unsafe.SliceData(x), unsafe.SliceData(g.indptr), unsafe.SliceData(g.indices), unsafe.SliceData(g.weights)
	if 4*len(x) < csr32PrefetchBytes {
		switch {
		case g.unitWeights && c == 8:
			csr32U8AVX512(dst, xp, xshift, ip, ix, lo, hi)
		case g.unitWeights:
			csr32U16AVX512(dst, xp, xshift, ip, ix, lo, hi)
		case c == 8:
			csr32W8AVX512(dst, xp, xshift, w, ip, ix, lo, hi)
		default:
			csr32W16AVX512(dst, xp, xshift, w, ip, ix, lo, hi)
		}
		return
	}
	last := g.indptr[hi] - 1
	switch {
	case g.unitWeights && c == 8:
		csr32U8PAVX512(dst, xp, xshift, ip, ix, lo, hi, last)
	case g.unitWeights:
		csr32U16PAVX512(dst, xp, xshift, ip, ix, lo, hi, last)
	case c == 8:
		csr32W8PAVX512(dst, xp, xshift, w, ip, ix, lo, hi, last)
	default:
		csr32W16PAVX512(dst, xp, xshift, w, ip, ix, lo, hi, last)
	}
}

//go:noescape
func csr64G2AVX2(dst *float64, dbytes int, x *float64, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr64G3AVX2(dst *float64, dbytes int, x *float64, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr64G4AVX2(dst *float64, dbytes int, x *float64, xbytes int, weights *float64, wstep int, indptr *int, indices *int32, lo, hi, last int)

// blockRowsAVX2 computes rows [lo, hi) of the product scaled by s (Right
// nil) into rows [lo−first, hi−first) of dst (row stride ds) for a block of
// c = 8, 12 or 16 columns with row stride xs, by the AVX2 kernels of
// csrblock_amd64.s and then the Left and Diag scaling of the Go kernels,
// bitwise as blockKernels[c]; it reports whether it did (false: another
// width, Right set, no AVX2, or an empty range).
func (g *CSR) blockRowsAVX2(dst []float64, ds, first int, x []float64, xs, c int, s Scaling, lo, hi int) bool {
	if !hasSellAVX2 || s.Right != nil || hi <= lo || g.indptr[hi] == g.indptr[lo] {
		return false
	}
	var kernel func(*float64, int, *float64, int, *float64, int, *int, *int32, int, int, int)
	switch c {
	case 8:
		kernel = csr64G2AVX2
	case 12:
		kernel = csr64G3AVX2
	case 16:
		kernel = csr64G4AVX2
	default:
		return false
	}
	_ = dst[(hi-1-first)*ds+c-1]
	_ = x[(g.n-1)*xs+c-1]
	w, wstep := g.kernelWeights()
	kernel(&dst[(lo-first)*ds], 8*ds, unsafe.SliceData(x), 8*xs, w, wstep, unsafe.SliceData(g.indptr), unsafe.SliceData(g.indices), lo, hi, g.indptr[hi]-1)
	g.finishRowsInPlace(dst, ds, first, x, xs, c, s, lo, hi)
	return true
}

// finishRowsInPlace turns rows [lo−first, hi−first) of dst, which hold the
// sums of the product, into Diag_i·x_i + Left_i·sum by finishBlockRow,
// in place (each entry's sum is read before its row entry is written).
func (g *CSR) finishRowsInPlace(dst []float64, ds, first int, x []float64, xs, c int, s Scaling, lo, hi int) {
	if s.Left == nil && s.Diag == nil {
		return
	}
	for i := lo; i < hi; i++ {
		d := dst[(i-first)*ds : (i-first)*ds+c]
		g.finishBlockRow(d, x[i*xs:i*xs+c], d, s, i)
	}
}

// kernelWeights returns the weights argument of the CSR kernels: the
// stored weights with an 8-byte step, or one 1 with step 0 for a graph of
// unit weights.
func (g *CSR) kernelWeights() (w *float64, wstep int) {
	if g.unitWeights {
		return &csrOne, 0
	}
	return unsafe.SliceData(g.weights), 8
}

//go:generate go run gen_wide.go

//go:noescape
func csr64WideAVX2(dst *float64, dbytes int, x *float64, xbytes int, weights *float64, wstep int, right *float64, indptr *int, indices *int32, lo, hi, c, last int)

//go:noescape
func csr64WideAVX512(dst *float64, dbytes int, x *float64, xbytes int, weights *float64, wstep int, right *float64, indptr *int, indices *int32, lo, hi, c, last int)

// blockRowsWide computes rows [lo, hi) of the product scaled by s into rows
// [lo−first, hi−first) of dst (row stride ds) for a block of any width c
// with row stride xs, by the AVX2 kernel of csrwide_amd64.s, or its
// AVX-512 twin (csrwide512_amd64.s) where the CPU has it (the sums, the
// Right scaling included), and then the Left and Diag scaling of
// finishBlockRow, bitwise as blockRowsLoop; it reports whether it did
// (false: no AVX2 or an empty range). BenchmarkBlockWide: the AVX-512
// kernel took 0.95 of the AVX2 kernel's time at c = 24, 0.93 at c = 40 and
// the same at c = 96.
func (g *CSR) blockRowsWide(dst []float64, ds, first int, x []float64, xs, c int, s Scaling, lo, hi int) bool {
	if !hasSellAVX2 || hi <= lo || c == 0 {
		return false
	}
	_ = dst[(hi-1-first)*ds+c-1]
	_ = x[(g.n-1)*xs+c-1]
	w, wstep := g.kernelWeights()
	var right *float64
	if s.Right != nil {
		_ = s.Right[g.n-1]
		right = unsafe.SliceData(s.Right)
	}
	kernel := csr64WideAVX2
	if hasCSR512 {
		kernel = csr64WideAVX512
	}
	kernel(&dst[(lo-first)*ds], 8*ds, unsafe.SliceData(x), 8*xs, w, wstep, right, unsafe.SliceData(g.indptr), unsafe.SliceData(g.indices), lo, hi, c, max(g.indptr[hi]-1, 0))
	g.finishRowsInPlace(dst, ds, first, x, xs, c, s, lo, hi)
	return true
}
