package svm

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// TwoMoons returns n points of the two interleaving half circles of
// scikit-learn's make_moons (the course's SVM example): ⌊n/2⌋ points of
// class 0 on (cos θ, sin θ) and the rest of class 1 on
// (1 − cos θ, 1/2 − sin θ), θ evenly spaced in [0, π], shuffled, plus
// Gaussian noise of standard deviation noise on each coordinate. The
// random stream is PCG(seed, …): the same seed gives the same points, but
// not scikit-learn's.
func TwoMoons(n int, noise float64, seed uint64) (*mat.Dense, []int, error) {
	if n < 2 {
		return nil, nil, fmt.Errorf("svm: TwoMoons n=%d is invalid: it must be ≥ 2", n)
	}
	if !(noise >= 0) || math.IsInf(noise, 0) {
		return nil, nil, fmt.Errorf("svm: TwoMoons noise=%v is invalid: it must be finite and ≥ 0", noise)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d6f6f6e73))
	out := n / 2
	in := n - out
	x := make([]float64, 2*n)
	y := make([]int, n)
	linspace := func(k, m int) float64 {
		if m == 1 {
			return 0
		}
		return math.Pi * float64(k) / float64(m-1)
	}
	for k := 0; k < out; k++ {
		th := linspace(k, out)
		x[2*k], x[2*k+1] = math.Cos(th), math.Sin(th)
	}
	for k := 0; k < in; k++ {
		th := linspace(k, in)
		p := out + k
		x[2*p], x[2*p+1] = 1-math.Cos(th), 0.5-math.Sin(th)
		y[p] = 1
	}
	rng.Shuffle(n, func(i, j int) {
		x[2*i], x[2*j] = x[2*j], x[2*i]
		x[2*i+1], x[2*j+1] = x[2*j+1], x[2*i+1]
		y[i], y[j] = y[j], y[i]
	})
	for i := range x {
		x[i] += noise * rng.NormFloat64()
	}
	return mat.NewDense(n, 2, x), y, nil
}
