package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
)

// labelpropOptions are the settings of one labelprop run.
type labelpropOptions struct {
	In                nodeInput // the graph and its labels (nothing: the embedded Cora)
	Images            string    // image set: run on the KNN graph of its first N images instead
	N, Neighbors      int       // with Images: images used (0: all) and neighbours per image
	Method            string    // "spreading" or "harmonic"
	Alpha             string    // a in (0, 1), or "auto" to choose it (validation nodes, or cross-validation)
	Split             string    // auto, none, planetoid, random:K, per-class:T,V or the path of a split file
	Val, Test         int       // random:K sizes; -1: min(500, r/3) and min(1000, r/2)
	Folds             int       // cross-validation folds without a split (0: eval.DefaultFolds)
	Seeds             int       // random splits: seeds Seed..Seed+Seeds−1
	Seed              uint64    // the first seed of random splits, and the seed of the folds
	CMN               bool      // class-mass normalisation
	Solver            string    // spreading: "auto" (default), "chebyshev", "cg" or "fixed-point"
	Tol               float64   // 0 means labelprop.DefaultTol
	Stop              string    // spreading (Chebyshev): "residual" (default) or "labels"
	Float32           bool      // spreading (Chebyshev): float32 iterate blocks
	KeepIsolatedSeeds bool      // let isolated training nodes keep their label
	Conformal         float64   // > 0: calibrate on the val nodes, prediction sets at this miscoverage
	Out               string    // predictions file, "" for none
	Save              string    // model file (--save), "" for none
	JSON              bool
	Plots             plotFlags // --plot, --report
}

const labelpropLong = `labelprop classifies the unlabelled nodes of a graph from the labelled ones.

Methods: label spreading (Zhou et al. 2003), F = (1−a)(I − aS)^{-1} Y with
S = D^{-1/2} W D^{-1/2}, solved by the Chebyshev semi-iteration (default), block CG
or the fixed-point iteration; and the harmonic function (Zhu, Ghahramani &
Lafferty 2003), L_uu F_u = W_ul Y_l, by Jacobi-preconditioned block CG. Nodes with
no path to a labelled node get the class prior.

Protocol. Without a split (--split none, or auto on data without one) it fits on
every labelled node and predicts every unlabelled one; --alpha auto chooses a from
0.5, 0.7, 0.8, 0.9, 0.95, 0.99 by seeded stratified k-fold cross-validation over
the labelled nodes (--folds, default 5, fewer when a class has fewer labels;
--seed). With a benchmark split (--split planetoid, random:K or a split file; auto
takes the data set's own split, as Cora's Planetoid split) it fits on the training
nodes, chooses a on the validation nodes and scores the test nodes. random:K draws
K training nodes per class and --val/--test nodes from the rest (default
min(500, a third) and min(1000, half) of it).

--out FILE writes one row per predicted node: the user's id, the predicted class
and p_<class> for every class (CSV, or JSON Lines for .jsonl/.ndjson).
--images DIR classifies the images of an image set instead, as the nodes of the
unweighted K-nearest-neighbour graph of its first --n images (--neighbors); every
image is labelled, so give a split: --split random:K.`

