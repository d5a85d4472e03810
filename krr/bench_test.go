package krr

import (
	"context"
	"testing"

	"github.com/gssl/gssl/kernel"
)

// BenchmarkFalkonCourse times FALKON on the course's chapter 9 problem
// (n = 3000, d = 5, M = 800, 10 iterations) with each way of applying
// K_nMᵀK_nM; Streamed evaluates K_nM once per CG product.
func BenchmarkFalkonCourse(b *testing.B) {
	x, y, _ := courseProblem(0, 3000, 0.2)
	for _, prod := range []Products{Streamed, NormalMatrix} {
		b.Run(prod.String(), func(b *testing.B) {
			f := &Falkon{Kernel: kernel.Gaussian{Sigma: 1.5}, Lambda: 1e-4, Centres: Centres{M: 800},
				Iterations: 10, Products: prod}
			for b.Loop() {
				if err := f.FitTargets(context.Background(), x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
