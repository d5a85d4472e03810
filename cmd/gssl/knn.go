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
	"github.com/gssl/gssl/nodeids"
)

type knnOptions struct {
	Images      string  // an image folder (images_u8.bin.gz, labels.txt) or a raw uint8 image file
	Features    string  // or points: NumPy .npy/.npz or a CSV table, one point per row
	MaxMemory   string  // refuse points and graphs above this size
	Pixels      int     // bytes per image; 0 infers it from labels.txt next to the file, else 784
	N           int     // first N images; 0 means all
	K           int     // neighbours per point
	Approx      bool    // NN-descent instead of the exact search
	Precision   string  // exact search: float32 or float64
	Seed        uint64  // NN-descent and the recall sample
	Rule        string  // or | mutual
	Bandwidth   float64 // σ of the Gaussian weights exp(−d²/(2σ²)); 0 means the default
	Weights     string  // written weights: connectivity | gaussian | imgp | distance2 (affinity, normalized: IMGP's Ã and A)
	Out         string  // output graph: .mtx, .gsg, .npz or an edge table (.csv, .tsv, .txt)
	RecallN     int     // exact neighbours of this many sampled points measure the recall; 0 = none
	GroundTruth string  // a shared/bench/groundtruth file to measure the recall against instead
	Compare     bool    // also time exact search and NN-descent at CompareIters, recall against exact
	CompareIter []int   // NN-descent iteration limits of --compare
	JSON        bool
	Plots       plotFlags // --plot, --report
}

