package gemm

// dot4AVX2 stores in acc[4i:4i+4] the lane sums of Σ_r vi[r]·w[r] over the
// first n entries (n a positive multiple of 8).
//
//go:noescape
func dot4AVX2(n int, v0, v1, v2, v3, w, acc *float64)

// subMul4AVX2 sets w[r] −= Σ_i c[i]·vi[r] over the first n entries (n a
// positive multiple of 8).
//
//go:noescape
func subMul4AVX2(n int, v0, v1, v2, v3, w *float64, c *[4]float64)

// dot4x2AVX2 stores in acc[4i:4i+4] the lane sums of Σ_r vi[r]·a[r] and in
// acc[16+4i:16+4i+4] those of Σ_r vi[r]·b[r] over the first n entries (n a
// positive multiple of 4).
//
//go:noescape
func dot4x2AVX2(n int, v0, v1, v2, v3, a, b, acc *float64)

// subMul4x2AVX2 sets a[r] −= Σ_i ca[i]·vi[r] and b[r] −= Σ_i cb[i]·vi[r]
// over the first n entries (n a positive multiple of 4).
//
//go:noescape
func subMul4x2AVX2(n int, v0, v1, v2, v3, a, b *float64, ca, cb *[4]float64)
