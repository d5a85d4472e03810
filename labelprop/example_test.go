package labelprop_test

import (
	"context"
	"fmt"
	"github.com/gssl/gssl/estimator"
	"log"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/labelprop"
)

// twoTriangles returns two triangles 0-1-2 and 3-4-5 joined by the edge 2-3.
func twoTriangles() *graph.CSR {
	g, err := graph.FromEdges(6, []graph.Edge{
		{U: 0, V: 1, W: 1}, {U: 0, V: 2, W: 1}, {U: 1, V: 2, W: 1},
		{U: 2, V: 3, W: 1},
		{U: 3, V: 4, W: 1}, {U: 3, V: 5, W: 1}, {U: 4, V: 5, W: 1},
	}, graph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	return g
}

func ExampleSpreading() {
	g := twoTriangles()
	// Node 0 is of class 0 and node 5 of class 1; every other node is
	// unlabelled (−1).
	m := labelprop.Spreading{Alpha: 0.9}
	if err := m.Fit(context.Background(), estimator.Nodes{Graph: g}, []int{0, -1, -1, -1, -1, 1}); err != nil {
		log.Fatal(err)
	}
	fmt.Println("labels:", m.Labels())
	p := m.Probabilities()
	fmt.Printf("P(node 2 in class 0) = %.2f, P(node 3 in class 0) = %.2f\n", p.At(2, 0), p.At(3, 0))
	// Output:
	// labels: [0 0 0 1 1 1]
	// P(node 2 in class 0) = 0.63, P(node 3 in class 0) = 0.37
}

func ExampleHarmonic() {
	g := twoTriangles()
	m := labelprop.Harmonic{}
	if err := m.Fit(context.Background(), estimator.Nodes{Graph: g}, []int{0, -1, -1, -1, -1, 1}); err != nil {
		log.Fatal(err)
	}
	fmt.Println("labels:", m.Labels())
	// The harmonic solution is exact here: node 2 scores 5/7 for class 0.
	fmt.Printf("P(node 2 in class 0) = %.4f\n", m.Probabilities().At(2, 0))
	// Output:
	// labels: [0 0 0 1 1 1]
	// P(node 2 in class 0) = 0.7143
}

// A node that was not in the graph at fit time, with edges to nodes 1 and 2
// (weight 1) and to node 4 (weight 0.5), is predicted from the fitted scores.
func ExampleSpreading_Predict() {
	g := twoTriangles()
	m := labelprop.Spreading{Alpha: 0.9}
	if err := m.Fit(context.Background(), estimator.Nodes{Graph: g}, []int{0, -1, -1, -1, -1, 1}); err != nil {
		log.Fatal(err)
	}
	nn := estimator.NewNodes{Offsets: []int{0, 3}, Nodes: []int32{1, 2, 4}, Weights: []float64{1, 1, 0.5}}
	p, err := m.Predict(context.Background(), estimator.NodeQuery{New: &nn})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("class %d, probabilities %.2f\n", estimator.Argmax(p)[0], p.RawRowView(0))
	// Output:
	// class 0, probabilities [0.59 0.41]
}
