package labelprop_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
)

// Without a validation split: a chosen by 5-fold cross-validation over
// Cora's 140 training labels, then one fit on all of them.
func ExampleChooseAlpha() {
	ds, _ := datasets.Cora()
	nodes := ds.Split.Train
	classes := make([]int, len(nodes))
	for k, v := range nodes {
		classes[k] = ds.Labels[v]
	}
	c, err := labelprop.ChooseAlpha(context.Background(), ds.Graph, nodes, classes, &labelprop.Spreading{}, nil, eval.CV{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := &labelprop.Spreading{Alpha: c.Alpha}
	if err := m.FitIndexed(context.Background(), ds.Graph, nodes, classes); err != nil {
		fmt.Println(err)
		return
	}
	acc, _ := eval.Accuracy(m.Labels(), ds.Labels, ds.Split.Test)
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
