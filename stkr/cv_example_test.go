package stkr_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/stkr"
)

// The protocol without a split: Cora with only its 140 training labels
// known; η and β chosen by cross-validation over them, then every node
// predicted.
func ExampleChooseCV() {
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
	task := stkr.Task{Graph: ds.Graph, Labels: labels, Classes: ds.Classes}
	c, err := stkr.ChooseCV(context.Background(), task, eval.CV{Folds: 3, Seed: 1}, cands)
	if err != nil {
		fmt.Println(err)
		return
	}
	acc, _ := eval.Accuracy(c.Labels, ds.Labels, ds.Split.Test)
	fmt.Printf("%s β=%g by %d-fold CV (accuracy %.3f); test accuracy %.3f\n", cands[c.Best].Transform, cands[c.Best].Beta, c.Folds, c.Accuracy[c.Best], acc)
	// Output:
	// inverse-laplacian(eta=0.9) β=0.1 by 3-fold CV (accuracy 0.707); test accuracy 0.695
}
