package sgemm

import "golang.org/x/sys/cpu"

// HasAVX2 reports whether the assembly kernels run: the CPU has AVX2 and
// FMA. Without them the portable Go kernels run instead (the same results
// up to float32 rounding, since the summation orders differ).
var HasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func kernelAVX2(k int, a, b, c *float32)

//go:noescape
func sqDist16AVX2(a, b *float32, n int) float32

// Kernel sets the MR×NR tile c[i*NR+j] = Σ_{t<k} a[t*MR+i]·b[t*NR+j] from
// one packed panel of each operand (Panels.Panel). It panics if a, b or c
// is too short.
func Kernel(k int, a, b, c []float32) {
	if k <= 0 {
		clear(c[:MR*NR])
		return
	}
	if HasAVX2 {
		_ = a[MR*k-1]
		_ = b[NR*k-1]
		_ = c[MR*NR-1]
		kernelAVX2(k, &a[0], &b[0], &c[0])
		return
	}
	KernelGo(k, a, b, c)
}

// SqDist16 returns Σ_t (a_t − b_t)² in float32 for vectors whose length is
// a multiple of 16 (zero-padded points); it panics otherwise.
func SqDist16(a, b []float32) float32 {
	if len(a)%16 != 0 {
		panic("sgemm: SqDist16: length is not a multiple of 16")
	}
	if HasAVX2 && len(a) > 0 {
		_ = b[len(a)-1]
		return sqDist16AVX2(&a[0], &b[0], len(a))
	}
	return SqDistGo(a, b)
}
