//go:build !amd64

package gemm

// HasAVX2 is false off amd64: the portable Go kernels run.
const HasAVX2 = false

// HasAVX512 is false off amd64.
const HasAVX512 = false

// kernelPairFor returns nil off amd64: one Kernel32 or Kernel64 call per tile.
func kernelPairFor[T Float]() func(k int, a, b, c []T) { return nil }

// Kernel32 sets the MR×NR32 tile c[i*NR32+j] = Σ_{t<k} a[t*MR+i]·b[t*NR32+j]
// from one packed panel of each operand (Panels.Panel).
func Kernel32(k int, a, b, c []float32) { Kernel32Go(k, a, b, c) }

// Kernel64 sets the MR×NR64 tile c[i*NR64+j] = Σ_{t<k} a[t*MR+i]·b[t*NR64+j]
// from one packed panel of each operand.
func Kernel64(k int, a, b, c []float64) { Kernel64Go(k, a, b, c) }

// SqDist16 returns Σ_t (a_t − b_t)² in float32 for vectors whose length is
// a multiple of 16 (zero-padded points); it panics otherwise.
func SqDist16(a, b []float32) float32 {
	if len(a)%16 != 0 {
		panic("gemm: SqDist16: length is not a multiple of 16")
	}
	return SqDistGo(a, b)
}

func kernel64StridedAVX2(k int, a *float64, lda int, b, c *float64) { panic("gemm: no AVX2") }

func distMask32AVX2(c, an, bn, rthr, cthr *float32, mask *uint16) { panic("gemm: no AVX2") }

// KernelPair64 sets c[:MR·NR64] to the tile of the A panel a against the B
// panel b0 and c[MR·NR64:] to the tile against b1, both of depth k.
func KernelPair64(k int, a, b0, b1, c []float64) {
	Kernel64(k, a, b0, c[:MR*NR64])
	Kernel64(k, a, b1, c[MR*NR64:])
}

func kernel32x2aAVX512(k int, a, b0, b1, c *float32, load int) { panic("gemm: no AVX-512") }

func kernel64x2aAVX512(k int, a, b0, b1, c *float64, load int) { panic("gemm: no AVX-512") }

func kernel32x4aAVX512(k int, a0, a1, b0, b1, c *float32, load int) { panic("gemm: no AVX-512") }

func kernel64x4aAVX512(k int, a0, a1, b0, b1, c *float64, load int) { panic("gemm: no AVX-512") }
