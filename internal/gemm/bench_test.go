package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkKernel measures the micro-kernels alone on one tile at K = 784
// (operands in cache), in Gflop/s.
func BenchmarkKernel(b *testing.B) {
	const k = 784
	b.Run("float32", func(b *testing.B) { benchKernel(b, k, Kernel32) })
	b.Run("float64", func(b *testing.B) { benchKernel(b, k, Kernel64) })
}

func benchKernel[T Float](b *testing.B, k int, kern func(int, []T, []T, []T)) {
	a := make([]T, MR*k)
	p := make([]T, NR[T]()*k)
	c := make([]T, MR*NR[T]())
	for b.Loop() {
		kern(k, a, p, c)
	}
	b.ReportMetric(float64(b.N)*2*float64(MR*NR[T]()*k)/b.Elapsed().Seconds()/1e9, "Gflop/s")
}

// BenchmarkParallelMulTTo measures whole products in FALKON's shapes: a
// block of 256 points against M = 1000 centres at K = 784 (the kernel
// block), and the upper triangle of SᵀS for a 256×1000 block S (the normal
// matrix), in Gflop/s of the work done.
func BenchmarkParallelMulTTo(b *testing.B) {
	const k, m, n = 784, 256, 1000
	b.Run("kernel-block/float32", func(b *testing.B) { benchMulT[float32](b, m, n, k) })
	b.Run("kernel-block/float64", func(b *testing.B) { benchMulT[float64](b, m, n, k) })
	b.Run("normal-upper/float64", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(1, 1))
		s := randRow(rng, m*n)
		a := NewPanels[float64](n, m, MR, nil)
		p := NewPanels[float64](n, m, NR64, nil)
		a.SetColumns(s, n)
		p.SetColumns(s, n)
		c := make([]float64, n*n)
		b.ReportAllocs()
		for b.Loop() {
			ParallelAddUpperTo(c, n, 1, a, p)
		}
		b.ReportMetric(float64(b.N)*float64(n*(n+1)*m)/b.Elapsed().Seconds()/1e9, "Gflop/s")
	})
}

func benchMulT[T Float](b *testing.B, m, n, k int) {
	rng := rand.New(rand.NewPCG(1, 1))
	pa := NewPanels[T](m, k, MR, nil)
	pb := NewPanels[T](n, k, NR[T](), nil)
	for i := 0; i < m; i++ {
		pa.SetRow(i, randRow(rng, k), nil, 1)
	}
	for j := 0; j < n; j++ {
		pb.SetRow(j, randRow(rng, k), nil, 1)
	}
	c := make([]float64, m*n)
	b.ReportAllocs()
	for b.Loop() {
		ParallelMulTTo(c, n, pa, pb)
	}
	b.ReportMetric(float64(b.N)*2*float64(m*n*k)/b.Elapsed().Seconds()/1e9, fmt.Sprintf("Gflop/s"))
}
