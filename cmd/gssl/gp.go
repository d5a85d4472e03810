package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
)

// gpOptions are the flags of gssl gp (help/gp.md).
type gpOptions struct {
	In regressionInput
	gp.Spec
	Out       string `flag:"out"`
	Save      string `flag:"save"`
	MaxMemory string `flag:"max-memory"`
	JSON      bool
	Plots     plotFlags
}

func newGPCommand(g *globals) *cobra.Command {
	opts := gpOptions{In: regressionInput{Labelled: 0.1}, Spec: gp.DefaultSpec(), MaxMemory: defaultMaxMemory()}
	return newCommand("gp", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON, opts.In.LabelledGiven = g.JSON, cmd.Flags().Changed("labelled")
		return runGP(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// gpResult is the JSON object of gssl gp.
type gpResult struct {
	protocol.GPReport
	Out     string  `json:"out,omitempty"`
	Saved   string  `json:"saved,omitempty"`
	Seconds float64 `json:"seconds"`
}

// runGP fits the exact GP on the labelled points (protocol.RunGP) and
// prints, writes and plots its report.
func runGP(ctx context.Context, opts gpOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	m, err := opts.Regressor()
	if err = firstError(fieldFlagError(err, &opts), checkOutPaths(opts.Out, opts.Save), opts.Plots.check()); err != nil {
		return fmt.Errorf("gp: %w", err)
	}
	data, err := loadLabelled(ctx, stderr, opts.In, opts.MaxMemory)
	if err != nil {
		return fmt.Errorf("gp: %w", err)
	}
	n, d := data.X.Dims()
	logf(stderr, "gp: %s: %d points in R^%d, %d labelled; fitting", data.Name, n, d, len(data.Labelled))
	run, err := protocol.RunGP(ctx, m, data)
	if err != nil {
		return fmt.Errorf("gp: %w", err)
	}
	res := gpResult{GPReport: protocol.NewGPReport(m, data, run), Out: opts.Out, Saved: opts.Save}
	if err := writeRegression(opts.Out, opts.Save, m, data, run.Predictions, false); err != nil {
		return fmt.Errorf("gp: %w", err)
	}
	res.Seconds = seconds(start)
	if err := opts.Plots.write(stderr, "gp", res, func() (picture, error) { return gpPicture(run, res) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "gp", res)
}

// loadLabelled loads the data of gp and imgp within --max-memory
// (protocol.LabelledRegression), recording the files it reads.
func loadLabelled(ctx context.Context, stderr io.Writer, in regressionInput, maxMemory string) (*protocol.RegressionTask, error) {
	b, err := budget(maxMemory)
	if err != nil {
		return nil, err
	}
	in.Points.Record = recordTo(ctx, stderr)
	return in.Load(b)
}

// writeRegression writes --out (the predictions in the targets' units;
// gamma says whether imgp's γ column is written) and --save (gp with the
// targets' standardisation; imgp standardises itself).
func writeRegression(out, save string, m savedmodel.Model, data *protocol.RegressionTask, preds []protocol.Prediction, gamma bool) error {
	if out != "" {
		if err := writePredictions(out, protocol.RegressionTable(preds, gamma)); err != nil {
			return err
		}
	}
	c := savedmodel.Context{Data: data.Name}
	if !gamma {
		c.TargetMean, c.TargetScale = data.Scaling.Mean, data.Scaling.Scale
	}
	return savePointModel(save, m, c)
}
