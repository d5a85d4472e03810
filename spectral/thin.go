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
