package eval

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
)

// fixedScores is a node classifier whose scores are fixed: class-1 score
// s[i] for node i, class-0 score 1 − s[i] (plus bias).
type fixedScores struct {
	s      []float64
	fitted bool
}

func (f *fixedScores) Validate() error      { return nil }
func (f *fixedScores) Info() estimator.Info { return estimator.Info{} }
func (f *fixedScores) String() string       { return "fixed" }
func (f *fixedScores) Fit(context.Context, estimator.Nodes, []int) error {
	f.fitted = true
	return nil
}
func (f *fixedScores) Predict(context.Context, estimator.NodeQuery) (*mat.Dense, error) {
	p := mat.NewDense(len(f.s), 2, nil)
	for i, v := range f.s {
		p.Set(i, 0, 1-v)
		p.Set(i, 1, v)
	}
	return p, nil
}

// mannWhitney is the AUC by counting every positive–negative pair.
func mannWhitney(s []float64, labels []int, idx []int) float64 {
	var num, den float64
	for _, i := range idx {
		for _, j := range idx {
			if labels[i] == 1 && labels[j] == 0 {
				den++
				switch {
				case s[i] > s[j]:
					num++
				case s[i] == s[j]:
					num += 0.5
				}
			}
		}
	}
	return num / den
}

// TestChooseNodeByMetric: on an imbalanced binary task, a model answering
// the majority class wins on accuracy and a model that ranks well but
// decides badly wins on ROC AUC, whose score is the pairwise count.
func TestChooseNodeByMetric(t *testing.T) {
	const n = 40
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
		if i%5 == 0 {
			labels[i] = 1
		}
	}
	majority := &fixedScores{s: make([]float64, n)} // always class 0
	ranker := &fixedScores{s: make([]float64, n)}
	for i := range ranker.s {
		// Above 0.5 for every node (class 1 always decided), higher for
		// the positives except one.
		ranker.s[i] = 0.6 + 0.01*float64(i%7)
		if labels[i] == 1 && i != 5 {
			ranker.s[i] = 0.9
		}
	}
	val := make([]int, 0, n/2)
	for i := 0; i < n; i += 2 {
		val = append(val, i)
	}
	x := estimator.Nodes{Graph: g}
	cands := func() []estimator.NodeClassifier { return []estimator.NodeClassifier{majority, ranker} }
	acc, err := ChooseNodeBy(context.Background(), MetricAccuracy, cands(), x, labels, val, CV{})
	if err != nil {
		t.Fatal(err)
	}
	auc, err := ChooseNodeBy(context.Background(), MetricROCAUC, cands(), x, labels, val, CV{})
	if err != nil {
		t.Fatal(err)
	}
	if acc.Index != 0 || auc.Index != 1 {
		t.Errorf("accuracy chose %d (scores %v), AUC chose %d (scores %v); want 0 and 1", acc.Index, acc.Scores, auc.Index, auc.Scores)
	}
	if want := mannWhitney(ranker.s, labels, val); auc.Scores[1] != want || auc.Scores[0] != 0.5 {
		t.Errorf("AUC scores %v, want [0.5 %v]", auc.Scores, want)
	}
}

func TestMetricFor(t *testing.T) {
	for _, tc := range []struct {
		s       string
		classes int
		want    Metric
	}{{"auto", 2, MetricROCAUC}, {"auto", 7, MetricAccuracy}, {"", 2, MetricROCAUC}, {"accuracy", 2, MetricAccuracy}, {"auc", 7, MetricROCAUC}} {
		m, err := MetricFor(tc.s, tc.classes)
		if err != nil || m != tc.want {
			t.Errorf("MetricFor(%q, %d) = %v, %v; want %v", tc.s, tc.classes, m, err, tc.want)
		}
	}
	if _, err := MetricFor("f1", 2); err == nil || err.Error() != `metric "f1" is not one of accuracy, auc, auto` {
		t.Errorf("MetricFor(f1): %v", err)
	}
}
