package krylov_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// Solve (I − aS) f = (1 − a) y, the label-spreading system of Zhou et al.,
// on a 4-cycle with one labelled node.
func ExampleCG() {
	g, _ := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}, {U: 3, V: 0, W: 1}}, graph.Options{})
	s, _ := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	a := 0.9
	sys := linop.Affine{A: s, Scale: -a, Shift: 1}
	b := []float64{1 - a, 0, 0, 0}
	f := make([]float64, 4)
	res, err := krylov.CG(context.Background(), sys, b, f, krylov.Settings{Tol: 1e-10})
	fmt.Println(err, res.Iterations <= 4, res.Residual <= 1e-10)
	fmt.Printf("f = [%.4f %.4f %.4f %.4f]\n", f[0], f[1], f[2], f[3])
	// Output:
	// <nil> true true
	// f = [0.3132 0.2368 0.2132 0.2368]
}

// Solve the indefinite system (S − 0.5 I) X = B on a 4-cycle for two
// right-hand sides at once: one block product per iteration, each column's
// MINRES as krylov.MINRES runs it, and a zero column solved at once.
func ExampleMINRESColumns() {
	g, _ := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}, {U: 3, V: 0, W: 1}}, graph.Options{})
	s, _ := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	sys := linop.Affine{A: s, Scale: 1, Shift: -0.5}
	b := mat.NewDense(4, 2, []float64{1, 0, 0, 0, 0, 0, 0, 0})
	x := mat.NewDense(4, 2, nil)
	res, err := krylov.MINRESColumns(context.Background(), sys, b, x, krylov.Settings{Tol: 1e-10})
	fmt.Println(err, res.Iterations, res.MaxResidual() <= 1e-10)
	fmt.Printf("x₀ = [%.4f %.4f %.4f %.4f]\n", x.At(0, 0), x.At(1, 0), x.At(2, 0), x.At(3, 0))
	// Output:
	// <nil> [3 0] true
	// x₀ = [-0.6667 0.6667 1.3333 0.6667]
}
