package estimatortest_test

import (
	"testing"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/estimatortest"
	"github.com/gssl/gssl/nodeclass"
)

var _ = cover("nodeclass.SepGNN")

func TestSepGNN(t *testing.T) {
	nodes, nl := heteroNodes(t, 60)
	type nodeCase = estimatortest.Case[estimator.Nodes, estimator.NodeQuery]
	estimatortest.Check(t, nodeCase{
		Name: "nodeclass.SepGNN",
		New: func() estimator.Estimator {
			return &nodeclass.SepGNN{Hidden: 4, Epochs: 20, Seed: 1}
		},
		Invalid: map[string]func() estimator.Estimator{
			"Hidden":  func() estimator.Estimator { return &nodeclass.SepGNN{Hidden: -1} },
			"Layers":  func() estimator.Estimator { return &nodeclass.SepGNN{Layers: -1} },
			"Dropout": func() estimator.Estimator { return &nodeclass.SepGNN{Dropout: 1} },
		},
		X: nodes, Labels: nl, FittedRows: 60, Columns: 3, Output: estimatortest.Probabilities,
		Query: estimator.NodeQuery{New: newNodes(), Features: blockFeatures([]int{0, 1, 2}, 3).Grow(0, 1)}, QueryRows: 3,
	})
}
