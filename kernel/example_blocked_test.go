package kernel_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/kernel"
)

// K(X, C)·v without storing K: three points, two centres.
func ExampleNewMatrix() {
	x := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 2})
	c := mat.NewDense(2, 2, []float64{0, 0, 1, 0})
	km, err := kernel.NewMatrix(kernel.Gaussian{Sigma: 1}, x, c, kernel.Float64, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	v := mat.NewDense(2, 1, []float64{1, -1})
	kv := mat.NewDense(3, 1, nil)
	km.MulTo(kv, v) // k(x_i, c_1) − k(x_i, c_2)
	fmt.Printf("%.4f\n", mat.Formatted(kv.T()))
	// Output:
	// [ 0.3935  -0.3935   0.0533]
}
