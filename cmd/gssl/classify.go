package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
)

// classifyOptions are the settings of one classify run.
type classifyOptions struct {
	In    nodeInput // --data, or --edges/--labels/--features (the embedded Cora without any)
	Model string    // sgc, appnp, correct-smooth, auto, stkr, channels or linbp
	Split string    // auto, none, planetoid, random:K, per-class:T,V or a split file
	Val   int       // random:K validation nodes; -1: the default size
	Test  int       // random:K test nodes; -1: the default size
	Seeds int       // seeds Seed..Seed+Seeds−1 (random splits, CV folds)
	Seed  uint64
	Folds int // CV folds when the split has no val nodes
	Embed int // > 0: Laplacian-eigenmap coordinates appended to the features
	// FeatureWeight is γ of --model stkr's feature kernel (0: the graph only).
	FeatureWeight float64
	Metric        string    // auto, accuracy or auc
	Conformal     float64   // > 0: calibrate on the val nodes, prediction sets at this miscoverage
	Out           string    // predictions CSV of the first seed's run
	Save          string    // model file of the first seed's chosen model
	Plots         plotFlags // --plot, --report
	JSON          bool
}

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
auto — chosen by the homophily of the training labels (gssl info shows it):
on a homophilous graph SGC and APPNP, then Correct & Smooth on the chosen one
(the base model and its accuracies are reported too); on a heterophilous one
channels, sepgnn and linkx (and linbp when the neighbours' classes are informative),
chosen on the validation nodes; channels — a perceptron on the ego and
neighbour channels [X, SX, S²X, SY]; sepgnn — a trained network with separate
ego and neighbour weights, residual connections and layer normalisation
(Platonov et al. 2023's strong baseline); linkx — a trained network on the
rows of the adjacency matrix and the features (Lim et al. 2021); linbp — linearised belief
propagation through the class compatibility matrix; stkr — STKR's inverse Laplacian (SP-Lap,
η and β from the STKR paper's grids) on the graph kernel, or with
--feature-weight γ on the graph kernel plus γ times the cosine kernel of the
features (stkr.FeatureKernel). Hyperparameters (K, a, the L2 penalty, the C&S
weights and scales; η and β) are chosen on the validation nodes, or by seeded
stratified k-fold cross-validation over the training nodes when there are none.

Input: --data DIR, or --edges/--labels/--features tables (docs/cli.md); nothing
given means the Cora embedded in gssl. The features may be sparse (our text
format, svmlight, SciPy .npz) or dense (NumPy .npy, CSV).

Splits: auto (the data set's own split, e.g. Cora's Planetoid split, else none),
none (train on every labelled node, choose by cross-validation, predict the
others), planetoid, random:K (K training nodes per class, --val/--test from the
rest), per-class:T,V (T training and V val nodes per class, the rest test: 20,30
is the split of Shchur et al. 2018 for Amazon and Coauthor), or a split file of
"train i"/"val i"/"test i" lines. The models are deterministic: on a fixed split
with val nodes one run stands for every seed.

--out FILE writes one row per node not trained on: the user's id, the predicted
class, the label and split, and the score of every class (CSV, or JSON Lines).`,
		Example: `  gssl classify
  gssl classify --data ../shared/data/coauthor_cs --split per-class:20,30 --seeds 10 --json
  gssl classify --edges edges.csv --labels labels.csv --features features.npy --out predictions.csv
  gssl classify --model stkr --feature-weight 0.1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			return runClassify(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	opts.In.addFlags(f)
	f.StringVar(&opts.Model, "model", "auto", "sgc, appnp, correct-smooth, auto (by the homophily of the training labels: on a homophilous graph SGC and APPNP then Correct & Smooth, else the heterophily models below, chosen on the validation nodes), stkr (SP-Lap: STKR's inverse Laplacian, with --feature-weight on the graph and feature kernels), channels (a perceptron on the ego and neighbour channels, for heterophilous graphs), sepgnn (a trained network with separate ego and neighbour weights, residuals and layer norm, for heterophilous graphs), linkx (a trained network on the adjacency rows and the features, for heterophilous graphs) or linbp (belief propagation through the class compatibility matrix)")
	f.StringVar(&opts.Split, "split", "auto", "auto (the data set's split if it has one, else none), none (fit on every labelled node, hyperparameters by cross-validation, predict the others), planetoid, random:K, per-class:T,V (T train and V val nodes per class, the rest test), or a split file")
	f.IntVar(&opts.Val, "val", -1, "with --split random:K: validation nodes (-1: min(500, a third of the labelled nodes left))")
	f.IntVar(&opts.Test, "test", -1, "with --split random:K: test nodes (-1: min(1000, half of the labelled nodes left))")
	f.IntVar(&opts.Seeds, "seeds", 1, "number of seeds S..S+N-1 (random and per-class splits; on a fixed split the models are deterministic and run once)")
	f.Uint64Var(&opts.Seed, "seed", 0, "first seed S: random splits and cross-validation folds")
	f.IntVar(&opts.Folds, "folds", eval.DefaultFolds, "cross-validation folds when the split has no val nodes")
	f.Float64Var(&opts.FeatureWeight, "feature-weight", 0, "--model stkr: weight γ of the cosine feature kernel added to the graph kernel (0: the graph only)")
	f.IntVar(&opts.Embed, "embed", 0, "append this many Laplacian-eigenmap coordinates to the features (0: none)")
	opts.Plots.addFlags(f, "the confusion matrix and per-class accuracy on the test nodes, and the Laplacian eigenmap coloured by predicted class with the wrong nodes ringed (the first seed's run),")
	addConfidenceFlags(f, &opts.Metric, &opts.Conformal)
	f.StringVar(&opts.Out, "out", "", "write one row per predicted node (id, predicted, label, split, p_<class>…, and with --conformal the calibrated p_<class> and the set): CSV, or JSON Lines for .jsonl/.ndjson (the first seed's run)")
	f.StringVar(&opts.Save, "save", "", "save the first seed's chosen model (fitted on its training nodes) for gssl predict and gssl serve: the fitted nodes, or new nodes from their features and edges to fitted nodes (not with --model stkr: use gssl stkr --save)")
	return cmd
}

// classifyRun is the first seed's run as classifyPicture draws it.
type classifyRun struct {
	Seed  uint64
	Model string
	out   eval.NodeOutcome
	split eval.Split
}

// classifyResult is the JSON object of the command.
type classifyResult struct {
	Data      string `json:"data"`
	Nodes     int    `json:"nodes"`
	Edges     int    `json:"edges"`
	Features  int    `json:"features"`
	Classes   int    `json:"classes"`
	ModelFlag string `json:"model_flag"`
	// Advice is, for --model auto, what the homophily of the training
	// labels calls for (homophily.Advise) and so which models were searched.
	Advice string `json:"advice,omitempty"`
	Split  string `json:"split"`
	Seeds  int    `json:"seeds"`
	protocol.NodeClassReport
	Confidence  *confidence.Report `json:"confidence,omitempty"` // --conformal: the first seed's run
	LoadSeconds float64            `json:"load_seconds"`
	KNN         *knnSummary        `json:"knn,omitempty"` // the graph built from --features
	Seconds     float64            `json:"seconds"`
	Out         string             `json:"out,omitempty"`
	Saved       string             `json:"saved,omitempty"`
}

// classifySearch maps --model to the grids of package nodeclass, naming
// the flags in its errors.
func classifySearch(model string, featureWeight float64, embed bool) (eval.NodeSearch, error) {
	if featureWeight != 0 && model != "stkr" {
		return eval.NodeSearch{}, fmt.Errorf("classify: --feature-weight applies to --model stkr only")
	}
	if !(featureWeight >= 0) || math.IsInf(featureWeight, 0) {
		return eval.NodeSearch{}, fmt.Errorf("classify: --feature-weight %v is invalid: it must be finite and ≥ 0", featureWeight)
	}
	s, err := protocol.NodeClassSearch(model, featureWeight, embed)
	if err != nil {
		return s, fmt.Errorf("classify: --model %q is invalid: want sgc, appnp, correct-smooth, auto, stkr, channels, sepgnn, linkx or linbp", model)
	}
	return s, nil
}

// classifyAuto returns --model auto's search for the data set: the model
// family the homophily of the first split's training labels calls for.
func classifyAuto(ds *loaders.NodeDataset, splits *eval.Splitter, opts classifyOptions) (eval.NodeSearch, string, error) {
	sp, _, err := splits.Split(opts.Seed)
	if err != nil {
		return eval.NodeSearch{}, "", fmt.Errorf("classify: --split: %w", err)
	}
	train := make([]int, len(ds.Labels))
	for i := range train {
		train[i] = -1
	}
	for _, i := range sp.Train {
		train[i] = ds.Labels[i]
	}
	s, _, why, err := protocol.NodeClassAuto(ds.Graph, train, opts.Embed > 0)
	if err != nil {
		return s, "", fmt.Errorf("classify: %w", err)
	}
	return s, why, nil
}

// classifySplits returns the splitter of --split.
func classifySplits(opts classifyOptions, ds *loaders.NodeDataset) (*eval.Splitter, error) {
	spec, err := eval.ParseSplitSpec(opts.Split)
	if err != nil {
		return nil, fmt.Errorf("classify: %w", err)
	}
	s, err := newSplitter(spec, ds, opts.In.source(), opts.Val, opts.Test)
	if err != nil {
		return nil, fmt.Errorf("classify: --split: %w", err)
	}
	return s, nil
}

// check validates the flags that need no data.
func (opts classifyOptions) check() error {
	switch {
	case opts.Embed < 0:
		return fmt.Errorf("classify: --embed %d is invalid: it must be ≥ 0 (0: no embedding)", opts.Embed)
	case opts.Seeds < 1:
		return fmt.Errorf("classify: --seeds %d is invalid: it must be ≥ 1", opts.Seeds)
	case opts.Folds < 2:
		return fmt.Errorf("classify: --folds %d is invalid: it must be ≥ 2", opts.Folds)
	}
	if _, err := parseSplitFlag(opts.Split); err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"val", opts.Val}, {"test", opts.Test}} {
		if err := checkCount(c.name, c.v, 0, "the default size"); err != nil {
			return fmt.Errorf("classify: %w", err)
		}
	}
	if err := opts.Plots.check(); err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	if err := checkConfidenceFlags(opts.Metric, opts.Conformal); err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	if err := checkOutPath("out", opts.Out); err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	if err := checkOutPath("save", opts.Save); err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	if opts.Save != "" && (opts.Model == "channels" || opts.Model == "linbp") {
		return fmt.Errorf("classify: --save works with --model sgc, appnp, correct-smooth, sepgnn, linkx and auto; --model %s is not saved yet", opts.Model)
	}
	if opts.Save != "" && opts.Model == "stkr" {
		return fmt.Errorf("classify: --save works with --model sgc, appnp, correct-smooth, sepgnn, linkx and auto; the STKR adapter is not saved (gssl stkr --save saves STKR)")
	}
	return nil
}

