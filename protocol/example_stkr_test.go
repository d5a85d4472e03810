package protocol_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/stkr"
)

// The protocol without a split: Cora with only its 140 training labels
// known; η and β chosen by cross-validation over them, then every node
// predicted.
func ExampleChooseSTKRCV() {
	ds, _ := datasets.Cora()
	labels := make([]int, len(ds.Labels))
	for i := range labels {
		labels[i] = -1
	}
	for _, v := range ds.Split.Train {
		labels[v] = ds.Labels[v]
	}
	var cands []*stkr.Classifier
	for _, eta := range []float64{0.5, 0.9} {
		for _, beta := range []float64{0.1, 1} {
			cands = append(cands, &stkr.Classifier{Regressor: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: eta}, Beta: beta}})
		}
	}
	task := protocol.Task{Graph: ds.Graph, Labels: labels, Classes: ds.Classes}
	c, err := protocol.ChooseSTKRCV(context.Background(), task, eval.CV{Folds: 3, Seed: 1}, cands)
	if err != nil {
		fmt.Println(err)
		return
	}
	acc, _ := eval.Accuracy(c.Labels, ds.Labels, ds.Split.Test)
	fmt.Printf("%s β=%g by %d-fold CV (accuracy %.3f); test accuracy %.3f\n", cands[c.Best].Transform, cands[c.Best].Beta, c.Folds, c.Accuracy[c.Best], acc)
	// Output:
	// inverse-laplacian(eta=0.9) β=0.1 by 3-fold CV (accuracy 0.707); test accuracy 0.695
}

// The paper's protocol on Cora in the inductive setting: β is chosen on the
// val nodes with val and test hidden, then the chosen regressor is refitted
// with val visible and predicts the 27 hidden test nodes from their edges.
func ExampleChooseSTKR() {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	if err != nil {
		panic(err)
	}
	part, err := protocol.NewPartition(ds.Graph.Nodes(), *ds.Split, 0.01, 1)
	if err != nil {
		panic(err)
	}
	var candidates []*stkr.Classifier
	for _, beta := range []float64{0.1, 1, 10} {
		candidates = append(candidates, &stkr.Classifier{Regressor: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: beta}})
	}
	task := protocol.Task{Graph: ds.Graph, Labels: ds.Labels, Classes: ds.Classes}
	c, err := protocol.ChooseSTKR(context.Background(), task, part, protocol.Inductive, candidates)
	if err != nil {
		panic(err)
	}
	fmt.Printf("chosen β = %g (val accuracy %.3f with val hidden)\n", candidates[c.Best].Beta, c.Final.ValAccuracy)
	fmt.Printf("refitted on %d of %d nodes: %d of %d test nodes right\n", c.Visible, ds.Graph.Nodes(), c.Final.TestCorrect, c.Final.TestScored)
	// Output:
	// chosen β = 10 (val accuracy 0.620 with val hidden)
	// refitted on 2681 of 2708 nodes: 20 of 27 test nodes right
}
