package laplacian_test

import (
	"fmt"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
)

func ExampleNew() {
	// The path 0 – 1 – 2.
	g, _ := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}}, graph.Options{})
	l, _ := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	y := make([]float64, 3)
	l.MulVecTo(y, []float64{1, 2, 4})
	fmt.Println("L_un x =", y)

	sym, _ := laplacian.New(g, laplacian.Symmetric, laplacian.Options{})
	sym.MulVecTo(y, []float64{1, 1.4142135623730951, 1}) // D^{1/2}·1 spans the null space
	fmt.Printf("L_sym D^½1 = [%.3f %.3f %.3f]\n", y[0], y[1], y[2])

	// Node 2 is isolated: by default its own component, a zero row.
	iso, _ := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 1}}, graph.Options{})
	isoSym, _ := laplacian.New(iso, laplacian.Symmetric, laplacian.Options{})
	isoSym.MulVecTo(y, []float64{1, 1, 5})
	fmt.Println("L_sym x =", y)
	_, err := laplacian.New(iso, laplacian.Symmetric, laplacian.Options{Isolated: laplacian.IsolatedError})
	fmt.Println(err)
	// Output:
	// L_un x = [-1 -1 2]
	// L_sym D^½1 = [0.000 0.000 0.000]
	// L_sym x = [0 0 0]
	// laplacian: node 2 has degree 0, so D^{-1/2} is undefined (isolated-node policy: error); remove isolated nodes or treat each as its own component (IsolatedComponent, the default)
}
