package nodeclass_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeclass"
)

// SGC with its defaults on Cora's Planetoid split: logistic regression on
// S̃²X fitted on the 140 training nodes.
func ExampleSGC() {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	if err != nil {
		fmt.Println(err)
		return
	}
	labels := make([]int, len(ds.Labels))
	for i := range labels {
		labels[i] = -1
	}
	for _, i := range ds.Split.Train {
		labels[i] = ds.Labels[i]
	}
	m := &nodeclass.SGC{}
	if err := m.Fit(context.Background(), estimator.Nodes{Graph: ds.Graph, Features: ds.Features}, labels); err != nil {
		fmt.Println(err)
		return
	}
	p, _ := m.Predict(context.Background(), estimator.FittedNodes)
	acc, _ := eval.Accuracy(estimator.Argmax(p), ds.Labels, ds.Split.Test)
	fmt.Printf("%v: test accuracy %.3f\n", m, acc)
	// Output:
	// sgc(K=2, L2=0.001): test accuracy 0.809
}

// New nodes from their edges to fitted nodes and their features: here
// copies of five test nodes of Cora, which the frozen-known rule predicts
// as the fitted model predicted the nodes themselves.
func ExampleSGC_Predict() {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	if err != nil {
		fmt.Println(err)
		return
	}
	labels := make([]int, len(ds.Labels))
	for i := range labels {
		labels[i] = -1
	}
	for _, i := range ds.Split.Train {
		labels[i] = ds.Labels[i]
	}
	m := &nodeclass.SGC{}
	ctx := context.Background()
	if err := m.Fit(ctx, estimator.Nodes{Graph: ds.Graph, Features: ds.Features}, labels); err != nil {
		fmt.Println(err)
		return
	}
	copies := ds.Split.Test[:5]
	nodes := estimator.NewNodes{Offsets: []int{0}}
	for _, i := range copies {
		cols, ws := ds.Graph.Row(i)
		nodes.Nodes = append(nodes.Nodes, cols...)
		nodes.Weights = append(nodes.Weights, ws...)
		nodes.Offsets = append(nodes.Offsets, len(nodes.Nodes))
	}
	p, err := m.Predict(ctx, estimator.NodeQuery{New: &nodes, Features: ds.Features.Dense(copies)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fitted, _ := m.Predict(context.Background(), estimator.FittedNodes)
	all := estimator.Argmax(fitted)
	same := 0
	for k, c := range estimator.Argmax(p) {
		if c == all[copies[k]] {
			same++
		}
	}
	fmt.Printf("%d of %d new nodes predicted as the nodes they copy\n", same, len(copies))
	// Output:
	// 5 of 5 new nodes predicted as the nodes they copy
}
