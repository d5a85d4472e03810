package pipeline

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// LabelProp is one label spreading run: the inputs, the settings and the
// output, what gssl-beam labelprop runs. It is one Beam job, or with
// RoundsPerJob several run one after the other that pass the state through
// checkpoint files under Work.
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
	// RoundsPerJob splits the K iterations into ⌈K/RoundsPerJob⌉ jobs of
	// RoundsPerJob iterations each (the last one fewer): a runner holds
	// the data of one job's rounds only, and each job ends with a
	// checkpoint of the whole state under Work. The scores are bitwise
	// those of one job. 0 means all iterations in one job.
	RoundsPerJob int
	// Work is the folder of the checkpoints (any Beam filesystem: a local
	// folder, gs://…), needed when there is more than one job; every worker
	// must reach it. Each checkpoint is in Work/state-RRRRR (R iterations
	// done) and is removed once the next job has succeeded.
	Work string
}

// Jobs returns the number of jobs: ⌈K/RoundsPerJob⌉, 1 when RoundsPerJob
// is 0.
func (lp LabelProp) Jobs() int {
	k := lp.Spreading.K()
	if lp.RoundsPerJob <= 0 || lp.RoundsPerJob >= k {
		return 1
	}
	return (k + lp.RoundsPerJob - 1) / lp.RoundsPerJob
}

// JobRounds returns the iterations job j (0-based) runs: first … last
// (iteration 0 starts from the labels; each further one is a round of
// shuffle).
func (lp LabelProp) JobRounds(j int) (first, last int) {
	k := lp.Spreading.K()
	if lp.Jobs() == 1 {
		return 0, k - 1
	}
	return j * lp.RoundsPerJob, min((j+1)*lp.RoundsPerJob, k) - 1
}

// Validate checks the settings.
func (lp LabelProp) Validate() error {
	if err := lp.Spreading.Validate(); err != nil {
		return err
	}
	if lp.RoundsPerJob < 0 || lp.RoundsPerJob > MaxRounds {
		return fmt.Errorf("pipeline: RoundsPerJob = %d is invalid: it must be in [0, %d] (0: all rounds in one job)", lp.RoundsPerJob, MaxRounds)
	}
	if lp.Jobs() > 1 && lp.Work == "" {
		return fmt.Errorf("pipeline: RoundsPerJob = %d makes %d jobs, which pass the state through files: give Work, a folder every worker reaches", lp.RoundsPerJob, lp.Jobs())
	}
	if lp.Out == "" {
		return fmt.Errorf("pipeline: no output: give --out")
	}
	if lp.Labels == "" {
		return fmt.Errorf("pipeline: no labels: give --labels (id,label rows; an empty label means unlabelled)")
	}
	return nil
}

// Build adds the run to s when it is one job (see Run for several). It
// lists the input files (an error names a missing one before anything
// runs); problems inside the files fail the pipeline with the core's
// errors.
func (lp LabelProp) Build(ctx context.Context, s beam.Scope) error {
	if err := lp.Validate(); err != nil {
		return err
	}
	if n := lp.Jobs(); n > 1 {
		return fmt.Errorf("pipeline: RoundsPerJob = %d makes %d jobs: build them with BuildJob, or run them with Run", lp.RoundsPerJob, n)
	}
	return lp.BuildJob(ctx, s, 0)
}

// BuildJob adds job j (0-based) of Jobs() to s. Job 0 reads the inputs,
// the others the checkpoint of the job before, which must have run; the
// last writes the predictions, the others a checkpoint.
func (lp LabelProp) BuildJob(ctx context.Context, s beam.Scope, j int) error {
	g, scores, err := lp.buildSpread(ctx, s, j)
	if err != nil || !scores.IsValid() {
		return err
	}
	WritePredictions(s, g, Predict(s, g, scores), lp.Out, lp.Shards)
	return nil
}

