package gp_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/gp"
)

// Fit a Matérn 5/2 GP to samples of sin and predict between them.
func ExampleRegressor() {
	n := 20
	x := mat.NewDense(n, 1, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		x.Set(i, 0, float64(i)/3)
		y[i] = math.Sin(float64(i) / 3)
	}
	r := &gp.Regressor{}
	if err := r.Fit(context.Background(), x, y); err != nil {
		fmt.Println(err)
		return
	}
	p, _ := r.Predict(context.Background(), mat.NewDense(1, 1, []float64{2.5}))
	fmt.Printf("sin(2.5) = %.3f, predicted %.3f ± %.2f\n", math.Sin(2.5), p.Mean[0], 2*math.Sqrt(p.Variance[0]))
	// Output:
	// sin(2.5) = 0.598, predicted 0.598 ± 0.01
}
