package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/svm"
)

// graphKernelOptions are the flags of gssl graphkernel.
type graphKernelOptions struct {
	Data       string    // TU folder
	Kernel     string    // wl, sp, rw or vh
	H          int       // WL height
	SelectH    bool      // choose h in 1..H on the inner folds too
	Lambda     float64   // random-walk decay
	Normalize  bool      // cosine normalisation
	Classifier string    // svm or ridge
	Grid       []float64 // C (svm) or ridge (ridge) values
	CV         int       // outer folds
	Inner      int       // inner folds
	Repeats    int       // seeds
	Seed       uint64    // first seed
	Folds      string    // file of outer fold assignments, one line per repeat
	GramRuns   int       // timed Gram computations (after one warm-up when > 1)
	GramOut    string    // file to write the Gram matrix to (text, one row per line)
	JSON       bool
}

func init() { register(newGraphKernelCommand) }

// defaultCGrid is wl.py's grid of C values.
var defaultCGrid = []float64{1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3}

func newGraphKernelCommand(g *globals) *cobra.Command {
	opts := graphKernelOptions{}
	cmd := &cobra.Command{
		Use:   "graphkernel",
		Short: "Graph classification with a graph kernel and a kernel machine, by nested cross-validation",
		Long: `graphkernel computes the Gram matrix of a TU graph-classification data set with the
Weisfeiler–Lehman subtree (wl), shortest-path (sp), geometric random-walk (rw) or
vertex-histogram (vh) kernel, normalises it (cosine) and estimates the accuracy of a
C-SVM (or kernel ridge classifier) by nested stratified cross-validation: C chosen on
--inner folds of each outer training set, --cv outer folds, --repeats seeds. With
--folds FILE the outer folds are read from FILE (line s: the fold of every graph for
seed s, as written by shared/bench/peers/wl.py); the inner folds are always drawn
with gssl's seeded generator.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Kernel != "wl" && !cmd.Flags().Changed("select-h") {
				opts.SelectH = false // the default applies to WL only
			}
			return runGraphKernel(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Data, "data", sharedData("MUTAG"), "TU data set folder")
	f.StringVar(&opts.Kernel, "kernel", "wl", "graph kernel: wl, sp, rw or vh")
	f.IntVar(&opts.H, "h", 5, "Weisfeiler–Lehman height (relabelling rounds)")
	f.BoolVar(&opts.SelectH, "select-h", true, "choose the WL height in 1..h on the inner folds as well (--select-h=false fixes it at --h, as wl.py does)")
	f.Float64Var(&opts.Lambda, "lambda", 0.01, "random-walk decay λ (must be below 1/ρ(A×))")
	f.BoolVar(&opts.Normalize, "normalize", true, "cosine-normalise the Gram matrix")
	f.StringVar(&opts.Classifier, "classifier", "svm", "kernel machine: svm (C-SVM, one-vs-one) or ridge (kernel ridge)")
	f.Float64SliceVar(&opts.Grid, "grid", defaultCGrid, "values of C (svm) or of the ridge (ridge) to choose from")
	f.IntVar(&opts.CV, "cv", 10, "outer folds")
	f.IntVar(&opts.Inner, "inner", 3, "inner folds")
	f.IntVar(&opts.Repeats, "repeats", 10, "repeats (seeds); 0 computes the Gram matrix only")
	f.Uint64Var(&opts.Seed, "seed", 0, "first seed (repeat r uses seed+r)")
	f.StringVar(&opts.Folds, "folds", "", "file of outer fold assignments (one line per repeat), e.g. shared/bench/splits/MUTAG/wl_outer10fold.txt")
	f.IntVar(&opts.GramRuns, "gram-runs", 1, "timed Gram computations; with more than 1, one untimed warm-up first and the median reported")
	f.StringVar(&opts.GramOut, "gram-out", "", "write the Gram matrix (after normalisation, if any) to this file, one row per line")
	return cmd
}

// graphKernelResult is the JSON object of gssl graphkernel.
type graphKernelResult struct {
	Dataset          string    `json:"dataset"`
	Kernel           string    `json:"kernel"`
	H                int       `json:"h,omitempty"`
	HChosen          []int     `json:"h_chosen,omitempty"`
	Lambda           float64   `json:"lambda,omitempty"`
	Normalize        bool      `json:"normalize"`
	Classifier       string    `json:"classifier"`
	Graphs           int       `json:"graphs"`
	Nodes            int       `json:"nodes"`
	Classes          int       `json:"classes"`
	Features         int       `json:"features,omitempty"`
	LoadSeconds      float64   `json:"load_seconds"`
	GramSeconds      float64   `json:"gram_seconds"`
	GramSecondsRuns  []float64 `json:"gram_seconds_runs"`
	OuterFolds       int       `json:"outer_folds"`
	InnerFolds       int       `json:"inner_folds"`
	Repeats          int       `json:"repeats"`
	FoldsFile        string    `json:"folds_file,omitempty"`
	Grid             []float64 `json:"grid"`
	GridChosen       []int     `json:"grid_chosen_counts,omitempty"`
	AccuracyMean     any       `json:"accuracy_mean"`
	AccuracyStd      any       `json:"accuracy_std"`
	AccuracyByRepeat []float64 `json:"accuracy_by_repeat"`
	CVSeconds        float64   `json:"cv_seconds"`
}

func (o graphKernelOptions) validate() error {
	switch o.Kernel {
	case "wl", "sp", "rw", "vh":
	default:
		return fmt.Errorf("graphkernel: --kernel %q is invalid: want wl, sp, rw or vh", o.Kernel)
	}
	if o.Kernel == "wl" && (o.H < 1 || o.H > graphkernels.MaxWLHeight) {
		return fmt.Errorf("graphkernel: --h %d is invalid: it must be in [1, %d]", o.H, graphkernels.MaxWLHeight)
	}
	if o.SelectH && o.Kernel != "wl" {
		return fmt.Errorf("graphkernel: --select-h needs --kernel wl")
	}
	if o.Classifier != "svm" && o.Classifier != "ridge" {
		return fmt.Errorf("graphkernel: --classifier %q is invalid: want svm or ridge", o.Classifier)
	}
	if len(o.Grid) == 0 {
		return fmt.Errorf("graphkernel: --grid is empty")
	}
	for _, v := range o.Grid {
		if !(v > 0) || v > 1e300 {
			return fmt.Errorf("graphkernel: --grid value %v is invalid: every value must be finite and > 0", v)
		}
	}
	if o.CV < 2 {
		return fmt.Errorf("graphkernel: --cv %d is invalid: it must be ≥ 2", o.CV)
	}
	if o.Inner < 2 {
		return fmt.Errorf("graphkernel: --inner %d is invalid: it must be ≥ 2", o.Inner)
	}
	if o.Repeats < 0 {
		return fmt.Errorf("graphkernel: --repeats %d is invalid: it must be ≥ 0", o.Repeats)
	}
	if o.GramRuns < 1 {
		return fmt.Errorf("graphkernel: --gram-runs %d is invalid: it must be ≥ 1", o.GramRuns)
	}
	return nil
}

// newGraphKernel returns the kernel the options name, at WL height h.
func (o graphKernelOptions) newGraphKernel(h int, progress graphkernels.Progress) graphkernels.Kernel {
	var k graphkernels.Kernel
	switch o.Kernel {
	case "wl":
		k = &graphkernels.WeisfeilerLehman{H: h, Progress: progress}
	case "sp":
		k = &graphkernels.ShortestPath{Progress: progress}
	case "rw":
		k = &graphkernels.RandomWalk{Lambda: o.Lambda, Progress: progress}
	default:
		k = &graphkernels.VertexHistogram{Progress: progress}
	}
	if o.Normalize {
		k = &graphkernels.Cosine{Kernel: k}
	}
	return k
}

func runGraphKernel(ctx context.Context, opts graphKernelOptions, stdout, stderr io.Writer) error {
	if err := opts.validate(); err != nil {
		return err
	}
	start := time.Now()
	ds, err := loaders.LoadTU(opts.Data)
	if err != nil {
		return fmt.Errorf("graphkernel: %w", err)
	}
	res := graphKernelResult{
		Dataset: ds.Name, Kernel: opts.Kernel, Normalize: opts.Normalize, Classifier: opts.Classifier,
		Graphs: len(ds.Graphs), Classes: len(ds.LabelValues), LoadSeconds: seconds(start),
		OuterFolds: opts.CV, InnerFolds: opts.Inner, Repeats: opts.Repeats, FoldsFile: opts.Folds, Grid: opts.Grid,
	}
	switch opts.Kernel {
	case "wl":
		res.H = opts.H
	case "rw":
		res.Lambda = opts.Lambda
	}
	graphs := make([]graphkernels.Graph, len(ds.Graphs))
	for i, g := range ds.Graphs {
		graphs[i] = graphkernels.Graph{Adj: g.Graph, Labels: g.NodeLabels}
		res.Nodes += g.Graph.Nodes()
	}
	labels := ds.Classes()
	logf(stderr, "graphkernel: %s, %d graphs, %d nodes, %d classes; kernel %s", ds.Name, res.Graphs, res.Nodes, res.Classes, opts.Kernel)

	// The Gram matrix of the kernel as configured (height H for WL), timed
	// from the loaded graphs.
	var gram *mat.SymDense
	runs := opts.GramRuns
	if runs > 1 {
		runs++ // the first is a warm-up
	}
	for r := 0; r < runs; r++ {
		bar := newProgress(stderr, len(graphs), "Gram matrix")
		k := opts.newGraphKernel(opts.H, func(done, _ int) { bar.Add(1) })
		t0 := time.Now()
		gram, err = k.Fit(ctx, graphs)
		secs := seconds(t0)
		bar.Finish()
		if err != nil {
			return fmt.Errorf("graphkernel: %w", err)
		}
		if r > 0 || runs == 1 {
			res.GramSecondsRuns = append(res.GramSecondsRuns, secs)
		}
		if f, ok := featureCount(k); ok {
			res.Features = f
		}
	}
	res.GramSeconds = median(res.GramSecondsRuns)
	logf(stderr, "graphkernel: Gram matrix %d×%d in %.4f s (median of %d)", len(graphs), len(graphs), res.GramSeconds, len(res.GramSecondsRuns))
	if opts.GramOut != "" {
		if err := writeMatrix(opts.GramOut, gram); err != nil {
			return fmt.Errorf("graphkernel: %w", err)
		}
	}

	if opts.Repeats == 0 {
		res.AccuracyMean, res.AccuracyStd = nil, nil
		return report(stdout, opts.JSON, res, func(w io.Writer) { printGraphKernel(w, res) })
	}

	// Candidate kernels: one Gram matrix, or one per WL height.
	grams := []*mat.SymDense{gram}
	heights := []int{opts.H}
	if opts.SelectH {
		grams, heights = nil, nil
		for h := 1; h <= opts.H; h++ {
			if h == opts.H {
				grams = append(grams, gram)
			} else {
				kh, err := opts.newGraphKernel(h, nil).Fit(ctx, graphs)
				if err != nil {
					return fmt.Errorf("graphkernel: %w", err)
				}
				grams = append(grams, kh)
			}
			heights = append(heights, h)
		}
	}
	var outer [][]int
	if opts.Folds != "" {
		outer, err = readFoldFile(opts.Folds, len(graphs), opts.Repeats)
		if err != nil {
			return fmt.Errorf("graphkernel: %w", err)
		}
		res.OuterFolds = 0
		for _, f := range outer[0] {
			res.OuterFolds = max(res.OuterFolds, f+1)
		}
	}
	nGrid := len(opts.Grid)
	cv := eval.NestedCV{
		InnerFolds: opts.Inner,
		Candidates: len(grams) * nGrid,
		Score: func(ctx context.Context, c int, train, test []int) (float64, error) {
			k := grams[c/nGrid]
			return scoreKernelMachine(ctx, opts.Classifier, opts.Grid[c%nGrid], k, labels, train, test)
		},
	}
	res.GridChosen = make([]int, nGrid)
	hCount := map[int]int{}
	t0 := time.Now()
	bar := newProgress(stderr, opts.Repeats, "nested CV")
	for r := 0; r < opts.Repeats; r++ {
		seed := opts.Seed + uint64(r)
		var fold []int
		if outer != nil {
			fold = outer[r]
		} else if fold, err = eval.StratifiedFolds(labels, opts.CV, seed); err != nil {
			return fmt.Errorf("graphkernel: %w", err)
		}
		nr, err := cv.Run(ctx, labels, fold, seed)
		if err != nil {
			return fmt.Errorf("graphkernel: repeat %d: %w", r, err)
		}
		res.AccuracyByRepeat = append(res.AccuracyByRepeat, nr.Mean)
		for _, c := range nr.Chosen {
			res.GridChosen[c%nGrid]++
			hCount[heights[c/nGrid]]++
		}
		bar.Add(1)
	}
	bar.Finish()
	res.CVSeconds = seconds(t0)
	mean, std := eval.MeanStd(res.AccuracyByRepeat)
	res.AccuracyMean, res.AccuracyStd = finite(mean), finite(std)
	if opts.SelectH {
		res.HChosen = make([]int, opts.H)
		for h, c := range hCount {
			res.HChosen[h-1] = c
		}
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printGraphKernel(w, res) })
}

// scoreKernelMachine fits the classifier with parameter v on k[train,
// train] and returns its accuracy on test.
func scoreKernelMachine(ctx context.Context, classifier string, v float64, k *mat.SymDense, labels, train, test []int) (float64, error) {
	ktr := svm.SubGram(k, train)
	ytr := make([]int, len(train))
	for p, i := range train {
		ytr[p] = labels[i]
	}
	var pred []int
	var err error
	cross := svm.SubCross(k, test, train)
	if classifier == "ridge" {
		m := &svm.KernelRidge{Ridge: v}
		if err = m.Fit(ctx, ktr, ytr); err == nil {
			pred, err = m.Predict(cross)
		}
	} else {
		m := &svm.SVC{C: v}
		if err = m.Fit(ctx, ktr, ytr); err == nil {
			pred, err = m.Predict(cross)
		}
	}
	if err != nil {
		return 0, err
	}
	right := 0
	for p, i := range test {
		if pred[p] == labels[i] {
			right++
		}
	}
	return float64(right) / float64(len(test)), nil
}

// featureCount returns the dictionary size of an explicit-feature kernel.
func featureCount(k graphkernels.Kernel) (int, bool) {
	if c, ok := k.(*graphkernels.Cosine); ok {
		k = c.Kernel
	}
	switch k := k.(type) {
	case *graphkernels.WeisfeilerLehman:
		return k.Dimension(), true
	case interface {
		Features() []graphkernels.SparseVector
	}:
		d := 0
		for _, v := range k.Features() {
			if n := len(v.Idx); n > 0 {
				d = max(d, int(v.Idx[n-1])+1)
			}
		}
		return d, true
	}
	return 0, false
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return 0.5 * (s[n/2-1] + s[n/2])
}

// readFoldFile reads outer fold assignments: '#' lines are comments, each
// other line holds the fold id of every one of n items, one line per
// repeat; at least repeats lines are needed.
func readFoldFile(path string, n, repeats int) ([][]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][]int
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	line := 0
	for sc.Scan() && len(out) < repeats {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		fields := strings.Fields(s)
		if len(fields) != n {
			return nil, fmt.Errorf("%s:%d: %d fold ids, want %d (one per graph)", path, line, len(fields), n)
		}
		row := make([]int, n)
		for i, x := range fields {
			v, err := strconv.Atoi(x)
			if err != nil || v < 0 {
				return nil, fmt.Errorf("%s:%d: fold id %q of graph %d is not a non-negative integer", path, line, x, i)
			}
			row[i] = v
		}
		out = append(out, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) < repeats {
		return nil, fmt.Errorf("%s: %d fold assignments, fewer than --repeats %d", path, len(out), repeats)
	}
	return out, nil
}

// writeMatrix writes a matrix as text, one row per line, every value with
// the digits that read back to the same float64.
func writeMatrix(path string, m mat.Matrix) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	r, c := m.Dims()
	buf := make([]byte, 0, 32)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if j > 0 {
				w.WriteByte(' ')
			}
			w.Write(strconv.AppendFloat(buf[:0], m.At(i, j), 'g', -1, 64))
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func printGraphKernel(w io.Writer, r graphKernelResult) {
	name := r.Kernel
	if r.Kernel == "wl" {
		name = fmt.Sprintf("wl (h = %d)", r.H)
	}
	fmt.Fprintf(w, "%s: %d graphs, %d nodes, %d classes\n", r.Dataset, r.Graphs, r.Nodes, r.Classes)
	fmt.Fprintf(w, "  kernel       %s, cosine-normalised %v", name, r.Normalize)
	if r.Features > 0 {
		fmt.Fprintf(w, ", %d features", r.Features)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  Gram matrix  %.4f s\n", r.GramSeconds)
	if r.Repeats == 0 {
		return
	}
	mean, _ := r.AccuracyMean.(float64)
	std, _ := r.AccuracyStd.(float64)
	fmt.Fprintf(w, "  accuracy     %.2f ± %.2f %% (%s, %d outer × %d inner folds, %d repeats, %.1f s)\n",
		100*mean, 100*std, r.Classifier, r.OuterFolds, r.InnerFolds, r.Repeats, r.CVSeconds)
	fmt.Fprintf(w, "  grid         %v chosen %v times\n", r.Grid, r.GridChosen)
	if r.HChosen != nil {
		fmt.Fprintf(w, "  heights      1..%d chosen %v times\n", len(r.HChosen), r.HChosen)
	}
}
