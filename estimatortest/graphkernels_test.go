package estimatortest_test

import (
	"testing"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/estimatortest"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphkernels"
)

var _ = cover("graphkernels.WeisfeilerLehman", "graphkernels.RandomWalk", "graphkernels.Cosine", "graphkernels.WLClassifier",
	"graphkernels.ShortestPath", "graphkernels.VertexHistogram")

// shapeGraphs returns a cycle (class 0), a path (1) and a star (2) of
// every size, with degree labels.
func shapeGraphs(t *testing.T, sizes ...int) ([]graphkernels.Graph, []int) {
	t.Helper()
	build := func(n int, edges [][2]int) graphkernels.Graph {
		es := make([]graph.Edge, len(edges))
		for k, e := range edges {
			es[k] = graph.Edge{U: e[0], V: e[1], W: 1}
		}
		a, err := graph.FromEdges(n, es, graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop})
		if err != nil {
			t.Fatal(err)
		}
		return graphkernels.Graph{Adj: a, Labels: graphkernels.DegreeLabels(a)}
	}
	var gs []graphkernels.Graph
	var labels []int
	for _, n := range sizes {
		var cyc, pth, str [][2]int
		for i := 0; i < n; i++ {
			cyc = append(cyc, [2]int{i, (i + 1) % n})
			if i+1 < n {
				pth = append(pth, [2]int{i, i + 1})
				str = append(str, [2]int{0, i + 1})
			}
		}
		gs = append(gs, build(n, cyc), build(n, pth), build(n, str))
		labels = append(labels, 0, 1, 2)
	}
	return gs, labels
}

type graphCase = estimatortest.Case[[]graphkernels.Graph, []graphkernels.Graph]

func TestGraphModels(t *testing.T) {
	train, labels := shapeGraphs(t, 4, 5, 6, 8)
	test, _ := shapeGraphs(t, 7)
	cases := []graphCase{
		{
			Name: "graphkernels.WeisfeilerLehman",
			New:  func() estimator.Estimator { return &graphkernels.WeisfeilerLehman{H: 2} },
			Invalid: map[string]func() estimator.Estimator{
				"H": func() estimator.Estimator { return &graphkernels.WeisfeilerLehman{H: -1} },
			},
			X: train, Query: test, QueryRows: 3, Columns: 12,
		},
		{
			Name: "graphkernels.RandomWalk",
			New:  func() estimator.Estimator { return &graphkernels.RandomWalk{Lambda: 0.05} },
			Invalid: map[string]func() estimator.Estimator{
				"Lambda":  func() estimator.Estimator { return &graphkernels.RandomWalk{} },
				"Tol":     func() estimator.Estimator { return &graphkernels.RandomWalk{Lambda: 0.05, Tol: 1} },
				"MaxIter": func() estimator.Estimator { return &graphkernels.RandomWalk{Lambda: 0.05, MaxIter: -1} },
			},
			X: train, Query: test, QueryRows: 3, Columns: 12,
		},
		{
			Name: "graphkernels.Cosine",
			New: func() estimator.Estimator {
				return &graphkernels.Cosine{Kernel: &graphkernels.WeisfeilerLehman{H: 1}}
			},
			Invalid: map[string]func() estimator.Estimator{
				"Kernel": func() estimator.Estimator { return &graphkernels.Cosine{} },
			},
			X: train, Query: test, QueryRows: 3, Columns: 12,
		},
		{
			Name: "graphkernels.ShortestPath",
			New:  func() estimator.Estimator { return &graphkernels.ShortestPath{} },
			X:    train, Query: test, QueryRows: 3, Columns: 12,
		},
		{
			Name: "graphkernels.VertexHistogram",
			New:  func() estimator.Estimator { return &graphkernels.VertexHistogram{} },
			X:    train, Query: test, QueryRows: 3, Columns: 12,
		},
		{
			Name: graphkernels.WLClassifierKind,
			New:  func() estimator.Estimator { return &graphkernels.WLClassifier{H: 2, C: 10, Normalize: true} },
			Invalid: map[string]func() estimator.Estimator{
				"H": func() estimator.Estimator { return &graphkernels.WLClassifier{H: 100} },
				"C": func() estimator.Estimator { return &graphkernels.WLClassifier{C: -1} },
			},
			X: train, Labels: labels, Query: test, QueryRows: 3, FittedRows: 12, Columns: 3,
			Output: estimatortest.DecisionValues,
		},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { estimatortest.Check(t, c) })
	}
}
