package gemm

// Thin kernels for Gram–Schmidt against a column-major basis: four columns
// of the basis against one vector w, so that w is read once per four
// columns (the single-vector Lanczos of package spectral).

// Dot4 returns the dot products of v0, v1, v2 and v3 with w over the first
// len(w) entries. It panics if a column is shorter than w.
func Dot4(v0, v1, v2, v3, w []float64) [4]float64 {
	n := len(w)
	var s [4]float64
	if n == 0 {
		return s
	}
	v0, v1, v2, v3 = v0[:n], v1[:n], v2[:n], v3[:n]
	body := 0
	if HasAVX2 {
		body = n &^ 7
		if body > 0 {
			var acc [16]float64
			dot4AVX2(body, &v0[0], &v1[0], &v2[0], &v3[0], &w[0], &acc[0])
			for i := range s {
				s[i] = (acc[4*i] + acc[4*i+1]) + (acc[4*i+2] + acc[4*i+3])
			}
		}
	}
	for r := body; r < n; r++ {
		x := w[r]
		s[0] += v0[r] * x
		s[1] += v1[r] * x
		s[2] += v2[r] * x
		s[3] += v3[r] * x
	}
	return s
}

// SubMul4 sets w[r] −= c[0]·v0[r] + c[1]·v1[r] + c[2]·v2[r] + c[3]·v3[r]
// for r < len(w). It panics if a column is shorter than w.
func SubMul4(w, v0, v1, v2, v3 []float64, c [4]float64) {
	n := len(w)
	if n == 0 {
		return
	}
	v0, v1, v2, v3 = v0[:n], v1[:n], v2[:n], v3[:n]
	body := 0
	if HasAVX2 {
		body = n &^ 7
		if body > 0 {
			subMul4AVX2(body, &v0[0], &v1[0], &v2[0], &v3[0], &w[0], &c)
		}
	}
	for r := body; r < n; r++ {
		w[r] -= (c[0]*v0[r] + c[1]*v1[r]) + (c[2]*v2[r] + c[3]*v3[r])
	}
}

// Dot4x2 returns the dot products of v0, v1, v2 and v3 with a (first
// result) and with b (second result) over the first len(a) entries, reading
// each basis column once for both vectors (the one-pass re-orthogonalisation
// of package spectral). It panics if b or a column is shorter than a.
func Dot4x2(v0, v1, v2, v3, a, b []float64) (sa, sb [4]float64) {
	n := len(a)
	if n == 0 {
		return sa, sb
	}
	v0, v1, v2, v3, b = v0[:n], v1[:n], v2[:n], v3[:n], b[:n]
	body := 0
	if HasAVX2 {
		body = n &^ 3
		if body > 0 {
			var acc [32]float64
			dot4x2AVX2(body, &v0[0], &v1[0], &v2[0], &v3[0], &a[0], &b[0], &acc[0])
			for i := range sa {
				sa[i] = (acc[4*i] + acc[4*i+1]) + (acc[4*i+2] + acc[4*i+3])
				sb[i] = (acc[16+4*i] + acc[16+4*i+1]) + (acc[16+4*i+2] + acc[16+4*i+3])
			}
		}
	}
	for r := body; r < n; r++ {
		x, y := a[r], b[r]
		sa[0] += v0[r] * x
		sa[1] += v1[r] * x
		sa[2] += v2[r] * x
		sa[3] += v3[r] * x
		sb[0] += v0[r] * y
		sb[1] += v1[r] * y
		sb[2] += v2[r] * y
		sb[3] += v3[r] * y
	}
	return sa, sb
}

// SubMul4x2 sets a[r] −= Σ_i ca[i]·vi[r] and b[r] −= Σ_i cb[i]·vi[r] for
// r < len(a), reading each basis column once for both vectors. It panics if
// b or a column is shorter than a.
func SubMul4x2(a, b, v0, v1, v2, v3 []float64, ca, cb [4]float64) {
	n := len(a)
	if n == 0 {
		return
	}
	v0, v1, v2, v3, b = v0[:n], v1[:n], v2[:n], v3[:n], b[:n]
	body := 0
	if HasAVX2 {
		body = n &^ 3
		if body > 0 {
			subMul4x2AVX2(body, &v0[0], &v1[0], &v2[0], &v3[0], &a[0], &b[0], &ca, &cb)
		}
	}
	for r := body; r < n; r++ {
		a[r] -= (ca[0]*v0[r] + ca[1]*v1[r]) + (ca[2]*v2[r] + ca[3]*v3[r])
		b[r] -= (cb[0]*v0[r] + cb[1]*v1[r]) + (cb[2]*v2[r] + cb[3]*v3[r])
	}
}