// buildSpread adds the spreading of job j to s: the scores when it is the
// last job (else the job ends with its checkpoint and scores is invalid),
// and the graph's classes and output order.
func (lp LabelProp) buildSpread(ctx context.Context, s beam.Scope, j int) (g Graph, scores beam.PCollection, err error) {
	if err := lp.Validate(); err != nil {
		return Graph{}, beam.PCollection{}, err
	}
	jobs := lp.Jobs()
	if j < 0 || j >= jobs {
		return Graph{}, beam.PCollection{}, fmt.Errorf("pipeline: job %d is invalid: it must be in [0, %d)", j, jobs)
	}
	sp := lp.Spreading
	k := sp.K()
	first, last := lp.JobRounds(j)
	nb := sp.buckets()
	ss := s.Scope("Spread")
	var states beam.PCollection
	if j == 0 {
		g, err = ReadBucketGraph(ctx, s, lp.Edges, lp.Labels, lp.Edge, nb, lp.KeepIsolatedSeeds)
		if err != nil {
			return Graph{}, beam.PCollection{}, err
		}
		states, _ = startSpread(ss, g, sp, last+1)
	} else {
		dir := CheckpointDir(lp.Work, first)
		info, err := readInfo(ctx, dir)
		if err != nil {
			return Graph{}, beam.PCollection{}, err
		}
		if info.Alpha != sp.Alpha || info.K != k || info.Round != first || info.Buckets != nb {
			return Graph{}, beam.PCollection{}, fmt.Errorf("pipeline: checkpoint %s was written with alpha %v, %d iterations (%d done), %d buckets; this run has alpha %v, %d iterations (%d done), %d buckets", infoFile(dir), info.Alpha, info.K, info.Round, info.Buckets, sp.Alpha, k, first, nb)
		}
		files, err := stateFiles(ctx, dir, info)
		if err != nil {
			return Graph{}, beam.PCollection{}, err
		}
		g = Graph{NumBuckets: nb, Classes: beam.Create(s, info.Classes), IntIDs: beam.Create(s, info.IntIDs)}
		var contribs beam.PCollection
		states, contribs = readCheckpoint(ss, files, first, nb)
		states = spreadRounds(ss, states, contribs, g.Classes, sp, nb, first, last+1)
	}
	if last == k-1 {
		return g, beam.ParDo(ss.Scope("Finish"), finishSpreadFn{}, states), nil
	}
	writeCheckpoint(s, states, g, CheckpointDir(lp.Work, last+1), checkpointInfo{Version: checkpointVersion, Alpha: sp.Alpha, K: k, Round: last + 1, Buckets: nb})
	return g, beam.PCollection{}, nil
}

// Run runs the jobs one after the other with exec (beam.Run with a runner,
// prism.Execute, …), each built when the one before has succeeded, and
// removes each checkpoint once the job that reads it has succeeded (when
// the filesystem can remove files). progress, if not nil, is told of each
// job before it starts (j from 0). An error of job j of several says so
// and wraps the runner's.
func (lp LabelProp) Run(ctx context.Context, exec func(context.Context, *beam.Pipeline) error, progress func(j, jobs, first, last int)) error {
	return lp.run(ctx, exec, progress, lp.BuildJob)
}

// run is Run with the jobs built by build.
func (lp LabelProp) run(ctx context.Context, exec func(context.Context, *beam.Pipeline) error, progress func(j, jobs, first, last int), build func(context.Context, beam.Scope, int) error) error {
	if err := lp.Validate(); err != nil {
		return err
	}
	jobs := lp.Jobs()
	for j := 0; j < jobs; j++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		first, last := lp.JobRounds(j)
		if progress != nil {
			progress(j, jobs, first, last)
		}
		if last+1 < lp.Spreading.K() {
			if err := clearCheckpoint(ctx, CheckpointDir(lp.Work, last+1)); err != nil {
				return fmt.Errorf("pipeline: checkpoint %s: clearing what an earlier run left: %w", CheckpointDir(lp.Work, last+1), err)
			}
		}
		p, s := beam.NewPipelineWithRoot()
		if err := build(ctx, s, j); err != nil {
			return err
		}
		if err := exec(ctx, p); err != nil {
			if jobs == 1 {
				return err
			}
			return fmt.Errorf("job %d/%d (rounds %d–%d): %w", j+1, jobs, first, last, err)
		}
		if j > 0 {
			dir := CheckpointDir(lp.Work, first)
			if info, err := readInfo(ctx, dir); err == nil {
				// A checkpoint that cannot be removed costs only space.
				_ = removeCheckpoint(ctx, dir, info)
			}
		}
	}
	return nil
}
