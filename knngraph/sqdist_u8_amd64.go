package knngraph

import (
	"golang.org/x/sys/cpu"

	"github.com/gssl/gssl/internal/gemm"
)

// sqDistU8Kernel is the AVX-512 VNNI kernel when wide, else the AVX2 one.
//
//go:noescape
func sqDistU8Kernel(a, b *uint8, n int, bound uint32, wide bool) uint32

// hasU8VNNI reports whether sqDistU8Below runs the AVX-512 kernel (BW for
// the 512-bit word lanes, VNNI for VPDPWSSD); hasU8AVX2 whether it runs the
// AVX2 one. Tests switch them off to check the slower paths.
var (
	hasU8VNNI = hasU8AVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VNNI
	hasU8AVX2 = gemm.HasAVX2
)

// sqDistU8Below returns Σ_t (a_t − b_t)² exactly for byte vectors whose
// length is a multiple of 32 (zero-padded points) and at most 2¹⁵ (so the
// int32 lanes cannot overflow), or a partial sum ≥ bound once one reaches
// bound at a check (u8FirstCheck, u8CheckEvery).
func sqDistU8Below(a, b []uint8, bound uint32) uint32 {
	if len(a) == 0 {
		return 0
	}
	_ = b[len(a)-1]
	if hasU8AVX2 {
		return sqDistU8Kernel(&a[0], &b[0], len(a), bound, hasU8VNNI)
	}
	return sqDistU8BelowGo(a, b, bound)
}

// sqDistU8DotKernel is the AVX-512 VNNI kernel of sqDistU8Dot; ua and vb
// point to a's U table and b's V table (u8Tables).
//
//go:noescape
func sqDistU8DotKernel(a, b *uint8, n int, bound uint32, ua, vb *uint8) uint32

// sqDistU8Dot returns Σ_t (a_t − b_t)² as sqDistU8Below does, or a partial
// sum ≥ bound, given the tables ta and tb of a and b (u8Tables): with
// AVX-512 VNNI from one dot product (sqDistU8DotKernel, checked at
// dotFirstCheck and every dotCheckEvery), else by sqDistU8Below.
func sqDistU8Dot(a, b, ta, tb []uint8, bound uint32) uint32 {
	if !hasU8VNNI || len(a) == 0 {
		return sqDistU8Below(a, b, bound)
	}
	_, _ = b[len(a)-1], ta[len(tb)-1]
	k := len(ta) / 8
	return sqDistU8DotKernel(&a[0], &b[0], len(a), bound, &ta[0], &tb[4*k])
}

// dotU8I16Kernel is the AVX-512 BW kernel of dotU8I16 when wide, else the
// AVX2 one.
//
//go:noescape
func dotU8I16Kernel(x *uint8, w *int16, n int, wide bool) int32

// dotU8I16 returns Σ_t x_t·w_t exactly for a length that is a multiple of
// 32 and a sum that fits an int32 (the split's at most 128 coordinates of
// 255·255 do).
func dotU8I16(x []uint8, w []int16) int32 {
	if len(x) == 0 {
		return 0
	}
	_ = w[len(x)-1]
	if hasU8AVX2 {
		return dotU8I16Kernel(&x[0], &w[0], len(x), hasU8VNNI)
	}
	return dotU8I16Go(x, w)
}

// prefetchLines asks for the lines cache lines from p on to be loaded.
//
//go:noescape
func prefetchLines(p *uint8, lines int)
