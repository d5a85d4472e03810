package spectral

import "github.com/gssl/gssl/internal/gemm"

// This file holds the thin kernels of the single-vector Gram–Schmidt: the
// projection c = Vᵀw and the update w −= V·c for a column-major basis V
// restricted to a range of rows, four columns at a time (internal/gemm's
// AVX2/FMA Dot4 and SubMul4) so that w is read once per four columns. The
// last one to three columns run on the same kernels, the last of them
// repeated to fill the four: the repeated dot products are dropped and the
// repeated updates get a zero coefficient (c·v + 0·v = c·v exactly), so
// every column takes the vector path.

// cols4 returns the four columns i, …, i+3 of the p columns of v (ld apart,
// L entries each), the last one repeated past column p−1.
func cols4(v []float64, ld, L, i, p int) (v0, v1, v2, v3 []float64) {
	col := func(c int) []float64 {
		c = min(c, p-1)
		return v[c*ld : c*ld+L]
	}
	return col(i), col(i + 1), col(i + 2), col(i + 3)
}

// coef4 returns c[i:i+4], zero past len(c).
func coef4(c []float64, i int) [4]float64 {
	var s [4]float64
	copy(s[:], c[i:])
	return s
}

// projectRows sets c[i] = Σ_r v[i·ld + r]·w[r] for i < len(c), r < len(w).
func projectRows(c, v []float64, ld int, w []float64) {
	L := len(w)
	p := len(c)
	for i := 0; i < p; i += 4 {
		v0, v1, v2, v3 := cols4(v, ld, L, i, p)
		s := gemm.Dot4(v0, v1, v2, v3, w)
		copy(c[i:], s[:])
	}
}

// subtractRows sets w[r] −= Σ_i c[i]·v[i·ld + r] for r < len(w).
func subtractRows(w, v []float64, ld int, c []float64) {
	L := len(w)
	p := len(c)
	for i := 0; i < p; i += 4 {
		v0, v1, v2, v3 := cols4(v, ld, L, i, p)
		gemm.SubMul4(w, v0, v1, v2, v3, coef4(c, i))
	}
}

// projectRows2 sets ca[i] = Σ_r v[i·ld + r]·a[r] and cb[i] = Σ_r v[i·ld +
// r]·b[r] for i < len(ca), r < len(a), reading V once for both vectors.
func projectRows2(ca, cb, v []float64, ld int, a, b []float64) {
	L := len(a)
	p := len(ca)
	b = b[:L]
	for i := 0; i < p; i += 4 {
		v0, v1, v2, v3 := cols4(v, ld, L, i, p)
		sa, sb := gemm.Dot4x2(v0, v1, v2, v3, a, b)
		copy(ca[i:p], sa[:])
		copy(cb[i:p], sb[:])
	}
}

// subtractRows2 sets a[r] −= Σ_i ca[i]·v[i·ld + r] and b[r] −= Σ_i
// cb[i]·v[i·ld + r] for r < len(a), reading V once for both vectors.
func subtractRows2(a, b, v []float64, ld int, ca, cb []float64) {
	L := len(a)
	p := len(ca)
	b = b[:L]
	for i := 0; i < p; i += 4 {
		v0, v1, v2, v3 := cols4(v, ld, L, i, p)
		gemm.SubMul4x2(a, b, v0, v1, v2, v3, coef4(ca, i), coef4(cb, i))
	}
}
