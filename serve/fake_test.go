package serve

import (
	"context"
	"fmt"
	"math"
)

// fake is a small classifier: the fitted nodes carry known class
// probabilities, and a new node gets the weighted mean of its neighbours'
// (the prior when no weight reaches it). Points of dimension 2 are class
// "B" when x₀ + x₁ > 0. It is safe for concurrent use (read-only).
type fake struct {
	ids   map[string]int
	probs [][]float64
	block chan struct{} // when not nil, predictions wait for it to close
}

func newFake() *fake {
	return &fake{
		ids:   map[string]int{"a1": 0, "a2": 1, "b1": 2},
		probs: [][]float64{{0.9, 0.1}, {0.7, 0.3}, {0.2, 0.8}},
	}
}

func (f *fake) Metadata() Metadata {
	return Metadata{Kind: "test.Fake", Task: Classification, Classes: []string{"A", "B"}, Nodes: 3, Features: 2, ExampleIDs: []string{"a1", "b1"}}
}

func (f *fake) wait(ctx context.Context) error {
	if f.block == nil {
		return nil
	}
	select {
	case <-f.block:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *fake) PredictNodes(ctx context.Context, nodes []NewNode) ([]Prediction, error) {
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	out := make([]Prediction, len(nodes))
	for i, n := range nodes {
		p := make([]float64, 2)
		var sum float64
		for k, e := range n.Edges {
			j, ok := f.ids[e.To]
			if !ok {
				return nil, &InputError{Field: fmt.Sprintf("nodes[%d].edges[%d].to", i, k), Msg: fmt.Sprintf("unknown node id %q: the model was fitted on 3 nodes", e.To)}
			}
			for c := range p {
				p[c] += e.Weight * f.probs[j][c]
			}
			sum += e.Weight
		}
		prior := !(sum > 0)
		if prior {
			p = []float64{0.5, 0.5}
		} else {
			for c := range p {
				p[c] /= sum
			}
		}
		label := "A"
		if p[1] > p[0] {
			label = "B"
		}
		out[i] = Prediction{Label: label, Probabilities: p, Prior: prior}
	}
	return out, nil
}

func (f *fake) PredictPoints(ctx context.Context, points [][]float64) ([]Prediction, error) {
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	out := make([]Prediction, len(points))
	for i, x := range points {
		if len(x) != 2 {
			return nil, &InputError{Field: fmt.Sprintf("points[%d]", i), Msg: fmt.Sprintf("%d features, the model was fitted on 2", len(x))}
		}
		s := 1 / (1 + math.Exp(-(x[0] + x[1])))
		label := "A"
		if s > 0.5 {
			label = "B"
		}
		out[i] = Prediction{Label: label, Probabilities: []float64{1 - s, s}}
	}
	return out, nil
}

// regFake is a regression model of points: mean x₀, variance 1 + x₁².
type regFake struct{}

func (regFake) Metadata() Metadata { return Metadata{Kind: "test.Reg", Task: Regression, Features: 2} }

func (regFake) PredictNodes(ctx context.Context, nodes []NewNode) ([]Prediction, error) {
	return nil, &InputError{Field: "nodes", Msg: "this model predicts points, not nodes"}
}

func (regFake) PredictPoints(ctx context.Context, points [][]float64) ([]Prediction, error) {
	out := make([]Prediction, len(points))
	for i, x := range points {
		m, v := x[0], 1+x[1]*x[1]
		out[i] = Prediction{Mean: &m, Variance: &v}
	}
	return out, nil
}

// PredictGraphs makes fake a classifier of graphs too: a graph is class
// "B" with probability (edges + 1)/(edges + nodes + 2), and the label of its
// node 0 (when labelled) must not be negative.
func (f *fake) PredictGraphs(ctx context.Context, graphs []Graph) ([]Prediction, error) {
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	out := make([]Prediction, len(graphs))
	for i, g := range graphs {
		if len(g.Labels) > 0 && g.Labels[0] < 0 {
			return nil, &InputError{Field: fmt.Sprintf("graphs[%d].labels[0]", i), Msg: "a negative label"}
		}
		if g.Labels != nil && len(g.Labels) != g.Nodes {
			panic("fake: labels do not match the node count") // the decoder checks it
		}
		for _, e := range g.Edges {
			if min(e[0], e[1]) < 0 || max(e[0], e[1]) >= g.Nodes {
				panic("fake: an edge out of range") // the decoder checks it
			}
		}
		b := float64(len(g.Edges)+1) / float64(len(g.Edges)+g.Nodes+2)
		label := "A"
		if b > 0.5 {
			label = "B"
		}
		out[i] = Prediction{Label: label, Probabilities: []float64{1 - b, b}}
	}
	return out, nil
}
