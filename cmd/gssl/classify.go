package main

import (
	"bufio"
	"context"
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
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/logreg"
	"github.com/gssl/gssl/nodeclass"
)

// classifyOptions are the settings of one classify run.
type classifyOptions struct {
	Data  string // node-classification folder with features
	Model string // sgc, appnp, correct-smooth or auto
	Split string // planetoid, random:K, per-class:T,V or a split file
	Seeds int    // seeds Seed..Seed+Seeds−1 (random splits, CV folds)
	Seed  uint64
	Folds int // CV folds when the split has no val nodes
	Embed int // > 0: Laplacian-eigenmap coordinates appended to the features
	// FeatureWeight is γ of --model stkr's feature kernel (0: the graph only).
	FeatureWeight float64
	Out           string // predictions CSV of the first seed's run
	JSON          bool
}

func init() { register(newClassifyCommand) }

func newClassifyCommand(g *globals) *cobra.Command {
	opts := classifyOptions{}
	cmd := &cobra.Command{
		Use:   "classify",
		Short: "Classify nodes from their features and the graph (SGC, APPNP, Correct & Smooth)",
		Long: `classify predicts node classes from the node features and the graph together.

Models (package nodeclass): sgc — logistic regression on S̃^K X (Wu et al. 2019);
appnp — logistic regression on the personalised-PageRank propagation
(1−a)(I − aS̃)^{-1}X, APPNP with a linear base (Klicpera et al. 2019);
correct-smooth — Correct & Smooth (Huang et al. 2021) on the chosen SGC model;
auto — SGC and APPNP, then Correct & Smooth on the chosen one (the base model
and its accuracies are reported too); stkr — STKR's inverse Laplacian (SP-Lap,
η and β from the STKR paper's grids) on the graph kernel, or with
--feature-weight γ on the graph kernel plus γ times the cosine kernel of the
features (stkr.FeatureKernel). Hyperparameters (K, a, the L2 penalty, the C&S weights and scales)
are chosen on the validation nodes, or by stratified k-fold cross-validation
over the training nodes when the split has none.

Splits: planetoid (the folder's split_planetoid.txt), random:K (K training
nodes per class, 500 val, 1000 test), per-class:T,V (T training and V val nodes
per class, the rest test: 20,30 is the split of Shchur et al. 2018), or a split
file of "train i"/"val i"/"test i" lines. Models are deterministic: on a fixed
split --seeds only repeats the cross-validation folds.`,
		Example: `  gssl classify --data testdata/cora
  gssl classify --data ../shared/data/coauthor_cs --split per-class:20,30 --seeds 10 --json
  gssl classify --data testdata/cora --model sgc --out predictions.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Data == "" {
				opts.Data = defaultCora()
			}
			return runClassify(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Data, "data", "", "node-classification folder with features (edges.txt, labels.txt, features.txt.gz or a NumPy/CSV feature file); default testdata/cora")
	f.StringVar(&opts.Model, "model", "auto", "sgc, appnp, correct-smooth, auto, or stkr (SP-Lap: STKR's inverse Laplacian, with --feature-weight on the graph and feature kernels)")
	f.StringVar(&opts.Split, "split", "planetoid", "planetoid, random:K, per-class:T,V, or a split file")
	f.IntVar(&opts.Seeds, "seeds", 1, "number of seeds S..S+N-1 (random splits; CV folds)")
	f.Uint64Var(&opts.Seed, "seed", 0, "first seed S")
	f.IntVar(&opts.Folds, "folds", nodeclass.DefaultFolds, "cross-validation folds when the split has no val nodes")
	f.Float64Var(&opts.FeatureWeight, "feature-weight", 0, "--model stkr: weight γ of the cosine feature kernel added to the graph kernel (0: the graph only)")
	f.IntVar(&opts.Embed, "embed", 0, "append this many Laplacian-eigenmap coordinates to the features (0: none)")
	f.StringVar(&opts.Out, "out", "", "write node,label,predicted,split to this CSV (the first seed's run)")
	return cmd
}

// classifyRun is the outcome of one seed.
type classifyRun struct {
	Seed  uint64  `json:"seed"`
	Model string  `json:"model"`
	Val   any     `json:"val_accuracy"`
	Test  float64 `json:"test_accuracy"`
	// With Correct & Smooth: the base model chosen first.
	Base     string  `json:"base_model,omitempty"`
	BaseVal  float64 `json:"base_val_accuracy,omitempty"`
	BaseTest float64 `json:"base_test_accuracy,omitempty"`
	out      nodeclass.Outcome
	split    eval.Split
}

// classifyResult is the JSON object of the command.
type classifyResult struct {
	Data            string        `json:"data"`
	Nodes           int           `json:"nodes"`
	Edges           int           `json:"edges"`
	Features        int           `json:"features"`
	Classes         int           `json:"classes"`
	ModelFlag       string        `json:"model_flag"`
	Model           string        `json:"model"`
	Split           string        `json:"split"`
	Seeds           int           `json:"seeds"`
	SeedsRun        int           `json:"seeds_run"`
	Candidates      int           `json:"candidates"`
	ValAccuracy     any           `json:"val_accuracy"`
	TestAccuracy    float64       `json:"test_accuracy"`
	TestAccuracyStd float64       `json:"test_accuracy_std"`
	BaseModel       string        `json:"base_model,omitempty"`
	BaseTest        float64       `json:"base_test_accuracy,omitempty"`
	BaseTestStd     float64       `json:"base_test_accuracy_std,omitempty"`
	Runs            []classifyRun `json:"runs"`
	LoadSeconds     float64       `json:"load_seconds"`
	Seconds         float64       `json:"seconds"`
	Out             string        `json:"out,omitempty"`
}

// classifySearch maps --model to the candidate grids of nodeclass.
func classifySearch(model string, featureWeight float64) (nodeclass.Search, error) {
	if featureWeight != 0 && model != "stkr" {
		return nodeclass.Search{}, fmt.Errorf("classify: --feature-weight applies to --model stkr only")
	}
	switch model {
	case "stkr":
		if !(featureWeight >= 0) || math.IsInf(featureWeight, 0) {
			return nodeclass.Search{}, fmt.Errorf("classify: --feature-weight %v is invalid: it must be finite and ≥ 0", featureWeight)
		}
		return nodeclass.Search{Candidates: nodeclass.STKRGrid(featureWeight)}, nil
	case "sgc":
		return nodeclass.Search{Candidates: nodeclass.SGCGrid()}, nil
	case "appnp":
		return nodeclass.Search{Candidates: nodeclass.APPNPGrid()}, nil
	case "correct-smooth", "cs":
		return nodeclass.Search{Candidates: nodeclass.SGCGrid(), CorrectSmooth: true}, nil
	case "auto":
		return nodeclass.Search{Candidates: append(nodeclass.SGCGrid(), nodeclass.APPNPGrid()...), CorrectSmooth: true}, nil
	}
	return nodeclass.Search{}, fmt.Errorf("classify: --model %q is invalid: want sgc, appnp, correct-smooth, auto or stkr", model)
}

// parseClassifySplit returns the split of seed for --split.
func parseClassifySplit(s string) (func(ds *loaders.NodeDataset, seed uint64) (eval.Split, error), bool, error) {
	switch {
	case s == "planetoid":
		return func(ds *loaders.NodeDataset, _ uint64) (eval.Split, error) {
			if ds.Split == nil {
				return eval.Split{}, fmt.Errorf("classify: --split planetoid: %s has no split_planetoid.txt; use --split per-class:20,30, random:K or a split file", ds.Name)
			}
			return *ds.Split, nil
		}, false, nil
	case strings.HasPrefix(s, "random:"):
		k, err := strconv.Atoi(strings.TrimPrefix(s, "random:"))
		if err != nil || k < 1 {
			return nil, false, fmt.Errorf("classify: --split %q: want random:K with K ≥ 1 training nodes per class", s)
		}
		return func(ds *loaders.NodeDataset, seed uint64) (eval.Split, error) {
			return eval.RandomPerClass(ds.Labels, k, randomSplitVal, randomSplitTest, seed)
		}, true, nil
	case strings.HasPrefix(s, "per-class:"):
		parts := strings.Split(strings.TrimPrefix(s, "per-class:"), ",")
		var t, v int
		var err1, err2 error
		if len(parts) == 2 {
			t, err1 = strconv.Atoi(parts[0])
			v, err2 = strconv.Atoi(parts[1])
		}
		if len(parts) != 2 || err1 != nil || err2 != nil || t < 1 || v < 0 {
			return nil, false, fmt.Errorf("classify: --split %q: want per-class:T,V with T ≥ 1 training and V ≥ 0 val nodes per class", s)
		}
		return func(ds *loaders.NodeDataset, seed uint64) (eval.Split, error) {
			return nodeclass.PerClassSplit(ds.Labels, t, v, seed)
		}, true, nil
	case s == "":
		return nil, false, fmt.Errorf("classify: --split is empty: want planetoid, random:K, per-class:T,V or a split file")
	}
	if _, err := os.Stat(s); err != nil {
		return nil, false, fmt.Errorf("classify: --split %q is not planetoid, random:K or per-class:T,V, and not a readable split file: %w", s, err)
	}
	return func(ds *loaders.NodeDataset, _ uint64) (eval.Split, error) {
		sp, err := loaders.ReadSplit(s, len(ds.Labels))
		if err != nil {
			return eval.Split{}, err
		}
		return *sp, nil
	}, false, nil
}

func runClassify(ctx context.Context, opts classifyOptions, stdout, stderr io.Writer) error {
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	search, err := classifySearch(opts.Model, opts.FeatureWeight)
	if err != nil {
		return err
	}
	if opts.Embed < 0 {
		return fmt.Errorf("classify: --embed %d is invalid: it must be ≥ 0 (0: no embedding)", opts.Embed)
	}
	search.Embedding = opts.Embed
	splitOf, random, err := parseClassifySplit(opts.Split)
	if err != nil {
		return err
	}
	if opts.Seeds < 1 {
		return fmt.Errorf("classify: --seeds %d is invalid: it must be ≥ 1", opts.Seeds)
	}
	if opts.Folds < 2 {
		return fmt.Errorf("classify: --folds %d is invalid: it must be ≥ 2", opts.Folds)
	}
	ds, err := loaders.LoadNodeDataset(opts.Data)
	if err != nil {
		return err
	}
	x := nodeclass.Features{Sparse: ds.Features, Dense: ds.DenseFeatures}
	if ds.Features == nil && ds.DenseFeatures == nil {
		return fmt.Errorf("classify: %s has no node features (features.txt.gz or a NumPy/CSV feature file); the graph-only classifiers are gssl labelprop and gssl stkr", opts.Data)
	}
	loadSeconds := seconds(start)
	n := opts.Seeds
	if !random {
		// A fixed split with val nodes and deterministic models: every seed
		// would give the same run.
		if sp, err := splitOf(ds, opts.Seed); err == nil && len(sp.Val) > 0 {
			n = 1
		}
	}
	seeds := eval.Seeds(n)
	for k := range seeds {
		seeds[k] += opts.Seed
	}
	bar := newProgress(stderr, n, "classify")
	runs, err := eval.RunSeeds(ctx, seeds, func(ctx context.Context, seed uint64) (classifyRun, error) {
		sp, err := splitOf(ds, seed)
		if err != nil {
			return classifyRun{}, err
		}
		o, err := nodeclass.Evaluate(ctx, search, ds.Graph, x, ds.Labels, sp, opts.Folds, seed)
		if err != nil {
			return classifyRun{}, fmt.Errorf("classify: %w", err)
		}
		run := classifyRun{Seed: seed, Model: o.Model, Val: o.Val, Test: o.Test, out: o, split: sp}
		if search.CorrectSmooth {
			run.Base, run.BaseVal, run.BaseTest = o.Base, o.BaseVal, o.BaseTest
		}
		return run, nil
	}, func(int) { bar.Add(1) })
	bar.Finish()
	if err != nil {
		return err
	}
	_, d := x.Dims()
	res := classifyResult{
		Data: opts.Data, Nodes: ds.Graph.Nodes(), Edges: ds.Graph.Edges(), Features: d, Classes: ds.Classes,
		ModelFlag: opts.Model, Model: runs[0].Model, Split: opts.Split, Seeds: opts.Seeds, SeedsRun: len(runs), Candidates: len(search.Candidates),
		Runs: runs, LoadSeconds: loadSeconds,
	}
	tests, vals := make([]float64, len(runs)), make([]float64, len(runs))
	for k, r := range runs {
		tests[k], vals[k] = r.Test, r.out.Val
	}
	res.TestAccuracy, res.TestAccuracyStd = eval.MeanStd(tests)
	if search.CorrectSmooth {
		bt := make([]float64, len(runs))
		for k, r := range runs {
			bt[k] = r.BaseTest
		}
		res.BaseModel = runs[0].Base
		res.BaseTest, res.BaseTestStd = eval.MeanStd(bt)
	}
	v, _ := eval.MeanStd(vals)
	res.ValAccuracy = finite(v)
	if opts.Out != "" {
		if err := writeClassifyPredictions(opts.Out, ds, runs[0]); err != nil {
			return err
		}
		res.Out = opts.Out
	}
	res.Seconds = seconds(start)
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %d nodes, %d edges, %d features, %d classes; split %s, %d seed(s), %d candidates\n",
			filepath.Base(opts.Data), res.Nodes, res.Edges, res.Features, res.Classes, opts.Split, opts.Seeds, res.Candidates)
		for _, r := range runs {
			fmt.Fprintf(w, "  seed %d: %s  val %.4f  test %.4f\n", r.Seed, r.Model, r.out.Val, r.Test)
			if r.Base != "" {
				fmt.Fprintf(w, "    base %s  val %.4f  test %.4f\n", r.Base, r.BaseVal, r.BaseTest)
			}
		}
		fmt.Fprintf(w, "test accuracy %.4f ± %.4f (%d seed(s)), %.2f s\n", res.TestAccuracy, res.TestAccuracyStd, len(runs), res.Seconds)
		if res.Out != "" {
			fmt.Fprintf(w, "predictions written to %s\n", res.Out)
		}
	})
}

// writeClassifyPredictions writes node,label,predicted,split for every node,
// atomically (a temporary file renamed into place).
func writeClassifyPredictions(path string, ds *loaders.NodeDataset, run classifyRun) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("classify: --out %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	part := make([]string, len(ds.Labels))
	for name, idx := range map[string][]int{"train": run.split.Train, "val": run.split.Val, "test": run.split.Test} {
		for _, i := range idx {
			part[i] = name
		}
	}
	pred := logreg.Argmax(run.out.Probabilities)
	w := bufio.NewWriter(tmp)
	fmt.Fprintln(w, "node,label,predicted,split")
	for i, l := range ds.Labels {
		id := strconv.Itoa(i)
		if ds.IDs != nil {
			id = ds.IDs.ID(i)
		}
		fmt.Fprintf(w, "%s,%d,%d,%s\n", id, l, pred[i], part[i])
	}
	if err = w.Flush(); err != nil {
		return fmt.Errorf("classify: --out %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("classify: --out %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("classify: --out %s: %w", path, err)
	}
	return nil
}
