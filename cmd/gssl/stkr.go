package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/stkr"
)

type stkrOptions struct {
	In nodeInput // the graph and its labels (nothing: the embedded Cora)
	// Images, when set, replaces In by the unweighted K-nearest-neighbour
	// graph of the first N images of an image set (imageGraphDataset).
	Images       string
	N, Neighbors int
	Split        string  // auto, none, planetoid, random:K or a split file
	Splits       string  // folder of random20_seed<s>.txt files, one per seed
	Val, Test    int     // random:K sizes; -1: automatic
	Folds        int     // cross-validation folds without a split
	Transform    string  // inverse-laplacian, poly:P, krr, topd:D
	Eta          string  // a number or "auto"
	Ridge        string  // β: a number or "auto"
	Setting      string  // transductive, inductive, inductive-strict or inductive-test-only
	PTest        float64 // fraction of all nodes in the test set; 0 keeps the split's test set
	Seeds        int     // number of seeds, starting at Seed
	Seed         int
	Solver       string  // auto, cg, minres, gmres, richardson
	Tol          float64 // 0 means the estimator's default
	// MaxIter is "auto" (chosen from stkr.IterationsGrid), a count N ≥ 0
	// (stop the solver after N iterations; 0 = to the tolerance) or a
	// comma-separated grid.
	MaxIter string
	// LCC restricts the graph to its largest connected component: splits are
	// mapped to its ids and nodes outside it are dropped from them.
	LCC bool
	// TestChunks (needs PTest > 0) scores every test node of the split at
	// the hidden fraction p_test (protocol.TestChunks).
	TestChunks bool
	Out        string // predictions file (without a split)
	Save       string // model file (without a split)
	JSON       bool
	Plots      plotFlags // --plot, --report
}

