package spectral

// chebPassAVX2 is chebPass on the AVX2 unit for the first n entries (n a
// positive multiple of 4), k = (s, g, f); pc and rc may be nil.
//
//go:noescape
func chebPassAVX2(n int, nx, lc, cc, pc, ru, rc *float64, k *[3]float64)

// scaleRXAVX2 is scaleRX on the AVX2 unit for the first n entries (n a
// positive multiple of 4), u scaled by inv when scale is not 0.
//
//go:noescape
func scaleRXAVX2(n int, u, r, rx *float64, inv float64, scale int)
