package labelprop

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
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
// (eval.NewFolds, eval.CrossValidate). For each a of grid (nil means
// AlphaGrid) and each fold, a copy of base's settings with that a is fitted
// on the other folds' nodes and scored by accuracy on the held-out ones.
// folds 0 means eval.DefaultFolds. base's Alpha is ignored; its Classes,
// when 0, is set from classes so that every fold predicts the same classes.
//
// It costs len(grid)·folds fits. The caller then fits on every labelled
// node with the chosen a.
func ChooseAlpha(ctx context.Context, g *graph.CSR, nodes, classes []int, base *Spreading, grid []float64, folds int, seed uint64) (AlphaChoice, error) {
	if g == nil {
		return AlphaChoice{}, fmt.Errorf("labelprop: ChooseAlpha: no graph")
	}
	if len(nodes) != len(classes) {
		return AlphaChoice{}, fmt.Errorf("labelprop: ChooseAlpha: %d labelled nodes but %d classes", len(nodes), len(classes))
	}
	if grid == nil {
		grid = AlphaGrid()
	}
	n := g.Nodes()
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
	}
	numClasses := base.Classes
	for k, v := range nodes {
		if v < 0 || v >= n {
			return AlphaChoice{}, fmt.Errorf("labelprop: ChooseAlpha: labelled node nodes[%d] = %d is out of range [0, %d)", k, v, n)
		}
		if classes[k] < 0 {
			return AlphaChoice{}, fmt.Errorf("labelprop: ChooseAlpha: node %d has class %d; classes must be ≥ 0", v, classes[k])
		}
		labels[v] = classes[k]
		if base.Classes == 0 {
			numClasses = max(numClasses, classes[k]+1)
		}
	}
	f, err := eval.NewFolds(labels, folds, seed)
	if err != nil {
		return AlphaChoice{}, fmt.Errorf("labelprop: choosing a: %w", err)
	}
	best, acc, err := eval.CrossValidate(ctx, grid, f, func(ctx context.Context, a float64, train, test []int) (int, int, error) {
		m := &Spreading{Alpha: a, Solver: base.Solver, Tol: base.Tol, MaxIter: base.MaxIter, Classes: numClasses,
			ClassMassNormalization: base.ClassMassNormalization, IsolatedSeeds: base.IsolatedSeeds, Ordering: base.Ordering}
		tc := make([]int, len(train))
		for k, v := range train {
			tc[k] = labels[v]
		}
		if err := m.Fit(ctx, g, train, tc); err != nil {
			return 0, 0, err
		}
		pred := m.Labels()
		right := 0
		for _, v := range test {
			if pred[v] == labels[v] {
				right++
			}
		}
		return right, len(test), nil
	})
	if err != nil {
		return AlphaChoice{}, fmt.Errorf("labelprop: choosing a by cross-validation: %w", err)
	}
	return AlphaChoice{Alpha: grid[best], Grid: grid, Accuracy: acc, Folds: f.K}, nil
}
