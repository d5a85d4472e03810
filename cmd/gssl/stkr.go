package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
)

// stkrOptions are the flags of gssl stkr (help/stkr.md).
type stkrOptions struct {
	In nodeInput
	ImageGraph
	protocol.STKRGridSpec
	protocol.STKRSettingSpec
	Split  string `flag:"split"`
	Splits string `flag:"splits"`
	Val    int    `flag:"val"`
	Test   int    `flag:"test"`
	Folds  int    `flag:"folds"`
	Seeds  int    `flag:"seeds"`
	Seed   uint64 `flag:"seed"`
	LCC    bool   `flag:"lcc"`
	Out    string `flag:"out"`
	Save   string `flag:"save"`
	Plots  plotFlags
	JSON   bool
}

func newSTKRCommand(g *globals) *cobra.Command {
	opts := stkrOptions{In: newNodeInput(), Split: "auto", Val: -1, Test: -1, Folds: eval.DefaultFolds, Seeds: 1,
		STKRGridSpec:    protocol.STKRGridSpec{Transform: "inverse-laplacian", Eta: "auto", Ridge: "auto", Solver: "auto", MaxIter: "0"},
		STKRSettingSpec: protocol.STKRSettingSpec{Setting: protocol.Transductive.String(), PTest: protocol.DefaultPTest}}
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
	protocol.STKRRunReport
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
	if err := checkClassMemory("stkr", opts.In.MaxMemory, ds, grid.Bound(ds.Graph.Nodes(), ds.Classes, limit)); err != nil {
		return err
	}
	run := opts.run(ds, grid, setting, stderr)
	used, lcc, err := run.Used()
	if err != nil {
		return err
	}
	res := stkrResult{STKRRunReport: run.Describe(opts.source(&opts.In), used)}
	res.KNN, res.LoadSeconds = opts.In.builtSummary(), seconds(start)
	var notes []string
	if opts.In.Features != "" && !opts.In.fromPoints() {
		notes = append(notes, "the features are read but not used: STKR's base kernel is the graph's")
	}
	finish := func() {} // the bar of the protocol run
	run.CV = func(cands, folds int) func(done, total int) {
		st := newSteps(stderr, folds*cands, "stkr")
		finish = st.Finish
		return cvProgress(st, func(int) int { return cands }, "cross-validation: fold %d of %d done (%d candidates each)")
	}
	run.Total = func(fits int) (func(int), func(int)) {
		p := newProgress(stderr, fits, "stkr")
		finish = p.Finish
		return p.SetTotal, p.Add
	}
	out, err := run.Run(ctx, used, lcc, notes...)
	finish()
	res.STKRReport = out.Report
	if err == nil {
		err = opts.write(out, &res)
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

// run is the protocol of the options on ds.
func (opts *stkrOptions) run(ds *loaders.NodeDataset, grid protocol.STKRGrid, setting protocol.Setting, stderr io.Writer) protocol.STKRRun {
	spec, _ := eval.ParseSplitSpec(opts.Split) // checked
	if opts.Splits != "" {
		spec = eval.SplitFolderSpec(opts.Splits)
	}
	return protocol.STKRRun{Data: ds, Source: opts.In.source(), LCC: opts.LCC, Split: spec, Sizes: eval.SplitSizes{Val: opts.Val, Test: opts.Test},
		Grid: grid, Transform: opts.Transform, Setting: setting, PTest: opts.PTest, Chunks: opts.TestChunks, Folds: opts.Folds,
		Seeds: eval.SeedRange(opts.Seed, opts.Seeds), Out: opts.Out != "", Save: opts.Save != "",
		Log: func(format string, args ...any) { logf(stderr, format, args...) }}
}

// write keeps the figure's grid and writes --out and --save.
func (opts *stkrOptions) write(out protocol.STKRRunResult, res *stkrResult) error {
	if c := out.CV; c == nil {
		res.fig = newSTKRFigure(out.Runs[0].Choices[0], out.Runs[0].Chosen[0], out.Runs[0].Seed)
		return nil
	}
	c := out.CV
	res.fig = stkrFigure{Accuracy: c.Accuracy, Best: c.STKRCVChoice.Best, Transform: c.Best.Transform, What: "cross-validation accuracy"}
	rows := protocol.ClassRows{Split: eval.Split{Train: out.Used.Labelled()}, Predicted: c.Labels, Probabilities: c.Probabilities}
	var err error
	if res.Out, res.Saved, err = writeClassOutputs(opts.Out, opts.Save, out.Used, opts.In, rows, c.Best); err != nil {
		return fmt.Errorf("stkr: %w", err)
	}
	return nil
}

// check validates the flags that need no data and returns the
// hyperparameter grid and the setting they ask for.
func (opts *stkrOptions) check() (protocol.STKRGrid, protocol.Setting, error) {
	var g protocol.STKRGrid
	var setting protocol.Setting
	_, err := checkSplitFlags(opts.Split, opts.Seeds, opts.Val, opts.Test, opts.Folds)
	if err == nil {
		setting, err = opts.STKRSettingSpec.Parse()
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
	if g, err = opts.Grid(); err != nil {
		return g, setting, fieldFlagError(err, opts)
	}
	return g, setting, firstError(checkOutPath("out", opts.Out), checkOutPath("save", opts.Save), opts.Plots.check())
}
