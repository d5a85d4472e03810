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
