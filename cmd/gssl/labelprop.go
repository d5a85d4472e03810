package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
)

// labelpropOptions are the settings of one labelprop run.
type labelpropOptions struct {
	Data              string  // node-classification folder
	Images            string  // image set: run on the KNN graph of its first N images instead of Data
	N, K              int     // with Images: images used (0: all) and neighbours per image
	Method            string  // "spreading" or "harmonic"
	Alpha             string  // a in (0, 1), or "auto" to choose it on the validation nodes
	Split             string  // "planetoid", "random:K" or the path of a split file
	Seeds             int     // random splits: seeds Seed..Seed+Seeds−1
	Seed              uint64  // the first seed of random splits
	CMN               bool    // class-mass normalisation
	Solver            string  // spreading: "chebyshev" (default), "cg" or "fixed-point"
	Tol               float64 // 0 means labelprop.DefaultTol
	KeepIsolatedSeeds bool    // let isolated training nodes keep their label
	Out               string  // predictions CSV, "" for none
	JSON              bool
}

// Sizes of the validation and test sets of random splits (the Planetoid
// protocol).
const (
	randomSplitVal  = 500
	randomSplitTest = 1000
)

func init() { register(newLabelpropCommand) }

func newLabelpropCommand(g *globals) *cobra.Command {
	opts := labelpropOptions{}
	cmd := &cobra.Command{
		Use:   "labelprop",
		Short: "Classify the nodes of a graph from a few labels by label propagation",
		Long: `labelprop classifies the nodes of a citation-style graph from a few labelled ones.

Methods: label spreading (Zhou et al. 2003), F = (1−a)(I − aS)^{-1} Y with
S = D^{-1/2} W D^{-1/2}, solved by the Chebyshev semi-iteration (default), block CG
or the fixed-point iteration; and the
harmonic function (Zhu, Ghahramani & Lafferty 2003), L_uu F_u = W_ul Y_l, by
Jacobi-preconditioned block CG. With --alpha auto, a is chosen from
0.5, 0.7, 0.8, 0.9, 0.95, 0.99 by accuracy on the validation nodes (the first
best on ties). Nodes with no path to a labelled node get the class prior.

Without --data it classifies the embedded copy of Cora (testdata/cora) on the
Planetoid split. --images DIR classifies the images of an image set instead, as
the nodes of the unweighted K-nearest-neighbour graph of its first --n images
(--k, or-rule, exact search on the pixels); use --split random:K.`,
		Example: `  gssl labelprop
  gssl labelprop --data ../shared/data/pubmed --method harmonic --cmn
  gssl labelprop --split random:20 --seeds 10 --json
  gssl labelprop --alpha 0.9 --solver fixed-point --out predictions.csv
  gssl labelprop --images ../shared/data/digits8x8 --split random:20 --seeds 3`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Images != "" && opts.Data != "" {
				return fmt.Errorf("labelprop: --data and --images exclude each other: a graph folder, or an image set to build a KNN graph from")
			}
			if opts.Data == "" && opts.Images == "" {
				opts.Data = defaultCora()
			}
			return runLabelprop(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Data, "data", "", "node-classification folder (edges.txt, labels.txt, split_planetoid.txt); default testdata/cora")
	f.StringVar(&opts.Images, "images", "", "image set (images_u8.bin.gz + labels.txt, e.g. ../shared/data/digits8x8): classify the nodes of the unweighted K-nearest-neighbour graph of its images (use --split random:K)")
	f.IntVar(&opts.N, "n", 0, "with --images: use the first N images (0: all)")
	f.IntVar(&opts.K, "k", 10, "with --images: neighbours per image (or-rule, exact search on the pixels)")
	f.StringVar(&opts.Method, "method", "spreading", "spreading or harmonic")
	f.StringVar(&opts.Alpha, "alpha", "auto", "spreading weight a in (0, 1), or auto to choose it on the validation nodes")
	f.StringVar(&opts.Split, "split", "planetoid", "planetoid, random:K (K training nodes per class, 500 val, 1000 test), or a split file")
	f.IntVar(&opts.Seeds, "seeds", 1, "number of random splits (seeds S..S+N-1); only with --split random:K")
	f.Uint64Var(&opts.Seed, "seed", 0, "first seed S of the random splits")
	f.BoolVar(&opts.CMN, "cmn", false, "class-mass normalisation (Zhu et al. 2003 §4)")
	f.StringVar(&opts.Solver, "solver", "chebyshev", "spreading solver: chebyshev, cg or fixed-point")
	f.Float64Var(&opts.Tol, "tol", 0, "stopping tolerance (0 means 1e-6, as lp.py)")
	f.BoolVar(&opts.KeepIsolatedSeeds, "keep-isolated-seeds", false, "let training nodes of degree 0 keep their label instead of failing")
	f.StringVar(&opts.Out, "out", "", "write node,label,predicted,split,p_0..p_C-1 to this CSV (the first seed's run)")
	return cmd
}

// labelpropRun is the outcome of one split.
type labelpropRun struct {
	alpha      float64   // chosen a (spreading)
	gridVal    []float64 // validation accuracy per a of the grid
	gridTest   []float64 // test accuracy per a of the grid
	gridIter   []int     // iterations per a of the grid
	gridSecs   []float64 // fit seconds per a of the grid
	val, test  float64   // accuracies of the chosen model (NaN without nodes)
	macroF1    float64   // on the test nodes
	info       labelprop.Info
	fitSeconds float64 // the chosen model's fit and labels
	model      labelprop.Classifier
	split      eval.Split
}

// labelpropResult is the JSON object of the command.
type labelpropResult struct {
	Data             string    `json:"data"`
	Dataset          string    `json:"dataset"`
	Nodes            int       `json:"nodes"`
	Edges            int       `json:"edges"`
	Classes          int       `json:"classes"`
	Method           string    `json:"method"`
	Solver           string    `json:"solver"`
	CMN              bool      `json:"cmn"`
	Tol              float64   `json:"tol"`
	Split            string    `json:"split"`
	Seeds            int       `json:"seeds"`
	FirstSeed        uint64    `json:"first_seed"`
	Train            int       `json:"train"`
	Val              int       `json:"val"`
	Test             int       `json:"test"`
	Alpha            any       `json:"alpha"`
	AlphaPerSeed     []float64 `json:"alpha_per_seed,omitempty"`
	AlphaGrid        []float64 `json:"alpha_grid,omitempty"`
	GridValAccuracy  []float64 `json:"grid_val_accuracy,omitempty"`
	GridTestAccuracy []float64 `json:"grid_test_accuracy,omitempty"`
	ValAccuracy      any       `json:"val_accuracy"`
	TestAccuracy     any       `json:"test_accuracy"`
	TestAccuracyStd  any       `json:"test_accuracy_std,omitempty"`
	MacroF1          any       `json:"macro_f1"`
	MacroF1Std       any       `json:"macro_f1_std,omitempty"`
	Iterations       int       `json:"iterations"`
	ClassIterations  []int     `json:"class_iterations,omitempty"`
	Residual         float64   `json:"residual"`
	NIsolated        int       `json:"n_isolated"`
	NUnreached       int       `json:"n_unreached"`
	NIsolatedSeeds   int       `json:"n_isolated_seeds"`
	FitSeconds       float64   `json:"fit_seconds"`
	LoadSeconds      float64   `json:"load_seconds"`
	Seconds          float64   `json:"seconds"`
	Out              string    `json:"out,omitempty"`
}

// splitSpec is a parsed --split.
type splitSpec struct {
	kind     string // "planetoid", "random" or "file"
	perClass int
	path     string
}

func parseSplitSpec(s string) (splitSpec, error) {
	switch {
	case s == "planetoid":
		return splitSpec{kind: "planetoid"}, nil
	case strings.HasPrefix(s, "random:"):
		k, err := strconv.Atoi(strings.TrimPrefix(s, "random:"))
		if err != nil || k < 1 {
			return splitSpec{}, fmt.Errorf("labelprop: --split %q: want random:K with K ≥ 1 training nodes per class", s)
		}
		return splitSpec{kind: "random", perClass: k}, nil
	case s == "":
		return splitSpec{}, errors.New("labelprop: --split is empty: want planetoid, random:K or a split file")
	}
	if _, err := os.Stat(s); err != nil {
		return splitSpec{}, fmt.Errorf("labelprop: --split %q is not planetoid or random:K, and not a readable split file: %w", s, err)
	}
	return splitSpec{kind: "file", path: s}, nil
}

// parseAlpha returns the grid to search: the peer's grid for "auto", one
// value otherwise.
func parseAlpha(s string) ([]float64, bool, error) {
	if s == "auto" || s == "" {
		return labelprop.AlphaGrid(), true, nil
	}
	a, err := strconv.ParseFloat(s, 64)
	if err != nil || !(a > 0 && a < 1) {
		return nil, false, fmt.Errorf("labelprop: --alpha %q is invalid: it must be a number inside the open interval (0, 1), or auto", s)
	}
	return []float64{a}, false, nil
}

func runLabelprop(ctx context.Context, opts labelpropOptions, stdout, stderr io.Writer) error {
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	spec, err := parseSplitSpec(opts.Split)
	if err != nil {
		return err
	}
	if opts.Seeds < 1 {
		return fmt.Errorf("labelprop: --seeds %d is invalid: it must be ≥ 1", opts.Seeds)
	}
	if opts.Seeds > 1 && spec.kind != "random" {
		return fmt.Errorf("labelprop: --seeds %d needs --split random:K; the %s split is fixed and the methods are deterministic", opts.Seeds, spec.kind)
	}
	var grid []float64
	auto := false
	var solver labelprop.Solver
	switch opts.Method {
	case "spreading":
		if grid, auto, err = parseAlpha(opts.Alpha); err != nil {
			return err
		}
		if solver, err = labelprop.ParseSolver(opts.Solver); err != nil {
			return err
		}
	case "harmonic":
		if opts.Alpha != "auto" && opts.Alpha != "" {
			return fmt.Errorf("labelprop: --alpha %s applies to --method spreading only; the harmonic function has no a", opts.Alpha)
		}
		// The flag's default and "cg" (what the harmonic function runs) pass.
		if opts.Solver != "chebyshev" && opts.Solver != "cg" && opts.Solver != "" {
			return fmt.Errorf("labelprop: --solver %s applies to --method spreading only; the harmonic function is solved by CG", opts.Solver)
		}
	default:
		return fmt.Errorf("labelprop: --method %q is invalid: want spreading or harmonic", opts.Method)
	}
	if opts.Tol != 0 && !(opts.Tol > 0 && opts.Tol < 1) {
		return fmt.Errorf("labelprop: --tol %v is invalid: it must be inside (0, 1), or 0 for the default", opts.Tol)
	}

	var ds *loaders.NodeDataset
	if opts.Images != "" {
		if ds, err = imageGraphDataset(ctx, opts.Images, opts.N, opts.K, stderr); err != nil {
			return fmt.Errorf("labelprop: %w", err)
		}
		opts.Data = ds.Name
	} else if ds, err = loaders.LoadNodeDataset(opts.Data); err != nil {
		return err
	}
	loadSeconds := seconds(start)
	splits := func(seed uint64) (eval.Split, error) {
		switch spec.kind {
		case "planetoid":
			if ds.Split == nil {
				return eval.Split{}, fmt.Errorf("labelprop: %s has no split_planetoid.txt; use --split random:K or a split file", opts.Data)
			}
			return *ds.Split, nil
		case "file":
			sp, err := loaders.ReadSplit(spec.path, len(ds.Labels))
			if err != nil {
				return eval.Split{}, err
			}
			for _, i := range sp.Train {
				if ds.Labels[i] < 0 {
					return eval.Split{}, fmt.Errorf("labelprop: %s: training node %d has no label (-1) in %s", spec.path, i, opts.Data)
				}
			}
			return *sp, nil
		}
		return eval.RandomPerClass(ds.Labels, spec.perClass, randomSplitVal, randomSplitTest, seed)
	}
	newModel := func(a float64) labelprop.Classifier {
		iso := labelprop.IsolatedSeedError
		if opts.KeepIsolatedSeeds {
			iso = labelprop.IsolatedSeedKeep
		}
		if opts.Method == "harmonic" {
			return &labelprop.Harmonic{Tol: opts.Tol, Classes: ds.Classes, ClassMassNormalization: opts.CMN, IsolatedSeeds: iso}
		}
		return &labelprop.Spreading{Alpha: a, Solver: solver, Tol: opts.Tol, Classes: ds.Classes, ClassMassNormalization: opts.CMN, IsolatedSeeds: iso}
	}
	if opts.Method == "harmonic" {
		grid = []float64{0}
	}

	bar := newProgress(stderr, opts.Seeds, "labelprop")
	seeds := eval.Seeds(opts.Seeds)
	for k := range seeds {
		seeds[k] += opts.Seed
	}
	runs, err := eval.RunSeeds(ctx, seeds, func(ctx context.Context, seed uint64) (labelpropRun, error) {
		sp, err := splits(seed)
		if err != nil {
			return labelpropRun{}, err
		}
		return labelpropOnSplit(ctx, ds, sp, grid, auto, newModel, opts.KeepIsolatedSeeds)
	}, func(int) { bar.Add(1) })
	bar.Finish()
	if err != nil {
		return err
	}

	res := summarizeLabelprop(opts, ds, runs, grid, auto, solver)
	res.LoadSeconds = loadSeconds
	if opts.Out != "" {
		if err := writePredictions(opts.Out, ds, runs[0]); err != nil {
			return err
		}
		res.Out = opts.Out
	}
	res.Seconds = seconds(start)
	return report(stdout, opts.JSON, res, func(w io.Writer) { printLabelprop(w, res, runs, auto) })
}

// labelpropOnSplit fits one model per value of grid, chooses on the
// validation nodes when auto, and scores the chosen model.
func labelpropOnSplit(ctx context.Context, ds *loaders.NodeDataset, sp eval.Split, grid []float64, auto bool, newModel func(a float64) labelprop.Classifier, keepIsolated bool) (labelpropRun, error) {
	if len(sp.Train) == 0 {
		return labelpropRun{}, errors.New("labelprop: the split has no training node")
	}
	if auto && len(grid) > 1 && len(sp.Val) == 0 {
		return labelpropRun{}, errors.New("labelprop: --alpha auto needs validation nodes to choose a, and the split has none; give --alpha")
	}
	if !keepIsolated {
		for _, v := range sp.Train {
			if ds.Graph.Degree(v) == 0 {
				return labelpropRun{}, fmt.Errorf("labelprop: training node %d is isolated (degree 0), so its label cannot spread; pass --keep-isolated-seeds to keep it", v)
			}
		}
	}
	classes := make([]int, len(sp.Train))
	for k, v := range sp.Train {
		classes[k] = ds.Labels[v]
	}
	run := labelpropRun{split: sp}
	var models []labelprop.Classifier
	var fitSecs []float64
	accuracy := func(m labelprop.Classifier, idx []int) float64 {
		if len(idx) == 0 {
			return math.NaN()
		}
		a, err := eval.Accuracy(m.Labels(), ds.Labels, idx)
		if err != nil {
			return math.NaN()
		}
		return a
	}
	best, vals, err := eval.GridSearch(ctx, grid, func(ctx context.Context, a float64) (float64, error) {
		m := newModel(a)
		t0 := time.Now()
		if err := m.Fit(ctx, ds.Graph, sp.Train, classes); err != nil {
			return 0, err
		}
		fitSecs = append(fitSecs, seconds(t0))
		models = append(models, m)
		run.gridTest = append(run.gridTest, accuracy(m, sp.Test))
		run.gridIter = append(run.gridIter, m.Info().Iterations)
		v := accuracy(m, sp.Val)
		if math.IsNaN(v) { // no validation nodes (a single a): nothing to choose
			return 0, nil
		}
		return v, nil
	})
	if err != nil {
		return labelpropRun{}, err
	}
	run.gridVal, run.gridSecs = vals, fitSecs
	m := models[best]
	run.alpha, run.model, run.info, run.fitSeconds = grid[best], m, m.Info(), fitSecs[best]
	run.val, run.test = accuracy(m, sp.Val), accuracy(m, sp.Test)
	run.macroF1 = math.NaN()
	if len(sp.Test) > 0 {
		if f1, err := eval.MacroF1(m.Labels(), ds.Labels, sp.Test, ds.Classes); err == nil {
			run.macroF1 = f1
		}
	}
	return run, nil
}

// summarizeLabelprop builds the JSON object from the runs.
func summarizeLabelprop(opts labelpropOptions, ds *loaders.NodeDataset, runs []labelpropRun, grid []float64, auto bool, solver labelprop.Solver) labelpropResult {
	r0 := runs[0]
	res := labelpropResult{
		Data: displayPath(opts.Data), Dataset: ds.Name, Nodes: ds.Graph.Nodes(), Edges: ds.Graph.Edges(), Classes: ds.Classes,
		Method: opts.Method, CMN: opts.CMN, Tol: opts.Tol, Split: opts.Split, Seeds: len(runs), FirstSeed: opts.Seed,
		Train: len(r0.split.Train), Val: len(r0.split.Val), Test: len(r0.split.Test),
	}
	if res.Tol == 0 {
		res.Tol = labelprop.DefaultTol
	}
	if opts.Method == "spreading" {
		res.Solver = solver.String()
	} else {
		res.Solver = "cg-jacobi"
	}
	var vals, tests, f1s []float64
	for _, r := range runs {
		vals, tests, f1s = append(vals, r.val), append(tests, r.test), append(f1s, r.macroF1)
		res.Iterations = max(res.Iterations, r.info.Iterations)
		res.Residual = max(res.Residual, r.info.Residual)
		res.NIsolated = max(res.NIsolated, r.info.Isolated)
		res.NUnreached = max(res.NUnreached, r.info.Unreached)
		res.NIsolatedSeeds = max(res.NIsolatedSeeds, r.info.IsolatedSeeds)
		res.FitSeconds += r.fitSeconds / float64(len(runs))
	}
	if opts.Method == "spreading" {
		res.Alpha = modeAlpha(runs, grid)
		if auto {
			res.AlphaGrid = grid
		}
	}
	v, te, f := eval.Summarize(vals), eval.Summarize(tests), eval.Summarize(f1s)
	res.ValAccuracy, res.TestAccuracy, res.MacroF1 = finite(v.Mean), finite(te.Mean), finite(f.Mean)
	if len(runs) > 1 {
		res.TestAccuracyStd, res.MacroF1Std = finite(te.Std), finite(f.Std)
		for _, r := range runs {
			res.AlphaPerSeed = append(res.AlphaPerSeed, r.alpha)
		}
		if opts.Method == "harmonic" {
			res.AlphaPerSeed = nil
		}
	} else {
		res.ClassIterations = r0.info.ClassIterations
		if opts.Method == "spreading" && auto {
			res.GridValAccuracy, res.GridTestAccuracy = r0.gridVal, r0.gridTest
		}
	}
	return res
}

// modeAlpha is the a chosen most often over the runs (the first in grid
// order on ties).
func modeAlpha(runs []labelpropRun, grid []float64) float64 {
	count := make([]int, len(grid))
	for _, r := range runs {
		for k, a := range grid {
			if a == r.alpha {
				count[k]++
			}
		}
	}
	best := 0
	for k, c := range count {
		if c > count[best] {
			best = k
		}
	}
	return grid[best]
}

func printLabelprop(w io.Writer, res labelpropResult, runs []labelpropRun, auto bool) {
	fmt.Fprintf(w, "%s: %d nodes, %d edges, %d classes (%s)\n", res.Dataset, res.Nodes, res.Edges, res.Classes, res.Data)
	switch {
	case res.Seeds > 1:
		fmt.Fprintf(w, "split: %s, seeds %d..%d — %d train, %d val, %d test each\n", res.Split, res.FirstSeed, res.FirstSeed+uint64(res.Seeds)-1, res.Train, res.Val, res.Test)
	default:
		fmt.Fprintf(w, "split: %s — %d train, %d val, %d test\n", res.Split, res.Train, res.Val, res.Test)
	}
	cmn := ""
	if res.CMN {
		cmn = ", class-mass normalisation"
	}
	if res.Method == "spreading" {
		fmt.Fprintf(w, "method: label spreading (Zhou et al. 2003), %s solver, tol %g%s\n", res.Solver, res.Tol, cmn)
	} else {
		fmt.Fprintf(w, "method: harmonic function (Zhu, Ghahramani & Lafferty 2003), Jacobi-preconditioned CG, tol %g%s\n", res.Tol, cmn)
	}
	if res.Seeds == 1 && res.Method == "spreading" && auto {
		r := runs[0]
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  alpha    val acc  test acc  iterations  seconds\n")
		for k, a := range res.AlphaGrid {
			mark := " "
			if a == r.alpha {
				mark = "*"
			}
			fmt.Fprintf(w, "  %-5g %s  %s   %s    %-10d  %.3f\n", a, mark, pct(r.gridVal[k]), pct(r.gridTest[k]), r.gridIter[k], r.gridSecs[k])
		}
		fmt.Fprintf(w, "  * chosen on the validation nodes (best accuracy, the first in grid order on ties)\n")
	}
	fmt.Fprintln(w)
	if res.Seeds > 1 {
		fmt.Fprintf(w, "test accuracy %s ± %s   macro-F1 %s ± %s   val accuracy %s  (mean ± std over %d seeds)\n",
			num(res.TestAccuracy), num(res.TestAccuracyStd), num(res.MacroF1), num(res.MacroF1Std), num(res.ValAccuracy), res.Seeds)
		if res.Method == "spreading" {
			fmt.Fprintf(w, "alpha per seed %v; at most %d iterations; fit %.3f s per seed, total %.2f s\n", res.AlphaPerSeed, res.Iterations, res.FitSeconds, res.Seconds)
		} else {
			fmt.Fprintf(w, "at most %d iterations; fit %.3f s per seed, total %.2f s\n", res.Iterations, res.FitSeconds, res.Seconds)
		}
	} else {
		fmt.Fprintf(w, "test accuracy %s   macro-F1 %s   val accuracy %s\n", num(res.TestAccuracy), num(res.MacroF1), num(res.ValAccuracy))
		alpha := ""
		if res.Method == "spreading" {
			alpha = fmt.Sprintf("alpha %g, ", res.Alpha)
		}
		fmt.Fprintf(w, "%s%d iterations, fit %.3f s, total %.2f s\n", alpha, res.Iterations, res.FitSeconds, res.Seconds)
	}
	if res.NUnreached > 0 {
		fmt.Fprintf(w, "note: %d unlabelled nodes (%d of them isolated) have no path to a training node; they get the class prior\n", res.NUnreached, res.NIsolated)
	}
	if res.NIsolatedSeeds > 0 {
		fmt.Fprintf(w, "note: %d training nodes are isolated and only label themselves\n", res.NIsolatedSeeds)
	}
	if res.Out != "" {
		fmt.Fprintf(w, "predictions written to %s\n", res.Out)
	}
}

// displayPath shortens a path inside the working directory to a relative
// one (the default data set is found as an absolute path).
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(p) {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "   -  "
	}
	return fmt.Sprintf("%.4f", v)
}

func num(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprintf("%.4f", f)
	}
	return "-"
}

// writePredictions writes one line per node: id, true label (−1 unknown),
// predicted class, split part and the class probabilities.
func writePredictions(path string, ds *loaders.NodeDataset, run labelpropRun) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("labelprop: --out: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("labelprop: --out: %w", cerr)
		}
	}()
	part := make([]string, len(ds.Labels))
	for name, idx := range map[string][]int{"train": run.split.Train, "val": run.split.Val, "test": run.split.Test} {
		for _, i := range idx {
			part[i] = name
		}
	}
	w := bufio.NewWriter(f)
	fmt.Fprint(w, "node,label,predicted,split")
	for k := 0; k < ds.Classes; k++ {
		fmt.Fprintf(w, ",p_%d", k)
	}
	fmt.Fprintln(w)
	labels, probs := run.model.Labels(), run.model.Probabilities()
	for i := range labels {
		fmt.Fprintf(w, "%d,%d,%d,%s", i, ds.Labels[i], labels[i], part[i])
		for _, p := range probs.RawRowView(i) {
			w.WriteByte(',')
			w.WriteString(strconv.FormatFloat(p, 'g', 6, 64))
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("labelprop: --out: %w", err)
	}
	return nil
}
