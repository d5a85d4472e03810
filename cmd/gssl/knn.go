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
	Images      string  `flag:"images"`
	Features    string  `flag:"features"`
	MaxMemory   string  `flag:"max-memory"`
	Pixels      int     `flag:"pixels"`
	N           int     `flag:"n"`
	K           int     `flag:"neighbors"`
	Approx      bool    `flag:"approximate"`
	Precision   string  `flag:"precision"`
	Seed        uint64  `flag:"seed"`
	Rule        string  `flag:"rule"`
	Bandwidth   float64 `flag:"bandwidth"`
	Weights     string  `flag:"knn-weights"` // also distance2, and the old affinity and normalized
	Out         string  `flag:"out"`
	RecallN     int     `flag:"recall-sample"`
	GroundTruth string  `flag:"groundtruth"`
	Compare     bool    `flag:"compare"`
	CompareIter []int   `flag:"compare-iterations"`
	JSON        bool
	Plots       plotFlags
}

func newKNNCommand(g *globals) *cobra.Command {
	opts := knnOptions{MaxMemory: defaultMaxMemory(), K: defaultNeighbors, Weights: defaultKNNWeights, Precision: knngraph.Float32.String(),
		Rule: knngraph.Or.String(), RecallN: 1000, CompareIter: []int{1, 2, 4, 8}}
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

// check checks the flags and returns the search and graph they describe
// and the memory limit.
func (opts *knnOptions) check() (knngraph.PointGraph, int64, error) {
	fail := func(format string, a ...any) (knngraph.PointGraph, int64, error) {
		return knngraph.PointGraph{}, 0, fmt.Errorf("knn: "+format, a...)
	}
	if opts.Weights == "" {
		opts.Weights = defaultKNNWeights
	}
	kf := knnFlags{Neighbors: opts.K, Approximate: opts.Approx, Weights: opts.Weights, Bandwidth: opts.Bandwidth}
	if opts.Weights == "affinity" || opts.Weights == "normalized" || opts.Weights == "distance2" {
		kf.Weights = knngraph.Gaussian.String() // IMGP's Ã and A, and the distances: only the bandwidth is checked
	} else if _, err := knngraph.ParseKernel(opts.Weights); err != nil {
		return fail("--knn-weights %q is invalid: use connectivity, gaussian or imgp (or distance2)", opts.Weights)
	}
	p, err := kf.pointGraph()
	if err != nil {
		return fail("%w", err)
	}
	p.Seed = opts.Seed
	if p.Precision, err = knngraph.ParsePrecision(opts.Precision); err != nil {
		return fail("--precision %q is invalid: use float32 or float64", opts.Precision)
	}
	if p.Rule, err = knngraph.ParseRule(opts.Rule); err != nil {
		return fail("--rule %q is invalid: use or or mutual", opts.Rule)
	}
	switch {
	case opts.N < 0:
		return fail("--n %d is invalid: it must be ≥ 0 (0 means all images)", opts.N)
	case opts.RecallN < 0:
		return fail("--recall-sample %d is invalid: it must be ≥ 0", opts.RecallN)
	case opts.Images != "" && opts.Features != "":
		return fail("--images and --features exclude each other: uint8 images, or points")
	}
	if opts.Compare {
		if err := (knngraph.Comparison{Limits: opts.CompareIter}).Validate(); err != nil {
			return fail("%w", flagNamed(err, "knngraph: Comparison.Limits", "--compare-iterations"))
		}
	}
	if err := checkOutPath("out", opts.Out); err != nil {
		return fail("%w", err)
	}
	if _, err := loaders.GraphFormat(opts.Out); opts.Out != "" && err != nil {
		return fail("--out %w", err)
	}
	if err := opts.Plots.check(); err != nil {
		return fail("%w", err)
	}
	limit, err := parseBytes("max-memory", opts.MaxMemory)
	if err != nil {
		return fail("%w", err)
	}
	return p, limit, nil
}

// runKNN reads the points (loaders.KNNSource), searches them and builds
// their graph (knngraph.Run), and writes, plots and prints the report.
func runKNN(ctx context.Context, opts knnOptions, stdout, stderr io.Writer) error {
	p, limit, err := opts.check()
	if err != nil {
		return err
	}
	start, budget := timeNow(), memlimit.Budget{Bytes: limit, Name: "--max-memory"}
	src := loaders.KNNSource{Images: opts.Images, Features: opts.Features, Pixels: opts.Pixels, N: opts.N}
	var pts *loaders.Points
	if opts.Features != "" {
		if pts, err = readPointRows(ctx, opts.Features, "", limit, stderr); err != nil {
			return fmt.Errorf("knn: %w", err)
		}
	}
	in, err := src.Select(pts, budget)
	if err != nil {
		return fmt.Errorf("knn: %w", paramFlagError(err))
	}
	res, x := knnResult{in.Report}, in.X
	n, d := x.Dims()
	if res.LoadSeconds = seconds(start); opts.K < 1 || opts.K >= n {
		return fmt.Errorf("knn: --neighbors %d is invalid: it must be in [1, %d) for %d %s", opts.K, n, n, res.Unit())
	}
	if err := checkMemory(knngraph.GraphBytes(n, opts.K)+knngraph.PointsBytes(n, d), limit, fmt.Sprintf("the %d×%d points and their K-nearest-neighbour graph (k = %d)", n, d, opts.K), "give fewer points (--n) or a smaller --neighbors"); err != nil {
		return fmt.Errorf("knn: %w", err)
	}
	bar := newProgress(stderr, n, "knn")
	p.Progress = searchProgress(bar, p.Approximate, stderr)
	run := knngraph.Run{Graph: p, RecallSample: opts.RecallN, GroundTruth: opts.GroundTruth, Dist2Scale: in.Dist2Scale, Weights: opts.Weights, Bandwidth: opts.Bandwidth,
		Log: func(format string, a ...any) { bar.Finish(); logf(stderr, "knn: "+format, a...) }}
	if opts.Compare {
		run.Compare = opts.CompareIter
	}
	nb, g, err := run.Do(ctx, x, &res.Report)
	bar.Finish()
	if err != nil {
		return fmt.Errorf("knn: %w", flagFile("groundtruth", opts.GroundTruth, err))
	}
	if opts.Out != "" {
		w, err := g.WeightsNamed(opts.Weights, res.Bandwidth)
		if err == nil {
			err = withFlag("out "+opts.Out, loaders.WriteGraph(opts.Out, w, in.IDs))
		}
		if err != nil {
			return fmt.Errorf("knn: %w", err)
		}
		res.Out = opts.Out
	}
	if err := opts.Plots.write(stderr, "knn", res, func() (picture, error) { return knnPicture(nb, res) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "knn", res)
}
