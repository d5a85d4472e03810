package spectral

import (
	"fmt"
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

// BenchmarkSingleVectorKernels times the single-vector Lanczos passes over
// a column-major basis (n = 20000 rows, MNIST/PubMed-sized): one delayed
// CGS2 step (two-vector projection and update over 100 and 200 columns)
// and the restart rotations 101 → 75 and 201 → 150 columns.
func BenchmarkSingleVectorKernels(b *testing.B) {
	const n = 20000
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dims := range [][2]int{{101, 75}, {201, 150}} {
		m, p := dims[0], dims[1]
		v := make([]float64, (m+1)*n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		s := make([]float64, m*p)
		for i := range s {
			s[i] = rng.NormFloat64()
		}
		x, y := v[m*n:], make([]float64, n)
		ca, cb := make([]float64, m), make([]float64, m)
		b.Run(fmt.Sprintf("project2/m=%d", m), func(b *testing.B) {
			for b.Loop() {
				projectRows2(ca, cb, v, n, x, y)
			}
			b.ReportMetric(float64(b.N)*float64(n*m*8)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
		b.Run(fmt.Sprintf("subtract2/m=%d", m), func(b *testing.B) {
			for b.Loop() {
				subtractRows2(x, y, v, n, ca, cb)
			}
			b.ReportMetric(float64(b.N)*float64(n*m*8)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
		dst := make([]float64, n*p)
		b.Run(fmt.Sprintf("rotate/%d-%d", m, p), func(b *testing.B) {
			for b.Loop() {
				rotateColMajor(dst, v, n, m, s, p)
			}
			b.ReportMetric(float64(b.N)*float64(2*n*m*p)/b.Elapsed().Seconds()/1e9, "Gflop/s")
		})
	}
}
