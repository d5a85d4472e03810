package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
)

// Helpers the node commands (labelprop, stkr, classify, eigs, embed,
// cluster) share.

// firstError returns the first of errs that is not nil: the checks of a
// command's flags, in the order their errors should be reported.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// writeOut runs write when path (an --out or --save file) is given, and
// returns path for the result's JSON ("" without it).
func writeOut(path string, write func() error) (string, error) {
	if path == "" {
		return "", nil
	}
	return path, write()
}

// ImageGraph is --images and --n of labelprop and stkr: the unweighted
// K-nearest-neighbour graph (--neighbors) of an image set's first N
// images replaces the input flags' graph.
type ImageGraph struct {
	Images string `flag:"images"`
	N      int    `flag:"n"`
}

// load reads the labelled graph: the image set's with --images, else the
// input flags' data set (which may build a KNN graph of --features: in
// then holds it).
func (im ImageGraph) load(ctx context.Context, in *nodeInput, stderr io.Writer) (*loaders.NodeDataset, error) {
	var ds *loaders.NodeDataset
	var err error
	switch {
	case im.Images != "" && !in.embedded():
		return nil, errors.New("--images excludes --data, --edges and --labels: a graph, or an image set to build a KNN graph from")
	case im.Images != "":
		ds, err = imageGraphDataset(ctx, im.Images, im.N, in.KNN.Neighbors, stderr)
	default:
		ds, err = in.load(ctx, stderr)
	}
	if err == nil {
		if err = needLabels(ds); err != nil {
			ds.Close()
		}
	}
	return ds, err
}

// source names the input in outputs and errors.
func (im ImageGraph) source(in *nodeInput) string {
	return cmp.Or(im.Images, in.source())
}

// nodeData describes a node classifier's data set in its JSON object.
type nodeData struct {
	Data       string   `json:"data"`
	Dataset    string   `json:"dataset"`
	Nodes      int      `json:"nodes"`
	Edges      int      `json:"edges"`
	Classes    int      `json:"classes"`
	ClassNames []string `json:"class_names"`
}

func newNodeData(source string, ds *loaders.NodeDataset) nodeData {
	d := nodeData{Data: source, Dataset: ds.Name, Nodes: ds.Graph.Nodes(), Edges: ds.Graph.Edges(), Classes: ds.Classes}
	for c := 0; c < ds.Classes; c++ {
		d.ClassNames = append(d.ClassNames, className(ds, c))
	}
	return d
}

// checkSplitFlags checks --split, --seeds, --val, --test and --folds.
func checkSplitFlags(split string, seeds, val, test, folds int) (eval.SplitSpec, error) {
	spec, err := parseSplitFlag(split)
	if err == nil {
		err = firstError(checkSeedCount(seeds, 1), checkCount("val", val, 0, "the default size"), checkCount("test", test, 0, "the default size"))
	}
	if err == nil && folds < 2 {
		err = fmt.Errorf("--folds %d is invalid: it must be ≥ 2", folds)
	}
	return spec, err
}

// checkConfidenceFlags checks --metric and --conformal.
func checkConfidenceFlags(metric string, alpha float64) error {
	if _, err := eval.MetricFor(metric, 0); err != nil {
		return fmt.Errorf("--metric: %w", err)
	}
	if !(alpha >= 0 && alpha < 1) || math.IsNaN(alpha) {
		return fmt.Errorf("--conformal %v is invalid: it must be in the open interval (0, 1), or 0 for off", alpha)
	}
	return nil
}

var errNoCalibrationNodes = errors.New("--conformal needs validation nodes to calibrate on, and the split has none: use a split with val nodes (planetoid, random:K, per-class:T,V or a split file with val lines)")

// checkCalibrationSplit refuses --conformal on a split without validation
// nodes before anything is fitted.
func checkCalibrationSplit(splits *eval.Splitter, seed uint64, alpha float64) error {
	if sp, _, err := splits.Split(seed); alpha > 0 && err == nil && len(sp.Val) == 0 {
		return errNoCalibrationNodes
	}
	return nil
}

// conformalReport calibrates, for --conformal alpha > 0, the scores of a
// run's chosen model (fitted on the training labels of split) on the
// split's validation nodes and measures it on its test nodes.
func conformalReport(scores mat.Matrix, split eval.Split, labels []int, alpha float64, seed uint64) (*confidence.Report, error) {
	if alpha == 0 {
		return nil, nil
	}
	if len(split.Val) == 0 {
		return nil, errNoCalibrationNodes
	}
	r, err := confidence.Evaluate(scores, labels, split.Val, split.Test, alpha, seed)
	if err != nil {
		return nil, fmt.Errorf("--conformal: %w", err)
	}
	return r, nil
}

// classRows is a node classifier's run as its --out file shows it: the
// split, the predicted classes (nil: the argmax of prob) and the
// probabilities (prob, or when it is nil probRow, row by row), replaced by
// the calibrated ones and the prediction sets of conf when it is not nil.
type classRows struct {
	split     eval.Split
	withSplit bool
	pred      []int
	prob      *mat.Dense
	probRow   func(dst []float64, i int) []float64
	conf      *confidence.Report
}

// writeClassOutputs writes --out (out, the rows) and --save (save, the
// model with the calibration of rows.conf) and returns the paths written.
func writeClassOutputs(out, save string, ds *loaders.NodeDataset, in nodeInput, rows classRows, model any) (string, string, error) {
	o, err := writeOut(out, func() error { return rows.write(out, ds) })
	if err != nil {
		return o, "", err
	}
	var cal *confidence.Calibration
	if rows.conf != nil {
		cal = rows.conf.Calibration
	}
	s, err := writeOut(save, func() error { return saveCalibrated(save, model, ds, in, cal) })
	return o, s, err
}

// write writes the --out file (loaders.NodeDataset.PredictionTable).
func (r classRows) write(path string, ds *loaders.NodeDataset) error {
	p := loaders.ClassPredictions{Parts: r.split.Parts(len(ds.Labels)), WithSplit: r.withSplit, Predicted: r.pred, Probabilities: r.prob, ProbabilityRow: r.probRow}
	if r.conf != nil {
		p.Predicted, p.Probabilities, p.Sets = nil, r.conf.Probabilities, r.conf.Sets
	}
	cols, rows, row := ds.PredictionTable(p)
	return writeTable(path, cols, rows, row)
}

// cvProgress shows a cross-validation's fits on st, with a line (format
// of the groups done, the groups and the group size) after each group of
// fits: of group(total) fits, total being the fits in all (the folds may
// be fewer than asked).
func cvProgress(st *steps, size func(total int) int, format string) func(done, total int) {
	return func(done, total int) {
		if group := size(total); done%group == 0 {
			st.to(done, total, format, done/group, total/group, group)
			return
		}
		st.to(done, total, "")
	}
}
