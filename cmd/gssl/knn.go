package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
	"github.com/gssl/gssl/nodeids"
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
type knnResult struct {
	Images        string              `json:"images,omitempty"`
	Features      string              `json:"features,omitempty"`
	Dataset       string              `json:"dataset"`
	Nodes         int                 `json:"nodes"`
	Dim           int                 `json:"dim"`
	K             int                 `json:"k"`
	Method        string              `json:"method"`
	Precision     string              `json:"precision,omitempty"`
	Seconds       float64             `json:"seconds"`
	CPUSeconds    float64             `json:"cpu_seconds"`
	PeakRSSMB     float64             `json:"peak_rss_mb"`
	RSSReset      bool                `json:"rss_reset"`
	Threads       int                 `json:"threads"`
	Iterations    int                 `json:"iterations,omitempty"`
	Rescanned     int                 `json:"rescanned"`
	Recall        *float64            `json:"recall"`
	RecallQueries int                 `json:"recall_queries"`
	RecallSource  string              `json:"recall_source,omitempty"`
	Rule          string              `json:"rule"`
	Edges         int                 `json:"edges"`
	MedianKth     float64             `json:"median_kth_distance"`
	Bandwidth     float64             `json:"bandwidth"`
	Alpha         float64             `json:"alpha"`
	GraphBytes    int64               `json:"graph_bytes"`
	GraphSeconds  float64             `json:"graph_seconds"`
	LoadSeconds   float64             `json:"load_seconds"`
	Out           string              `json:"out,omitempty"`
	Weights       string              `json:"weights,omitempty"`
	Compare       []knngraph.Compared `json:"compare,omitempty"`

	ids *nodeids.Map // the points' ids (--features with an id column), or nil
}

// Unit names the points of the result.
func (r knnResult) Unit() string {
	if r.Features != "" {
		return "points"
	}
	return "images"
}

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

