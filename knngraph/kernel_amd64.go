package knngraph

import "golang.org/x/sys/cpu"

// hasAVX2 selects the assembly kernels; without AVX2 and FMA the portable Go
// kernels run instead (same results up to float32 rounding, which the exact
// re-ranking absorbs).
var hasAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func sgemm6x16AVX2(k int, a, b, c *float32)

//go:noescape
func sqdist16AVX2(a, b *float32, n int) float32

func sgemm6x16(k int, a, b, c []float32) {
	if hasAVX2 {
		_ = a[6*k-1]
		_ = b[16*k-1]
		_ = c[95]
		sgemm6x16AVX2(k, &a[0], &b[0], &c[0])
		return
	}
	sgemm6x16Go(k, a, b, c)
}

func sqdist16(a, b []float32) float32 {
	if hasAVX2 && len(a) > 0 {
		_ = b[len(a)-1]
		return sqdist16AVX2(&a[0], &b[0], len(a))
	}
	return sqdistGo(a, b)
}
