package gemm

import "golang.org/x/sys/cpu"

// HasAVX2 reports whether the assembly kernels run: the CPU has AVX2 and
// FMA. Without them the portable Go kernels run instead (the same results
// up to rounding, since fused and separate multiply-adds round differently).
var HasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// HasAVX512 reports whether the AVX-512 kernels run instead of the AVX2
// ones (AVX-512F, its register state saved by the OS): the same tiles with
// a row of the B panel in one 512-bit register, each entry accumulated by
// FMA in the same order, so bitwise the AVX2 kernels' results.
var HasAVX512 = HasAVX2 && cpu.X86.HasAVX512F

//go:noescape
func kernel32AVX512(k int, a, b, c *float32)

//go:noescape
func kernel64AVX512(k int, a, b, c *float64)

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
		if HasAVX512 {
			kernel32AVX512(k, &a[0], &b[0], &c[0])
			return
		}
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
		if HasAVX512 {
			kernel64AVX512(k, &a[0], &b[0], &c[0])
			return
		}
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

// kernelPair32 sets the tiles of two consecutive B panels against one A
// panel, c[:MR·NR32] from b[:NR32·k] and c[MR·NR32:] from the next k·NR32
// values: two Kernel32 calls in one pass over a, k > 0.
func kernelPair32(k int, a, b, c []float32) {
	_ = a[MR*k-1]
	_ = b[2*NR32*k-1]
	_ = c[2*MR*NR32-1]
	kernel32x2aAVX512(k, &a[0], &b[0], &b[NR32*k], &c[0], 0)
}

// kernelPair64 is kernelPair32 in float64.
func kernelPair64(k int, a, b, c []float64) {
	_ = a[MR*k-1]
	_ = b[2*NR64*k-1]
	_ = c[2*MR*NR64-1]
	kernel64x2aAVX512(k, &a[0], &b[0], &b[NR64*k], &c[0], 0)
}

// kernelPairFor returns the two-panel kernel of T, or nil when the
// AVX-512 kernels do not run.
func kernelPairFor[T Float]() func(k int, a, b, c []T) {
	if !HasAVX512 {
		return nil
	}
	var z T
	if _, ok := any(z).(float32); ok {
		return any(kernelPair32).(func(int, []T, []T, []T))
	}
	return any(kernelPair64).(func(int, []T, []T, []T))
}

// KernelPair64 sets c[:MR·NR64] to the tile of the A panel a against the B
// panel b0 and c[MR·NR64:] to the tile against b1, both of depth k (each as
// Kernel64 computes it, bitwise): the two panels need not be consecutive in
// memory, so that callers may start both at a depth offset. With AVX-512
// the two tiles are computed in one pass over a.
func KernelPair64(k int, a, b0, b1, c []float64) {
	if k <= 0 || !HasAVX512 {
		Kernel64(k, a, b0, c[:MR*NR64])
		Kernel64(k, a, b1, c[MR*NR64:])
		return
	}
	_ = a[MR*k-1]
	_ = b0[NR64*k-1]
	_ = b1[NR64*k-1]
	_ = c[2*MR*NR64-1]
	kernel64x2aAVX512(k, &a[0], &b0[0], &b1[0], &c[0], 0)
}

//go:noescape
func kernel32x2aAVX512(k int, a, b0, b1, c *float32, load int)

//go:noescape
func kernel64x2aAVX512(k int, a, b0, b1, c *float64, load int)

//go:noescape
func kernel32x4aAVX512(k int, a0, a1, b0, b1, c *float32, load int)

//go:noescape
func kernel64x4aAVX512(k int, a0, a1, b0, b1, c *float64, load int)