// newLabelpropCmd builds gssl labelprop.
func newLabelpropCmd(g *globals) *cobra.Command {
	opts := labelpropOptions{}
	cmd := &cobra.Command{
		Use:   "labelprop",
		Short: "Classify the nodes of a graph from a few labels by label propagation",
		Long:  labelpropLong,
		Example: `  gssl labelprop
  gssl labelprop --edges edges.csv --labels labels.csv --out predictions.csv
  gssl labelprop --data ../shared/data/pubmed --method harmonic --cmn
  gssl labelprop --split random:20 --seeds 10 --json
  gssl labelprop --images ../shared/data/digits8x8 --split random:20 --seeds 3`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			opts.Neighbors = opts.In.KNN.Neighbors
			if opts.Images != "" && !opts.In.embedded() {
				return fmt.Errorf("labelprop: --images excludes --data, --edges and --labels: a graph, or an image set to build a KNN graph from")
			}
			return runLabelprop(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	opts.In.addFlags(f)
	f.Lookup("neighbors").Usage = "neighbours per point of the K-nearest-neighbour graph (with --features and no --edges, or per image with --images)"
	f.StringVar(&opts.Images, "images", "", "image set (images_u8.bin.gz + labels.txt): classify the nodes of the unweighted K-nearest-neighbour graph of its images")
	f.IntVar(&opts.N, "n", 0, "with --images: use the first N images (0: all)")
	renamedFlag(cmd, "k", "neighbors")
	f.StringVar(&opts.Method, "method", "spreading", "spreading or harmonic")
	f.StringVar(&opts.Alpha, "alpha", "auto", "spreading weight a in (0, 1), or auto (chosen on the validation nodes, or by cross-validation without a split)")
	f.StringVar(&opts.Split, "split", "auto", "auto (the data set's split if it has one, else none), none (fit on every labelled node, predict the others), planetoid (the data set's own: split_planetoid.txt, or an OGB folder's), random:K, per-class:T,V (T train and V val nodes per class, the rest test), or a split file (lines \"train|val|test i\", nodes 0..n-1)")
	f.IntVar(&opts.Val, "val", -1, "with --split random:K: validation nodes (-1: min(500, a third of the labelled nodes left))")
	f.IntVar(&opts.Test, "test", -1, "with --split random:K: test nodes (-1: min(1000, half of the labelled nodes left))")
	f.IntVar(&opts.Folds, "folds", eval.DefaultFolds, "cross-validation folds for --alpha auto without a split (fewer when a class has fewer labels)")
	f.IntVar(&opts.Seeds, "seeds", 1, "number of random splits (seeds S..S+N-1); only with --split random:K or per-class:T,V")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed S: the first random split, and the cross-validation folds")
	f.BoolVar(&opts.CMN, "cmn", false, "class-mass normalisation (Zhu et al. 2003 §4)")
	f.StringVar(&opts.Solver, "solver", labelprop.Auto.String(), "spreading solver: auto (cg when the n×c scores take 32 MiB or more, else chebyshev), chebyshev, cg or fixed-point")
	f.Float64Var(&opts.Tol, "tol", 0, "stopping tolerance in (0, 1) (0 means 1e-6, as lp.py; 1e-5 with --float32)")
	f.StringVar(&opts.Stop, "stop", labelprop.StopResidual.String(), "spreading stopping rule (runs chebyshev): residual (every class's relative residual ≤ --tol), or labels (also stop once the residual is ≤ 1e-3 and no predicted label has changed for 5 iterations; a node near a tie may then differ)")
	f.BoolVar(&opts.Float32, "float32", false, "spreading (runs chebyshev): keep the two n×c iterate blocks in float32 (half the memory; same labels on Cora and PubMed)")
	f.BoolVar(&opts.KeepIsolatedSeeds, "keep-isolated-seeds", false, "let labelled nodes of degree 0 keep their label instead of failing")
	addConformalFlag(f, &opts.Conformal)
	f.StringVar(&opts.Out, "out", "", "write one row per predicted node (id, predicted, p_<class>…, and with --conformal the calibrated p_<class> and the set): CSV, or JSON Lines for .jsonl/.ndjson (with --seeds, the first seed's)")
	f.StringVar(&opts.Save, "save", "", "save the fitted model (the chosen a; with a split, fitted on the training nodes of the first seed) for gssl predict and gssl serve")
	opts.Plots.addFlags(f, "the confusion matrix and per-class accuracy on the test nodes, and the Laplacian eigenmap coloured by predicted class with the wrong nodes ringed,")
	return cmd
}

// runLabelprop parses the options, runs protocol.EvaluateLabelProp and prints,
// writes and plots what it returns.
func runLabelprop(ctx context.Context, opts labelpropOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	if ctx == nil {
		ctx = context.Background()
	}
	exp, spec, err := opts.experiment()
	if err != nil {
		return err
	}
	if err := checkConfidenceFlags("auto", opts.Conformal); err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	ds, err := opts.load(ctx, stderr)
	if err != nil {
		return err
	}
	defer ds.Close()
	loadSeconds := seconds(start)
	if exp.Splits, err = newSplitter(spec, ds, opts.source(), opts.Val, opts.Test); err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	if opts.Conformal > 0 {
		if sp, _, err := exp.Splits.Split(opts.Seed); err == nil && len(sp.Val) == 0 {
			return fmt.Errorf("labelprop: %w", errNoCalibrationNodes)
		}
	}
	exp.Graph, exp.Labels = ds.Graph, ds.Labels
	setClasses(exp.Model, ds.Classes)
	if err := limitClassBatches(exp.Model, opts.In.MaxMemory); err != nil {
		return err
	}
	if err := checkClassMemory("labelprop", opts.In.MaxMemory, ds, labelpropMemoryBytes(exp.Model, ds)); err != nil {
		return err
	}
	exp.CV.Order = idOrder(ds, labelledNodes(ds))
	defer labelpropProgress(&exp, stderr).Finish()
	out, err := protocol.EvaluateLabelProp(ctx, exp)
	if err != nil {
		return labelpropError(err, ds)
	}
	res := summarizeLabelprop(opts, exp, ds, out)
	res.LoadSeconds = loadSeconds
	if opts.In.built != nil {
		res.KNN = &opts.In.built.Summary
	}
	if opts.Conformal > 0 {
		run := out.Runs[0]
		if !run.WithSplit {
			run.Split.Val = nil
		}
		if res.Confidence, err = conformalReport(run.Model.Probabilities(), run.Split, ds.Labels, opts.Conformal, opts.Seed); err != nil {
			return fmt.Errorf("labelprop: %w", err)
		}
	}
	if err := writeLabelprop(opts, ds, out.Runs[0], &res); err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	res.Seconds = seconds(start)
	if err := opts.Plots.write(stderr, "labelprop", res, func() (picture, error) { return labelpropPicture(ctx, ds, out.Runs, res) }); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		printLabelprop(w, res, out.Runs)
		printConfidence(w, res.Confidence)
	})
}

