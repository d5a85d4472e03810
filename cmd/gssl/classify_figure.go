package main

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/pictures"
)

// classifyPicture: the predictions (pictures.Predictions) of the chosen
// model of the first seed's run (its argmax on every node).
func classifyPicture(ctx context.Context, ds *loaders.NodeDataset, r eval.NodeRun, res classifyResult) (picture, error) {
	pic, err := pictures.Predictions(ctx, ds, estimator.Argmax(r.Probabilities), r.Split.Test, res.ClassNames, r.Seed)
	pic.Caption = "classify: " + res.Data + ", " + r.Model
	return pic, err
}

func (r classifyResult) runFacts() (string, []htmlreport.Timing) {
	seeds := make([]uint64, len(r.Runs))
	for i, run := range r.Runs {
		seeds[i] = run.Seed
	}
	return fmt.Sprintf("seeds = %v", seeds), timings("load_seconds seconds", r.LoadSeconds, r.Seconds)
}