// classifyData loads the data set and its features (with --embed, the
// eigenmap coordinates appended).
func classifyData(ctx context.Context, opts classifyOptions, stderr io.Writer) (*loaders.NodeDataset, estimator.Nodes, error) {
	ds, err := opts.In.load(ctx, stderr)
	if err == nil {
		err = needLabels(ds)
	}
	if err != nil {
		return nil, estimator.Nodes{}, fmt.Errorf("classify: %w", err)
	}
	if err := checkClassMemory("classify", opts.In.MaxMemory, ds, classifyClassBlocks*8*int64(ds.Graph.Nodes())*int64(max(ds.Classes, 1))); err != nil {
		ds.Close()
		return nil, estimator.Nodes{}, err
	}
	if ds.Features == nil && ds.DenseFeatures == nil {
		ds.Close()
		return nil, estimator.Nodes{}, fmt.Errorf("classify: %s has no node features: give --features FILE (or a folder with features.txt.gz); the graph-only classifiers are gssl labelprop and gssl stkr", opts.In.source())
	}
	x := nodeclass.Features{Sparse: ds.Features, Dense: ds.DenseFeatures}
	if opts.Embed > 0 {
		if x, err = nodeclass.WithEmbedding(ctx, ds.Graph, x, nodeclass.RowSum, opts.Embed, 1); err != nil {
			ds.Close()
			return nil, estimator.Nodes{}, fmt.Errorf("classify: %w", err)
		}
	}
	return ds, estimator.Nodes{Graph: ds.Graph, Features: nodeclass.Matrix(x)}, nil
}

