package main

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
)

// classifyPicture: labelprop's panels for the chosen feature model of the
// first seed's run (its argmax on every node).
func classifyPicture(ctx context.Context, ds *loaders.NodeDataset, r eval.NodeRun, res classifyResult) (picture, error) {
	pic := picture{caption: "classify: " + res.Data + ", " + r.Model}
	return predictionPicture(ctx, pic, ds, estimator.Argmax(r.Probabilities), r.Split.Test, res.ClassNames, r.Seed)
}

// runFacts: the seeds and timings of the run, for --report.
func (r classifyResult) runFacts() (string, []htmlreport.Timing) {
	seeds := make([]uint64, len(r.Runs))
	for i, run := range r.Runs {
		seeds[i] = run.Seed
	}
	return fmt.Sprintf("seeds = %v", seeds), []htmlreport.Timing{timing("load_seconds", r.LoadSeconds), timing("seconds", r.Seconds)}
}
