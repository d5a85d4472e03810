package protocol_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/protocol"
)

// Without a validation split: a chosen by 5-fold cross-validation over
// Cora's 140 training labels, then one fit on all of them.
func ExampleChooseAlpha() {
	ds, _ := datasets.Cora()
	x := estimator.Nodes{Graph: ds.Graph}
	labels := make([]int, ds.Graph.Nodes())
	for i := range labels {
		labels[i] = -1
	}
	for _, v := range ds.Split.Train {
		labels[v] = ds.Labels[v]
	}
	base := &labelprop.Spreading{}
	c, err := protocol.ChooseAlpha(context.Background(), x, labels, base, nil, eval.CV{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := base.Clone()
	m.Alpha = c.Alpha
	if err := m.Fit(context.Background(), x, labels); err != nil {
		fmt.Println(err)
		return
	}
	p, _ := m.Predict(context.Background(), estimator.FittedNodes)
	acc, _ := eval.Accuracy(estimator.Argmax(p), ds.Labels, ds.Split.Test)
	fmt.Printf("a = %g by %d-fold CV (accuracy %.3f); test accuracy %.3f\n", c.Alpha, c.Folds, c.Accuracy[indexOf(c.Grid, c.Alpha)], acc)
	// Output:
	// a = 0.95 by 5-fold CV (accuracy 0.736); test accuracy 0.718
}

func indexOf(xs []float64, x float64) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}
