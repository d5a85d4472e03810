package logreg_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/logreg"
)

// Fit three classes on one feature and predict new points; −1 marks a row
// the fit ignores.
func ExampleClassifier() {
	x := mat.NewDense(7, 1, []float64{-2, -1.5, 0, 0.2, 1.8, 2.2, 5})
	y := []int{0, 0, 1, 1, 2, 2, -1}
	m := logreg.Classifier{L2: 0.01}
	if err := m.Fit(context.Background(), x, y); err != nil {
		fmt.Println(err)
		return
	}
	p, _ := m.Predict(context.Background(), mat.NewDense(3, 1, []float64{-3, 0.1, 3}))
	fmt.Println(estimator.Argmax(p))
	// Output:
	// [0 1 2]
}
