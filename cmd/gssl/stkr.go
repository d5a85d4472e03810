package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/stkr"
)

type stkrOptions struct {
	Data string // node-classification folder
	// Images, when set, replaces Data by the unweighted K-nearest-neighbour
	// graph of the first N images of an image set (imageGraphDataset).
	Images    string
	N, K      int
	Splits    string  // folder of random20_seed<s>.txt files; "" = ../shared/bench/splits/<dataset> if present
	Transform string  // inverse-laplacian, poly:P, krr, topd:D
	Eta       string  // a number or "auto"
	Beta      string  // a number or "auto"
	Setting   string  // transductive, inductive, inductive-strict or inductive-test-only
	PTest     float64 // fraction of all nodes in the test set; 0 keeps the split's test set
	Seeds     int     // number of seeds, starting at FirstSeed
	FirstSeed int
	Solver    string  // auto, cg, minres, gmres, richardson
	Tol       float64 // 0 means the estimator's default
	// Iterations is "auto" (chosen on val from stkr.IterationsGrid) or a
	// count N ≥ 0: stop the solver after N iterations (0 = to the
	// tolerance, the default).
	Iterations string
	// LCC restricts the graph to its largest connected component: splits are
	// mapped to its ids and nodes outside it are dropped from them.
	LCC bool
	// TestChunks (needs PTest > 0) scores every test node of the split at
	// the hidden fraction p_test: one fit, with its own choice on val, per
	// chunk of round(p_test·N) test nodes (stkr.TestChunks).
	TestChunks bool
	JSON       bool
}

func init() { register(newSTKRCommand) }