func runClassify(ctx context.Context, opts classifyOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if ctx == nil {
		ctx = context.Background()
	}
	search, err := classifySearch(opts.Model, opts.FeatureWeight, opts.Embed > 0)
	if err != nil {
		return err
	}
	if err := opts.check(); err != nil {
		return err
	}
	ds, x, err := classifyData(ctx, opts, stderr)
	if err != nil {
		return err
	}
	defer ds.Close()
	splits, err := classifySplits(opts, ds)
	if err != nil {
		return err
	}
	var advice string
	if opts.Model == "auto" {
		if search, advice, err = classifyAuto(ds, splits, opts); err != nil {
			return err
		}
	}
	search.Metric = resolveMetric(opts.Metric, ds.Classes)
	if opts.Conformal > 0 {
		if sp, _, err := splits.Split(opts.Seed); err == nil && len(sp.Val) == 0 {
			return fmt.Errorf("classify: %w", errNoCalibrationNodes)
		}
	}
	loadSeconds := seconds(start)
	seeds := protocol.NodeClassSeeds(splits, opts.Seed, opts.Seeds)
	bar := newSteps(stderr, len(seeds), "classify")
	runs, err := eval.EvaluateSeeds(ctx, eval.NodeSeeds{Search: search, Seeds: seeds,
		Split: func(seed uint64) (eval.Split, error) {
			sp, _, err := splits.Split(seed)
			return sp, err
		},
		CV: func(seed uint64, sp eval.Split) eval.CV {
			return eval.CV{Folds: opts.Folds, Seed: seed, Order: idOrder(ds, sp.Train)}
		},
		Done: func(done int) {
			if len(seeds) > 1 {
				bar.to(done, len(seeds), "seed %d of %d done", done, len(seeds))
			}
		}}, x, ds.Labels)
	bar.Finish()
	if err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	res := newClassifyResult(opts, ds, x, search, runs)
	res.LoadSeconds, res.Advice = loadSeconds, advice
	if opts.Conformal > 0 {
		if res.Confidence, err = conformalReport(runs[0].Probabilities, runs[0].Split, ds.Labels, opts.Conformal, opts.Seed); err != nil {
			return fmt.Errorf("classify: %w", err)
		}
	}
	// The run's time, before --out, --save and the plots are written: the
	// --report written next and the JSON show the same seconds.
	res.Seconds = seconds(start)
	first := classifyRun{Seed: runs[0].Seed, Model: runs[0].Model, out: runs[0].NodeOutcome, split: runs[0].Split}
	if err := classifyWrite(ctx, opts, ds, &res, first, stderr); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printClassify(w, opts, res) })
}

