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
	if err := m.Fit(context.Background(), ds.Graph, nodeclass.Features{Sparse: ds.Features}, labels); err != nil {
		fmt.Println(err)
		return
	}
	p, _ := m.Probabilities()
	acc, _ := eval.Accuracy(estimator.Argmax(p), ds.Labels, ds.Split.Test)
	fmt.Printf("%v: test accuracy %.3f\n", m, acc)
	// Output:
	// sgc(K=2, L2=0.001): test accuracy 0.809
}

// The protocol of gssl classify --model auto, with two candidates instead
// of its grids: the base chosen on the validation nodes, then Correct &
// Smooth's grid on the chosen model.
func ExampleEvaluate() {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	if err != nil {
		fmt.Println(err)
		return
	}
	search := nodeclass.Search{Candidates: []nodeclass.Base{&nodeclass.SGC{}, &nodeclass.APPNP{}}, CorrectSmooth: true}
	out, err := nodeclass.Evaluate(context.Background(), search, ds.Graph, nodeclass.Features{Sparse: ds.Features}, ds.Labels, *ds.Split, eval.CV{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("base %s: test %.3f\n%s: test %.3f\n", out.Base, out.BaseTest, out.Model, out.Test)
	// Output:
	// base appnp(a=0.9, L2=0.001): test 0.825
	// correct-smooth(appnp(a=0.9, L2=0.001), α1=0.5, α2=0.9, scale=1): test 0.809
}

// New nodes from their edges to fitted nodes and their features: here
// copies of five test nodes of Cora, which the frozen-known rule predicts
// as the fitted model predicted the nodes themselves.
func ExampleSGC_PredictNodes() {
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
	if err := m.Fit(ctx, ds.Graph, nodeclass.Features{Sparse: ds.Features}, labels); err != nil {
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
	x := nodeclass.Features{Dense: ds.Features.Dense(copies)}
	p, err := m.PredictNodes(ctx, nodes, x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fitted, _ := m.Probabilities()
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
