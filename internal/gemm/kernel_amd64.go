package gemm

import "golang.org/x/sys/cpu"

// HasAVX2 reports whether the assembly kernels run: the CPU has AVX2 and
// FMA. Without them the portable Go kernels run instead (the same results
// up to rounding, since fused and separate multiply-adds round differently).
var HasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func kernel32AVX2(k int, a, b, c *float32)

//go:noescape
func kernel64AVX2(k int, a, b, c *float64)

//go:noescape
func sqDist16AVX2(a, b *float32, n int) float32

// Kernel32 sets the MR×NR32 tile c[i*NR32+j] = Σ_{t<k} a[t*MR+i]·b[t*NR32+j]
// from one packed panel of each operand (Panels.Panel). It panics if a, b
// or c is too short.
func Kernel32(k int, a, b, c []float32) {
	if k <= 0 {
		clear(c[:MR*NR32])
		return
	}
	if HasAVX2 {
		_ = a[MR*k-1]
		_ = b[NR32*k-1]
		_ = c[MR*NR32-1]
		kernel32AVX2(k, &a[0], &b[0], &c[0])
		return
	}
	Kernel32Go(k, a, b, c)
}

// Kernel64 sets the MR×NR64 tile c[i*NR64+j] = Σ_{t<k} a[t*MR+i]·b[t*NR64+j]
// from one packed panel of each operand. It panics if a, b or c is too
// short.
func Kernel64(k int, a, b, c []float64) {
	if k <= 0 {
		clear(c[:MR*NR64])
		return
	}
	if HasAVX2 {
		_ = a[MR*k-1]
		_ = b[NR64*k-1]
		_ = c[MR*NR64-1]
		kernel64AVX2(k, &a[0], &b[0], &c[0])
		return
	}
	Kernel64Go(k, a, b, c)
}

// SqDist16 returns Σ_t (a_t − b_t)² in float32 for vectors whose length is
// a multiple of 16 (zero-padded points); it panics otherwise.
func SqDist16(a, b []float32) float32 {
	if len(a)%16 != 0 {
		panic("gemm: SqDist16: length is not a multiple of 16")
	}
	if HasAVX2 && len(a) > 0 {
		_ = b[len(a)-1]
		return sqDist16AVX2(&a[0], &b[0], len(a))
	}
	return SqDistGo(a, b)
}

//go:noescape
func kernel64StridedAVX2(k int, a *float64, lda int, b, c *float64)

//go:noescape
func distMask32AVX2(c, an, bn, rthr, cthr *float32, mask *uint16)
