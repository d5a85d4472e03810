package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
)

// gpOptions are the flags of gssl gp (help/gp.md).
type gpOptions struct {
	In         regressionInput
	Covariance string `flag:"covariance"`
	Fixed      bool   `flag:"fixed"`
	MaxIter    int    `flag:"max-iter"`
	Out        string `flag:"out"`
	Save       string `flag:"save"`
	MaxMemory  string `flag:"max-memory"`
	JSON       bool
	Plots      plotFlags
}

func newGPCommand(g *globals) *cobra.Command {
	opts := gpOptions{In: regressionInput{Labelled: 0.1}, Covariance: gp.Matern52.String(), MaxIter: gp.DefaultMaxIterations, MaxMemory: defaultMaxMemory()}
	return newCommand("gp", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON, opts.In.labelledGiven = g.JSON, cmd.Flags().Changed("labelled")
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
	m := &gp.Regressor{Fixed: opts.Fixed, MaxIterations: opts.MaxIter}
	switch opts.Covariance {
	case "matern52":
	case "squared-exponential", "rbf", "gaussian":
		m.Covariance = gp.SquaredExponential
	default:
		return fmt.Errorf("gp: --covariance %q is invalid: use matern52 or squared-exponential", opts.Covariance)
	}
	if opts.MaxIter < 1 {
		return fmt.Errorf("gp: --max-iter %d is invalid: it must be ≥ 1", opts.MaxIter)
	}
	if err := checkOutPaths(opts.Out, opts.Save); err != nil {
		return fmt.Errorf("gp: %w", err)
	}
	if err := opts.Plots.check(); err != nil {
		return fmt.Errorf("gp: %w", err)
	}
	data, err := opts.In.labelled(orBackground(ctx), stderr, opts.MaxMemory)
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

// RegressionData is the data of gp, imgp and imgp sweep: the user's
// points with their targets, an image regression folder or the synthetic
// curve. (Exported so that regressionInput's flags bind through it.)
type RegressionData struct {
	Points    pointInput
	Targets   pointTargets
	Images    string `flag:"images"`
	Synthetic int    `flag:"synthetic"`
	Seed      uint64 `flag:"seed"`
}

// regressionInput is the data of gp and imgp with the labelled subset of a
// benchmark (--labelled, --subset).
type regressionInput struct {
	RegressionData
	Labelled      float64 `flag:"labelled"`
	Subset        string  `flag:"subset"`
	labelledGiven bool
}

// load reads the one data source the flags name.
func (in RegressionData) load(ctx context.Context, stderr io.Writer) (*protocol.RegressionTask, error) {
	user := in.Points.given() || in.Targets.given()
	sources := 0
	for _, given := range []bool{in.Images != "", in.Synthetic != 0, user} {
		if given {
			sources++
		}
	}
	switch {
	case sources == 0:
		return nil, errors.New("no data: give --features FILE --targets FILE (your points), --images DIR (a train/test image folder) or --synthetic N")
	case sources > 1:
		return nil, errors.New("give one of --features/--targets, --images and --synthetic")
	case in.Synthetic != 0:
		t, err := protocol.SyntheticRegression(in.Synthetic, in.Seed)
		if err != nil {
			return nil, fmt.Errorf("--synthetic %d is invalid: it must be in [2, %d]", in.Synthetic, imgp.MaxCurvePoints)
		}
		return t, nil
	case in.Images != "":
		t, err := protocol.ReadImageRegression(in.Images)
		return t, withFlag("images", err)
	}
	p, err := in.Points.load(ctx, stderr, "targets", in.Targets.Targets, in.Targets.TestTargets)
	if err != nil {
		return nil, err
	}
	t, err := protocol.NewRegressionTask(p)
	return t, withFlag("targets", err)
}

// labelled loads the data and chooses the labelled points of a benchmark
// (--subset, or a seeded --labelled fraction; the user's points are
// labelled by their targets), refusing an exact GP on them whose dense
// matrices (K, its factor and the distances: 3·8n² bytes) pass maxMemory.
func (in regressionInput) labelled(ctx context.Context, stderr io.Writer, maxMemory string) (*protocol.RegressionTask, error) {
	if in.Points.given() && in.labelledGiven {
		return nil, errors.New("--labelled applies to --images and --synthetic; with --targets the labelled points are those with a target")
	}
	data, err := in.load(ctx, stderr)
	switch {
	case err != nil:
		return nil, err
	case data.User && in.Subset != "":
		return nil, errors.New("--subset applies to --images and --synthetic; with --targets the labelled points are those with a target")
	case !data.User && in.Subset == "" && !(in.Labelled > 0 && in.Labelled <= 1):
		return nil, fmt.Errorf("--labelled %v is invalid: it must be a fraction in (0, 1]", in.Labelled)
	case !data.User:
		if err := data.Label(in.Subset, in.Labelled, in.Seed); err != nil && in.Subset == "" {
			return nil, fmt.Errorf("--labelled: %w", err)
		} else if err != nil {
			return nil, err
		}
	}
	return data, checkGPMemory(maxMemory, len(data.Labelled))
}

// checkGPMemory refuses an exact GP on n points whose dense matrices (K,
// its factor and the distances: 3·8n² bytes) pass --max-memory.
func checkGPMemory(maxMemory string, n int) error {
	limit, err := parseBytes("max-memory", maxMemory)
	if err != nil {
		return err
	}
	return checkMemory(3*8*int64(n)*int64(n), limit, fmt.Sprintf("the exact GP's 3 dense %d×%d matrices (one row per labelled point)", n, n),
		"label fewer points, or use gssl falkon (Nyström, memory n·M)")
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