func runKNN(ctx context.Context, opts knnOptions, stdout, stderr io.Writer) error {
	p, limit, err := opts.check()
	if err != nil {
		return err
	}
	start := timeNow()
	x, res, err := knnPoints(ctx, opts, limit, stderr)
	if err != nil {
		return err
	}
	n, d := x.Dims()
	res.K, res.Rule, res.Threads, res.LoadSeconds = opts.K, opts.Rule, runtime.GOMAXPROCS(0), seconds(start)
	if opts.K < 1 || opts.K >= n {
		return fmt.Errorf("knn: --neighbors %d is invalid: it must be in [1, %d) for %d %s", opts.K, n, n, res.Unit())
	}
	res.GraphBytes = knngraph.GraphBytes(n, opts.K)
	if err := checkMemory(res.GraphBytes+knngraph.PointsBytes(n, d), limit, fmt.Sprintf("the %d×%d points and their K-nearest-neighbour graph (k = %d)", n, d, opts.K), "give fewer points (--n) or a smaller --neighbors"); err != nil {
		return fmt.Errorf("knn: %w", err)
	}
	nb, err := knnSearch(ctx, p, x, &res, stderr)
	if err != nil {
		return err
	}
	if err := knnRecall(ctx, opts, x, nb, &res, stderr); err != nil {
		return err
	}
	if opts.Compare {
		exact, secs := nb, res.Seconds
		if opts.Approx {
			exact = nil // the comparison runs (and times) the exact search
		}
		c := knngraph.Comparison{K: opts.K, Limits: opts.CompareIter, Seed: opts.Seed, Exact: exact, ExactSeconds: secs, Settings: &knngraph.Settings{Precision: p.Precision},
			Progress: func(c knngraph.Compared) {
				if c.Method == "exact" {
					logf(stderr, "knn: --compare: exact search in %.3f s", c.Seconds)
					return
				}
				logf(stderr, "knn: --compare: NN-descent, %d of at most %d iterations: %.3f s, recall %.4f", c.Ran, c.Iterations, c.Seconds, c.Recall)
			}}
		if res.Compare, err = c.Run(ctx, x); err != nil {
			return fmt.Errorf("knn: --compare: %w", err)
		}
	}
	if err := knnGraph(opts, nb, p.Rule, &res, stderr); err != nil {
		return err
	}
	if err := opts.Plots.write(stderr, "knn", res, func() (picture, error) { return knnPicture(nb, res) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "knn", res)
}

// knnGraph symmetrises the neighbour lists (distances in pixels/255 units
// for images), describes the graph in res and writes --out.
func knnGraph(opts knnOptions, nb *knngraph.Neighbors, rule knngraph.Rule, res *knnResult, stderr io.Writer) error {
	if opts.Images != "" {
		for i := range nb.Dist2 {
			nb.Dist2[i] *= loaders.PixelScale * loaders.PixelScale
		}
	}
	start := timeNow()
	g, err := knngraph.NewGraph(nb, rule)
	if err != nil {
		return fmt.Errorf("knn: %w", err)
	}
	res.GraphSeconds, res.Edges, res.MedianKth = seconds(start), g.Dist2.Edges()-g.Dist2.SelfLoops(), g.MedianKth()
	if res.Bandwidth = opts.Bandwidth; res.Bandwidth == 0 && opts.Weights != "gaussian" {
		res.Bandwidth = math.Sqrt2 * g.DefaultAlpha()
	}
	res.Alpha, res.Weights = res.Bandwidth/math.Sqrt2, opts.Weights
	note := fmt.Sprintf(" (σ = %.4g)", res.Bandwidth)
	if opts.Weights == "connectivity" || opts.Weights == "distance2" {
		note = ""
	} else if opts.Weights == "gaussian" && res.Bandwidth == 0 {
		note = " (self-tuning σ_i: distance to the 7th neighbour)"
	}
	logf(stderr, "knn: %d %s of %d features: k = %d, %s search, %s rule, %s weights%s; %d edges, graph %s (linear in n·k)",
		res.Nodes, res.Unit(), res.Dim, opts.K, res.Method, opts.Rule, opts.Weights, note, res.Edges, memlimit.Format(res.GraphBytes))
	if opts.Out == "" {
		return nil
	}
	w, err := g.WeightsNamed(opts.Weights, res.Bandwidth)
	if err != nil {
		return fmt.Errorf("knn: %w", err)
	}
	if err := loaders.WriteGraph(opts.Out, w, res.ids); err != nil {
		return fmt.Errorf("knn: --out %s: %w", opts.Out, err)
	}
	res.Out = opts.Out
	return nil
}

// knnPoints reads the first N points of --features, or the first N images
// of --images as raw byte values (squared distances are exact integers,
// rescaled to pixels/255 units after the search).
func knnPoints(ctx context.Context, opts knnOptions, limit int64, stderr io.Writer) (*mat.Dense, knnResult, error) {
	if opts.Features != "" {
		p, err := readPointRows(ctx, opts.Features, "", limit, stderr)
		if err != nil {
			return nil, knnResult{}, fmt.Errorf("knn: %w", err)
		}
		x, ids := p.X, p.IDs
		n, d := x.Dims()
		switch {
		case opts.N > n:
			return nil, knnResult{}, fmt.Errorf("knn: --n %d is invalid: %s holds only %d points", opts.N, opts.Features, n)
		case opts.N > 0:
			x, n = x.Slice(0, opts.N, 0, d).(*mat.Dense), opts.N
			ids = ids.Subset(firstN(n))
		}
		return x, knnResult{Features: opts.Features, Dataset: strings.TrimSuffix(filepath.Base(opts.Features), filepath.Ext(opts.Features)), Nodes: n, Dim: d, ids: ids}, nil
	}
	if err := refuseNPYImages(opts.Images); err != nil {
		return nil, knnResult{}, fmt.Errorf("knn: %w", err)
	}
	set, err := loaders.ReadImageSet(opts.Images, opts.Pixels)
	if err != nil {
		return nil, knnResult{}, fmt.Errorf("knn: --images: %w", err)
	}
	n, err := set.First(opts.N)
	if err != nil {
		return nil, knnResult{}, fmt.Errorf("knn: %w", paramFlagError(err))
	}
	pixels := set.Images.Pixels
	if err := checkMemory(knngraph.PointsBytes(n, pixels), limit, fmt.Sprintf("%d images of %d pixels", n, pixels), "give fewer images (--n)"); err != nil {
		return nil, knnResult{}, fmt.Errorf("knn: %w", err)
	}
	return set.Images.BytesRange(0, n), knnResult{Images: opts.Images, Dataset: filepath.Base(filepath.Dir(set.Path)), Nodes: n, Dim: pixels}, nil
}

// knnSearch runs the exact or NN-descent search, timed with its CPU time
// and peak memory.
func knnSearch(ctx context.Context, p knngraph.PointGraph, x *mat.Dense, res *knnResult, stderr io.Writer) (*knngraph.Neighbors, error) {
	n, _ := x.Dims()
	bar := newProgress(stderr, n, "knn")
	progress := searchProgress(bar, p.Approximate, stderr)
	p.Progress = progress
	res.Method, res.Precision = "exact", p.Precision.String()
	if p.Approximate {
		res.Method, res.Precision = "nn-descent", ""
		p.Progress = func(done, total int) {
			res.Iterations = done
			progress(done, total)
		}
	}
	res.RSSReset = resetPeakRSS()
	cpu0, start := cpuSeconds(), timeNow()
	nb, err := p.Search(ctx, x)
	res.Seconds, res.CPUSeconds, res.PeakRSSMB = seconds(start), cpuSeconds()-cpu0, peakRSSMB()
	bar.Finish()
	if err != nil {
		return nil, fmt.Errorf("knn: %w", err)
	}
	res.Rescanned = nb.Rescanned
	return nb, nil
}

// knnRecall measures recall@k of nb against exact neighbours, counting a
// neighbour at distance ≤ the exact K-th distance as correct (ties), as
// shared/bench/peers/knn.py does: those of --groundtruth, or of a sample.
func knnRecall(ctx context.Context, opts knnOptions, x *mat.Dense, nb *knngraph.Neighbors, res *knnResult, stderr io.Writer) error {
	n, _ := x.Dims()
	var recall float64
	var err error
	switch {
	case opts.GroundTruth != "":
		if recall, res.RecallQueries, err = knngraph.GroundTruthRecall(opts.GroundTruth, nb); err != nil {
			return fmt.Errorf("knn: %w", flagFile("groundtruth", opts.GroundTruth, err))
		}
		res.RecallSource = "ground truth " + filepath.Base(opts.GroundTruth)
	case opts.RecallN > 0:
		start := timeNow()
		res.RecallQueries = min(opts.RecallN, n)
		recall, err = knngraph.SampleRecall(ctx, x, nb, opts.RecallN, opts.Seed)
		logf(stderr, "knn: exact neighbours of %d sampled points in %.2f s", res.RecallQueries, seconds(start))
		res.RecallSource = fmt.Sprintf("exact search on %d points sampled with seed %d", res.RecallQueries, opts.Seed)
	default:
		return nil
	}
	if err != nil {
		return fmt.Errorf("knn: recall: %w", err)
	}
	res.Recall = &recall
	return nil
}

// resetPeakRSS resets the process's resident-memory high-water mark (Linux
// ≥ 4.0), as shared/bench/peers/common.py does before a measured block.
func resetPeakRSS() bool {
	runtime.GC()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// firstN returns 0..n−1.
func firstN(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
