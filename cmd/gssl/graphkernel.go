package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
)

// graphKernelOptions are the flags of gssl graphkernel (help/graphkernel.md).
type graphKernelOptions struct {
	Data       string             `flag:"data"`
	Kernel     string             `flag:"kernel"`
	H          int                `flag:"h"`
	SelectH    bool               `flag:"select-h"` // applies to wl only
	Heights    []int              `flag:"heights"`
	Lambda     float64            `flag:"decay"`
	Normalize  bool               `flag:"normalize"`
	Classifier string             `flag:"classifier"`
	Grid       []float64          `flag:"grid"`
	CV         protocol.FoldCount `flag:"folds"`
	Inner      int                `flag:"inner-folds"`
	Repeats    int                `flag:"seeds"`
	Seed       uint64             `flag:"seed"`
	Folds      string             `flag:"fold-file"`
	GramRuns   int                `flag:"gram-runs"`
	GramOut    string             `flag:"gram-out"`
	Out        string             `flag:"out"`
	Save       string             `flag:"save"`
	JSON       bool
	Plots      plotFlags
}

// defaultCGrid is wl.py's grid of C values.
var defaultCGrid = protocol.DefaultCGrid()

func newGraphKernelCommand(g *globals) *cobra.Command {
	opts := graphKernelOptions{Kernel: protocol.KernelWL, H: protocol.DefaultWLHeight, SelectH: true, Lambda: protocol.DefaultDecay, Normalize: true,
		Classifier: "svm", Grid: protocol.DefaultCGrid(), CV: protocol.DefaultOuterFolds, Inner: protocol.DefaultInnerFolds, Repeats: protocol.DefaultSeeds, GramRuns: 1}
	return newCommand("graphkernel", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		if opts.Data == "" {
			return fmt.Errorf("graphkernel: no data: give --data DIR, a TU data set folder (NAME_A.txt, NAME_graph_indicator.txt, NAME_graph_labels.txt, …)")
		}
		if opts.Kernel != protocol.KernelWL && !cmd.Flags().Changed("select-h") {
			opts.SelectH = false
		}
		return runGraphKernel(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// graphKernelResult is the JSON object of gssl graphkernel.
type graphKernelResult struct{ protocol.GraphKernelRunReport }

// study is the experiment the options describe, with the outer folds read
// from --fold-file; it checks --classifier.
func (o graphKernelOptions) study(folds [][]int) (protocol.GraphKernelStudy, error) {
	m, err := protocol.ParseMachine(o.Classifier)
	ev := protocol.GramEvaluation{Grid: o.Grid, OuterFolds: int(o.CV), InnerFolds: o.Inner, Seeds: o.Repeats, Seed: o.Seed, Folds: folds, Machine: m}
	return protocol.GraphKernelStudy{Kernel: protocol.GraphKernelSpec{Name: o.Kernel, H: o.H, Lambda: o.Lambda, Normalize: o.Normalize},
		SelectH: o.SelectH, Heights: o.Heights, Evaluation: ev, GramRuns: o.GramRuns, Refit: o.Save != ""}, err
}

// check checks the flags before any work (GraphKernelStudy.CheckCommand).
func (o graphKernelOptions) check() error {
	s, err := o.study(nil)
	if err != nil {
		return err
	}
	if err := s.CheckCommand(); err != nil {
		return err
	}
	err = firstError(checkSeedCount(o.Repeats, 0), checkOutPath("out", o.Out), checkOutPath("gram-out", o.GramOut), checkOutPath("save", o.Save), o.Plots.check())
	if err != nil {
		return fmt.Errorf("graphkernel: %w", err)
	}
	return nil
}

func runGraphKernel(ctx context.Context, opts graphKernelOptions, stdout, stderr io.Writer) error {
	if err := opts.check(); err != nil {
		return err
	}
	start := timeNow()
	ds, err := loaders.LoadTU(opts.Data)
	if err != nil {
		return fmt.Errorf("graphkernel: %w", err)
	}
	recordInputs(ctx, stderr, ds.Reports...)
	res := graphKernelResult{protocol.GraphKernelRunReport{Dataset: ds.Name, Graphs: len(ds.Graphs), Classes: len(ds.LabelValues), LoadSeconds: seconds(start), FoldsFile: opts.Folds}}
	graphs := make([]graphkernels.Graph, len(ds.Graphs))
	for i, g := range ds.Graphs {
		graphs[i] = graphkernels.Graph{Adj: g.Graph, Labels: g.NodeLabels}
		res.Nodes += g.Graph.Nodes()
	}
	logf(stderr, "graphkernel: %s, %d graphs, %d nodes, %d classes; kernel %s", ds.Name, res.Graphs, res.Nodes, res.Classes, opts.Kernel)
	var folds [][]int
	if opts.Folds != "" && opts.Repeats > 0 {
		if folds, err = loaders.ReadFolds(opts.Folds, len(graphs), opts.Repeats); err != nil {
			return fmt.Errorf("graphkernel: --fold-file: %w", err)
		}
	}
	study, _ := opts.study(folds) // checked
	var finish func()
	study.Progress, finish = stageProgress(stderr)
	sr, err := study.Run(ctx, graphs, ds.Classes())
	finish()
	if err != nil {
		return fmt.Errorf("graphkernel: %w", err)
	}
	res.GraphKernelReport = study.Report(sr, len(graphs))
	if err := writeGraphKernel(opts, ds, sr, &res, stderr); err != nil {
		return err
	}
	if err := opts.Plots.write(stderr, "graphkernel", res, func() (picture, error) { return graphKernelPicture(sr, ds.Classes(), res) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "graphkernel", res)
}

// writeGraphKernel logs the findings and writes --gram-out, --out and
// --save.
func writeGraphKernel(opts graphKernelOptions, ds *loaders.TUDataset, sr *protocol.GraphKernelStudyResult, res *graphKernelResult, stderr io.Writer) error {
	logf(stderr, "graphkernel: Gram matrix %d×%d in %.4f s (median of %d)", res.Graphs, res.Graphs, res.GramSeconds, len(sr.GramSeconds))
	for _, h := range res.Heights {
		logf(stderr, "graphkernel: WL height %d fixed: accuracy %s ± %s", h.H, formatFloat("%.4f", h.Mean), formatFloat("%.4f", h.Std))
	}
	if opts.GramOut != "" {
		if err := writeAtomic(opts.GramOut, func(w io.Writer) error { return loaders.WriteMatrixText(w, sr.Gram) }); err != nil {
			return fmt.Errorf("graphkernel: %w", err)
		}
	}
	names := ds.ClassNames()
	if cols, rows, row := sr.PredictionTable(ds.Classes(), names); opts.Out != "" && cols != nil {
		if err := writeTable(opts.Out, cols, rows, row); err != nil {
			return err
		}
		res.Out = opts.Out
	}
	if c := res.Refitted; c != nil {
		if err := savedmodel.Save(opts.Save, sr.Model, savedmodel.Context{ClassNames: names, Data: opts.Data}); err != nil {
			return fmt.Errorf("graphkernel: --save %w", err)
		}
		logf(stderr, "graphkernel: saved h = %d, C = %g (%s), refitted on all %d graphs, to %s", c.H, c.C, c.Chosen, c.Graphs, opts.Save)
		res.Saved = opts.Save
	}
	return nil
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
