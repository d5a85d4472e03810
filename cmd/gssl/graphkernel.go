package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
)

// graphKernelOptions are the flags of gssl graphkernel.
type graphKernelOptions struct {
	Data       string    // TU folder
	Kernel     string    // wl, sp, rw or vh
	H          int       // WL height
	SelectH    bool      // choose h in 1..H on the inner folds too
	Heights    []int     // WL heights evaluated one by one (accuracy against height)
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
	Out        string    // per-graph out-of-fold predictions
	Save       string    // model file of the classifier refitted on all graphs
	JSON       bool
	Plots      plotFlags // --plot, --report
}

// defaultCGrid is wl.py's grid of C values.
var defaultCGrid = []float64{1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3}

func newGraphKernelCommand(g *globals) *cobra.Command {
	opts := graphKernelOptions{}
	var folds string
	cmd := &cobra.Command{
		Use:   "graphkernel",
		Short: "Graph classification with a graph kernel and a kernel machine, by nested cross-validation",
		Long: `graphkernel computes the Gram matrix of a TU graph-classification data set with the
Weisfeiler–Lehman subtree (wl), shortest-path (sp), geometric random-walk (rw) or
vertex-histogram (vh) kernel, normalises it (cosine) and estimates the accuracy of a
C-SVM (or kernel ridge classifier) by nested stratified cross-validation
(protocol.GramEvaluation): C chosen on --inner-folds folds of each outer training set,
--folds outer folds, --seeds repetitions. With --fold-file FILE the outer folds are
read from FILE (line s: the fold of every graph for seed s, as written by
shared/bench/peers/wl.py); the inner folds are always drawn with gssl's seeded
generator.

--heights 0,1,2,3,4,5 (WL) also runs the nested cross-validation once per height with
that height fixed (the same folds and seeds) and reports accuracy against height
("heights"); --plot then draws it.

--out FILE writes one row per graph: its number in the TU files (1-based), its class,
its outer fold in the first seed and the class predicted for it by the candidate
chosen in that fold, refitted on the other folds (CSV, or JSON Lines for
.jsonl/.ndjson).

--save FILE saves a graph classifier for gssl predict --graphs and gssl serve: the
configuration (WL height, C) that the inner selection of the protocol chooses on
all the graphs (the best mean accuracy on --inner-folds stratified folds of every
graph drawn with --seed, the lowest candidate on ties; with --select-h=false and
one --grid value there is nothing to choose) refitted on all of them, as
graphkernels.WLClassifier. It works with --kernel wl, and vh (WL of height 0),
and --classifier svm; the sp and rw kernels and the ridge classifier cannot be
saved. The accuracy reported is that of the protocol, not of the saved model
(which has seen every graph).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Data == "" {
				return fmt.Errorf("graphkernel: no data: give --data DIR, a TU data set folder (NAME_A.txt, NAME_graph_indicator.txt, NAME_graph_labels.txt, …)")
			}
			if v, err := strconv.Atoi(folds); err == nil {
				opts.CV = v
			} else {
				fmt.Fprintf(cmd.ErrOrStderr(), "gssl graphkernel: --folds FILE is deprecated; use --fold-file (--folds is now the number of outer folds)\n")
				opts.Folds = folds
			}
			if opts.Kernel != "wl" && !cmd.Flags().Changed("select-h") {
				opts.SelectH = false // the default applies to WL only
			}
			return runGraphKernel(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Data, "data", "", "TU data set folder (e.g. shared/data/MUTAG)")
	f.StringVar(&opts.Kernel, "kernel", "wl", "graph kernel: wl, sp, rw or vh")
	f.IntVar(&opts.H, "h", 5, "Weisfeiler–Lehman height (relabelling rounds)")
	f.IntSliceVar(&opts.Heights, "heights", nil, "WL heights to evaluate each with the height fixed, e.g. 0,1,2,3,4,5 (accuracy against height)")
	f.BoolVar(&opts.SelectH, "select-h", true, "choose the WL height in 1..h on the inner folds as well (--select-h=false fixes it at --h, as wl.py does)")
	f.Float64Var(&opts.Lambda, "decay", 0.01, "random-walk decay λ (must be below 1/ρ(A×))")
	f.BoolVar(&opts.Normalize, "normalize", true, "cosine-normalise the Gram matrix")
	f.StringVar(&opts.Classifier, "classifier", "svm", "kernel machine: svm (C-SVM, one-vs-one) or ridge (kernel ridge)")
	f.Float64SliceVar(&opts.Grid, "grid", defaultCGrid, "values of C (svm) or of the ridge (ridge) to choose from")
	f.StringVar(&folds, "folds", "10", "outer folds")
	f.IntVar(&opts.Inner, "inner-folds", 3, "inner folds")
	f.IntVar(&opts.Repeats, "seeds", 10, "repetitions with seeds seed..seed+N−1; 0 computes the Gram matrix only")
	f.Uint64Var(&opts.Seed, "seed", 0, "first seed (repetition r uses seed+r)")
	f.StringVar(&opts.Folds, "fold-file", "", "file of outer fold assignments (one line per seed), e.g. shared/bench/splits/MUTAG/wl_outer10fold.txt")
	f.IntVar(&opts.GramRuns, "gram-runs", 1, "timed Gram computations; with more than 1, one untimed warm-up first and the median reported")
	f.StringVar(&opts.GramOut, "gram-out", "", "write the Gram matrix (after normalisation, if any) to this file, one row per line")
	f.StringVar(&opts.Out, "out", "", "write one row per graph: class, outer fold and out-of-fold prediction (CSV, or JSON Lines for .jsonl/.ndjson)")
	f.StringVar(&opts.Save, "save", "", "save the classifier of the configuration chosen on all graphs, refitted on them, for gssl predict --graphs and gssl serve (--kernel wl or vh, --classifier svm)")
	opts.Plots.addFlags(f, "the Gram matrix with the graphs ordered by class and, with --select-h, how often each WL height was chosen and, with --heights, accuracy against height,")
	renamedFlag(cmd, "lambda", "decay")
	renamedFlag(cmd, "cv", "folds")
	renamedFlag(cmd, "inner", "inner-folds")
	renamedFlag(cmd, "repeats", "seeds")
	return cmd
}

// graphKernelResult is the JSON object of gssl graphkernel.
type graphKernelResult struct {
	Dataset          string           `json:"dataset"`
	Kernel           string           `json:"kernel"`
	H                int              `json:"h,omitempty"`
	HChosen          []int            `json:"h_chosen,omitempty"`
	Lambda           float64          `json:"lambda,omitempty"`
	Normalize        bool             `json:"normalize"`
	Classifier       string           `json:"classifier"`
	Graphs           int              `json:"graphs"`
	Nodes            int              `json:"nodes"`
	Classes          int              `json:"classes"`
	Features         int              `json:"features,omitempty"`
	LoadSeconds      float64          `json:"load_seconds"`
	GramSeconds      float64          `json:"gram_seconds"`
	GramSecondsRuns  []float64        `json:"gram_seconds_runs"`
	OuterFolds       int              `json:"outer_folds"`
	InnerFolds       int              `json:"inner_folds"`
	Repeats          int              `json:"repeats"`
	Seed             uint64           `json:"seed"`
	FoldsFile        string           `json:"folds_file,omitempty"`
	Grid             []float64        `json:"grid"`
	GridChosen       []int            `json:"grid_chosen_counts,omitempty"`
	AccuracyMean     any              `json:"accuracy_mean"`
	AccuracyStd      any              `json:"accuracy_std"`
	AccuracyByRepeat []float64        `json:"accuracy_by_repeat"`
	CVSeconds        float64          `json:"cv_seconds"`
	Out              string           `json:"out,omitempty"`
	Heights          []heightAccuracy `json:"heights,omitempty"`
	Saved            string           `json:"saved,omitempty"`
	SavedConfig      *savedGraphModel `json:"saved_config,omitempty"`
}

func (o graphKernelOptions) validate() error {
	if err := o.spec().Validate(); err != nil {
		if o.Kernel != "wl" && o.Kernel != "sp" && o.Kernel != "rw" && o.Kernel != "vh" {
			return fmt.Errorf("graphkernel: --kernel %q is invalid: want wl, sp, rw or vh", o.Kernel)
		}
		return fmt.Errorf("graphkernel: --h %d is invalid: it must be in [1, %d]", o.H, graphkernels.MaxWLHeight)
	}
	switch {
	case o.SelectH && o.Kernel != "wl":
		return fmt.Errorf("graphkernel: --select-h needs --kernel wl")
	case o.Classifier != "svm" && o.Classifier != "ridge":
		return fmt.Errorf("graphkernel: --classifier %q is invalid: want svm or ridge", o.Classifier)
	case len(o.Grid) == 0:
		return fmt.Errorf("graphkernel: --grid is empty")
	case o.Folds == "" && o.CV < 2:
		return fmt.Errorf("graphkernel: --folds %d is invalid: it must be ≥ 2", o.CV)
	case o.Inner < 2:
		return fmt.Errorf("graphkernel: --inner-folds %d is invalid: it must be ≥ 2", o.Inner)
	case o.GramRuns < 1:
		return fmt.Errorf("graphkernel: --gram-runs %d is invalid: it must be ≥ 1", o.GramRuns)
	case len(o.Heights) > 0 && o.Kernel != "wl":
		return fmt.Errorf("graphkernel: --heights needs --kernel wl")
	case len(o.Heights) > 0 && o.Repeats < 1:
		return fmt.Errorf("graphkernel: --heights needs --seeds ≥ 1 (it runs the cross-validation)")
	}
	for _, v := range o.Grid {
		if !(v > 0) || v > 1e300 {
			return fmt.Errorf("graphkernel: --grid value %v is invalid: every value must be finite and > 0", v)
		}
	}
	if err := checkSeedCount(o.Repeats, 0); err != nil {
		return fmt.Errorf("graphkernel: %w", err)
	}
	for _, h := range o.Heights {
		if h < 0 || h > graphkernels.MaxWLHeight {
			return fmt.Errorf("graphkernel: --heights value %d is invalid: every height must be in [0, %d]", h, graphkernels.MaxWLHeight)
		}
	}
	return o.validateSave()
}

// spec is the kernel the options name.
func (o graphKernelOptions) spec() protocol.GraphKernelSpec {
	return protocol.GraphKernelSpec{Name: o.Kernel, H: o.H, Lambda: o.Lambda, Normalize: o.Normalize}
}

// study is the experiment the options describe (protocol.GraphKernelStudy),
// with the outer folds read from --fold-file.
func (o graphKernelOptions) study(folds [][]int, stderr io.Writer) (protocol.GraphKernelStudy, func()) {
	ev := protocol.GramEvaluation{Grid: o.Grid, OuterFolds: o.CV, InnerFolds: o.Inner, Seeds: o.Repeats, Seed: o.Seed, Folds: folds}
	if o.Classifier == "ridge" {
		ev.Machine = graphkernels.Ridge
	}
	bars, finish := stageProgress(stderr)
	return protocol.GraphKernelStudy{Kernel: o.spec(), SelectH: o.SelectH, Heights: o.Heights, Evaluation: ev,
		GramRuns: o.GramRuns, Refit: o.Save != "", Progress: bars}, finish
}

func runGraphKernel(ctx context.Context, opts graphKernelOptions, stdout, stderr io.Writer) error {
	if err := checkGraphKernelFlags(opts); err != nil {
		return err
	}
	ds, graphs, res, err := loadGraphKernelData(opts, stderr)
	if err != nil {
		return err
	}
	labels := ds.Classes()
	var folds [][]int
	if opts.Folds != "" && opts.Repeats > 0 {
		if folds, err = loaders.ReadFolds(opts.Folds, len(graphs), opts.Repeats); err != nil {
			return fmt.Errorf("graphkernel: --fold-file: %w", err)
		}
	}
	study, finish := opts.study(folds, stderr)
	sr, err := study.Run(ctx, graphs, labels)
	finish()
	if err != nil {
		return fmt.Errorf("graphkernel: %w", err)
	}
	if err := fillGraphKernelResult(opts, ds, sr, &res, stderr); err != nil {
		return err
	}
	if err := opts.Plots.write(stderr, "graphkernel", res, func() (picture, error) { return graphKernelPicture(sr, labels, res) }); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printGraphKernel(w, res) })
}

// fillGraphKernelResult copies the study's findings into the result and
// writes --gram-out, --out and --save.
func fillGraphKernelResult(opts graphKernelOptions, ds *loaders.TUDataset, sr *protocol.GraphKernelStudyResult, res *graphKernelResult, stderr io.Writer) error {
	res.GramSecondsRuns, res.Features = sr.GramSeconds, sr.Features
	res.GramSeconds = median(sr.GramSeconds)
	logf(stderr, "graphkernel: Gram matrix %d×%d in %.4f s (median of %d)", res.Graphs, res.Graphs, res.GramSeconds, len(sr.GramSeconds))
	if opts.GramOut != "" {
		if err := writeAtomic(opts.GramOut, func(w io.Writer) error { return loaders.WriteMatrixText(w, sr.Gram) }); err != nil {
			return fmt.Errorf("graphkernel: %w", err)
		}
	}
	res.AccuracyMean, res.AccuracyStd = nil, nil
	if er := sr.Evaluation; er != nil {
		mean, std := eval.MeanStd(er.Accuracy)
		res.OuterFolds, res.CVSeconds, res.AccuracyByRepeat = er.Folds, sr.CVSeconds, er.Accuracy
		res.AccuracyMean, res.AccuracyStd, res.GridChosen, res.HChosen = finite(mean), finite(std), sr.GridChosen, sr.HChosen
	}
	for _, h := range sr.Heights {
		mean, std := eval.MeanStd(h.Accuracy)
		res.Heights = append(res.Heights, heightAccuracy{H: h.H, Mean: finite(mean), Std: finite(std), ByRepeat: finites(h.Accuracy)})
		logf(stderr, "graphkernel: WL height %d fixed: accuracy %.4f ± %.4f", h.H, mean, std)
	}
	if opts.Out != "" && sr.Evaluation != nil {
		if err := writeGraphRows(opts.Out, ds, ds.Classes(), sr.Evaluation); err != nil {
			return err
		}
		res.Out = opts.Out
	}
	if sr.Model != nil {
		return saveGraphClassifier(opts, ds, sr, res, stderr)
	}
	return nil
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

// stageProgress returns a protocol Progress that draws one bar on stderr
// per run of a stage (a new bar when the stage changes or its count
// restarts), and the function that finishes the last bar.
func stageProgress(stderr io.Writer) (func(stage string, done, total int), func()) {
	var bar *progress
	var stage string
	last := 0
	finish := func() {
		if bar != nil {
			bar.Finish()
			bar = nil
		}
	}
	return func(s string, done, total int) {
		if bar == nil || s != stage || done <= last {
			finish()
			bar, stage, last = newProgress(stderr, total, s), s, 0
		}
		bar.Add(done - last)
		last = done
	}, finish
}

// checkGraphKernelFlags checks the flags before any work.
func checkGraphKernelFlags(opts graphKernelOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	for _, o := range []struct{ flag, path string }{{"out", opts.Out}, {"gram-out", opts.GramOut}, {"save", opts.Save}} {
		if err := checkOutPath(o.flag, o.path); err != nil {
			return fmt.Errorf("graphkernel: %w", err)
		}
	}
	if err := opts.Plots.check(); err != nil {
		return fmt.Errorf("graphkernel: %w", err)
	}
	return nil
}

// loadGraphKernelData reads --data and starts the result with what it
// describes.
func loadGraphKernelData(opts graphKernelOptions, stderr io.Writer) (*loaders.TUDataset, []graphkernels.Graph, graphKernelResult, error) {
	start := time.Now()
	ds, err := loaders.LoadTU(opts.Data)
	if err != nil {
		return nil, nil, graphKernelResult{}, fmt.Errorf("graphkernel: %w", err)
	}
	res := graphKernelResult{
		Dataset: ds.Name, Kernel: opts.Kernel, Normalize: opts.Normalize, Classifier: opts.Classifier,
		Graphs: len(ds.Graphs), Classes: len(ds.LabelValues), LoadSeconds: seconds(start),
		OuterFolds: opts.CV, InnerFolds: opts.Inner, Repeats: opts.Repeats, Seed: opts.Seed, FoldsFile: opts.Folds, Grid: opts.Grid,
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
	logf(stderr, "graphkernel: %s, %d graphs, %d nodes, %d classes; kernel %s", ds.Name, res.Graphs, res.Nodes, res.Classes, opts.Kernel)
	return ds, graphs, res, nil
}

// writeGraphRows writes --out: one row per graph with its class, outer fold
// (first seed) and out-of-fold prediction, classes as in the labels file.
func writeGraphRows(path string, ds *loaders.TUDataset, labels []int, er *protocol.GramEvaluationResult) error {
	name := func(c int) any {
		if c < 0 || c >= len(ds.LabelValues) {
			return nil
		}
		return strconv.Itoa(ds.LabelValues[c])
	}
	return writeTable(path, []string{"graph", "label", "fold", "prediction"}, len(labels), func(i int, rec []any) {
		rec[0], rec[1], rec[2], rec[3] = i+1, name(labels[i]), er.Fold[i], name(er.Prediction[i])
	})
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
		printSavedGraphModel(w, r)
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
	for _, h := range r.Heights {
		mean, _ := h.Mean.(float64)
		std, _ := h.Std.(float64)
		fmt.Fprintf(w, "  h = %-2d       %.2f ± %.2f %% (height fixed)\n", h.H, 100*mean, 100*std)
	}
	printSavedGraphModel(w, r)
}
