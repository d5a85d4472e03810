package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/protocol"
)

// labelpropOptions are the flags of gssl labelprop (help/labelprop.md).
type labelpropOptions struct {
	In nodeInput
	ImageGraph
	Model     labelprop.Spec // the model flags, tagged
	Split     string         `flag:"split"`
	Val       int            `flag:"val"`
	Test      int            `flag:"test"`
	Folds     int            `flag:"folds"`
	Seeds     int            `flag:"seeds"`
	Seed      uint64         `flag:"seed"`
	Conformal float64        `flag:"conformal"`
	Out       string         `flag:"out"`
	Save      string         `flag:"save"`
	Plots     plotFlags
	JSON      bool
}

// newLabelpropCmd builds gssl labelprop.
func newLabelpropCmd(g *globals) *cobra.Command {
	opts := labelpropOptions{In: newNodeInput(), Split: "auto", Val: -1, Test: -1, Folds: eval.DefaultFolds, Seeds: 1,
		Model: labelprop.Spec{Method: "spreading", Alpha: "auto", Solver: labelprop.Auto.String(), Stop: labelprop.StopResidual.String()}}
	return newCommand("labelprop", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runLabelprop(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// labelpropResult is the JSON object of the command: the data set, the
// protocol's report, the outputs and the times.
type labelpropResult struct{ protocol.LabelPropRunReport }

// runLabelprop runs protocol.EvaluateLabelProp on the options and prints,
// writes and plots what it returns.
func runLabelprop(ctx context.Context, opts labelpropOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	exp, spec, err := opts.experiment()
	if err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	ds, err := opts.load(ctx, &opts.In, stderr)
	if err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	defer ds.Close()
	loadSeconds := seconds(start)
	if exp.Splits, err = newSplitter(spec, ds, opts.source(&opts.In), opts.Val, opts.Test); err == nil {
		err = protocol.CheckCalibrationSplit(exp.Splits, opts.Seed, opts.Conformal)
	}
	if err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	exp.Graph, exp.Labels, exp.CV.Order = ds.Graph, ds.Labels, ds.IDOrder(ds.Labelled())
	limit, err := parseBytes("max-memory", opts.In.MaxMemory)
	if err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	if err := checkClassMemory("labelprop", opts.In.MaxMemory, ds, exp.Bound(ds.Classes, limit, opts.Conformal > 0)); err != nil {
		return err
	}
	defer labelpropProgress(&exp, stderr).Finish()
	out, err := protocol.EvaluateLabelProp(ctx, exp)
	if err != nil {
		return protocol.LabelPropError(err, ds)
	}
	var notes []string
	if opts.In.Features != "" && !opts.In.fromPoints() {
		notes = append(notes, "the features are read but not used: label propagation uses only the graph")
	}
	res := labelpropResult{protocol.LabelPropRunReport{NodeData: protocol.DescribeNodes(opts.source(&opts.In), ds), LabelPropReport: exp.Report(out, notes...),
		LoadSeconds: loadSeconds, KNN: opts.In.builtSummary()}}
	rows, err := out.Rows(ds.Labels, opts.Conformal, opts.Seed)
	if res.Confidence = rows.Conformal; err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	if res.Out, res.Saved, err = writeClassOutputs(opts.Out, opts.Save, ds, opts.In, rows, out.Runs[0].Model); err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	res.Seconds = seconds(start)
	if err := opts.Plots.write(stderr, "labelprop", res, func() (picture, error) { return labelpropPicture(ctx, ds, out.Runs, res) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "labelprop", res)
}

// labelpropProgress attaches progress to the experiment: per seed with a
// split, per fit of the cross-validation of a without one.
func labelpropProgress(exp *protocol.LabelPropExperiment, stderr io.Writer) *steps {
	if exp.Splits.Spec().Kind != eval.SplitNone {
		st := newSteps(stderr, len(exp.Seeds), "labelprop")
		if len(exp.Seeds) > 1 {
			exp.Progress = func(done int) { st.to(done, len(exp.Seeds), "seed %d of %d done", done, len(exp.Seeds)) }
		}
		return st
	}
	values := max(len(exp.Grid), 1)
	st := newSteps(stderr, values*exp.CV.Folds, "labelprop")
	exp.CV.Progress = cvProgress(st, func(total int) int { return total / values }, "cross-validation: %d of %d values of a done (%d folds each)")
	return st
}

// experiment checks the options and returns the protocol they ask for
// (without its data, which is loaded after) and the parsed --split.
func (opts labelpropOptions) experiment() (protocol.LabelPropExperiment, eval.SplitSpec, error) {
	exp := protocol.LabelPropExperiment{CV: eval.CV{Folds: opts.Folds, Seed: opts.Seed}}
	spec, err := checkSplitFlags(opts.Split, opts.Seeds, opts.Val, opts.Test, opts.Folds)
	if err == nil {
		err = firstError(protocol.CheckSeeds(spec, opts.Seeds), protocol.CheckConformal("auto", opts.Conformal), checkOutPath("out", opts.Out), checkOutPath("save", opts.Save), opts.Plots.check())
	}
	if err == nil {
		exp.Model, exp.Grid, err = opts.Model.Model()
		err = fieldFlagError(err, &opts.Model)
		exp.Seeds = eval.SeedRange(opts.Seed, opts.Seeds) // the count is checked
	}
	return exp, spec, err
}