// newClassifyResult summarises the runs.
func newClassifyResult(opts classifyOptions, ds *loaders.NodeDataset, x estimator.Nodes, search eval.NodeSearch, runs []eval.NodeRun) classifyResult {
	_, d := x.Features.Dims()
	return classifyResult{
		Data: opts.In.source(), Nodes: ds.Graph.Nodes(), Edges: ds.Graph.Edges(), Features: d, Classes: ds.Classes,
		ModelFlag: opts.Model, Split: opts.Split, Seeds: opts.Seeds, KNN: opts.In.builtSummary(),
		NodeClassReport: protocol.ReportNodeClass(search, ds.Classes, runs),
	}
}

// classifyWrite writes --out, --save and the plots of the first seed's
// run (best is its chosen model).
func classifyWrite(ctx context.Context, opts classifyOptions, ds *loaders.NodeDataset, res *classifyResult, first classifyRun, stderr io.Writer) error {
	best := first.out.Best
	if opts.Out != "" {
		p, sets := first.out.Probabilities, [][]int(nil)
		if res.Confidence != nil {
			p, sets = res.Confidence.Probabilities, res.Confidence.Sets
		}
		if err := writeClassSetRows(opts.Out, ds, first.split, true, estimator.Argmax(p), p.RawRowView, sets); err != nil {
			return fmt.Errorf("classify: %w", err)
		}
		res.Out = opts.Out
	}
	if opts.Save != "" {
		sm, ok := best.(savedmodel.Model)
		if !ok {
			return fmt.Errorf("classify: --save %s: a %T cannot be saved", opts.Save, best)
		}
		var cal *confidence.Calibration
		if res.Confidence != nil {
			cal = res.Confidence.Calibration
		}
		if err := saveCalibrated(opts.Save, sm, ds, opts.In, cal); err != nil {
			return fmt.Errorf("classify: %w", err)
		}
		res.Saved = opts.Save
	}
	if err := opts.Plots.write(stderr, "classify", *res, func() (picture, error) { return classifyPicture(ctx, ds, first, *res) }); err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	return nil
}

