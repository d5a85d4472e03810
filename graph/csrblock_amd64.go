package graph

import (
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
func csr32U8AVX512(dst *float64, x *float32, xbytes int, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr32W8AVX512(dst *float64, x *float32, xbytes int, weights *float64, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr32U16AVX512(dst *float64, x *float32, xbytes int, indptr *int, indices *int32, lo, hi, last int)

//go:noescape
func csr32W16AVX512(dst *float64, x *float32, xbytes int, weights *float64, indptr *int, indices *int32, lo, hi, last int)

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
// or sixteen columns in rows aligned to their width (32 or 64 bytes) take
// the AVX-512 kernels csr32U8AVX512 and csr32U16AVX512 (unit weights) or
// csr32W8AVX512 and csr32W16AVX512 where the CPU has them, bitwise the same.
func (g *CSR) mulBlock32AVX2(dst []float64, x []float32, xs, c, lo, hi int) bool {
	if !hasSellAVX2 || hi <= lo || g.indptr[hi] == g.indptr[lo] {
		return false
	}
	if (c == 8 || c == 16) && hasCSR512 && xs%c == 0 && uintptr(unsafe.Pointer(unsafe.SliceData(x)))%uintptr(4*c) == 0 {
		_ = dst[(hi-lo)*c-1]
		xp, ip, ix, last := unsafe.SliceData(x), unsafe.SliceData(g.indptr), unsafe.SliceData(g.indices), g.indptr[hi]-1
		switch {
		case g.unitWeights && c == 8:
			csr32U8AVX512(&dst[0], xp, 4*xs, ip, ix, lo, hi, last)
		case g.unitWeights:
			csr32U16AVX512(&dst[0], xp, 4*xs, ip, ix, lo, hi, last)
		case c == 8:
			csr32W8AVX512(&dst[0], xp, 4*xs, unsafe.SliceData(g.weights), ip, ix, lo, hi, last)
		default:
			csr32W16AVX512(&dst[0], xp, 4*xs, unsafe.SliceData(g.weights), ip, ix, lo, hi, last)
		}
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
	w, wstep := &csrOne, 0
	if !g.unitWeights {
		w, wstep = unsafe.SliceData(g.weights), 8
	}
	kernel(&dst[0], unsafe.SliceData(x), 4*xs, w, wstep, unsafe.SliceData(g.indptr), unsafe.SliceData(g.indices), lo, hi, g.indptr[hi]-1)
	return true
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
	w, wstep := &csrOne, 0
	if !g.unitWeights {
		w, wstep = unsafe.SliceData(g.weights), 8
	}
	kernel(&dst[(lo-first)*ds], 8*ds, unsafe.SliceData(x), 8*xs, w, wstep, unsafe.SliceData(g.indptr), unsafe.SliceData(g.indices), lo, hi, g.indptr[hi]-1)
	if s.Left == nil && s.Diag == nil {
		return true
	}
	for i := lo; i < hi; i++ {
		l := 1.0
		if s.Left != nil {
			l = s.Left[i]
		}
		d := dst[(i-first)*ds : (i-first)*ds+c]
		if s.Diag != nil {
			di, xi := s.Diag[i], x[i*xs:i*xs+c]
			for j, a := range d {
				d[j] = float64(di*xi[j]) + float64(l*a)
			}
		} else {
			for j, a := range d {
				d[j] = l * a
			}
		}
	}
	return true
}
