package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
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

// writeClassOutputs writes --out (out, the rows) and --save (save, the
// model with the calibration of rows) and returns the paths written.
func writeClassOutputs(out, save string, ds *loaders.NodeDataset, in nodeInput, rows protocol.ClassRows, model any) (string, string, error) {
	o, err := writeOut(out, func() error {
		cols, n, row := ds.PredictionTable(rows.Predictions(len(ds.Labels)))
		return writeTable(out, cols, n, row)
	})
	if err != nil {
		return o, "", err
	}
	s, err := writeOut(save, func() error { return saveCalibrated(save, model, ds, in, rows.Calibration()) })
	return o, s, err
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
