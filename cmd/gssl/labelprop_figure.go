package main

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
)

// labelpropPicture: the confusion matrix and per-class accuracy on the
// test nodes of the first run, and the Laplacian eigenmap coloured by
// predicted class with the wrongly predicted test nodes ringed.
func labelpropPicture(ctx context.Context, ds *loaders.NodeDataset, runs []protocol.LabelPropRun, res labelpropResult) (picture, error) {
	r := runs[0]
	pred := r.Model.Labels()
	pic := picture{caption: "label propagation: " + res.Data}
	if len(runs) > 1 {
		pic.notes = append(pic.notes, fmt.Sprintf("the figure shows the first of %d splits (seed %d)", len(runs), res.FirstSeed))
	}
	var test []int
	if r.WithSplit {
		test = r.Split.Test
	}
	return predictionPicture(ctx, pic, ds, pred, test, res.ClassNames, res.FirstSeed)
}

// runFacts: the seeds and timings of the run, for --report.
func (r labelpropResult) runFacts() (string, []htmlreport.Timing) {
	seeds := fmt.Sprintf("first_seed = %d", r.FirstSeed)
	if r.Seeds > 1 {
		seeds += fmt.Sprintf(" (%d splits: seeds %d..%d)", r.Seeds, r.FirstSeed, r.FirstSeed+uint64(r.Seeds)-1)
	}
	return seeds, []htmlreport.Timing{timing("fit_seconds", r.FitSeconds), timing("load_seconds", r.LoadSeconds), timing("seconds", r.Seconds)}
}
