package estimatortest_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/estimatortest"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/linbp"
	"github.com/gssl/gssl/mlp"
	"github.com/gssl/gssl/nodeclass"
)

var _ = cover("mlp.Classifier", "nodeclass.ChannelMLP", "linbp.Propagation")

// heteroNodes is a 3-class graph of n nodes whose edges join class k to
// k+1 mod 3, with 4 noisy features and every third node labelled.
func heteroNodes(t *testing.T, n int) (estimator.Nodes, []int) {
	rng := rand.New(rand.NewPCG(12, 13))
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		for e := 0; e < 2; e++ {
			j := 3*rng.IntN(n/3) + (i%3+1)%3
			edges = append(edges, graph.Edge{U: i, V: j, W: 1})
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop})
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(n, 4, nil)
	labels := make([]int, n)
	for i := range labels {
		for j := 0; j < 4; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
		x.Set(i, i%3, x.At(i, i%3)+1)
		labels[i] = -1
		if i%2 == 0 {
			labels[i] = i % 3
		}
	}
	return estimator.Nodes{Graph: g, Features: x}, labels
}

func TestHeteroModels(t *testing.T) {
	x, y, labels, q := pointData(60, 7, false)
	_ = y
	estimatortest.Check(t, pointCase{
		Name: "mlp.Classifier",
		New:  func() estimator.Estimator { return &mlp.Classifier{Hidden: 4, Epochs: 20, Seed: 1} },
		Invalid: map[string]func() estimator.Estimator{
			"Hidden":  func() estimator.Estimator { return &mlp.Classifier{Hidden: -1} },
			"Dropout": func() estimator.Estimator { return &mlp.Classifier{Dropout: 1} },
		},
		X: x, Labels: labels, Query: q, QueryRows: 7, Columns: 3, Output: estimatortest.Probabilities,
	})
	nodes, nl := heteroNodes(t, 60)
	type nodeCase = estimatortest.Case[estimator.Nodes, estimator.NodeQuery]
	estimatortest.Check(t, nodeCase{
		Name: "nodeclass.ChannelMLP",
		New: func() estimator.Estimator {
			return &nodeclass.ChannelMLP{Rank: 2, MLP: mlp.Classifier{Hidden: 4, Epochs: 20, Seed: 1}}
		},
		Invalid: map[string]func() estimator.Estimator{
			"Rank": func() estimator.Estimator { return &nodeclass.ChannelMLP{Rank: -1} },
		},
		X: nodes, Labels: nl, FittedRows: 60, Columns: 3, Output: estimatortest.Probabilities,
	})
	estimatortest.Check(t, nodeCase{
		Name: "linbp.Propagation",
		New:  func() estimator.Estimator { return &linbp.Propagation{Alpha: 0.5} },
		Invalid: map[string]func() estimator.Estimator{
			"Alpha": func() estimator.Estimator { return &linbp.Propagation{Alpha: 1.5} },
		},
		X: nodes, Labels: nl, FittedRows: 60, Columns: 3, Output: estimatortest.Probabilities,
	})
}