func printClassify(w io.Writer, opts classifyOptions, res classifyResult) {
	fmt.Fprintf(w, "%s: %d nodes, %d edges, %d features, %d classes; split %s, %d seed(s), %d candidates\n",
		res.Data, res.Nodes, res.Edges, res.Features, res.Classes, opts.Split, len(res.Runs), res.Candidates)
	if res.Advice != "" {
		fmt.Fprintf(w, "auto: %s\n", res.Advice)
	}
	for _, r := range res.Runs {
		if r.ValAUC != nil {
			fmt.Fprintf(w, "  seed %d: %s  val AUC %s  test AUC %s, accuracy %s\n", r.Seed, r.Model, fmtAcc(r.ValAUC), fmtAcc(r.TestAUC), fmtAcc(r.Test))
		} else {
			fmt.Fprintf(w, "  seed %d: %s  val %s  test %s\n", r.Seed, r.Model, fmtAcc(r.Val), fmtAcc(r.Test))
		}
		if r.Base != "" {
			fmt.Fprintf(w, "    base %s  val %.4f  test %s\n", r.Base, r.BaseVal, fmtAcc(r.BaseTest))
		}
	}
	if res.TestAUC != nil {
		fmt.Fprintf(w, "test ROC AUC %s ± %s (the metric that chose the model)\n", fmtAcc(res.TestAUC), fmtAcc(res.TestAUCStd))
	}
	fmt.Fprintf(w, "test accuracy %s ± %s (%d seed(s)), %.2f s\n", fmtAcc(res.Test), fmtAcc(res.TestStd), len(res.Runs), res.Seconds)
	printConfidence(w, res.Confidence)
	if res.Out != "" {
		fmt.Fprintf(w, "predictions written to %s\n", res.Out)
	}
	if res.Saved != "" {
		fmt.Fprintf(w, "model saved to %s\n", res.Saved)
	}
}

// fmtAcc prints an accuracy (a float64, or nil or NaN without test nodes).
func fmtAcc(v any) string {
	if f, ok := v.(float64); ok && !math.IsNaN(f) {
		return strconv.FormatFloat(f, 'f', 4, 64)
	}
	return "– (no test nodes)"
}
