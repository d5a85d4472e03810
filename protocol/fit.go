package protocol

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
)

// FitReport describes a node classifier fitted on a data set: its kind,
// the data, the nodes predicted per class name and the fit's Info; with a
// split, the split and the accuracies on its validation and test nodes
// (nil where the split has none); the times in seconds.
type FitReport struct {
	Kind         string         `json:"kind"`
	Data         string         `json:"data"`
	Nodes        int            `json:"nodes"`
	Labelled     int            `json:"labelled"`
	Classes      int            `json:"classes"`
	Predicted    map[string]int `json:"predicted"` // nodes per predicted class name
	Info         estimator.Info `json:"info"`
	Split        string         `json:"split,omitempty"`
	ValAccuracy  any            `json:"val_accuracy,omitempty"`
	TestAccuracy any            `json:"test_accuracy,omitempty"`
	LoadSeconds  float64        `json:"load_seconds"`
	FitSeconds   float64        `json:"fit_seconds"` // the fit and the prediction of every node
	Seconds      float64        `json:"seconds"`
	Saved        string         `json:"saved,omitempty"`
	Out          string         `json:"out,omitempty"`
}

// FitSplit returns seed's split of spec on ds (read from source) with the
// default validation and test sizes; nil for SplitNone (every label).
func FitSplit(spec eval.SplitSpec, ds *loaders.NodeDataset, source string, seed uint64) (*eval.Split, error) {
	if spec.Kind == eval.SplitNone {
		return nil, nil
	}
	splits, err := eval.NewSplitter(spec, ds.SplitData(source), eval.SplitSizes{Val: -1, Test: -1})
	if err != nil {
		return nil, err
	}
	sp, _, err := splits.Split(seed)
	if err != nil {
		return nil, err
	}
	if len(sp.Train) == 0 {
		return nil, fmt.Errorf("the split has no training nodes")
	}
	return &sp, nil
}

// FitNodes fits m (of kind) on the nodes of ds, read from source, with
// ds's labels or, with a split, those of its training nodes only, and
// returns the scores of every node and the report, with a split's
// validation and test accuracies.
func FitNodes(ctx context.Context, kind string, m estimator.NodeClassifier, ds *loaders.NodeDataset, split *eval.Split, source string) (*mat.Dense, FitReport, error) {
	labels := ds.Labels
	if split != nil {
		labels = split.TrainingLabels(ds.Labels)
	}
	if err := m.Fit(ctx, ds.EstimatorNodes(), labels); err != nil {
		return nil, FitReport{}, fmt.Errorf("%s: %w", kind, err)
	}
	scores, err := m.Predict(ctx, estimator.FittedNodes)
	if err != nil {
		return nil, FitReport{}, fmt.Errorf("%s: %w", kind, err)
	}
	n, classes := scores.Dims()
	labelled := 0
	for _, l := range labels {
		if l >= 0 {
			labelled++
		}
	}
	r := FitReport{Kind: kind, Data: source, Nodes: n, Labelled: labelled, Classes: classes, Predicted: map[string]int{}, Info: m.Info()}
	for _, c := range estimator.Argmax(scores) {
		r.Predicted[ds.ClassName(c)]++
	}
	if split != nil {
		if err := r.scoreSplit(scores, ds.Labels, *split); err != nil {
			return nil, FitReport{}, err
		}
	}
	return scores, r, nil
}

// scoreSplit sets the report's accuracies of scores (every node's) on the
// validation and test nodes of split against truth, as eval.EvaluateNodes
// scores a chosen model (eval.Accuracy of the argmax); nil for an empty
// part.
func (r *FitReport) scoreSplit(scores *mat.Dense, truth []int, split eval.Split) error {
	pred := estimator.Argmax(scores)
	for _, part := range []struct {
		nodes []int
		acc   *any
	}{{split.Val, &r.ValAccuracy}, {split.Test, &r.TestAccuracy}} {
		*part.acc = nil
		if len(part.nodes) == 0 {
			continue
		}
		a, err := eval.Accuracy(pred, truth, part.nodes)
		if err != nil {
			return err
		}
		*part.acc = a
	}
	return nil
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
