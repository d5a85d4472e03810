package krr_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
)

// Two classes on two noisy concentric circles: a classifier on FALKON
// (one-hot targets) with 100 uniform centres and 10 CG iterations.
func ExampleClassifier() {
	rng := rand.New(rand.NewPCG(1, 2))
	points := func(n int) (*mat.Dense, []int) {
		x := mat.NewDense(n, 2, nil)
		labels := make([]int, n)
		for i := range labels {
			labels[i] = i % 2
			r := 1 + float64(labels[i]) + 0.2*rng.NormFloat64()
			a := 2 * math.Pi * rng.Float64()
			x.Set(i, 0, r*math.Cos(a))
			x.Set(i, 1, r*math.Sin(a))
		}
		return x, labels
	}
	x, labels := points(2000)
	xt, truth := points(500)
	c := &krr.Classifier{Model: &krr.Falkon{
		Kernel:     kernel.Gaussian{Sigma: 0.5},
		Lambda:     1e-4,
		Centres:    krr.Centres{M: 100, Seed: 1},
		Iterations: 10,
	}}
	if err := c.Fit(context.Background(), x, labels); err != nil {
		fmt.Println(err)
		return
	}
	scores, _ := c.Predict(context.Background(), xt)
	wrong := 0
	for i, k := range estimator.Argmax(scores) {
		if k != truth[i] {
			wrong++
		}
	}
	fmt.Printf("test error %.1f%% after %d iterations\n", 100*float64(wrong)/500, c.Info().Iterations)
	// Output:
	// test error 0.2% after 10 iterations
}
