package sgemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkKernel measures the micro-kernel alone on one MR×NR tile at
// K = 784 (operands in cache), in Gflop/s.
func BenchmarkKernel(b *testing.B) {
	const k = 784
	a := make([]float32, MR*k)
	p := make([]float32, NR*k)
	c := make([]float32, MR*NR)
	for b.Loop() {
		Kernel(k, a, p, c)
	}
	b.ReportMetric(float64(b.N)*2*MR*NR*k/b.Elapsed().Seconds()/1e9, "Gflop/s")
}

// BenchmarkParallelMulTTo measures a whole product (FALKON's kernel block
// shape: 256 points against M centres at K = 784) in Gflop/s.
func BenchmarkParallelMulTTo(b *testing.B) {
	const k = 784
	rng := rand.New(rand.NewPCG(1, 1))
	for _, sz := range []struct{ m, n int }{{256, 1000}, {2048, 1000}} {
		pa := NewPanels(sz.m, k, MR, nil)
		pb := NewPanels(sz.n, k, NR, nil)
		for i := 0; i < sz.m; i++ {
			pa.SetRow(i, randRow(rng, k), nil, 1)
		}
		for j := 0; j < sz.n; j++ {
			pb.SetRow(j, randRow(rng, k), nil, 1)
		}
		c := make([]float64, sz.m*sz.n)
		b.Run(fmt.Sprintf("%dx%d", sz.m, sz.n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ParallelMulTTo(c, sz.n, pa, pb)
			}
			b.ReportMetric(float64(b.N)*2*float64(sz.m*sz.n*k)/b.Elapsed().Seconds()/1e9, "Gflop/s")
		})
	}
}
