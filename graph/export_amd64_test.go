package graph

import "math/bits"

// WithRandomWeights returns a copy of g's pattern with weights in [0.5, 1.5).
func (g *CSR) WithRandomWeights() *CSR {
	h := &CSR{n: g.n, indptr: g.indptr, indices: g.indices, weights: make([]float64, len(g.indices))}
	for k := range h.weights {
		h.weights[k] = 0.5 + float64(k%13)/13
	}
	return h
}

// MulBlock32AVX512 computes rows [lo, hi) of W·X for a float32 block of
// c = 8 or 16 columns (row stride c, aligned to 4c bytes) by the AVX-512
// kernel of its width and weights, the one with the prefetch if pf.
func (g *CSR) MulBlock32AVX512(dst []float64, x []float32, c, lo, hi int, pf bool) {
	_ = dst[(hi-lo)*c-1]
	defer func(b int) { csr32PrefetchBytes = b }(csr32PrefetchBytes)
	csr32PrefetchBytes = 1 << 62
	if pf {
		csr32PrefetchBytes = 0
	}
	g.mulBlock32AVX512(&dst[0], x, bits.TrailingZeros(uint(4*c)), c, lo, hi)
}

// HasCSR512 reports whether the AVX-512 kernels run.
func HasCSR512() bool { return hasCSR512 }
