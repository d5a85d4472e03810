package labelprop

import (
	"context"
	"fmt"
	"math"
	"time"

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
// (cv.NewFolds, eval.CrossValidate). For each a of grid (nil means
// AlphaGrid) and each fold, a copy of base's settings with that a is fitted
// on the other folds' nodes and scored by accuracy on the held-out ones.
// cv.Folds 0 means eval.DefaultFolds; cv.Order nil deals the nodes into
// folds in the order of nodes. base's Alpha is ignored; its Classes, when
// 0, is set from classes so that every fold predicts the same classes.
//
// It costs len(grid)·folds fits. The caller then fits on every labelled
// node with the chosen a.
func ChooseAlpha(ctx context.Context, g *graph.CSR, nodes, classes []int, base *Spreading, grid []float64, cv eval.CV) (AlphaChoice, error) {
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
	if cv.Order == nil {
		cv.Order = nodes
	}
	f, err := cv.NewFolds(labels)
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
		if err := m.FitIndexed(ctx, g, train, tc); err != nil {
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

// SplitChoice is the outcome of ChooseOnSplit.
type SplitChoice struct {
	// Best indexes the chosen value of the grid and Model is its model,
	// fitted on the training nodes.
	Best  int
	Model Classifier
	// Per value of the grid: accuracy on the validation and the test nodes
	// (NaN without such nodes), iterations and fit seconds.
	GridVal, GridTest []float64
	GridIterations    []int
	GridSeconds       []float64
	// The chosen model's accuracies and macro-F1 on the test nodes (NaN
	// without nodes).
	Val, Test, MacroF1 float64
}

// ChooseOnSplit is the benchmark protocol of a train/validation/test split:
// one model per value of grid (newModel(v), e.g. label spreading with a =
// v) fitted on the training nodes with their labels, the one with the best
// validation accuracy chosen (the first in grid order on ties; with a
// single value there is nothing to choose and no validation node is
// needed), and scored on the test nodes. labels[i] is node i's class, −1
// when unknown; every split node must be labelled.
func ChooseOnSplit(ctx context.Context, g *graph.CSR, labels []int, classes int, split eval.Split, grid []float64, newModel func(v float64) Classifier) (SplitChoice, error) {
	if len(split.Train) == 0 {
		return SplitChoice{}, fmt.Errorf("labelprop: the split has no training node")
	}
	if len(grid) > 1 && len(split.Val) == 0 {
		return SplitChoice{}, fmt.Errorf("labelprop: choosing among %d values needs validation nodes, and the split has none", len(grid))
	}
	if len(labels) != g.Nodes() {
		return SplitChoice{}, fmt.Errorf("labelprop: %d labels for a graph of %d nodes", len(labels), g.Nodes())
	}
	train := make([]int, len(split.Train))
	for k, v := range split.Train {
		if v < 0 || v >= len(labels) || labels[v] < 0 {
			return SplitChoice{}, fmt.Errorf("labelprop: training node %d has no label", v)
		}
		train[k] = labels[v]
	}
	accuracy := func(m Classifier, idx []int) float64 {
		if len(idx) == 0 {
			return math.NaN()
		}
		a, err := eval.Accuracy(m.Labels(), labels, idx)
		if err != nil {
			return math.NaN()
		}
		return a
	}
	var c SplitChoice
	// Only the best model so far is kept (the first of the largest
	// validation accuracy, eval.FirstBest's rule), so that a grid holds at
	// most two fitted models at a time, not one per value.
	var kept Classifier
	keptAt, keptVal := -1, math.Inf(-1)
	best, _, err := eval.GridSearch(ctx, grid, func(ctx context.Context, v float64) (float64, error) {
		m := newModel(v)
		t0 := time.Now()
		if err := m.FitIndexed(ctx, g, split.Train, train); err != nil {
			return 0, err
		}
		c.GridSeconds = append(c.GridSeconds, time.Since(t0).Seconds())
		c.GridTest = append(c.GridTest, accuracy(m, split.Test))
		c.GridIterations = append(c.GridIterations, m.Info().Iterations)
		a := accuracy(m, split.Val)
		c.GridVal = append(c.GridVal, a)
		score := a
		if math.IsNaN(a) { // no validation nodes (a single value): nothing to choose
			score = 0
		}
		if keptAt < 0 || score > keptVal {
			kept, keptAt, keptVal = m, len(c.GridVal)-1, score
		}
		return score, nil
	})
	if err != nil {
		return SplitChoice{}, err
	}
	if best != keptAt {
		return SplitChoice{}, fmt.Errorf("labelprop: internal error: grid search chose value %d, the kept model is %d", best, keptAt)
	}
	c.Best, c.Model = best, kept
	c.Val, c.Test, c.MacroF1 = c.GridVal[best], c.GridTest[best], math.NaN()
	if len(split.Test) > 0 {
		if f1, err := eval.MacroF1(c.Model.Labels(), labels, split.Test, classes); err == nil {
			c.MacroF1 = f1
		}
	}
	return c, nil
}
