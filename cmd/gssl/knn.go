package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
)

// knnOptions are the flags of gssl knn (help/knn.md).
type knnOptions struct {
	loaders.KNNSource
	knngraph.Options
	MaxMemory string `flag:"max-memory"`
	Out       string `flag:"out"`
	JSON      bool
	Plots     plotFlags
}

func newKNNCommand(g *globals) *cobra.Command {
	opts := knnOptions{MaxMemory: defaultMaxMemory(), Options: knngraph.DefaultOptions()}
	cmd := newCommand("knn", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		if opts.Images == "" && opts.Features == "" {
			return fmt.Errorf("knn: no data: give --features FILE (points: .npy, .npz or CSV), --images DIR (images_u8.bin.gz and labels.txt) or --images FILE (raw uint8 images)")
		}
		return runKNN(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	cmd.Use = "knn (--features X.npy | --images PATH) [--n N] [--neighbors K] [--approximate] [--knn-weights W] [--out graph.mtx|.gsg|.npz|.csv]"
	cmd.Flags().Var(&alphaAlias{cmd: cmd, sigma: &opts.Bandwidth}, "alpha", "deprecated: use --bandwidth (σ = α√2)")
	_ = cmd.Flags().MarkHidden("alpha")
	return cmd
}

// alphaAlias is the old --alpha of gssl knn, IMGP's α of exp(−d²/(4α²)):
// it sets --bandwidth σ = α√2 (the same kernel exp(−d²/(2σ²))) with a
// notice.
type alphaAlias struct {
	cmd   *cobra.Command
	sigma *float64
}

func (a *alphaAlias) String() string { return "" }
func (a *alphaAlias) Type() string   { return "float64" }
func (a *alphaAlias) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err
	}
	*a.sigma = v * math.Sqrt2
	fmt.Fprintf(a.cmd.ErrOrStderr(), "gssl %s: --alpha is deprecated; use --bandwidth (σ = α√2 = %g for exp(−d²/(2σ²)))\n", a.cmd.Name(), *a.sigma)
	return nil
}

// knnResult is the JSON object of gssl knn.
type knnResult struct{ knngraph.Report }

// check checks the flags and returns the measured search they describe
// (knngraph.Options.Run) and the memory limit.
func (opts *knnOptions) check() (knngraph.Run, int64, error) {
	run, err := opts.Options.Run()
	err = firstError(err, opts.KNNSource.Validate(), checkOutPath("out", opts.Out))
	if _, ferr := loaders.GraphFormat(opts.Out); err == nil && opts.Out != "" && ferr != nil {
		err = fmt.Errorf("--out %w", ferr)
	}
	limit, lerr := parseBytes("max-memory", opts.MaxMemory)
	if err = firstError(err, opts.Plots.check(), lerr); err != nil {
		return run, 0, fmt.Errorf("knn: %w", err)
	}
	return run, limit, nil
}

// runKNN reads the points (loaders.KNNSource), searches them and builds
// their graph (knngraph.Run), and writes, plots and prints the report.
func runKNN(ctx context.Context, opts knnOptions, stdout, stderr io.Writer) error {
	run, limit, err := opts.check()
	if err != nil {
		return err
	}
	start, budget := timeNow(), memlimit.Budget{Bytes: limit, Name: "--max-memory"}
	var pts *loaders.Points
	if opts.Features != "" {
		if pts, err = readPointRows(ctx, opts.Features, "", limit, stderr); err != nil {
			return fmt.Errorf("knn: %w", err)
		}
	}
	in, err := opts.KNNSource.Select(pts, budget)
	if err != nil {
		return fmt.Errorf("knn: %w", paramFlagError(err))
	}
	res, x := knnResult{in.Report}, in.X
	res.LoadSeconds = seconds(start)
	bar := newProgress(stderr, rowsOf(x), "knn")
	run.Graph.Progress, run.Dist2Scale, run.Budget, run.Bytes = searchProgress(bar, run.Graph.Approximate, stderr), in.Dist2Scale, budget, in.Bytes
	run.Log = func(format string, a ...any) { bar.Finish(); logf(stderr, "knn: "+format, a...) }
	nb, g, err := run.Do(ctx, x, &res.Report)
	bar.Finish()
	if err != nil {
		return fmt.Errorf("knn: %w", flagFile("groundtruth", opts.GroundTruth, err))
	}
	if res.Out, err = writeOut(opts.Out, func() error {
		w, err := g.WeightsNamed(run.Weights, res.Bandwidth)
		if err != nil {
			return err
		}
		return withFlag("out "+opts.Out, loaders.WriteGraph(opts.Out, w, in.IDs))
	}); err != nil {
		return fmt.Errorf("knn: %w", err)
	}
	if err := opts.Plots.write(stderr, "knn", res, func() (picture, error) { return knnPicture(nb, res) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "knn", res)
}
