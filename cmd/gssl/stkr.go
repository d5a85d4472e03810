package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/stkr"
)

// stkrOptions are the flags of gssl stkr (help/stkr.md).
type stkrOptions struct {
	In nodeInput
	ImageGraph
	Split      string  `flag:"split"`
	Splits     string  `flag:"splits"`
	Val        int     `flag:"val"`
	Test       int     `flag:"test"`
	Folds      int     `flag:"folds"`
	Transform  string  `flag:"transform"`
	Eta        string  `flag:"eta"`
	Ridge      string  `flag:"ridge"`
	Setting    string  `flag:"setting"`
	PTest      float64 `flag:"p-test"`
	Seeds      int     `flag:"seeds"`
	Seed       uint64  `flag:"seed"`
	Solver     string  `flag:"solver"`
	Tol        float64 `flag:"tol"`
	MaxIter    string  `flag:"max-iter"`
	LCC        bool    `flag:"lcc"`
	TestChunks bool    `flag:"test-chunks"`
	Out        string  `flag:"out"`
	Save       string  `flag:"save"`
	Plots      plotFlags
	JSON       bool
}

func newSTKRCommand(g *globals) *cobra.Command {
	opts := stkrOptions{In: newNodeInput(), Split: "auto", Val: -1, Test: -1, Folds: eval.DefaultFolds, Transform: "inverse-laplacian", Eta: "auto", Ridge: "auto",
		Setting: protocol.Transductive.String(), PTest: protocol.DefaultPTest, Seeds: 1, Solver: "auto", MaxIter: "0"}
	refit := true
	cmd := newCommand("stkr", &opts, func(cmd *cobra.Command, args []string) error {
		opts.JSON = g.JSON
		if cmd.Flags().Changed("refit") {
			if !refit {
				return fmt.Errorf("stkr: --refit=false is gone: use --setting inductive-strict for val hidden at the fit that predicts test")
			}
			logf(cmd.ErrOrStderr(), "stkr: --refit is deprecated: --setting inductive now refits with val visible before predicting test (--setting inductive-strict keeps val hidden)")
		}
		return runSTKR(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	cmd.Flags().BoolVar(&refit, "refit", true, "") // the opt-in for what --setting inductive now does
	_ = cmd.Flags().MarkHidden("refit")
	return cmd
}

// stkrResult is the JSON object of one run: the data set and the
// protocol's settings, its report, the outputs and the times.
type stkrResult struct {
	nodeData
	Transform  string  `json:"transform"`
	Setting    string  `json:"setting"`
	Solver     string  `json:"solver"`
	PTest      float64 `json:"p_test"`
	Labelled   int     `json:"labelled"`
	LCC        bool    `json:"lcc"`
	TestChunks bool    `json:"test_chunks"`
	protocol.STKRReport
	Out         string      `json:"out,omitempty"`
	Saved       string      `json:"saved,omitempty"`
	LoadSeconds float64     `json:"load_seconds"`  // reading the input (and its largest component with --lcc)
	KNN         *knnSummary `json:"knn,omitempty"` // the graph built from --features
	Seconds     float64     `json:"seconds"`

	fig stkrFigure // the first selection's grid, for --plot and --report
}

func runSTKR(ctx context.Context, opts stkrOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	grid, setting, err := opts.check()
	if err != nil {
		return fmt.Errorf("stkr: %w", err)
	}
	ds, err := opts.load(ctx, &opts.In, stderr)
	if err != nil {
		return fmt.Errorf("stkr: %w", err)
	}
	defer ds.Close()
	limit, err := parseBytes("max-memory", opts.In.MaxMemory)
	if err != nil {
		return fmt.Errorf("stkr: %w", err)
	}
	need := stkrClassBlocks * 8 * int64(ds.Graph.Nodes()) * int64(max(ds.Classes, 1))
	if _, ok := grid.Base.Transform.(stkr.InverseLaplacian); ok {
		// MINRES solves the classes in batches within the bound; the
		// scores after it take three blocks.
		grid.Base.MaxMemory = limit
		need = max(grid.Base.InverseLaplacianBytes(ds.Graph.Nodes(), max(ds.Classes, 1)), 3*8*int64(ds.Graph.Nodes())*int64(max(ds.Classes, 1)))
	}
	if err := checkClassMemory("stkr", opts.In.MaxMemory, ds, need); err != nil {
		return err
	}
	var lcc *graph.Subgraph
	used := ds
	if opts.LCC {
		if lcc, err = ds.Graph.LargestComponent(); err != nil {
			return err
		}
		used = restrictDataset(ds, lcc)
	}
	res := stkrResult{nodeData: newNodeData(opts.source(&opts.In), used), Transform: opts.Transform, Setting: setting.String(), Solver: grid.Base.Solver.String(),
		PTest: opts.PTest, LCC: opts.LCC, TestChunks: opts.TestChunks, Labelled: len(labelledNodes(used)), KNN: opts.In.builtSummary(), LoadSeconds: seconds(start)}
	var notes []string
	if opts.In.Features != "" && !opts.In.fromPoints() {
		notes = append(notes, "the features are read but not used: STKR's base kernel is the graph's")
	}
	task := protocol.Task{Graph: used.Graph, Labels: used.Labels, Classes: used.Classes}
	spec, _ := eval.ParseSplitSpec(opts.Split)
	if opts.Splits != "" {
		spec = eval.SplitFolderSpec(opts.Splits)
	}
	if spec = spec.Resolve(ds.Split != nil); spec.Kind == eval.SplitNone {
		err = stkrAllLabelled(ctx, opts, grid, setting, used, task, notes, &res, stderr)
	} else {
		split := func(seed uint64) (eval.Split, string, int, error) {
			d := splitData(ds, opts.In.source())
			d.Subgraph = lcc
			splits, err := eval.NewSplitter(spec, d, protocol.STKRSplitSizes(spec, used.Classes, used.Graph.Nodes(), opts.PTest, eval.SplitSizes{Val: opts.Val, Test: opts.Test}))
			if err != nil {
				return eval.Split{}, "", 0, fmt.Errorf("stkr: %w", err)
			}
			sp, dropped, err := splits.Split(seed)
			return sp, splits.Source(), dropped, err
		}
		err = stkrBenchmark(ctx, opts, grid, setting, task, split, notes, &res, stderr)
	}
	if err != nil {
		return err
	}
	res.Seconds, res.SplitSource = seconds(start), strings.TrimSpace(res.SplitSource)
	if err := opts.Plots.write(stderr, "stkr", res, func() (picture, error) { return stkrPicture(res, grid) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "stkr", res)
}

// check validates the flags that need no data and returns the
// hyperparameter grid and the setting they ask for.
func (opts *stkrOptions) check() (protocol.STKRGrid, protocol.Setting, error) {
	var g protocol.STKRGrid
	var setting protocol.Setting
	_, err := checkSplitFlags(opts.Split, opts.Seeds, opts.Val, opts.Test, opts.Folds)
	if err == nil {
		setting, err = protocol.STKRSettingSpec{Setting: opts.Setting, PTest: opts.PTest, TestChunks: opts.TestChunks}.Parse()
	}
	if err != nil {
		return g, setting, fieldFlagError(err, opts)
	}
	if opts.Splits != "" {
		if st, err := os.Stat(opts.Splits); err != nil || !st.IsDir() {
			return g, setting, fmt.Errorf("--splits %s is not a folder of split files (random20_seed<s>.txt)", opts.Splits)
		}
		if opts.Split != "auto" && opts.Split != "" {
			return g, setting, fmt.Errorf("--splits and --split exclude each other: a folder of per-seed split files, or one split")
		}
	}
	spec := protocol.STKRGridSpec{Transform: opts.Transform, Eta: opts.Eta, Ridge: opts.Ridge, MaxIter: opts.MaxIter, Solver: opts.Solver, Tol: opts.Tol}
	if g, err = spec.Grid(); err != nil {
		return g, setting, fieldFlagError(err, opts)
	}
	return g, setting, firstError(checkOutPath("out", opts.Out), checkOutPath("save", opts.Save), opts.Plots.check())
}

// stkrAllLabelled is the protocol without a split (protocol.RunSTKRCV):
// fit on every labelled node, predict the others.
func stkrAllLabelled(ctx context.Context, opts stkrOptions, g protocol.STKRGrid, setting protocol.Setting, ds *loaders.NodeDataset, task protocol.Task, notes []string, res *stkrResult, stderr io.Writer) error {
	switch {
	case setting != protocol.Transductive:
		return fmt.Errorf("stkr: --setting %s needs a split with test nodes to hide; without a split the fit is transductive", setting)
	case opts.Seeds > 1 || opts.TestChunks:
		return errors.New("stkr: --seeds and --test-chunks need a split (--split or --splits); without one every labelled node is trained on")
	case res.Labelled == 0:
		return errors.New("stkr: no node is labelled: give --labels (an empty label means unlabelled)")
	}
	cands := len(g.Candidates())
	logf(stderr, "stkr: %s (%d nodes, %d edges, %d classes, %d labelled), %s, %d candidates by cross-validation", ds.Name, res.Nodes, ds.Graph.Edges(), ds.Classes, res.Labelled, opts.Transform, cands)
	cv := eval.CV{Folds: opts.Folds, Seed: opts.Seed, Order: idOrder(ds, labelledNodes(ds))}
	st := newSteps(stderr, opts.Folds*cands, "stkr")
	defer st.Finish()
	cv.Progress = cvProgress(st, func(int) int { return cands }, "cross-validation: fold %d of %d done (%d candidates each)")
	c, err := protocol.RunSTKRCV(ctx, task, cv, g, func(c *stkr.Classifier, err error) {
		logf(stderr, "stkr: %s β=%g max-iter=%d: %v", c.Transform, c.Beta, c.Iterations, err)
	})
	res.STKRReport = c.Report(task, opts.Seed, notes...)
	if err != nil {
		return fmt.Errorf("%w (or give --eta and --ridge)", err)
	}
	res.fig = stkrFigure{accuracy: c.Accuracy, best: c.STKRCVChoice.Best, transform: c.Best.Transform, what: "cross-validation accuracy"}
	rows := classRows{split: eval.Split{Train: labelledNodes(ds)}, pred: c.Labels, prob: c.Probabilities}
	if res.Out, res.Saved, err = writeClassOutputs(opts.Out, opts.Save, ds, opts.In, rows, c.Best); err != nil {
		return fmt.Errorf("stkr: %w", err)
	}
	return nil
}

// stkrBenchmark is the paper's protocol over seeds on a benchmark split.
func stkrBenchmark(ctx context.Context, opts stkrOptions, g protocol.STKRGrid, setting protocol.Setting, task protocol.Task,
	split func(uint64) (eval.Split, string, int, error), notes []string, res *stkrResult, stderr io.Writer) error {
	switch {
	case opts.Out != "":
		return errors.New("stkr: --out writes the predictions of the protocol without a split (--split none); a benchmark split reports accuracies")
	case opts.Save != "":
		return errors.New("stkr: --save saves the model of the protocol without a split (--split none), fitted on every labelled node; a benchmark split reports accuracies")
	}
	logf(stderr, "stkr: %s (%d nodes, %d edges, %d classes), %s, %s, %d seeds", res.Dataset, res.Nodes, res.Edges, res.Classes, opts.Transform, setting, opts.Seeds)
	bar := newProgress(stderr, opts.Seeds*len(g.Candidates()), "stkr")
	defer bar.Finish()
	runs, err := protocol.RunSTKRBenchmark(ctx, protocol.STKRBenchmark{Task: task, Setting: setting,
		PTest: opts.PTest, Chunks: opts.TestChunks, Seeds: eval.SeedRange(opts.Seed, opts.Seeds), Grid: g, Split: split,
		Total: bar.SetTotal, Done: bar.Add,
		Failed: func(seed uint64, c *stkr.Classifier, err error) {
			logf(stderr, "stkr: seed %d: %s β=%g max-iter=%d: %v", seed, c.Transform, c.Beta, c.Iterations, err)
		},
		Chosen: func(seed uint64, o protocol.STKROutcome, best *stkr.Classifier) {
			logf(stderr, "stkr: seed %d: test %.4f (%d nodes) val %.4f (%s β=%g, stop after %d, %d iterations, %d products, %.3fs)", seed, o.TestAccuracy, o.TestScored, o.ValAccuracy, best.Transform, best.Beta, best.Iterations, o.Stats.TotalIterations(), o.Stats.MatVecs, o.Seconds)
		},
	})
	if err != nil {
		return err
	}
	res.STKRReport = protocol.SummarizeSTKR(runs, g.Lap()).Report(setting, notes...)
	res.fig = newSTKRFigure(runs[0].Choices[0], runs[0].Chosen[0], runs[0].Seed)
	return nil
}
