package protocol

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/loaders"
)

// FitReport describes a node classifier fitted on a data set: its kind,
// the data, the nodes predicted per class name and the fit's Info.
type FitReport struct {
	Kind      string         `json:"kind"`
	Data      string         `json:"data"`
	Nodes     int            `json:"nodes"`
	Labelled  int            `json:"labelled"`
	Classes   int            `json:"classes"`
	Predicted map[string]int `json:"predicted"` // nodes per predicted class name
	Info      estimator.Info `json:"info"`
	Saved     string         `json:"saved,omitempty"`
	Out       string         `json:"out,omitempty"`
}

// FitNodes fits m (of kind) on the nodes and labels of ds, read from
// source, and returns the scores of every node and the report.
func FitNodes(ctx context.Context, kind string, m estimator.NodeClassifier, ds *loaders.NodeDataset, source string) (*mat.Dense, FitReport, error) {
	if err := m.Fit(ctx, ds.EstimatorNodes(), ds.Labels); err != nil {
		return nil, FitReport{}, fmt.Errorf("%s: %w", kind, err)
	}
	scores, err := m.Predict(ctx, estimator.FittedNodes)
	if err != nil {
		return nil, FitReport{}, fmt.Errorf("%s: %w", kind, err)
	}
	n, classes := scores.Dims()
	r := FitReport{Kind: kind, Data: source, Nodes: n, Labelled: len(ds.Labelled()), Classes: classes, Predicted: map[string]int{}, Info: m.Info()}
	for _, c := range estimator.Argmax(scores) {
		r.Predicted[ds.ClassName(c)]++
	}
	return scores, r, nil
}

// ScoreTable is the table of scores of the nodes of ds: per node its id,
// its predicted class (the argmax) and its score of each class.
func ScoreTable(ds *loaders.NodeDataset, scores *mat.Dense) (cols []string, rows int, row func(r int, rec []any)) {
	_, classes := scores.Dims()
	pred := estimator.Argmax(scores)
	cols = []string{"id", "predicted"}
	for c := range classes {
		cols = append(cols, "score_"+ds.ClassName(c))
	}
	return cols, len(pred), func(r int, rec []any) {
		rec[0], rec[1] = ds.NodeID(r), ds.ClassName(pred[r])
		for c := range classes {
			rec[2+c] = scores.At(r, c)
		}
	}
}
