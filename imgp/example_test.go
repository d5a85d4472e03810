package imgp_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/imgp"
)

// Regress a smooth function of the angle on a circle in R^3 from a quarter of
// the points labelled, and predict at a new point on the circle.
func ExampleRegressor() {
	x, y := circle(120)
	r := &imgp.Regressor{K: 6, Eigenpairs: 20, Iterations: 30, Seed: 1}
	if err := r.Fit(context.Background(), x, y); err != nil {
		fmt.Println(err)
		return
	}
	th := 1.0
	p, err := r.Predict(context.Background(), mat.NewDense(1, 3, []float64{math.Cos(th), math.Sin(th), 0}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("sin(1) = %.2f, predicted %.2f\n", math.Sin(th), p.Mean[0])
	// The paper's procedure (no rank-L refit) is one field away.
	paper := &imgp.Regressor{K: 6, Eigenpairs: 20, Iterations: 30, Seed: 1, Procedure: imgp.ProcedurePaper}
	if err := paper.Fit(context.Background(), x, y); err != nil {
		fmt.Println(err)
		return
	}
	if p, err = paper.Predict(context.Background(), mat.NewDense(1, 3, []float64{math.Cos(th), math.Sin(th), 0})); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("paper's procedure: predicted %.2f\n", p.Mean[0])
	// Output:
	// sin(1) = 0.84, predicted 0.85
	// paper's procedure: predicted 0.85
}

// The marginal likelihood of the labelled targets at the fitted
// hyperparameters: exact (determinant lemma) for these 30 labels, and by
// stochastic Lanczos quadrature with a standard error when forced.
func ExampleRegressor_LogMarginalLikelihood() {
	x, y := circle(120)
	ctx := context.Background()
	r := &imgp.Regressor{K: 6, Eigenpairs: 20, Iterations: 30, Seed: 1}
	if err := r.Fit(ctx, x, y); err != nil {
		fmt.Println(err)
		return
	}
	exact, err := r.LogMarginalLikelihood(ctx, imgp.LikelihoodSettings{})
	if err != nil {
		fmt.Println(err)
		return
	}
	slq, err := r.LogMarginalLikelihood(ctx, imgp.LikelihoodSettings{ExactLabels: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("exact %v; SLQ within 4 standard errors: %v\n", exact.Exact, math.Abs(slq.Value-exact.Value) <= 4*slq.StdErr)
	// Output:
	// exact true; SLQ within 4 standard errors: true
}

// circle returns n points on the unit circle in R^3 with every fourth one
// labelled by sin of its angle, the others NaN (unknown).
func circle(n int) (x *mat.Dense, y []float64) {
	x = mat.NewDense(n, 3, nil)
	y = make([]float64, n)
	for i := 0; i < n; i++ {
		th := 2 * math.Pi * float64(i) / float64(n)
		x.SetRow(i, []float64{math.Cos(th), math.Sin(th), 0})
		y[i] = math.NaN()
		if i%4 == 0 {
			y[i] = math.Sin(th)
		}
	}
	return x, y
}
