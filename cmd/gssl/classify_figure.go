package main

import (
	"context"

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
