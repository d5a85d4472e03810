package main

import (
	"cmp"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/protocol"
)

// imgpOptions are the flags of gssl imgp (help/imgp.md).
type imgpOptions struct {
	In        regressionInput
	Model     imgpModelFlags
	MaxMemory string `flag:"max-memory"`
	EuclFixed bool   `flag:"euclidean-fixed"`
	Lik       protocol.IMGPLikelihood
	Out       string `flag:"out"`
	Save      string `flag:"save"`
	Plots     plotFlags
	JSON      bool
}

// imgpModelFlags are the model flags of imgp and imgp sweep (imgp.Spec).
type imgpModelFlags = imgp.Spec

func newIMGPCommand(g *globals) *cobra.Command {
	opts := imgpOptions{In: regressionInput{Labelled: 0.1}, Model: imgp.DefaultSpec(), MaxMemory: defaultMaxMemory(), Lik: protocol.DefaultIMGPLikelihood()}
	cmd := newCommand("imgp", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON, opts.In.LabelledGiven = g.JSON, cmd.Flags().Changed("labelled")
		return runIMGP(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	cmd.AddCommand(newIMGPSweepCommand(g))
	return cmd
}

// imgpResult is the JSON object of gssl imgp.
type imgpResult struct {
	protocol.IMGPReport
	Seconds float64 `json:"seconds"`
	Saved   string  `json:"saved,omitempty"`
}

// runIMGP fits IMGP and its Euclidean GP (protocol.RunIMGP) and prints,
// writes and plots the report.
func runIMGP(ctx context.Context, opts imgpOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	r, err := opts.Model.Regressor(opts.In.Seed)
	if err = firstError(opts.Plots.check(), checkOutPaths(opts.Out, opts.Save), fieldFlagError(err, &opts.Model)); err != nil {
		return fmt.Errorf("imgp: %w", err)
	}
	data, err := loadLabelled(ctx, stderr, opts.In, opts.MaxMemory)
	if err != nil {
		return fmt.Errorf("imgp: %w", err)
	}
	prog := newProgress(stderr, max(opts.Model.MaxIter, 1), "imgp: Adam")
	r.Euclidean, r.Scaling = &gp.Regressor{Fixed: opts.EuclFixed}, &data.Scaling
	r.Progress = func(int, imgp.Hyperparameters, [4]float64) { prog.Add(1) }
	logf(stderr, "imgp: %d nodes, %d labelled, %d points off the graph; fitting", rowsOf(data.X), len(data.Labelled), rowsOf(data.XTest))
	run, err := protocol.RunIMGP(ctx, r, protocol.IMGPTask{X: data.X, Y: data.Y, Labelled: data.Labelled, XTest: data.XTest, YTest: data.YTest,
		Likelihood: opts.Lik.Settings(opts.In.Seed, likelihoodProgress(prog, stderr))})
	prog.Finish()
	if err != nil {
		return err
	}
	res := imgpResult{IMGPReport: protocol.NewIMGPReport(r, data, run), Saved: opts.Save}
	if opts.Plots.Plot != "" && run.Scores == nil {
		logf(stderr, "imgp: no --plot: it needs the true targets of the points off the graph (--test-targets)")
		opts.Plots.Plot = ""
	}
	var preds []protocol.Prediction
	if opts.Out != "" {
		if preds, err = protocol.IMGPPredictions(ctx, r, data, run.Test); err != nil {
			return err
		}
	}
	if err := writeRegression(opts.Out, opts.Save, r, data, preds, true); err != nil {
		return fmt.Errorf("imgp: %w", err)
	}
	res.Seconds = seconds(start)
	draw := func() (picture, error) { return imgpPicture(data, r, run, res) }
	if opts.Plots.Plot != "" {
		if err := savePanels(opts.Plots.Plot, draw, 7*vg.Inch, 6*vg.Inch); err != nil {
			return fmt.Errorf("imgp: %w", err)
		}
		logf(stderr, "imgp: wrote %s", opts.Plots.Plot)
	}
	report := plotFlags{Report: opts.Plots.Report, start: opts.Plots.start}
	if err := report.write(stderr, "imgp", res, draw); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "imgp", res)
}

// likelihoodProgress shows the likelihood's trace estimate on a bar that
// follows the fit's.
func likelihoodProgress(fit *progress, stderr io.Writer) func(done, total int) {
	var bar *progress
	return func(done, total int) {
		if bar == nil {
			fit.Finish()
			bar = newProgress(stderr, total, "imgp: likelihood")
		}
		bar.Add(1)
		if done == total {
			bar.Finish()
		}
	}
}

// sweepOptions are the flags of gssl imgp sweep (help/imgp-sweep.md).
type sweepOptions struct {
	In        protocol.IMGPSweepData
	Model     imgpModelFlags
	MaxMemory string `flag:"max-memory"`
	Plot      string `flag:"plot"`
	JSON      bool
}

func newIMGPSweepCommand(g *globals) *cobra.Command {
	opts := sweepOptions{Model: imgp.DefaultSpec(), MaxMemory: defaultMaxMemory(), In: protocol.IMGPSweepData{Fractions: []float64{0.005, 0.01, 0.02, 0.05, 0.1}, Seeds: 5}}
	return newCommand("imgp-sweep", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runIMGPSweep(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// sweepResult is the JSON object of gssl imgp sweep.
type sweepResult struct {
	protocol.IMGPSweepReport
	Seconds float64 `json:"seconds"`
}

// runIMGPSweep runs protocol.IMGPSweep over the fractions and seeds on one
// graph and prints and plots the report.
func runIMGPSweep(ctx context.Context, opts sweepOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	model, err := opts.Model.Regressor(opts.In.Seed)
	b, berr := budget(opts.MaxMemory)
	if err = firstError(opts.check(), fieldFlagError(err, &opts.Model), berr); err != nil {
		return fmt.Errorf("imgp sweep: %w", err)
	}
	opts.In.Points.Record = recordTo(ctx, stderr)
	sw, data, err := opts.In.Sweep(model, b)
	if err != nil {
		return fmt.Errorf("imgp sweep: %w", err)
	}
	prog := newProgress(stderr, len(opts.In.Fractions)*opts.In.Seeds, "imgp sweep")
	defer prog.Finish()
	sw.Progress = func(run protocol.IMGPSweepRun) {
		logf(stderr, "imgp sweep: %s", run)
		prog.Add(1)
	}
	sr, err := sw.Run(ctx, data.X, data.Y, data.XTest, data.YTest)
	if err != nil {
		return err
	}
	if opts.Plot != "" {
		if err := plotSweep(opts.Plot, sr); err != nil {
			return fmt.Errorf("imgp sweep: %w", err)
		}
		logf(stderr, "imgp sweep: wrote %s", opts.Plot)
	}
	res := sweepResult{IMGPSweepReport: sw.Report(sr, data, opts.Model.MaxIter), Seconds: seconds(start)}
	return reportSummary(stdout, opts.JSON, "imgp-sweep", res)
}

// check validates the seeds, fractions and --plot.
func (o sweepOptions) check() error {
	if err := checkSeedCount(o.In.Seeds, 1); err != nil {
		return err
	}
	_, err := plotFormat(o.Plot)
	return cmp.Or(o.In.Validate(), err)
}
