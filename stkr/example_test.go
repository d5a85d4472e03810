package stkr_test

import (
	"context"
	"fmt"
	"math"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/stkr"
)

// A path 0–1–2–3–4–5 with node 0 labelled +1 and node 5 labelled −1: the
// inverse-Laplacian STKR predictor changes sign in the middle. A new node
// attached to node 1 is predicted from its edge alone; its kernel row is
// that of node 0 (also a leaf on node 1), so it gets node 0's prediction.
func ExampleRegressor() {
	edges := []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}, {U: 3, V: 4, W: 1}, {U: 4, V: 5, W: 1}}
	g, err := graph.FromEdges(6, edges, graph.Options{})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	r := &stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 0.1}
	nan := math.NaN()
	if err := r.Fit(ctx, estimator.Nodes{Graph: g}, []float64{1, nan, nan, nan, nan, -1}); err != nil {
		panic(err)
	}
	f, err := r.Predict(ctx, estimator.FittedNodes)
	if err != nil {
		panic(err)
	}
	for i, v := range f.Mean {
		fmt.Printf("node %d: %+.3f\n", i, v)
	}
	nn := estimator.NewNodes{Offsets: []int{0, 1}, Nodes: []int32{1}}
	p, err := r.Predict(ctx, estimator.NodeQuery{New: &nn})
	if err != nil {
		panic(err)
	}
	fmt.Printf("new node next to 1: %+.3f\n", p.Mean[0])
	// Output:
	// node 0: +0.967
	// node 1: +1.520
	// node 2: +0.472
	// node 3: -0.472
	// node 4: -1.520
	// node 5: -0.967
	// new node next to 1: +0.967
}

// The same path as a classifier: node 0 of class 0, node 5 of class 1, the
// others unlabelled (−1). Classes = 3 keeps a column for a third class that
// has no labelled node (a saved model's class names stay its classes); its
// probability is 0 everywhere.
func ExampleClassifier() {
	edges := []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}, {U: 3, V: 4, W: 1}, {U: 4, V: 5, W: 1}}
	g, err := graph.FromEdges(6, edges, graph.Options{})
	if err != nil {
		panic(err)
	}
	r := &stkr.Classifier{Regressor: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 0.1}, Classes: 3}
	labels := []int{0, -1, -1, -1, -1, 1}
	if err := r.Fit(context.Background(), estimator.Nodes{Graph: g}, labels); err != nil {
		panic(err)
	}
	f, err := r.Predict(context.Background(), estimator.FittedNodes)
	if err != nil {
		panic(err)
	}
	probs, classes, _ := stkr.Normalize(f, labels)
	fmt.Println("classes:", classes)
	fmt.Printf("node 2: %.2f\n", probs.RawRowView(2))
	// Output:
	// classes: [0 0 0 1 1 1]
	// node 2: [0.69 0.31 0.00]
}
