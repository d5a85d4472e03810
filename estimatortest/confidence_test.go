package estimatortest_test

import (
	"testing"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/estimatortest"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/labelprop"
)

var _ = cover("confidence.Classifier")

func TestConfidenceContract(t *testing.T) {
	// Two 20-node rings with chords, joined by two edges; 8 labelled nodes
	// in each ring, so that Fit holds out 2 of each class.
	var edges []graph.Edge
	for r := 0; r < 2; r++ {
		for i := 0; i < 20; i++ {
			edges = append(edges, graph.Edge{U: 20*r + i, V: 20*r + (i+1)%20, W: 1},
				graph.Edge{U: 20*r + i, V: 20*r + (i+7)%20, W: 0.3})
		}
	}
	edges = append(edges, graph.Edge{U: 3, V: 25, W: 0.5}, graph.Edge{U: 14, V: 31, W: 0.5})
	g, err := graph.FromEdges(40, edges, graph.Options{Duplicates: graph.DuplicateMax})
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, 40)
	for i := range labels {
		labels[i] = -1
		if i%5 < 2 {
			labels[i] = i / 20
		}
	}
	nn := &estimator.NewNodes{Offsets: []int{0, 2, 2}, Nodes: []int32{1, 27}, Weights: []float64{1, 0.25}}
	estimatortest.Check(t, estimatortest.Case[estimator.Nodes, estimator.NodeQuery]{
		// The file is the base model's, with the calibration beside it.
		Name: labelprop.SpreadingKind,
		New: func() estimator.Estimator {
			return &confidence.Classifier{Base: &labelprop.Spreading{Alpha: 0.8}, Alpha: 0.2, Seed: 3}
		},
		Invalid: map[string]func() estimator.Estimator{
			"Base":    func() estimator.Estimator { return &confidence.Classifier{} },
			"Holdout": func() estimator.Estimator { return &confidence.Classifier{Base: &labelprop.Spreading{}, Holdout: 1} },
			"Alpha":   func() estimator.Estimator { return &confidence.Classifier{Base: &labelprop.Spreading{}, Alpha: -0.1} },
		},
		X: estimator.Nodes{Graph: g}, Labels: labels, Query: estimator.NodeQuery{New: nn},
		QueryRows: 2, FittedRows: 40, Columns: 2, Output: estimatortest.Probabilities,
	})
}