func newSTKRCommand(g *globals) *cobra.Command {
	opts := stkrOptions{}
	refit := true
	cmd := &cobra.Command{
		Use:   "stkr",
		Short: "Spectrally transformed kernel regression on a node-classification graph (STKR paper protocol)",
		Long: `stkr fits STKR (Zhai et al., "Spectrally Transformed Kernel Regression") on a graph
with base kernel K = N·W_ij/√(d_i d_j), over several random splits, and reports the
test accuracy (mean ± std over seeds), the chosen hyperparameters, the solver's
iterations and products with the kernel, and times.

Protocol (paper Appendix D.1): train / val / test / other. Splits come from
random20_seed<s>.txt files (stkr.py's, 20 per class, 500 val, 1000 test) when they
exist, otherwise from seeded random splits with 20 per class for train and for val.
--p-test keeps round(p·N) of the test nodes as the test set (the rest become
"other"); 0 keeps them all. With "auto", η and β are chosen on the val set from
η ∈ {0.5, 0.9, 0.99}, β ∈ {0.01, 0.1, 1, 10, 100}.

Settings: transductive (every node visible, val and test labels hidden);
inductive (the test nodes and their edges are invisible at every fit and are
predicted from their edges afterwards; η and β are chosen with the val nodes
hidden too, as the paper does, then the chosen model is refitted with the val
nodes visible and unlabelled before it predicts test); inductive-strict (the
paper's Appendix D.1 read literally: val stays hidden in the fit that predicts
test, which costs ~8 points on Cora, where val is 18 % of the graph);
inductive-test-only (only test hidden, η and β chosen with val visible).

--images DIR runs on a point cloud instead of a graph folder: the unweighted
K-nearest-neighbour graph (--k, or-rule, exact search on the pixels) of the
first --n images of an image set (images_u8.bin.gz + labels.txt), with seeded
splits of 20 labelled and 20 val images per class.

--iterations N stops the solver after N iterations, as a regulariser (the
paper tunes the number of iterations of its Richardson algorithms on val):
with the auto solver that is N steps of the paper's Algorithm 1 (polynomial)
or Algorithm 2 (inverse Laplacian) from zero; with an explicit Krylov solver,
at most N Krylov iterations. 0 (the default) solves to the tolerance.
--iterations auto chooses N on val from {0, 1, 2, 4, …, 256} jointly with η
and β (0 first, so it wins ties); a list such as 0,256,1024 is searched
the same way, ties going to the first.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.JSON = g.JSON
			if opts.Images != "" && cmd.Flags().Changed("data") {
				return fmt.Errorf("stkr: --data and --images exclude each other: a graph folder, or an image set to build a KNN graph from")
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
	f := cmd.Flags()
	f.StringVar(&opts.Data, "data", defaultCora(), "node-classification data folder")
	f.StringVar(&opts.Images, "images", "", "image set (images_u8.bin.gz + labels.txt, e.g. ../shared/data/digits8x8): run on the unweighted K-nearest-neighbour graph of its images instead of --data")
	f.IntVar(&opts.N, "n", 0, "with --images: use the first N images (0: all)")
	f.IntVar(&opts.K, "k", 10, "with --images: neighbours per image (or-rule, exact search on the pixels)")
	f.StringVar(&opts.Splits, "splits", "", "folder with random20_seed<s>.txt split files (default ../shared/bench/splits/<dataset> when present)")
	f.StringVar(&opts.Transform, "transform", "inverse-laplacian", "inverse-laplacian, poly:P (s=λ^P), krr (s=λ) or topd:D (kernel PCA)")
	f.StringVar(&opts.Eta, "eta", "auto", "η of the inverse Laplacian, in (0, 1), or auto")
	f.StringVar(&opts.Beta, "beta", "auto", "ridge β > 0, or auto")
	f.StringVar(&opts.Setting, "setting", "transductive", "transductive, inductive (test hidden; η, β chosen with val hidden, then refit with val visible), inductive-strict (val and test hidden at every fit) or inductive-test-only")
	f.Float64Var(&opts.PTest, "p-test", 0.01, "fraction of all nodes used as test set, in [0, 1); 0 keeps the split's test set")
	f.IntVar(&opts.Seeds, "seeds", 10, "number of random splits")
	f.IntVar(&opts.FirstSeed, "first-seed", 0, "first seed")
	f.StringVar(&opts.Solver, "solver", "auto", "auto (minres / cg), cg, minres, gmres or richardson")
	f.Float64Var(&opts.Tol, "tol", 0, "relative residual tolerance; 0 means 1e-6 (polynomial) or 1e-9 (inverse Laplacian)")
	f.BoolVar(&opts.LCC, "lcc", false, "work on the largest connected component (split nodes outside it are dropped; p_test is a fraction of its nodes)")
	f.BoolVar(&opts.TestChunks, "test-chunks", false, "score every test node of the split at the hidden fraction p_test: one fit per chunk of round(p_test·N) test nodes (needs --p-test > 0)")
	// --refit was the opt-in for what --setting inductive now does.
	f.BoolVar(&refit, "refit", true, "")
	_ = f.MarkHidden("refit")
	f.StringVar(&opts.Iterations, "iterations", "0", "stop the solver after N iterations (early stopping; 0 = solve to the tolerance), auto to choose N on val from 0, 1, 2, 4, …, 256, or a comma-separated grid to choose from on val")
	return cmd
}

// stkrResult is the JSON object of one run.
type stkrResult struct {
	Dataset          string    `json:"dataset"`
	Transform        string    `json:"transform"`
	Setting          string    `json:"setting"`
	Solver           string    `json:"solver"`
	SolverDetail     string    `json:"solver_detail"`
	PTest            float64   `json:"p_test"`
	Seeds            []int     `json:"seeds"`
	SplitSource      string    `json:"split_source"`
	Nodes            int       `json:"nodes"`
	LCC              bool      `json:"lcc"`
	DroppedSplit     int       `json:"dropped_split_nodes"` // split nodes outside the largest component, summed over seeds
	VisibleNodes     int       `json:"visible_nodes"`
	TestNodes        int       `json:"test_nodes"` // per seed (summed over chunks with --test-chunks)
	TestChunks       bool      `json:"test_chunks"`
	Refit            bool      `json:"refit"` // the fit that predicted test was a refit with val visible (setting inductive)
	Fits             int       `json:"fits"`  // hyperparameter selections: seeds × chunks
	TestAccuracyMean float64   `json:"test_accuracy_mean"`
	TestAccuracyStd  float64   `json:"test_accuracy_std"`
	ValAccuracyMean  float64   `json:"val_accuracy_mean"`
	TestAccuracies   []float64 `json:"test_accuracies"`
	Eta              []float64 `json:"eta"`               // per fit (per seed, or per seed and chunk)
	Beta             []float64 `json:"beta"`              // per fit
	ChosenIterations []int     `json:"chosen_iterations"` // per fit; 0 = solved to the tolerance
	Iterations       float64   `json:"iterations"`
	MatVecs          float64   `json:"matvecs"`
	FitSeconds       float64   `json:"fit_seconds"`
	Candidates       int       `json:"candidates"`
	FailedCandidates int       `json:"failed_candidates"`
	NoEvidence       int       `json:"no_evidence"`
	Seconds          float64   `json:"seconds"`
}

// hyperGrid reads "auto" (the grid) or one positive number.
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

func runSTKR(ctx context.Context, opts stkrOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.Seeds < 1 {
		return fmt.Errorf("stkr: --seeds=%d is invalid: it must be at least 1", opts.Seeds)
	}
	if opts.FirstSeed < 0 {
		return fmt.Errorf("stkr: --first-seed=%d is invalid: it must be ≥ 0", opts.FirstSeed)
	}
	if !(opts.PTest >= 0 && opts.PTest < 1) {
		return fmt.Errorf("stkr: --p-test=%v is invalid: it must be in [0, 1) (0 keeps the split's test set)", opts.PTest)
	}
	setting, err := stkr.ParseSetting(opts.Setting)
	if err != nil {
		return err
	}
	if opts.TestChunks && opts.PTest == 0 {
		return fmt.Errorf("stkr: --test-chunks needs --p-test > 0 (the chunk size is round(p_test·N)); --p-test 0 already scores every test node")
	}
	solver, err := stkr.ParseSolver(opts.Solver)
	if err != nil {
		return err
	}
	etas, err := hyperGrid("eta", opts.Eta, stkr.EtaGrid())
	if err != nil {
		return err
	}
	betas, err := hyperGrid("beta", opts.Beta, stkr.BetaGrid())
	if err != nil {
		return err
	}
	proto, err := stkr.ParseTransform(opts.Transform, 0)
	if err != nil {
		return err
	}
	counts, err := iterationGrid(opts.Iterations)
	if err != nil {
		return err
	}
	if _, ok := proto.(stkr.TopD); ok && opts.Iterations == "auto" {
		return fmt.Errorf("stkr: --iterations auto does not apply to --transform %s (kernel PCA has no iterative solve)", opts.Transform)
	}
	_, isLap := proto.(stkr.InverseLaplacian)
	if !isLap {
		if opts.Eta != "auto" && opts.Eta != "" {
			return fmt.Errorf("stkr: --eta applies only to --transform inverse-laplacian, not %s", opts.Transform)
		}
		etas = []float64{math.NaN()}
	}
	// all candidates share an eigen cache: kernel PCA decomposes each visible
	// graph once (once in all for the transductive setting, once per seed for
	// the inductive one).
	cache := &stkr.EigenCache{}
	candidates := func() []*stkr.Regressor {
		var out []*stkr.Regressor
		for _, eta := range etas {
			for _, beta := range betas {
				for _, it := range counts {
					t := proto
					if isLap {
						t = stkr.InverseLaplacian{Eta: eta}
					}
					out = append(out, &stkr.Regressor{Transform: t, Beta: beta, Solver: solver, Tol: opts.Tol, Iterations: it, Eigen: cache})
				}
			}
		}
		return out
	}
	// Reject bad η/β before loading anything.
	for _, r := range candidates() {
		if err := r.Validate(); err != nil {
			return err
		}
		if err := r.Transform.Validate(1); err != nil {
			return err
		}
	}

	var ds *loaders.NodeDataset
	if opts.Images != "" {
		if ds, err = imageGraphDataset(ctx, opts.Images, opts.N, opts.K, stderr); err != nil {
			return fmt.Errorf("stkr: %w", err)
		}
	} else if ds, err = loaders.LoadNodeDataset(opts.Data); err != nil {
		return err
	}
	var lcc *graph.Subgraph
	loaded := ds.Graph.Nodes()
	if opts.LCC {
		if lcc, err = ds.Graph.LargestComponent(); err != nil {
			return err
		}
		labels := make([]int, len(lcc.Original))
		for t, i := range lcc.Original {
			labels[t] = ds.Labels[i]
		}
		ds = &loaders.NodeDataset{Name: ds.Name, Graph: lcc.CSR, Labels: labels, Classes: ds.Classes}
	}
	n := ds.Graph.Nodes()
	splitDir := opts.Splits
	if splitDir == "" {
		splitDir = findUp(filepath.Join("..", "shared", "bench", "splits", ds.Name))
	}
	task := stkr.Task{Graph: ds.Graph, Labels: ds.Labels, Classes: ds.Classes}
	res := stkrResult{Dataset: ds.Name, Transform: opts.Transform, Setting: setting.String(), Solver: solver.String(), PTest: opts.PTest, Nodes: n, LCC: opts.LCC, TestChunks: opts.TestChunks, Refit: setting == stkr.Inductive}
	if !isLap {
		res.Eta = nil
	}
	logf(stderr, "stkr: %s (%d nodes, %d edges, %d classes), %s, %s, %d seeds", ds.Name, n, ds.Graph.Edges(), ds.Classes, opts.Transform, setting, opts.Seeds)
	bar := newProgress(stderr, opts.Seeds*len(candidates()), "stkr")
	defer bar.Finish()
	var tests, vals []float64
	var iters, mvs, secs float64
	for s := opts.FirstSeed; s < opts.FirstSeed+opts.Seeds; s++ {
		split, source, dropped, err := stkrSplit(ds, lcc, loaded, splitDir, s, opts.PTest)
		if err != nil {
			return err
		}
		res.DroppedSplit += dropped
		res.SplitSource = source
		parts := []stkr.Partition{}
		if opts.TestChunks {
			if parts, err = stkr.TestChunks(n, split, opts.PTest, uint64(s)); err != nil {
				return err
			}
			if s == opts.FirstSeed { // one fit per chunk: about this many per seed
				bar.SetTotal(opts.Seeds * len(parts) * len(candidates()))
			}
		} else {
			part, err := stkr.NewPartition(n, split, opts.PTest, uint64(s))
			if err != nil {
				return err
			}
			parts = append(parts, part)
		}
		right, scored := 0, 0
		var seedVal float64
		for _, part := range parts {
			o, best, err := stkrFit(ctx, task, part, setting, candidates, bar, stderr, s, &res)
			if err != nil {
				return err
			}
			right += o.TestCorrect
			scored += o.TestScored
			seedVal += o.ValAccuracy
			if lap, ok := best.Transform.(stkr.InverseLaplacian); ok {
				res.Eta = append(res.Eta, lap.Eta)
			}
			res.Beta = append(res.Beta, best.Beta)
			res.ChosenIterations = append(res.ChosenIterations, best.Iterations)
			iters += float64(o.Stats.TotalIterations())
			mvs += float64(o.Stats.MatVecs)
			secs += o.Seconds
			res.Fits++
			res.NoEvidence += o.NoEvidence
			res.SolverDetail = o.Stats.Solver
			logf(stderr, "stkr: seed %d: test %.4f (%d nodes) val %.4f (%s β=%g, stop after %d, %d iterations, %d products, %.3fs)", s, o.TestAccuracy, o.TestScored, o.ValAccuracy, best.Transform, best.Beta, best.Iterations, o.Stats.TotalIterations(), o.Stats.MatVecs, o.Seconds)
		}
		if scored == 0 {
			return fmt.Errorf("stkr: seed %d: no labelled test node to score", s)
		}
		tests = append(tests, float64(right)/float64(scored))
		vals = append(vals, seedVal/float64(len(parts)))
		res.Seeds = append(res.Seeds, s)
		res.TestNodes = scored
	}
	res.TestAccuracies = tests
	res.TestAccuracyMean, res.TestAccuracyStd = eval.MeanStd(tests)
	res.ValAccuracyMean, _ = eval.MeanStd(vals)
	fits := float64(res.Fits)
	res.Iterations, res.MatVecs, res.FitSeconds = iters/fits, mvs/fits, secs/fits
	res.Seconds = seconds(start)
	return report(stdout, opts.JSON, res, func(w io.Writer) { printSTKR(w, res) })
}

// stkrFit runs the setting's protocol on one partition (stkr.Choose) and
// returns the outcome on test and the chosen regressor. Failed candidates
// are counted in res and logged.
func stkrFit(ctx context.Context, task stkr.Task, part stkr.Partition, setting stkr.Setting,
	candidates func() []*stkr.Regressor, bar *progress, stderr io.Writer, seed int, res *stkrResult) (stkr.Outcome, *stkr.Regressor, error) {
	cands := candidates()
	c, err := stkr.Choose(ctx, task, part, setting, cands)
	bar.Add(len(cands))
	res.Candidates += len(cands)
	for i, o := range c.Candidates {
		if o.Err != nil {
			res.FailedCandidates++
			logf(stderr, "stkr: seed %d: %s β=%g iterations=%d: %v", seed, cands[i].Transform, cands[i].Beta, cands[i].Iterations, o.Err)
		}
	}
	if err != nil {
		return stkr.Outcome{}, nil, fmt.Errorf("stkr: seed %d: %w", seed, err)
	}
	res.VisibleNodes = c.Visible
	return c.Final, cands[c.Best], nil
}

// iterationGrid reads --iterations: "auto" (stkr.IterationsGrid), one
// count N ≥ 0, or a comma-separated grid of counts to choose from on val.
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
		if err != nil || n < 0 {
			return nil, fmt.Errorf("stkr: --iterations=%q is invalid: want auto, an integer ≥ 0 (0 = solve to the tolerance) or a comma-separated list of them", v)
		}
		out = append(out, n)
	}
	return out, nil
}

// stkrSplit returns seed s's train/val/test split: the saved file
// random20_seed<s>.txt when splitDir has it, otherwise a seeded random split
// with 20 per class for train and for val and round(pTest·n) test nodes
// (1000 when pTest is 0), as the paper does for datasets without a
// default split. When ds is the largest component lcc of the loaded graph
// (loaded nodes), a saved split (in the loaded graph's ids) is mapped to lcc's ids and the
// number of its nodes outside lcc is returned.
func stkrSplit(ds *loaders.NodeDataset, lcc *graph.Subgraph, loaded int, splitDir string, s int, pTest float64) (eval.Split, string, int, error) {
	path := filepath.Join(splitDir, fmt.Sprintf("random20_seed%d.txt", s))
	if _, err := os.Stat(path); err == nil {
		if lcc == nil {
			sp, err := loaders.ReadSplit(path, ds.Graph.Nodes())
			if err != nil {
				return eval.Split{}, "", 0, err
			}
			return *sp, splitDir, 0, nil
		}
		sp, err := loaders.ReadSplit(path, loaded)
		if err != nil {
			return eval.Split{}, "", 0, err
		}
		dropped := 0
		local := func(nodes []int) []int {
			var out []int
			for _, p := range nodes {
				if i, ok := lcc.Local(p); ok {
					out = append(out, i)
				} else {
					dropped++
				}
			}
			return out
		}
		return eval.Split{Train: local(sp.Train), Val: local(sp.Val), Test: local(sp.Test)}, splitDir + " (mapped to the largest component)", dropped, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return eval.Split{}, "", 0, err
	}
	test := 1000
	if pTest > 0 {
		test = max(1, int(math.Round(pTest*float64(ds.Graph.Nodes()))))
	}
	sp, err := eval.RandomPerClass(ds.Labels, 20, 20*ds.Classes, test, uint64(s))
	if err != nil {
		return eval.Split{}, "", 0, fmt.Errorf("stkr: %s: %w", ds.Name, err)
	}
	return sp, "eval.RandomPerClass(20 per class, val 20·classes)", 0, nil
}

func printSTKR(w io.Writer, r stkrResult) {
	fmt.Fprintf(w, "STKR %s on %s, %s setting (%d nodes, %d visible at fit time)\n", r.Transform, r.Dataset, r.Setting, r.Nodes, r.VisibleNodes)
	fmt.Fprintf(w, "  test accuracy  %.2f ± %.2f %% over %d seeds (%d test nodes each, p_test %g)\n", 100*r.TestAccuracyMean, 100*r.TestAccuracyStd, len(r.Seeds), r.TestNodes, r.PTest)
	fmt.Fprintf(w, "  val accuracy   %.2f %%\n", 100*r.ValAccuracyMean)
	if r.Refit {
		fmt.Fprintf(w, "  protocol       hyperparameters chosen with val and test hidden, then refitted with val visible (unlabelled)\n")
	}
	if len(r.Eta) > 0 {
		fmt.Fprintf(w, "  chosen η       %v\n", r.Eta)
	}
	fmt.Fprintf(w, "  chosen β       %v\n", r.Beta)
	fmt.Fprintf(w, "  stopped after  %v iterations (0 = solved to the tolerance)\n", r.ChosenIterations)
	fmt.Fprintf(w, "  solver         %s: %.0f iterations, %.0f products with M per fit (mean)\n", r.SolverDetail, r.Iterations, r.MatVecs)
	fmt.Fprintf(w, "  time           %.3f s per fit (mean at the chosen setting), %.2f s in all\n", r.FitSeconds, r.Seconds)
	if r.FailedCandidates > 0 {
		fmt.Fprintf(w, "  failed         %d of %d candidate fits (solver did not converge; see stderr)\n", r.FailedCandidates, r.Candidates)
	}
	if r.NoEvidence > 0 {
		fmt.Fprintf(w, "  no evidence    %d val/test predictions had all-zero scores and got the majority training class\n", r.NoEvidence)
	}
	fmt.Fprintf(w, "  splits         %s\n", strings.TrimSpace(r.SplitSource))
}
