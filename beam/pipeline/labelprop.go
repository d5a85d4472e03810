package pipeline

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// LabelProp is one label spreading job: the inputs, the settings and the
// output, what gssl-beam labelprop runs.
type LabelProp struct {
	// Edges and Labels are paths or globs (any Beam filesystem).
	Edges, Labels string
	// Edge says how the edge tables are read (columns, header, delimiter);
	// Edge.Table is used for the labels tables too.
	Edge EdgeOptions
	// Spreading are the iteration settings.
	Spreading Spreading
	// KeepIsolatedSeeds lets labelled nodes of degree 0 keep their label.
	KeepIsolatedSeeds bool
	// Out is the predictions file (Shards ≤ 1) or folder of shards.
	Out    string
	Shards int
}

// Build adds the job to s. It lists the input files (an error names a
// missing one before anything runs); problems inside the files fail the
// pipeline with the core's errors.
func (lp LabelProp) Build(ctx context.Context, s beam.Scope) error {
	if err := lp.Spreading.Validate(); err != nil {
		return err
	}
	if lp.Out == "" {
		return fmt.Errorf("pipeline: no output: give --out")
	}
	if lp.Labels == "" {
		return fmt.Errorf("pipeline: no labels: give --labels (id,label rows; an empty label means unlabelled)")
	}
	g, err := ReadBucketGraph(ctx, s, lp.Edges, lp.Labels, lp.Edge, lp.Spreading.buckets(), lp.KeepIsolatedSeeds)
	if err != nil {
		return err
	}
	scores, err := Spread(s, g, lp.Spreading)
	if err != nil {
		return err
	}
	WritePredictions(s, g, Predict(s, g, scores), lp.Out, lp.Shards)
	return nil
}
