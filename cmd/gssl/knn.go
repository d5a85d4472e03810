package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
)

type knnOptions struct {
	Images      string  // an image folder (images_u8.bin.gz, labels.txt) or a raw uint8 image file
	Pixels      int     // bytes per image; 0 infers it from labels.txt next to the file, else 784
	N           int     // first N images; 0 means all
	K           int     // neighbours per point
	Approx      bool    // NN-descent instead of the exact search
	Precision   string  // exact search: float32 or float64
	Seed        uint64  // NN-descent and the recall sample
	Rule        string  // or | mutual
	Bandwidth   float64 // bandwidth α of the written weights; 0 means the default
	Weights     string  // written weights: affinity | normalized | distance2
	Out         string  // Matrix Market output file
	RecallN     int     // exact neighbours of this many sampled points measure the recall; 0 = none
	GroundTruth string  // a shared/bench/groundtruth file to measure the recall against instead
	Compare     bool    // also time exact search and NN-descent at CompareIters, recall against exact
	CompareIter []int   // NN-descent iteration limits of --compare
	JSON        bool
	Plots       plotFlags // --plot, --report
}

func init() { register(newKNNCommand) }

func newKNNCommand(g *globals) *cobra.Command {
	opts := knnOptions{}
	cmd := &cobra.Command{
		Use:   "knn --images PATH [--n N] [--neighbors K] [--approximate] [--out graph.mtx]",
		Short: "K-nearest-neighbour graph of images, exact or by NN-descent, with recall and IMGP weights",
		Long: `knn builds the K-nearest-neighbour graph of the first N images of a uint8 image
set (e.g. shared/data/mnist) by exact search or, with --approximate, by NN-descent,
and measures its recall against exact neighbours of a sample of points (or of the
queries of a knn.py ground-truth file). Distances are Euclidean on pixels/255; the
search itself runs on the raw bytes, so squared distances are exact and ties are
broken by smaller index exactly as in the ground truth.

With --out it writes the symmetrised graph (or-rule by default, --rule mutual for
the and-rule) as a Matrix Market file: IMGP's Ã = exp(−d²/(4α²)) with self loops
(--weights affinity), the density-normalised A = D̃^{-1}ÃD̃^{-1} (normalized), or
the squared distances (distance2). α defaults to the median distance to the K-th
neighbour divided by √2.

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
			if opts.Images == "" {
				return fmt.Errorf("knn: no data: give --images DIR (images_u8.bin.gz and labels.txt) or --images FILE (raw uint8 images)")
			}
			return runKNN(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Images, "images", "", "image folder (images_u8.bin.gz, labels.txt) or raw uint8 image file")
	f.IntVar(&opts.Pixels, "pixels", 0, "bytes per image (0: from labels.txt next to the images, else 784)")
	f.IntVar(&opts.N, "n", 0, "use the first N images (0: all)")
	f.IntVar(&opts.K, "neighbors", 10, "neighbours per point")
	f.BoolVar(&opts.Approx, "approximate", false, "approximate search by NN-descent")
	f.StringVar(&opts.Precision, "precision", "float32", "dot products of the exact search: float32 or float64")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of NN-descent and of the recall sample")
	f.StringVar(&opts.Rule, "rule", "or", "symmetrisation: or | mutual")
	f.Float64Var(&opts.Bandwidth, "bandwidth", 0, "bandwidth α of the written weights exp(−d²/(4α²)) (0: σ/√2, σ the median distance to the K-th neighbour)")
	f.StringVar(&opts.Weights, "weights", "affinity", "written weights: affinity | normalized | distance2")
	f.StringVar(&opts.Out, "out", "", "write the graph as a Matrix Market file")
	opts.Plots.addFlags(f, "the distribution of the distance to the K-th neighbour, the distance quantiles against neighbour rank and, with --compare, recall against time")
	f.IntVar(&opts.RecallN, "recall-sample", 1000, "measure recall on this many sampled points (0: skip)")
	f.StringVar(&opts.GroundTruth, "groundtruth", "", "measure recall against a knn.py ground-truth file instead")
	f.BoolVar(&opts.Compare, "compare", false, "also time the exact search and NN-descent at --compare-iterations, with their recall against the exact graph")
	f.IntSliceVar(&opts.CompareIter, "compare-iterations", []int{1, 2, 4, 8}, "NN-descent iteration limits of --compare")
	renamedFlag(cmd, "k", "neighbors")
	renamedFlag(cmd, "approx", "approximate")
	renamedFlag(cmd, "alpha", "bandwidth")
	return cmd
}

// knnResult is the JSON object of gssl knn.
type knnResult struct {
	Images        string        `json:"images"`
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
	Alpha         float64       `json:"alpha"`
	GraphSeconds  float64       `json:"graph_seconds"`
	LoadSeconds   float64       `json:"load_seconds"`
	Out           string        `json:"out,omitempty"`
	Weights       string        `json:"weights,omitempty"`
	Compare       []knnCompared `json:"compare,omitempty"`
}

func runKNN(ctx context.Context, opts knnOptions, stdout, stderr io.Writer) error {
	var prec knngraph.Precision
	switch opts.Precision {
	case "float32":
		prec = knngraph.Float32
	case "float64":
		prec = knngraph.Float64
	default:
		return fmt.Errorf("knn: --precision %q is invalid: use float32 or float64", opts.Precision)
	}
	var rule knngraph.Rule
	switch opts.Rule {
	case "or":
		rule = knngraph.Or
	case "mutual":
		rule = knngraph.Mutual
	default:
		return fmt.Errorf("knn: --rule %q is invalid: use or or mutual", opts.Rule)
	}
	switch opts.Weights {
	case "affinity", "normalized", "distance2":
	default:
		return fmt.Errorf("knn: --weights %q is invalid: use affinity, normalized or distance2", opts.Weights)
	}
	if opts.N < 0 {
		return fmt.Errorf("knn: --n %d is invalid: it must be ≥ 0 (0 means all images)", opts.N)
	}
	if opts.RecallN < 0 {
		return fmt.Errorf("knn: --recall-sample %d is invalid: it must be ≥ 0", opts.RecallN)
	}
	if err := checkCompare(opts); err != nil {
		return err
	}
	if opts.Bandwidth < 0 || math.IsNaN(opts.Bandwidth) || math.IsInf(opts.Bandwidth, 0) {
		return fmt.Errorf("knn: --bandwidth %v is invalid: it must be finite and ≥ 0 (0 means the default)", opts.Bandwidth)
	}

	if err := checkOutPath("out", opts.Out); err != nil {
		return fmt.Errorf("knn: %w", err)
	}
	if err := opts.Plots.check(); err != nil {
		return fmt.Errorf("knn: %w", err)
	}
	start := timeNow()
	set, err := loaders.ReadImageSet(opts.Images, opts.Pixels)
	if err != nil {
		return fmt.Errorf("knn: --images: %w", err)
	}
	im, pixels, file := set.Images, set.Images.Pixels, set.Path
	n := opts.N
	if n == 0 {
		n = im.Count
	}
	if n > im.Count {
		return fmt.Errorf("knn: --n %d is invalid: %s holds only %d images", n, file, im.Count)
	}
	if opts.K < 1 || opts.K >= n {
		return fmt.Errorf("knn: --neighbors %d is invalid: it must be in [1, %d) for %d images", opts.K, n, n)
	}
	// Raw byte values: squared distances are exact integers; they are
	// rescaled to pixels/255 units after the search.
	x := im.BytesRange(0, n)
	im = nil
	res := knnResult{Images: opts.Images, Dataset: datasetName(opts.Images), Nodes: n, Dim: pixels, K: opts.K,
		Rule: opts.Rule, Threads: runtime.GOMAXPROCS(0), LoadSeconds: seconds(start)}

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

	// Distances in pixels/255 units, then the graph.
	scale := loaders.PixelScale * loaders.PixelScale
	for i := range nb.Dist2 {
		nb.Dist2[i] *= scale
	}
	start = timeNow()
	g, err := knngraph.NewGraph(nb, rule)
	if err != nil {
		return fmt.Errorf("knn: %w", err)
	}
	res.GraphSeconds = seconds(start)
	res.Edges = g.Dist2.Edges() - g.Dist2.SelfLoops()
	res.MedianKth = g.MedianKth()
	res.Alpha = opts.Bandwidth
	if res.Alpha == 0 {
		res.Alpha = g.DefaultAlpha()
	}
	if opts.Out != "" {
		if err := writeKNNGraph(opts.Out, g, res.Alpha, opts.Weights); err != nil {
			return err
		}
		res.Out, res.Weights = opts.Out, opts.Weights
	}
	if err := opts.Plots.write(stderr, "knn", res, func() (picture, error) { return knnPicture(nb, res) }); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printKNN(w, res, opts) })
}

// printKNN prints the readable summary of gssl knn.
func printKNN(w io.Writer, res knnResult, opts knnOptions) {
	n, pixels := res.Nodes, res.Dim
	fmt.Fprintf(w, "%s: %d images of %d pixels, k = %d, %s", res.Dataset, n, pixels, opts.K, res.Method)
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
	fmt.Fprintf(w, "  bandwidth    median K-th distance %.4f, α = %.4f\n", res.MedianKth, res.Alpha)
	if res.Out != "" {
		fmt.Fprintf(w, "  written      %s (%s)\n", res.Out, res.Weights)
	}
}

// knnSearch runs the exact or NN-descent search, timed with its CPU time
// and peak memory.
func knnSearch(ctx context.Context, opts knnOptions, x *mat.Dense, prec knngraph.Precision, res *knnResult, stderr io.Writer) (*knngraph.Neighbors, error) {
	n, _ := x.Dims()
	var err error
	bar := newProgress(stderr, n, "knn")
	var nb *knngraph.Neighbors
	res.RSSReset = resetPeakRSS()
	cpu0 := cpuSeconds()
	start := timeNow()
	if opts.Approx {
		res.Method = "nn-descent"
		nb, err = knngraph.Approximate(ctx, x, opts.K, &knngraph.Descent{Seed: opts.Seed, Progress: func(it, updates int) {
			res.Iterations = it
			logf(stderr, "knn: NN-descent iteration %d: %d updates", it, updates)
		}})
	} else {
		res.Method, res.Precision = "exact", prec.String()
		last := 0
		nb, err = knngraph.Exact(ctx, x, opts.K, &knngraph.Settings{Precision: prec, Progress: func(done, total int) {
			bar.Add(done - last)
			last = done
		}})
	}
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
// shared/bench/peers/knn.py does.
func knnRecall(ctx context.Context, opts knnOptions, x *mat.Dense, nb *knngraph.Neighbors, res *knnResult, stderr io.Writer) error {
	n, _ := x.Dims()
	var rows []int
	var kth []float64
	switch {
	case opts.GroundTruth != "":
		gt, err := readGroundTruth(opts.GroundTruth, n, opts.K)
		if err != nil {
			return err
		}
		for _, g := range gt {
			rows = append(rows, g.query)
			kth = append(kth, g.kth)
		}
		res.RecallSource = "ground truth " + filepath.Base(opts.GroundTruth)
	case opts.RecallN > 0:
		s := min(opts.RecallN, n)
		rng := rand.New(rand.NewPCG(opts.Seed, 0x726563616c6c)) // "recall"
		perm := rng.Perm(n)[:s]
		sort.Ints(perm)
		start := timeNow()
		ex, err := knngraph.ExactRows(ctx, x, perm, opts.K, nil)
		if err != nil {
			return fmt.Errorf("knn: exact neighbours of the recall sample: %w", err)
		}
		logf(stderr, "knn: exact neighbours of %d sampled points in %.2f s", s, seconds(start))
		rows = perm
		for i := range perm {
			_, d2 := ex.Row(i)
			kth = append(kth, d2[len(d2)-1])
		}
		res.RecallSource = fmt.Sprintf("exact search on %d points sampled with seed %d", s, opts.Seed)
	default:
		res.Recall = nil
		return nil
	}
	hits := 0
	for i, q := range rows {
		_, d2 := nb.Row(q)
		for _, d := range d2 {
			if d <= kth[i] {
				hits++
			}
		}
	}
	res.Recall = float64(hits) / float64(len(rows)*opts.K)
	res.RecallQueries = len(rows)
	return nil
}

type gtRow struct {
	query int
	kth   float64 // exact K-th squared distance (raw pixel units)
}

// readGroundTruth reads a knn.py ground-truth file: "query nbr… | d2…".
func readGroundTruth(path string, n, k int) ([]gtRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("knn: --groundtruth: %w", err)
	}
	defer f.Close()
	var out []gtRow
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		left, right, ok := strings.Cut(s, "|")
		l, r := strings.Fields(left), strings.Fields(right)
		if !ok || len(l) != k+1 || len(r) != k {
			return nil, fmt.Errorf("knn: %s:%d: want \"query\" plus %d neighbours, '|', %d distances", path, line, k, k)
		}
		q, err := strconv.Atoi(l[0])
		if err != nil || q < 0 || q >= n {
			return nil, fmt.Errorf("knn: %s:%d: query %q is not a point index in [0, %d)", path, line, l[0], n)
		}
		d, err := strconv.ParseFloat(r[k-1], 64)
		if err != nil {
			return nil, fmt.Errorf("knn: %s:%d: %w", path, line, err)
		}
		out = append(out, gtRow{q, d})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("knn: %s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("knn: %s: no queries", path)
	}
	return out, nil
}

// writeKNNGraph writes the chosen weights of g as Matrix Market.
func writeKNNGraph(path string, g *knngraph.Graph, alpha float64, weights string) error {
	out := g.Dist2
	if weights != "distance2" {
		w, err := g.Weights(alpha)
		if err != nil {
			return fmt.Errorf("knn: %w", err)
		}
		out = w.Tilde
		if weights == "normalized" {
			out = w.A
		}
	}
	if err := writeAtomic(path, func(w io.Writer) error { return loaders.WriteMatrixMarket(w, out) }); err != nil {
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
