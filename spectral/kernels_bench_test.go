package spectral

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDenseKernels times the block Gram–Schmidt products and the
// Rayleigh–Ritz rotation in the eigensolver's shapes (PubMed-sized basis:
// n = 20000 rows, 154 columns, 130 in use, block of 4).
func BenchmarkDenseKernels(b *testing.B) {
	const n, cols, p, blk, keep = 20000, 154, 130, 4, 75
	rng := rand.New(rand.NewPCG(1, 2))
	v := randDense(rng, n, cols)
	w := randDense(rng, n, blk)
	c := make([]float64, blk*p)
	s := randDense(rng, 100, keep).RawMatrix().Data
	b.Run("gramT", func(b *testing.B) {
		for b.Loop() {
			gramT(c, v, 0, p, w)
		}
		b.ReportMetric(float64(b.N)*float64(n*p*8)/b.Elapsed().Seconds()/1e9, "GB/s")
	})
	b.Run("subMul", func(b *testing.B) {
		for b.Loop() {
			subMul(w, v, 0, p, c)
		}
		b.ReportMetric(float64(b.N)*float64(n*p*8)/b.Elapsed().Seconds()/1e9, "GB/s")
	})
	b.Run("rotate", func(b *testing.B) {
		for b.Loop() {
			rotate(v, 0, 100, s, keep, 0)
		}
		b.ReportMetric(float64(b.N)*float64(2*n*100*keep)/b.Elapsed().Seconds()/1e9, "Gflop/s")
	})
}
