package protocol

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
)

// AlphaChoice is the outcome of ChooseAlpha.
type AlphaChoice struct {
	// Alpha is the chosen a: the best pooled cross-validation accuracy, the
	// first in grid order on ties.
	Alpha float64
	// Grid holds the values tried and Accuracy their pooled accuracies over
	// the held-out labelled nodes.
	Grid, Accuracy []float64
	// Folds is the number of folds used (fewer than asked for when a class
	// has fewer labelled nodes; see eval.NewFolds).
	Folds int
}

// ChooseAlpha chooses the spreading weight a without a validation split: by
// seeded stratified k-fold cross-validation over the labelled nodes
// (labels[i] ≥ 0; eval.SelectByCV). The candidates are AlphaCandidates of
// base and grid (nil means labelprop.AlphaGrid); for each and each fold a clone is
// fitted on the other folds' nodes and scored by accuracy on the held-out
// ones. cv.Folds 0 means eval.DefaultFolds; cv.Order nil deals the nodes
// into folds in index order. When base's Classes is 0 the candidates' is
// set from labels, so that every fold predicts the same classes.
//
// It costs len(grid)·folds fits. The caller then fits on every labelled
// node with the chosen a.
func ChooseAlpha(ctx context.Context, x estimator.Nodes, labels []int, base *labelprop.Spreading, grid []float64, cv eval.CV) (AlphaChoice, error) {
	if x.Graph == nil {
		return AlphaChoice{}, fmt.Errorf("labelprop: ChooseAlpha: no graph")
	}
	if n := x.Graph.Nodes(); len(labels) != n {
		return AlphaChoice{}, fmt.Errorf("labelprop: ChooseAlpha: %d labels for a graph of %d nodes", len(labels), n)
	}
	if grid == nil {
		grid = labelprop.AlphaGrid()
	}
	cands := labelprop.AlphaCandidates(base, grid)
	if base.Classes == 0 {
		classes := 0
		for i, c := range labels {
			if c < -1 {
				return AlphaChoice{}, fmt.Errorf("labelprop: ChooseAlpha: labels[%d] = %d is invalid: a class is ≥ 0, and −1 marks an unlabelled node", i, c)
			}
			classes = max(classes, c+1)
		}
		for _, m := range cands {
			m.Classes = classes
		}
	}
	f, err := cv.NewFolds(labels)
	if err != nil {
		return AlphaChoice{}, fmt.Errorf("labelprop: choosing a: %w", err)
	}
	best, acc, err := eval.SelectByCV(ctx, x, labels, cands, f)
	if err != nil {
		return AlphaChoice{}, fmt.Errorf("labelprop: choosing a by cross-validation: %w", err)
	}
	return AlphaChoice{Alpha: grid[best], Grid: grid, Accuracy: acc, Folds: f.K}, nil
}
