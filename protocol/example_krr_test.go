package protocol_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/protocol"
)

// Test error against the number of Nyström centres M on the two circles:
// one FALKON fit per M, the same seed, so the smaller centre sets are
// inside the larger ones.
func ExampleSweepCentres() {
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
	y, _ := krr.OneHot(labels, 2)
	f := &krr.Falkon{Kernel: kernel.Gaussian{Sigma: 0.5}, Lambda: 1e-4, Centres: krr.Centres{Seed: 1}, Iterations: 10}
	sweep, err := protocol.SweepCentres(context.Background(), f, []int{2, 10, 100}, x, y, xt)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range sweep {
		wrong := 0
		for i, c := range estimator.Argmax(p.Prediction) {
			if c != truth[i] {
				wrong++
			}
		}
		fmt.Printf("M = %3d: test error %4.1f%%\n", p.M, 100*float64(wrong)/500)
	}
	// Output:
	// M =   2: test error 50.0%
	// M =  10: test error 19.0%
	// M = 100: test error  0.2%
}
