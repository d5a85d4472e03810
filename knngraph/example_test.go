package knngraph_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/knngraph"
)

func ExampleExact() {
	x, _ := knngraph.FromRows([][]float64{{0, 0}, {1, 0}, {0, 2}, {3, 3}})
	nb, err := knngraph.Exact(context.Background(), x, 2, nil)
	if err != nil {
		panic(err)
	}
	for i := 0; i < nb.N; i++ {
		idx, d2 := nb.Row(i)
		fmt.Println(i, idx, d2)
	}
	// Output:
	// 0 [1 2] [1 4]
	// 1 [0 2] [1 5]
	// 2 [0 1] [4 5]
	// 3 [2 1] [10 13]
}

func ExampleGraph_Weights() {
	x, _ := knngraph.FromRows([][]float64{{0}, {1}, {2}, {4}})
	nb, _ := knngraph.Exact(context.Background(), x, 1, nil)
	g, _ := knngraph.NewGraph(nb, knngraph.Or)
	w, _ := g.Weights(1) // α = 1: Ã_ij = exp(−d²/4); node 3 (at 4) links to node 2 at d² = 4
	fmt.Printf("edges %d (self loops %d)\n", g.Dist2.Edges(), g.Dist2.SelfLoops())
	cols, at := w.Tilde.Row(1)
	fmt.Printf("row 1 of Ã: %v %.4f\n", cols, at)
	fmt.Printf("D̃: %.4f\n", w.DTilde)
	// Output:
	// edges 7 (self loops 4)
	// row 1 of Ã: [0 1 2] [0.7788 1.0000 0.7788]
	// D̃: [1.7788 2.5576 2.1467 1.3679]
}

func ExampleWeights_Extend() {
	x, _ := knngraph.FromRows([][]float64{{0}, {1}, {2}, {4}})
	nb, _ := knngraph.Exact(context.Background(), x, 1, nil)
	g, _ := knngraph.NewGraph(nb, knngraph.Or)
	w, _ := g.Weights(1)
	// The 2 nearest graph nodes of the new point 1.5.
	q, _ := knngraph.Query(context.Background(), x, mat.NewDense(1, 1, []float64{1.5}), 2, nil)
	idx, d2 := q.Row(0)
	e, _ := w.Extend(idx, d2)
	fmt.Println(e.Index, d2)
	fmt.Printf("Ã(x,·) %.4f  D̃(x) %.4f  A(x,·) %.4f  D(x) %.4f\n", e.Tilde, e.DTilde, e.A, e.D)
	// Output:
	// [1 2] [0.25 0.25]
	// Ã(x,·) [0.9394 0.9394]  D̃(x) 1.8788  A(x,·) [0.1955 0.2329]  D(x) 0.4284
}

func ExampleApproximate() {
	// A 20×20 grid: each point's 4 nearest neighbours are at distance 1
	// (3 or 2 on the border, then diagonals at √2).
	var rows [][]float64
	for i := 0; i < 20; i++ {
		for j := 0; j < 20; j++ {
			rows = append(rows, []float64{float64(i), float64(j)})
		}
	}
	x, _ := knngraph.FromRows(rows)
	nb, err := knngraph.Approximate(context.Background(), x, 4, &knngraph.Descent{Seed: 1})
	if err != nil {
		panic(err)
	}
	idx, d2 := nb.Row(21) // point (1, 1)
	fmt.Println(idx, d2)
	// Output:
	// [1 20 22 41] [1 1 1 1]
}

func ExampleApproximateBytes() {
	// Four 2×2 images of bytes, one per row of 4 pixels: the nearest other
	// image of each, with its squared distance in pixel units.
	images := []uint8{
		0, 0, 0, 0,
		0, 0, 0, 10,
		200, 200, 0, 0,
		200, 210, 0, 0,
	}
	nb, err := knngraph.ApproximateBytes(context.Background(), images, 4, 1, &knngraph.Descent{Seed: 1})
	if err != nil {
		panic(err)
	}
	for i := 0; i < nb.N; i++ {
		idx, d2 := nb.Row(i)
		fmt.Println(i, idx, d2)
	}
	// Output:
	// 0 [1] [100]
	// 1 [0] [100]
	// 2 [3] [100]
	// 3 [2] [100]
}
