package gp

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkLikelihood times one evaluation of the log marginal likelihood
// and its gradient at n = 1001 points (the srmnist 10 % fit of gssl imgp:
// each L-BFGS step of the Euclidean GP is one such evaluation).
func BenchmarkLikelihood(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = 1001, 20
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for t := 0; t < d; t++ {
			x.Set(i, t, rng.NormFloat64())
		}
		y[i] = rng.NormFloat64()
	}
	l := &likelihood{cov: Matern52, d2: sqDistances(x, x), y: y, jitter: 1e-10}
	h := Hyperparameters{Amplitude: 1.5, LengthScale: 4, Noise: 0.1}
	for b.Loop() {
		l.last = Hyperparameters{} // no cache
		if _, _, err := l.eval(h, true); err != nil {
			b.Fatal(err)
		}
	}
}
