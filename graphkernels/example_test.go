package graphkernels_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/laplacian"
)

func ring(n int, extra ...graph.Edge) *graph.CSR {
	var e []graph.Edge
	for i := 0; i < n; i++ {
		e = append(e, graph.Edge{U: i, V: (i + 1) % n, W: 1})
	}
	g, err := graph.FromEdges(n, append(e, extra...), graph.Options{})
	if err != nil {
		panic(err)
	}
	return g
}

// Two triangles and a hexagon are both 2-regular on six nodes: the
// Weisfeiler–Lehman test cannot tell them apart (course ch. 7).
func ExampleWeisfeilerLehman() {
	tri, err := graph.FromEdges(6, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 0, W: 1},
		{U: 3, V: 4, W: 1}, {U: 4, V: 5, W: 1}, {U: 5, V: 3, W: 1}}, graph.Options{})
	if err != nil {
		panic(err)
	}
	hex := ring(6)
	chord := ring(6, graph.Edge{U: 0, V: 3, W: 1})
	graphs := []graphkernels.Graph{
		{Adj: tri, Labels: graphkernels.DegreeLabels(tri)},
		{Adj: hex, Labels: graphkernels.DegreeLabels(hex)},
		{Adj: chord, Labels: graphkernels.DegreeLabels(chord)},
	}
	k, err := graphkernels.FitGram(context.Background(), (&graphkernels.Cosine{Kernel: &graphkernels.WeisfeilerLehman{H: 3}}), graphs)
	if err != nil {
		panic(err)
	}
	fmt.Printf("triangles vs hexagon %.2f, hexagon vs hexagon with a chord %.2f\n", k.At(0, 1), k.At(1, 2))
	// Output: triangles vs hexagon 1.00, hexagon vs hexagon with a chord 0.22
}

// Fit on training graphs, then compare a new graph with them. Its label 9
// was never seen: it gets a fresh id, matches no training graph, and counts
// in the new graph's self-similarity (2² + 1 + 1 in round 0, 2² + 1 + 1 in
// round 1).
func ExampleWeisfeilerLehman_Cross() {
	train := []graphkernels.Graph{
		{Adj: ring(4), Labels: []int{0, 1, 0, 1}},
		{Adj: ring(5), Labels: []int{0, 0, 0, 0, 0}},
	}
	wl := &graphkernels.WeisfeilerLehman{H: 1}
	if err := wl.Fit(context.Background(), train); err != nil {
		panic(err)
	}
	cross, self, err := wl.Cross(context.Background(), []graphkernels.Graph{{Adj: ring(4), Labels: []int{0, 1, 0, 9}}})
	if err != nil {
		panic(err)
	}
	fmt.Println(cross.RawRowView(0), self)
	// Output: [8 10] [12]
}

// The diffusion kernel exp(−tL) applied to a vector, without forming it.
func ExampleDiffusion() {
	g := ring(8)
	l, err := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	if err != nil {
		panic(err)
	}
	op, err := graphkernels.Diffusion{T: 0.5}.Operator(l)
	if err != nil {
		panic(err)
	}
	x := make([]float64, 8)
	x[0] = 1 // heat at node 0
	y := make([]float64, 8)
	if err := op.Apply(context.Background(), y, x); err != nil {
		panic(err)
	}
	var total float64
	for _, v := range y {
		total += v
	}
	fmt.Printf("node 0 keeps %.3f, its neighbours get %.3f, heat is conserved: %.6f\n", y[0], y[1], total)
	// Output: node 0 keeps 0.466, its neighbours get 0.208, heat is conserved: 1.000000
}