// labelpropProgress attaches progress to the experiment: per seed with a
// split, per fit of the cross-validation of a without one.
func labelpropProgress(exp *protocol.LabelPropExperiment, stderr io.Writer) *steps {
	if exp.Splits.Spec().Kind != eval.SplitNone {
		st := newSteps(stderr, len(exp.Seeds), "labelprop")
		if len(exp.Seeds) > 1 {
			exp.Progress = func(done int) { st.to(done, len(exp.Seeds), "seed %d of %d done", done, len(exp.Seeds)) }
		}
		return st
	}
	values := max(len(exp.Grid), 1)
	st := newSteps(stderr, values*exp.CV.Folds, "labelprop")
	exp.CV.Progress = func(done, total int) {
		if folds := total / values; done%folds == 0 {
			st.to(done, total, "cross-validation: %d of %d values of a done (%d folds each)", done/folds, values, folds)
			return
		}
		st.to(done, total, "")
	}
	return st
}

// load reads the graph and its labels: the input flags' data set (which
// may build a KNN graph of --features: opts.In then holds it), or the KNN
// graph of --images.
func (opts *labelpropOptions) load(ctx context.Context, stderr io.Writer) (*loaders.NodeDataset, error) {
	var ds *loaders.NodeDataset
	var err error
	if opts.Images != "" {
		ds, err = imageGraphDataset(ctx, opts.Images, opts.N, opts.Neighbors, stderr)
	} else {
		ds, err = opts.In.load(ctx, stderr)
	}
	if err == nil {
		if err = needLabels(ds); err != nil {
			ds.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("labelprop: %w", err)
	}
	return ds, nil
}

// source names the input in outputs and errors.
func (opts labelpropOptions) source() string {
	if opts.Images != "" {
		return opts.Images
	}
	return opts.In.source()
}

// labelpropError names the flags and nodes behind the protocol's errors.
func labelpropError(err error, ds *loaders.NodeDataset) error {
	var iso *protocol.IsolatedError
	switch {
	case errors.As(err, &iso):
		return fmt.Errorf("labelprop: training node %s is isolated (degree 0), so its label cannot spread; pass --keep-isolated-seeds to keep it", nodeID(ds, iso.Node))
	case errors.Is(err, eval.ErrNoValidation):
		return errors.New("labelprop: --alpha auto needs validation nodes to choose a, and the split has none; give --alpha, or --split none to choose it by cross-validation")
	case errors.Is(err, protocol.ErrNoLabels):
		return errors.New("labelprop: no node is labelled: give --labels (an empty label means unlabelled)")
	}
	return err
}

// maxAlpha is the largest --alpha accepted: at 1 − 10⁻⁶ the Chebyshev
// solver already needs about 10⁴ iterations at the default tolerance.
const maxAlpha = 1 - 1e-6

// parseAlpha returns the grid to search: the peer's grid for "auto", one
// value otherwise.
func parseAlpha(s string) ([]float64, error) {
	if s == "auto" || s == "" {
		return labelprop.AlphaGrid(), nil
	}
	a, err := strconv.ParseFloat(s, 64)
	if err != nil || !(a > 0 && a < 1) {
		return nil, fmt.Errorf("labelprop: --alpha %q is invalid: it must be a number inside the open interval (0, 1), or auto", s)
	}
	if a > maxAlpha {
		// The iterations grow like 1/√(1−a): a run would not end.
		return nil, fmt.Errorf("labelprop: --alpha %s is invalid: it must be at most %g (the solvers need about 1/√(1−a) iterations)", s, maxAlpha)
	}
	return []float64{a}, nil
}
