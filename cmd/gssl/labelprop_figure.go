package main

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/pictures"
	"github.com/gssl/gssl/protocol"
)

// labelpropPicture: the predictions (pictures.Predictions) of the first run.
func labelpropPicture(ctx context.Context, ds *loaders.NodeDataset, runs []protocol.LabelPropRun, res labelpropResult) (picture, error) {
	var test []int
	if runs[0].WithSplit {
		test = runs[0].Split.Test
	}
	pic, err := pictures.Predictions(ctx, ds, runs[0].Model.Labels(), test, res.ClassNames, res.FirstSeed)
	pic.Caption = "label propagation: " + res.Data
	if len(runs) > 1 {
		pic.Notes = append([]string{fmt.Sprintf("the figure shows the first of %d splits (seed %d)", len(runs), res.FirstSeed)}, pic.Notes...)
	}
	return pic, err
}

func (r labelpropResult) runFacts() (string, []htmlreport.Timing) {
	seeds := fmt.Sprintf("first_seed = %d", r.FirstSeed)
	if r.Seeds > 1 {
		seeds += fmt.Sprintf(" (%d splits: seeds %d..%d)", r.Seeds, r.FirstSeed, r.FirstSeed+uint64(r.Seeds)-1)
	}
	return seeds, timings("fit_seconds load_seconds seconds", r.FitSeconds, r.LoadSeconds, r.Seconds)
}
