package protocol

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
)

// NodeData describes a node classifier's data set in a report.
type NodeData struct {
	Data       string   `json:"data"`
	Dataset    string   `json:"dataset"`
	Nodes      int      `json:"nodes"`
	Edges      int      `json:"edges"`
	Classes    int      `json:"classes"`
	ClassNames []string `json:"class_names"`
}

// DescribeNodes describes ds, read from source.
func DescribeNodes(source string, ds *loaders.NodeDataset) NodeData {
	d := NodeData{Data: source, Dataset: ds.Name, Nodes: ds.Graph.Nodes(), Edges: ds.Graph.Edges(), Classes: ds.Classes}
	for c := 0; c < ds.Classes; c++ {
		d.ClassNames = append(d.ClassNames, ds.ClassName(c))
	}
	return d
}

// CheckConformal checks a selection metric (eval.MetricFor's names) and
// the miscoverage of the conformal calibration (0: none).
func CheckConformal(metric string, alpha float64) error {
	if _, err := eval.MetricFor(metric, 0); err != nil {
		return fmt.Errorf("--metric: %w", err)
	}
	if !(alpha >= 0 && alpha < 1) || math.IsNaN(alpha) {
		return fmt.Errorf("--conformal %v is invalid: it must be in the open interval (0, 1), or 0 for off", alpha)
	}
	return nil
}

// ErrNoCalibrationNodes is the conformal calibration on a split without
// validation nodes.
var ErrNoCalibrationNodes = errors.New("--conformal needs validation nodes to calibrate on, and the split has none: use a split with val nodes (planetoid, random:K, per-class:T,V or a split file with val lines)")

// CheckCalibrationSplit refuses, for alpha > 0, a split (seed's of
// splits) without validation nodes, before anything is fitted.
func CheckCalibrationSplit(splits *eval.Splitter, seed uint64, alpha float64) error {
	if sp, _, err := splits.Split(seed); alpha > 0 && err == nil && len(sp.Val) == 0 {
		return ErrNoCalibrationNodes
	}
	return nil
}

// Conformal calibrates, for alpha > 0, the scores of a model fitted on
// the training labels of split on the split's validation nodes and
// measures it on its test nodes (confidence.Evaluate); nil for alpha 0.
func Conformal(scores mat.Matrix, split eval.Split, labels []int, alpha float64, seed uint64) (*confidence.Report, error) {
	if alpha == 0 {
		return nil, nil
	}
	if len(split.Val) == 0 {
		return nil, ErrNoCalibrationNodes
	}
	r, err := confidence.Evaluate(scores, labels, split.Val, split.Test, alpha, seed)
	if err != nil {
		return nil, fmt.Errorf("--conformal: %w", err)
	}
	return r, nil
}

// ClassRows is a node classifier's run as its prediction table shows it:
// the split, the predicted classes (nil: the argmax of Probabilities) and
// the probabilities (Probabilities, or when it is nil ProbabilityRow, row
// by row), replaced by the calibrated ones and the prediction sets of
// Conformal when it is not nil.
type ClassRows struct {
	Split          eval.Split
	WithSplit      bool
	Predicted      []int
	Probabilities  *mat.Dense
	ProbabilityRow func(dst []float64, i int) []float64
	Conformal      *confidence.Report
}

// Predictions are the rows of n nodes for loaders.NodeDataset.PredictionTable.
func (r ClassRows) Predictions(n int) loaders.ClassPredictions {
	p := loaders.ClassPredictions{Parts: r.Split.Parts(n), WithSplit: r.WithSplit, Predicted: r.Predicted, Probabilities: r.Probabilities, ProbabilityRow: r.ProbabilityRow}
	if r.Conformal != nil {
		p.Predicted, p.Probabilities, p.ProbabilityRow, p.Sets = nil, r.Conformal.Probabilities, nil, r.Conformal.Sets
	}
	return p
}

// Calibration is Conformal's calibration, nil without one.
func (r ClassRows) Calibration() *confidence.Calibration {
	if r.Conformal == nil {
		return nil
	}
	return r.Conformal.Calibration
}
