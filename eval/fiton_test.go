package eval

import (
	"context"
	"slices"
	"testing"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
)

// validatedScores is fixedScores that records the validation nodes and
// labels FitValidated was given.
type validatedScores struct {
	fixedScores
	val, valLabels, train []int
	plainFits             int
}

func (v *validatedScores) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	v.plainFits++
	return v.fixedScores.Fit(ctx, x, labels)
}

func (v *validatedScores) FitValidated(_ context.Context, _ estimator.Nodes, labels, val, valLabels []int) error {
	v.train, v.val, v.valLabels = slices.Clone(labels), slices.Clone(val), slices.Clone(valLabels)
	v.fitted = true
	return nil
}

// TestChooseNodeStopsOnVal: a candidate that stops early on validation
// nodes is given the split's val nodes with their labels, and training
// labels without them; without val nodes it is fitted plainly per fold.
func TestChooseNodeStopsOnVal(t *testing.T) {
	const n = 20
	var edges []graph.Edge
	for i := 0; i+1 < n; i++ {
		edges = append(edges, graph.Edge{U: i, V: i + 1, W: 1})
	}
	g, err := graph.FromEdges(n, edges, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % 2
	}
	val := []int{3, 8, 13}
	c := &validatedScores{fixedScores: fixedScores{s: make([]float64, n)}}
	if _, err := ChooseNodeBy(context.Background(), MetricAccuracy, []estimator.NodeClassifier{c}, estimator.Nodes{Graph: g}, labels, val, CV{}); err != nil {
		t.Fatal(err)
	}
	if c.plainFits != 0 || !slices.Equal(c.val, val) || !slices.Equal(c.valLabels, []int{1, 0, 1}) {
		t.Errorf("plain fits %d, val %v with labels %v; want 0, %v with [1 0 1]", c.plainFits, c.val, c.valLabels, val)
	}
	for _, i := range val {
		if c.train[i] != -1 {
			t.Errorf("val node %d is labelled %d in the training labels", i, c.train[i])
		}
	}
	c = &validatedScores{fixedScores: fixedScores{s: make([]float64, n)}}
	if _, err := ChooseNodeBy(context.Background(), MetricAccuracy, []estimator.NodeClassifier{c}, estimator.Nodes{Graph: g}, labels, nil, CV{Folds: 2, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if c.plainFits != 3 || c.val != nil {
		t.Errorf("without val: %d plain fits, FitValidated given %v; want 3 (2 folds and the refit) and none", c.plainFits, c.val)
	}
}
