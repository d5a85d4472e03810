package knngraph

import "github.com/gssl/gssl/internal/gemm"

//go:noescape
func sqDistU8AVX2(a, b *uint8, n int) uint32

// sqDistU8 returns Σ_t (a_t − b_t)² exactly for byte vectors whose length is
// a multiple of 32 (zero-padded points) and at most 2¹⁵ (so the int32
// lanes cannot overflow).
func sqDistU8(a, b []uint8) uint32 {
	if gemm.HasAVX2 && len(a) > 0 {
		_ = b[len(a)-1]
		return sqDistU8AVX2(&a[0], &b[0], len(a))
	}
	return sqDistU8Go(a, b)
}