func newSTKRCommand(g *globals) *cobra.Command {
	opts := stkrOptions{}
	refit := true
	cmd := &cobra.Command{
		Use:   "stkr",
		Short: "Spectrally transformed kernel regression on a node-classification graph",
		Long: `stkr fits STKR (Zhai et al., "Spectrally Transformed Kernel Regression") on a graph
with base kernel K = N·W_ij/√(d_i d_j) and classifies its nodes.

Without a split (--split none, or auto on data without one) it fits on every
labelled node and predicts every unlabelled one; η, β and the iteration count are
chosen by seeded stratified k-fold cross-validation over the labelled nodes
(--folds, default 5, fewer when a class has fewer labels; --seed), from
η ∈ {0.5, 0.9, 0.99}, β ∈ {0.01, 0.1, 1, 10, 100} with "auto". Any number of
labels per class works. --out FILE writes one row per predicted node: the user's
id, the predicted class and p_<class> (the scores clipped at 0 and normalised).

With a benchmark split (the paper's protocol, Appendix D.1: train / val / test /
other) it runs --seeds seeds from --seed and reports the test accuracy (mean ± std),
the hyperparameters chosen on val, the solver's iterations and times. Splits:
--splits DIR (random20_seed<s>.txt per seed, as stkr.py's), --split planetoid (the
data set's own), random:K (K per class for train; --val default K per class, --test
default round(p_test·N)) or a split file. --p-test keeps round(p·N) of the test
nodes as the test set (the rest become "other"); 0 keeps them all.

Settings: transductive (every node visible, val and test labels hidden);
inductive (test nodes and their edges invisible at every fit, predicted from
their edges afterwards; η, β chosen with val hidden too, then refitted with val
visible); inductive-strict (val hidden at the final fit too); inductive-test-only.

--max-iter N stops the solver after N iterations, as a regulariser (0, the
default, solves to the tolerance); auto chooses N from {0, 1, 2, 4, …, 256}, a
list such as 0,256,1024 is searched the same way. --images DIR runs on the
unweighted K-nearest-neighbour graph (--neighbors) of the first --n images of an
image set (every image is labelled: give --split random:K).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.JSON = g.JSON
			opts.Neighbors = opts.In.KNN.Neighbors
			if opts.Images != "" && !opts.In.embedded() {
				return fmt.Errorf("stkr: --images excludes --data, --edges and --labels: a graph, or an image set to build a KNN graph from")
			}
			if cmd.Flags().Changed("refit") {
				if !refit {
					return fmt.Errorf("stkr: --refit=false is gone: use --setting inductive-strict for val hidden at the fit that predicts test")
				}
				logf(cmd.ErrOrStderr(), "stkr: --refit is deprecated: --setting inductive now refits with val visible before predicting test (--setting inductive-strict keeps val hidden)")
			}
			return runSTKR(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	opts.addFlags(cmd, &refit)
	return cmd
}

func runSTKR(ctx context.Context, opts stkrOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if ctx == nil {
		ctx = context.Background()
	}
	setup, err := newSTKRSetup(opts)
	if err != nil {
		return err
	}
	if err := checkOutPath("save", opts.Save); err != nil {
		return fmt.Errorf("stkr: %w", err)
	}
	if err := opts.Plots.check(); err != nil {
		return fmt.Errorf("stkr: %w", err)
	}
	loadStart := timeNow()
	ds, err := stkrData(ctx, opts, stderr)
	if err != nil {
		return err
	}
	defer ds.loaded.Close()
	loadSeconds := seconds(loadStart)
	spec, _ := eval.ParseSplitSpec(opts.Split)
	if opts.Splits != "" {
		spec = eval.SplitFolderSpec(opts.Splits)
	}
	spec = spec.Resolve(ds.ds.Split != nil)
	var res stkrResult
	if spec.Kind == eval.SplitNone {
		res, err = stkrAllLabelled(ctx, opts, setup, ds, stderr)
	} else {
		res, err = stkrBenchmark(ctx, opts, setup, ds, spec, stderr)
	}
	if err != nil {
		return err
	}
	res.LoadSeconds, res.Seconds = loadSeconds, seconds(start)
	if err := opts.Plots.write(stderr, "stkr", res, func() (picture, error) { return stkrPicture(res, setup) }); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printSTKR(w, res) })
}

// addFlags registers the command's flags on cmd (refit: the hidden,
// deprecated --refit).
func (opts *stkrOptions) addFlags(cmd *cobra.Command, refit *bool) {
	f := cmd.Flags()
	opts.In.addFlags(f)
	f.Lookup("neighbors").Usage = "neighbours per point of the K-nearest-neighbour graph (with --features and no --edges, or per image with --images)"
	f.StringVar(&opts.Images, "images", "", "image set (images_u8.bin.gz + labels.txt): run on the unweighted K-nearest-neighbour graph of its images")
	f.IntVar(&opts.N, "n", 0, "with --images: use the first N images (0: all)")
	renamedFlag(cmd, "k", "neighbors")
	f.StringVar(&opts.Split, "split", "auto", "auto (the data set's split if it has one, else none), none (fit on every labelled node, predict the others), planetoid (the data set's own: split_planetoid.txt, or an OGB folder's), random:K, or a split file (lines \"train|val|test i\", nodes 0..n-1)")
	f.StringVar(&opts.Splits, "splits", "", "folder of per-seed split files random20_seed<s>.txt (e.g. ../shared/bench/splits/cora)")
	f.IntVar(&opts.Val, "val", -1, "with --split random:K: validation nodes (-1: K per class)")
	f.IntVar(&opts.Test, "test", -1, "with --split random:K: test nodes (-1: round(p_test·N), or min(1000, half the rest) with --p-test 0)")
	f.IntVar(&opts.Folds, "folds", eval.DefaultFolds, "cross-validation folds without a split (fewer when a class has fewer labels)")
	f.StringVar(&opts.Transform, "transform", "inverse-laplacian", "inverse-laplacian, poly:P (s=λ^P), krr (s=λ) or topd:D (kernel PCA)")
	f.StringVar(&opts.Eta, "eta", "auto", "η of the inverse Laplacian, in (0, 1), or auto")
	f.StringVar(&opts.Ridge, "ridge", "auto", "ridge β > 0, or auto")
	renamedFlag(cmd, "beta", "ridge")
	f.StringVar(&opts.Setting, "setting", "transductive", "with a split: transductive, inductive, inductive-strict or inductive-test-only")
	f.Float64Var(&opts.PTest, "p-test", protocol.DefaultPTest, "with a split: fraction of all nodes used as test set, in [0, 1); 0 keeps the split's test set")
	f.IntVar(&opts.Seeds, "seeds", 1, "with a split: number of seeds S..S+N-1 (random splits, p_test subsets)")
	f.IntVar(&opts.Seed, "seed", 0, "seed S: the first split, and the cross-validation folds")
	renamedFlag(cmd, "first-seed", "seed")
	f.StringVar(&opts.Solver, "solver", "auto", "auto (minres / cg), cg, minres, gmres or richardson")
	f.Float64Var(&opts.Tol, "tol", 0, "relative residual tolerance in (0, 1); 0 means 1e-6 (polynomial) or 1e-9 (inverse Laplacian)")
	f.BoolVar(&opts.LCC, "lcc", false, "work on the largest connected component (nodes outside it are dropped)")
	f.BoolVar(&opts.TestChunks, "test-chunks", false, "score every test node of the split at the hidden fraction p_test: one fit per chunk of round(p_test·N) test nodes (needs --p-test > 0)")
	f.StringVar(&opts.MaxIter, "max-iter", "0", "stop the solver after N iterations (0 = solve to the tolerance), auto to choose N from 0, 1, 2, 4, …, 256, or a comma-separated list to choose from")
	renamedFlag(cmd, "iterations", "max-iter")
	f.StringVar(&opts.Out, "out", "", "without a split: write one row per predicted node (id, predicted, p_<class>…): CSV, or JSON Lines for .jsonl/.ndjson")
	f.StringVar(&opts.Save, "save", "", "without a split: save the chosen model, refitted on every labelled node, for gssl predict and gssl serve")
	opts.Plots.addFlags(f, "the selection accuracy over the η/β grid (the chosen cell outlined) and the chosen spectral transform r(λ)")
	// --refit was the opt-in for what --setting inductive now does.
	f.BoolVar(refit, "refit", true, "")
	_ = f.MarkHidden("refit")
}

// hyperGrid reads "auto" (the grid) or one number.
func hyperGrid(name, v string, grid []float64) ([]float64, error) {
	if v == "auto" || v == "" {
		return grid, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return nil, fmt.Errorf("stkr: --%s=%q is neither a number nor auto", name, v)
	}
	return []float64{x}, nil
}

// iterationGrid reads --max-iter: "auto" (stkr.IterationsGrid), one
// count N ≥ 0, or a comma-separated grid of counts to choose from.
func iterationGrid(v string) ([]int, error) {
	if v == "auto" {
		return stkr.IterationsGrid(), nil
	}
	if v == "" {
		return []int{0}, nil
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || n > maxIterations {
			return nil, fmt.Errorf("stkr: --max-iter=%q is invalid: want auto, an integer in [0, %d] (0 = solve to the tolerance) or a comma-separated list of them", v, maxIterations)
		}
		out = append(out, n)
	}
	return out, nil
}
