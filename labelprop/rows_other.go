//go:build !amd64

package labelprop

// stepRows32SIMD reports that there is no assembly kernel.
func stepRows32SIMD(x []float64, c int, p, r, t, u, alpha, beta, on []float64, p32 []float32, w, lo, hi int) bool {
	return false
}

// finish32SIMD reports that there is no assembly kernel.
func finish32SIMD(acc, accD, q, p, s, diag, left, u, d []float64, w, lo, hi int) bool {
	return false
}

// updateRowsSIMD reports that there is no assembly kernel.
func updateRowsSIMD(acc, accD, alpha, r, q, t, d []float64, w, lo, hi int) bool {
	return false
}
