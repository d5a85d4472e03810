package spectral

import "github.com/gssl/gssl/internal/gemm"

// This file holds the thin kernels of the single-vector Gram–Schmidt: the
// projection c = Vᵀw and the update w −= V·c for a column-major basis V
// restricted to a range of rows, four columns at a time (internal/gemm's
// AVX2/FMA Dot4 and SubMul4) so that w is read once per four columns.

// projectRows sets c[i] = Σ_r v[i·ld + r]·w[r] for i < len(c), r < len(w).
func projectRows(c, v []float64, ld int, w []float64) {
	L := len(w)
	p := len(c)
	i := 0
	for ; i+4 <= p; i += 4 {
		s := gemm.Dot4(v[i*ld:i*ld+L], v[(i+1)*ld:(i+1)*ld+L], v[(i+2)*ld:(i+2)*ld+L], v[(i+3)*ld:(i+3)*ld+L], w)
		c[i], c[i+1], c[i+2], c[i+3] = s[0], s[1], s[2], s[3]
	}
	for ; i < p; i++ {
		v0 := v[i*ld : i*ld+L]
		var s0 float64
		for r, x := range w {
			s0 += v0[r] * x
		}
		c[i] = s0
	}
}

// subtractRows sets w[r] −= Σ_i c[i]·v[i·ld + r] for r < len(w).
func subtractRows(w, v []float64, ld int, c []float64) {
	L := len(w)
	p := len(c)
	i := 0
	for ; i+4 <= p; i += 4 {
		gemm.SubMul4(w, v[i*ld:i*ld+L], v[(i+1)*ld:(i+1)*ld+L], v[(i+2)*ld:(i+2)*ld+L], v[(i+3)*ld:(i+3)*ld+L], [4]float64{c[i], c[i+1], c[i+2], c[i+3]})
	}
	for ; i < p; i++ {
		v0 := v[i*ld : i*ld+L]
		c0 := c[i]
		for r := range w {
			w[r] -= c0 * v0[r]
		}
	}
}

// projectRows2 sets ca[i] = Σ_r v[i·ld + r]·a[r] and cb[i] = Σ_r v[i·ld +
// r]·b[r] for i < len(ca), r < len(a), reading V once for both vectors.
func projectRows2(ca, cb, v []float64, ld int, a, b []float64) {
	L := len(a)
	p := len(ca)
	b = b[:L]
	i := 0
	for ; i+4 <= p; i += 4 {
		sa, sb := gemm.Dot4x2(v[i*ld:i*ld+L], v[(i+1)*ld:(i+1)*ld+L], v[(i+2)*ld:(i+2)*ld+L], v[(i+3)*ld:(i+3)*ld+L], a, b)
		copy(ca[i:i+4], sa[:])
		copy(cb[i:i+4], sb[:])
	}
	for ; i < p; i++ {
		v0 := v[i*ld : i*ld+L]
		var s0, s1 float64
		for r, x := range v0 {
			s0 += x * a[r]
			s1 += x * b[r]
		}
		ca[i], cb[i] = s0, s1
	}
}

// subtractRows2 sets a[r] −= Σ_i ca[i]·v[i·ld + r] and b[r] −= Σ_i
// cb[i]·v[i·ld + r] for r < len(a), reading V once for both vectors.
func subtractRows2(a, b, v []float64, ld int, ca, cb []float64) {
	L := len(a)
	p := len(ca)
	b = b[:L]
	i := 0
	for ; i+4 <= p; i += 4 {
		gemm.SubMul4x2(a, b, v[i*ld:i*ld+L], v[(i+1)*ld:(i+1)*ld+L], v[(i+2)*ld:(i+2)*ld+L], v[(i+3)*ld:(i+3)*ld+L],
			[4]float64{ca[i], ca[i+1], ca[i+2], ca[i+3]}, [4]float64{cb[i], cb[i+1], cb[i+2], cb[i+3]})
	}
	for ; i < p; i++ {
		v0 := v[i*ld : i*ld+L]
		c0, c1 := ca[i], cb[i]
		for r, x := range v0 {
			a[r] -= c0 * x
			b[r] -= c1 * x
		}
	}
}
