package main

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"gonum.org/v1/gonum/floats"
)

// classifyPicture: labelprop's panels for the chosen feature model of the
// first seed's run (its argmax on every node).
func classifyPicture(ctx context.Context, ds *loaders.NodeDataset, r classifyRun, res classifyResult) (picture, error) {
	names := make([]string, ds.Classes)
	for c := range names {
		names[c] = className(ds, c)
	}
	n, c := r.out.Probabilities.Dims()
	pred := make([]int, n)
	for i := range pred {
		pred[i] = floats.MaxIdx(r.out.Probabilities.RawRowView(i)[:c])
	}
	pic := picture{caption: "classify: " + res.Data + ", " + r.Model}
	return predictionPicture(ctx, pic, ds, pred, r.split.Test, names, r.Seed)
}

// runFacts: the seeds and timings of the run, for --report.
func (r classifyResult) runFacts() (string, []htmlreport.Timing) {
	return classifyRunSeeds(r), []htmlreport.Timing{
		timing("load_seconds", r.LoadSeconds),
		timing("seconds", r.Seconds),
	}
}

// classifyRunSeeds lists the seeds of the runs.
func classifyRunSeeds(r classifyResult) string {
	seeds := make([]uint64, len(r.Runs))
	for i, run := range r.Runs {
		seeds[i] = run.Seed
	}
	return fmt.Sprintf("seeds = %v", seeds)
}