func newKNNCommand(g *globals) *cobra.Command {
	opts := knnOptions{}
	kf := knnFlags{}
	cmd := &cobra.Command{
		Use:   "knn (--features X.npy | --images PATH) [--n N] [--neighbors K] [--approximate] [--knn-weights W] [--out graph.mtx|.gsg|.npz|.csv]",
		Short: "K-nearest-neighbour graph of points or images, exact or by NN-descent, with recall and kernel weights",
		Long: `knn builds the K-nearest-neighbour graph of the first N points of --features (a
NumPy .npy/.npz array or a CSV table, one point per row; Euclidean distances on
the values as given) or of the first N images of a uint8 image
set (e.g. shared/data/mnist) by exact search or, with --approximate, by NN-descent,
and measures its recall against exact neighbours of a sample of points (or of the
queries of a knn.py ground-truth file). Distances are Euclidean on pixels/255; the
search itself runs on the raw bytes, so squared distances are exact and ties are
broken by smaller index exactly as in the ground truth.

With --out it writes the symmetrised graph (or-rule by default, --rule mutual for
the and-rule) in any format gssl reads, chosen by the extension: Matrix Market
(.mtx), a gssl graph file (.gsg), a SciPy sparse matrix (.npz, scipy.sparse.load_npz)
or an edge table "source,target,weight" (.csv; .tsv and .txt: tab- or
space-separated). The weights (--knn-weights) are those of the node commands:
connectivity (1 per edge), gaussian (exp(−d²/(2σ²)) with σ = --bandwidth, or the
self-tuning exp(−d²/(σ_iσ_j)), σ_i the distance to the 7th neighbour, when
--bandwidth is 0), imgp (IMGP's density-normalised A = D̃^{-1}ÃD̃^{-1} with
Ã = exp(−d²/(2σ²)) and self loops; σ defaults to the median distance to the K-th
neighbour), or the squared distances (distance2). The old --weights affinity
(IMGP's Ã with self loops) and normalized (imgp) still work.

"seconds" times the search from the pixels in memory to the neighbour lists, as
shared/bench/peers/knn.py times scikit-learn; "peak_rss_mb" is the process's
peak resident memory during that block, measured the same way (VmHWM after
resetting it through /proc/self/clear_refs).

--compare also runs the exact search (unless the run was exact: it is reused) and
NN-descent stopped after each of --compare-iterations iterations, and reports for
each its time and its recall against the exact graph of all N points ("compare");
--plot then adds recall against time.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.JSON = g.JSON
			if opts.Images == "" && opts.Features == "" {
				return fmt.Errorf("knn: no data: give --features FILE (points: .npy, .npz or CSV), --images DIR (images_u8.bin.gz and labels.txt) or --images FILE (raw uint8 images)")
			}
			opts.K, opts.Approx, opts.Weights, opts.Bandwidth = kf.Neighbors, kf.Approximate, kf.Weights, kf.Bandwidth
			return runKNN(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Features, "features", "", "points, one per row: NumPy .npy/.npz or a CSV/TSV table (an id, node or name first column is the point's id)")
	f.StringVar(&opts.Images, "images", "", "image folder (images_u8.bin.gz, labels.txt) or raw uint8 image file")
	f.IntVar(&opts.Pixels, "pixels", 0, "bytes per image (0: from labels.txt next to the images, else 784)")
	f.IntVar(&opts.N, "n", 0, "use the first N images (0: all)")
	kf.addFlags(f, "")
	f.Lookup("knn-weights").Usage += "; distance2: the squared distances"
	f.StringVar(&opts.MaxMemory, "max-memory", defaultMaxMemory(), "refuse points and their K-nearest-neighbour graph above this size")
	f.StringVar(&opts.Precision, "precision", "float32", "dot products of the exact search: float32 or float64")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of NN-descent and of the recall sample")
	f.StringVar(&opts.Rule, "rule", "or", "symmetrisation: or | mutual")
	f.StringVar(&opts.Out, "out", "", "write the graph: Matrix Market (.mtx), gssl graph (.gsg), SciPy sparse (.npz) or an edge table (.csv, .tsv, .txt)")
	opts.Plots.addFlags(f, "the distribution of the distance to the K-th neighbour, the distance quantiles against neighbour rank and, with --compare, recall against time")
	f.IntVar(&opts.RecallN, "recall-sample", 1000, "measure recall on this many sampled points (0: skip)")
	f.StringVar(&opts.GroundTruth, "groundtruth", "", "measure recall against a knn.py ground-truth file instead")
	f.BoolVar(&opts.Compare, "compare", false, "also time the exact search and NN-descent at --compare-iterations, with their recall against the exact graph")
	f.IntSliceVar(&opts.CompareIter, "compare-iterations", []int{1, 2, 4, 8}, "NN-descent iteration limits of --compare")
	renamedFlag(cmd, "k", "neighbors")
	renamedFlag(cmd, "approx", "approximate")
	renamedFlag(cmd, "weights", "knn-weights")
	f.Var(&alphaAlias{cmd: cmd, sigma: &kf.Bandwidth}, "alpha", "deprecated: use --bandwidth (σ = α√2)")
	_ = f.MarkHidden("alpha")
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
	Images        string        `json:"images,omitempty"`
	Features      string        `json:"features,omitempty"`
	Dataset       string        `json:"dataset"`
	Nodes         int           `json:"nodes"`
	Dim           int           `json:"dim"`
	K             int           `json:"k"`
	Method        string        `json:"method"`
	Precision     string        `json:"precision,omitempty"`
	Seconds       float64       `json:"seconds"`
	CPUSeconds    float64       `json:"cpu_seconds"`
	PeakRSSMB     float64       `json:"peak_rss_mb"`
	RSSReset      bool          `json:"rss_reset"`
	Threads       int           `json:"threads"`
	Iterations    int           `json:"iterations,omitempty"`
	Rescanned     int           `json:"rescanned"`
	Recall        any           `json:"recall"`
	RecallQueries int           `json:"recall_queries"`
	RecallSource  string        `json:"recall_source,omitempty"`
	Rule          string        `json:"rule"`
	Edges         int           `json:"edges"`
	MedianKth     float64       `json:"median_kth_distance"`
	Bandwidth     float64       `json:"bandwidth"`
	Alpha         float64       `json:"alpha"`
	GraphBytes    int64         `json:"graph_bytes"`
	GraphSeconds  float64       `json:"graph_seconds"`
	LoadSeconds   float64       `json:"load_seconds"`
	Out           string        `json:"out,omitempty"`
	Weights       string        `json:"weights,omitempty"`
	Compare       []knnCompared `json:"compare,omitempty"`

	ids    *nodeids.Map         // the points' ids (--features with an id column), or nil
	report *loaders.TableReport // how --features was read
}

// check checks the flags, filling in the default weights, and returns the
// search's precision, the graph's rule and the memory limit.
func (opts *knnOptions) check() (prec knngraph.Precision, rule knngraph.Rule, limit int64, err error) {
	if prec, err = knngraph.ParsePrecision(opts.Precision); err != nil {
		return 0, 0, 0, fmt.Errorf("knn: --precision %q is invalid: use float32 or float64", opts.Precision)
	}
	if rule, err = knngraph.ParseRule(opts.Rule); err != nil {
		return 0, 0, 0, fmt.Errorf("knn: --rule %q is invalid: use or or mutual", opts.Rule)
	}
	if opts.Weights == "" {
		opts.Weights = defaultKNNWeights
	}
	switch opts.Weights {
	case "affinity", "normalized", "distance2":
		if opts.Bandwidth < 0 || math.IsNaN(opts.Bandwidth) || math.IsInf(opts.Bandwidth, 0) {
			return 0, 0, 0, fmt.Errorf("knn: --bandwidth %v is invalid: it must be finite and ≥ 0 (0: the default)", opts.Bandwidth)
		}
	default:
		kf := knnFlags{Weights: opts.Weights, Bandwidth: opts.Bandwidth}
		if _, err := kf.kernel(); err != nil {
			return 0, 0, 0, fmt.Errorf("knn: %w (or distance2)", err)
		}
	}
	if opts.N < 0 {
		return 0, 0, 0, fmt.Errorf("knn: --n %d is invalid: it must be ≥ 0 (0 means all images)", opts.N)
	}
	if opts.RecallN < 0 {
		return 0, 0, 0, fmt.Errorf("knn: --recall-sample %d is invalid: it must be ≥ 0", opts.RecallN)
	}
	if err := checkCompare(*opts); err != nil {
		return 0, 0, 0, err
	}
	if opts.Images != "" && opts.Features != "" {
		return 0, 0, 0, fmt.Errorf("knn: --images and --features exclude each other: uint8 images, or points")
	}
	if err := checkOutPath("out", opts.Out); err != nil {
		return 0, 0, 0, fmt.Errorf("knn: %w", err)
	}
	if err := checkGraphOut(opts.Out); err != nil {
		return 0, 0, 0, fmt.Errorf("knn: %w", err)
	}
	if err := opts.Plots.check(); err != nil {
		return 0, 0, 0, fmt.Errorf("knn: %w", err)
	}
	limit, err = parseBytes("max-memory", opts.MaxMemory)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("knn: %w", err)
	}
	return prec, rule, limit, nil
}

func runKNN(ctx context.Context, opts knnOptions, stdout, stderr io.Writer) error {
	prec, rule, limit, err := opts.check()
	if err != nil {
		return err
	}
	start := timeNow()
	x, res, err := knnPoints(opts, limit)
	if err != nil {
		return err
	}
	if res.report != nil {
		recordInputs(ctx, stderr, *res.report)
	}
	n, d := x.Dims()
	res.K, res.Rule, res.Threads, res.LoadSeconds = opts.K, opts.Rule, runtime.GOMAXPROCS(0), seconds(start)
	if opts.K < 1 || opts.K >= n {
		return fmt.Errorf("knn: --neighbors %d is invalid: it must be in [1, %d) for %d %s", opts.K, n, n, res.unit())
	}
	res.GraphBytes = knngraph.GraphBytes(n, opts.K)
	if err := checkMemory(res.GraphBytes+knngraph.PointsBytes(n, d), limit, fmt.Sprintf("the %d×%d points and their K-nearest-neighbour graph (k = %d)", n, d, opts.K), "give fewer points (--n) or a smaller --neighbors"); err != nil {
		return fmt.Errorf("knn: %w", err)
	}

	nb, err := knnSearch(ctx, opts, x, prec, &res, stderr)
	if err != nil {
		return err
	}
	res.Rescanned = nb.Rescanned

	// Recall against exact neighbours of a sample (or of the ground truth).
	if err := knnRecall(ctx, opts, x, nb, &res, stderr); err != nil {
		return err
	}
	if opts.Compare {
		if res.Compare, err = knnCompare(ctx, opts, x, nb, res, prec, stderr); err != nil {
			return err
		}
	}

	if opts.Images != "" {
		// Distances in pixels/255 units, then the graph.
		scale := loaders.PixelScale * loaders.PixelScale
		for i := range nb.Dist2 {
			nb.Dist2[i] *= scale
		}
	}
	start = timeNow()
	g, err := knngraph.NewGraph(nb, rule)
	if err != nil {
		return fmt.Errorf("knn: %w", err)
	}
	res.GraphSeconds = seconds(start)
	res.Edges = g.Dist2.Edges() - g.Dist2.SelfLoops()
	res.MedianKth = g.MedianKth()
	res.Bandwidth = opts.Bandwidth
	if res.Bandwidth == 0 && opts.Weights != "gaussian" {
		res.Bandwidth = math.Sqrt2 * g.DefaultAlpha()
	}
	res.Alpha = res.Bandwidth / math.Sqrt2
	logf(stderr, "knn: %d %s of %d features: k = %d, %s search, %s rule, %s weights%s; %d edges, graph %s (linear in n·k)",
		n, res.unit(), d, opts.K, res.Method, opts.Rule, opts.Weights, bandwidthNote(opts.Weights, res.Bandwidth), res.Edges, formatBytes(res.GraphBytes))
	if opts.Out != "" {
		if err := writeKNNGraph(opts.Out, g, res.ids, res.Bandwidth, opts.Weights); err != nil {
			return err
		}
		res.Out = opts.Out
	}
	res.Weights = opts.Weights
	if err := opts.Plots.write(stderr, "knn", res, func() (picture, error) { return knnPicture(nb, res) }); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printKNN(w, res, opts) })
}

// bandwidthNote says which σ the weights use, for the stderr line.
func bandwidthNote(weights string, sigma float64) string {
	switch weights {
	case "connectivity", "distance2":
		return ""
	case "gaussian":
		if sigma == 0 {
			return " (self-tuning σ_i: distance to the 7th neighbour)"
		}
	}
	return fmt.Sprintf(" (σ = %.4g)", sigma)
}

// unit names the points of the result.
func (r *knnResult) unit() string {
	if r.Features != "" {
		return "points"
	}
	return "images"
}

// knnPoints reads the first N points of --features, or the first N images
// of --images as raw byte values (squared distances are exact integers,
// rescaled to pixels/255 units after the search).
func knnPoints(opts knnOptions, limit int64) (*mat.Dense, knnResult, error) {
	if opts.Features != "" {
		p, err := readPoints(opts.Features, "", limit)
		if err != nil {
			return nil, knnResult{}, fmt.Errorf("knn: %w", err)
		}
		x, ids := p.X, p.IDs
		n, d := x.Dims()
		if n == 0 {
			return nil, knnResult{}, fmt.Errorf("knn: --features %s has no rows: a K-nearest-neighbour graph needs points", opts.Features)
		}
		if opts.N > n {
			return nil, knnResult{}, fmt.Errorf("knn: --n %d is invalid: %s holds only %d points", opts.N, opts.Features, n)
		}
		if opts.N > 0 {
			x = x.Slice(0, opts.N, 0, d).(*mat.Dense)
			n = opts.N
			ids = ids.Subset(firstN(n))
		}
		return x, knnResult{Features: opts.Features, Dataset: strings.TrimSuffix(filepath.Base(opts.Features), filepath.Ext(opts.Features)), Nodes: n, Dim: d, ids: ids, report: &p.Report}, nil
	}
	if err := refuseNPYImages(opts.Images); err != nil {
		return nil, knnResult{}, fmt.Errorf("knn: %w", err)
	}
	set, err := loaders.ReadImageSet(opts.Images, opts.Pixels)
	if err != nil {
		return nil, knnResult{}, fmt.Errorf("knn: --images: %w", err)
	}
	im, pixels, file := set.Images, set.Images.Pixels, set.Path
	n := opts.N
	if n == 0 {
		n = im.Count
	}
	if n > im.Count {
		return nil, knnResult{}, fmt.Errorf("knn: --n %d is invalid: %s holds only %d images", n, file, im.Count)
	}
	if err := checkMemory(knngraph.PointsBytes(n, pixels), limit, fmt.Sprintf("%d images of %d pixels", n, pixels), "give fewer images (--n)"); err != nil {
		return nil, knnResult{}, fmt.Errorf("knn: %w", err)
	}
	return im.BytesRange(0, n), knnResult{Images: opts.Images, Dataset: datasetName(opts.Images), Nodes: n, Dim: pixels}, nil
}

// printKNN prints the readable summary of gssl knn.
func printKNN(w io.Writer, res knnResult, opts knnOptions) {
	n, pixels := res.Nodes, res.Dim
	unit := "pixels"
	if res.Features != "" {
		unit = "features"
	}
	fmt.Fprintf(w, "%s: %d %s of %d %s, k = %d, %s", res.Dataset, n, res.unit(), pixels, unit, opts.K, res.Method)
	if res.Precision != "" {
		fmt.Fprintf(w, " (%s)", res.Precision)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  search       %.3f s (%.3f s of CPU), peak memory %.1f MB, %d threads", res.Seconds, res.CPUSeconds, res.PeakRSSMB, res.Threads)
	if res.Iterations > 0 {
		fmt.Fprintf(w, ", %d iterations", res.Iterations)
	}
	fmt.Fprintln(w)
	if r, ok := res.Recall.(float64); ok {
		fmt.Fprintf(w, "  recall@%d    %.4f on %d points (%s)\n", opts.K, r, res.RecallQueries, res.RecallSource)
	}
	for _, c := range res.Compare {
		fmt.Fprintf(w, "  compare      %-24s %8.3f s, recall@%d %.4f against the exact graph\n", c.label(), c.Seconds, opts.K, c.Recall)
	}
	fmt.Fprintf(w, "  graph        %d edges (%s rule) plus %d self loops, built in %.3f s\n", res.Edges, opts.Rule, n, res.GraphSeconds)
	fmt.Fprintf(w, "  bandwidth    median K-th distance %.4f, σ = %.4f (α = σ/√2 = %.4f)\n", res.MedianKth, res.Bandwidth, res.Alpha)
	if res.Out != "" {
		fmt.Fprintf(w, "  written      %s (%s)\n", res.Out, res.Weights)
	}
}

// knnSearch runs the exact or NN-descent search, timed with its CPU time
// and peak memory.
func knnSearch(ctx context.Context, opts knnOptions, x *mat.Dense, prec knngraph.Precision, res *knnResult, stderr io.Writer) (*knngraph.Neighbors, error) {
	n, _ := x.Dims()
	bar := newProgress(stderr, n, "knn")
	p := knngraph.PointGraph{K: opts.K, Approximate: opts.Approx, Precision: prec, Seed: opts.Seed}
	progress := searchProgress(bar, opts.Approx, stderr)
	p.Progress = func(done, total int) {
		res.Iterations = done
		progress(done, total)
	}
	res.Method, res.Precision = "exact", prec.String()
	if opts.Approx {
		res.Method, res.Precision = "nn-descent", ""
	} else {
		p.Progress = progress
	}
	res.RSSReset = resetPeakRSS()
	cpu0 := cpuSeconds()
	start := timeNow()
	nb, err := p.Search(ctx, x)
	res.Seconds = seconds(start)
	res.CPUSeconds = cpuSeconds() - cpu0
	res.PeakRSSMB = peakRSSMB()
	bar.Finish()
	if err != nil {
		return nil, fmt.Errorf("knn: %w", err)
	}
	return nb, nil
}

func datasetName(path string) string {
	st, err := os.Stat(path)
	if err == nil && !st.IsDir() {
		path = filepath.Dir(path)
	}
	return filepath.Base(filepath.Clean(path))
}

// knnRecall measures recall@k of nb against exact neighbours, counting a
// neighbour at distance ≤ the exact K-th distance as correct (ties), as
// shared/bench/peers/knn.py does: those of --groundtruth, or of a sample.
func knnRecall(ctx context.Context, opts knnOptions, x *mat.Dense, nb *knngraph.Neighbors, res *knnResult, stderr io.Writer) error {
	n, _ := x.Dims()
	var err error
	switch {
	case opts.GroundTruth != "":
		f, err := os.Open(opts.GroundTruth)
		if err != nil {
			return fmt.Errorf("knn: --groundtruth: %w", err)
		}
		defer f.Close()
		rows, kth, err := knngraph.ReadGroundTruth(f, opts.GroundTruth, n, opts.K)
		if err != nil {
			return fmt.Errorf("knn: --groundtruth %w", err)
		}
		res.RecallSource, res.RecallQueries = "ground truth "+filepath.Base(opts.GroundTruth), len(rows)
		res.Recall, err = knngraph.RecallAt(nb, rows, kth)
	case opts.RecallN > 0:
		start := timeNow()
		res.RecallQueries = min(opts.RecallN, n)
		res.Recall, err = knngraph.SampleRecall(ctx, x, nb, opts.RecallN, opts.Seed)
		logf(stderr, "knn: exact neighbours of %d sampled points in %.2f s", res.RecallQueries, seconds(start))
		res.RecallSource = fmt.Sprintf("exact search on %d points sampled with seed %d", res.RecallQueries, opts.Seed)
	default:
		res.Recall = nil
	}
	if err != nil {
		return fmt.Errorf("knn: recall: %w", err)
	}
	return nil
}

// checkGraphOut refuses an --out whose extension names no graph format.
func checkGraphOut(path string) error {
	if path == "" {
		return nil
	}
	if _, err := loaders.GraphFormat(path); err != nil {
		return fmt.Errorf("--out %w", err)
	}
	return nil
}

// writeKNNGraph writes the weights of g named by --knn-weights (sigma: σ
// of the Gaussian weights, 0 for the default) in the format of the path's
// extension (loaders.WriteGraph).
func writeKNNGraph(path string, g *knngraph.Graph, ids *nodeids.Map, sigma float64, weights string) error {
	w, err := g.WeightsNamed(weights, sigma)
	if err != nil {
		return fmt.Errorf("knn: %w", err)
	}
	if err := loaders.WriteGraph(path, w, ids); err != nil {
		return fmt.Errorf("knn: --out %s: %w", path, err)
	}
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
