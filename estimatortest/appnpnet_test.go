package estimatortest_test

import (
	"testing"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/estimatortest"
	"github.com/gssl/gssl/nodeclass"
)

var _ = cover("nodeclass.APPNPNet")

// TestAPPNPNet checks the contract of APPNP with the paper's perceptron: it
// predicts its fitted nodes (as ChannelMLP), probabilities.
func TestAPPNPNet(t *testing.T) {
	nodes, nl := heteroNodes(t, 60)
	type nodeCase = estimatortest.Case[estimator.Nodes, estimator.NodeQuery]
	estimatortest.Check(t, nodeCase{
		Name: "nodeclass.APPNPNet",
		New: func() estimator.Estimator {
			return &nodeclass.APPNPNet{Hidden: 4, Epochs: 20, Seed: 1}
		},
		Invalid: map[string]func() estimator.Estimator{
			"Hidden":  func() estimator.Estimator { return &nodeclass.APPNPNet{Hidden: -1} },
			"Steps":   func() estimator.Estimator { return &nodeclass.APPNPNet{Steps: -1} },
			"Alpha":   func() estimator.Estimator { return &nodeclass.APPNPNet{Alpha: 1} },
			"Dropout": func() estimator.Estimator { return &nodeclass.APPNPNet{Dropout: 1} },
		},
		X: nodes, Labels: nl, FittedRows: 60, Columns: 3, Output: estimatortest.Probabilities,
	})
}
