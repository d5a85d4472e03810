package propagate_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/propagate"
)

// Smooth the sparse features of a path graph: two SGC steps and the
// personalised-PageRank propagation.
func ExamplePPR() {
	g, _ := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}}, graph.Options{})
	// One feature, set on node 0 only. S̃²x by hand: (S̃e₀)₀ = 1/2,
	// (S̃e₀)₁ = 1/√6, so (S̃²e₀)₀ = 1/4 + 1/6 = 0.417.
	x := propagate.Features{Sparse: &loaders.Sparse{Rows: 4, Cols: 1, Indptr: []int{0, 1, 1, 1, 1}, Indices: []int32{0}, Values: []float64{1}}}
	s := propagate.GCN(g)
	p2, _ := propagate.Power(context.Background(), s, x, 2)
	fmt.Printf("S̃²x:  %.3f\n", mat.Col(nil, 0, p2))
	f, info, _ := propagate.PPR(context.Background(), s, x, 0.9, propagate.Settings{})
	fmt.Printf("PPR x: %.3f (residual ≤ 1e-6: %v)\n", mat.Col(nil, 0, f), info.Residual <= 1e-6)
	// Output:
	// S̃²x:  [0.417 0.340 0.136 0.000]
	// PPR x: [0.356 0.260 0.172 0.115] (residual ≤ 1e-6: true)
}
