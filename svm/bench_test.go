package svm

import (
	"context"
	"testing"

	"github.com/gssl/gssl/kernel"
)

// BenchmarkSVC times a one-vs-one fit on n two-moons points with a Gaussian
// kernel (σ = 0.5) for small and large C.
func BenchmarkSVC(b *testing.B) {
	for _, n := range []int{300, 1000} {
		x, labels, err := TwoMoons(n, 0.3, 0)
		if err != nil {
			b.Fatal(err)
		}
		k, err := kernel.Gram(kernel.Gaussian{Sigma: 0.5}, x, x)
		if err != nil {
			b.Fatal(err)
		}
		idx := seq(0, n)
		g := SubGram(k, idx)
		for _, c := range []float64{1, 1000} {
			b.Run("", func(b *testing.B) {
				b.ReportMetric(float64(n), "points")
				b.ReportMetric(c, "C")
				for b.Loop() {
					m := &SVC{C: c}
					if err := m.Fit(context.Background(), g, labels); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
