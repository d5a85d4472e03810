package estimatortest_test

import (
	"testing"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/estimatortest"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/labelprop"
)

var _ = cover(labelprop.SpreadingKind, labelprop.HarmonicKind)

// labelpropData is a small graph for the label-propagation cases: two
// 6-node rings joined by one edge, a labelled node on each, and two new
// nodes (one with edges into each ring, one with no edge).
func labelpropData(t *testing.T) (estimator.Nodes, []int, estimator.NodeQuery) {
	t.Helper()
	var edges []graph.Edge
	for r := 0; r < 2; r++ {
		for i := 0; i < 6; i++ {
			edges = append(edges, graph.Edge{U: 6*r + i, V: 6*r + (i+1)%6, W: 1 + 0.1*float64(i)})
		}
	}
	edges = append(edges, graph.Edge{U: 2, V: 9, W: 0.5})
	g, err := graph.FromEdges(12, edges, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	labels := []int{0, -1, -1, 0, -1, -1, 1, -1, -1, -1, 1, -1}
	nn := &estimator.NewNodes{Offsets: []int{0, 2, 2}, Nodes: []int32{1, 7}, Weights: []float64{1, 0.25}}
	return estimator.Nodes{Graph: g}, labels, estimator.NodeQuery{New: nn}
}

func TestLabelpropContract(t *testing.T) {
	x, labels, q := labelpropData(t)
	estimatortest.Check(t, estimatortest.Case[estimator.Nodes, estimator.NodeQuery]{
		Name: labelprop.SpreadingKind,
		New:  func() estimator.Estimator { return &labelprop.Spreading{Alpha: 0.8} },
		Invalid: map[string]func() estimator.Estimator{
			"Alpha":         func() estimator.Estimator { return &labelprop.Spreading{Alpha: 1.5} },
			"Tol":           func() estimator.Estimator { return &labelprop.Spreading{Tol: 2} },
			"MaxIter":       func() estimator.Estimator { return &labelprop.Spreading{MaxIter: -1} },
			"Classes":       func() estimator.Estimator { return &labelprop.Spreading{Classes: -1} },
			"Solver":        func() estimator.Estimator { return &labelprop.Spreading{Solver: 9} },
			"LabelTol":      func() estimator.Estimator { return &labelprop.Spreading{Stop: labelprop.StopLabels, LabelTol: 1} },
			"LabelPatience": func() estimator.Estimator { return &labelprop.Spreading{LabelPatience: -1} },
			"Float32":       func() estimator.Estimator { return &labelprop.Spreading{Float32: true, Solver: labelprop.CG} },
			"IsolatedSeeds": func() estimator.Estimator { return &labelprop.Spreading{IsolatedSeeds: 7} },
			"Ordering":      func() estimator.Estimator { return &labelprop.Spreading{Ordering: 7} },
		},
		X: x, Labels: labels, Query: q, QueryRows: 2, FittedRows: 12, Columns: 2, Output: estimatortest.Probabilities,
	})
	estimatortest.Check(t, estimatortest.Case[estimator.Nodes, estimator.NodeQuery]{
		Name: labelprop.HarmonicKind,
		New:  func() estimator.Estimator { return &labelprop.Harmonic{ClassMassNormalization: true} },
		Invalid: map[string]func() estimator.Estimator{
			"Tol":            func() estimator.Estimator { return &labelprop.Harmonic{Tol: -1} },
			"MaxIter":        func() estimator.Estimator { return &labelprop.Harmonic{MaxIter: -1} },
			"Classes":        func() estimator.Estimator { return &labelprop.Harmonic{Classes: -2} },
			"Preconditioner": func() estimator.Estimator { return &labelprop.Harmonic{Preconditioner: 5} },
			"IsolatedSeeds":  func() estimator.Estimator { return &labelprop.Harmonic{IsolatedSeeds: 7} },
			"Ordering":       func() estimator.Estimator { return &labelprop.Harmonic{Ordering: 7} },
		},
		X: x, Labels: labels, Query: q, QueryRows: 2, FittedRows: 12, Columns: 2, Output: estimatortest.Probabilities,
	})
}
