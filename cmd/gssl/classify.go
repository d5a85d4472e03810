package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
)

// classifyOptions are the flags of gssl classify (help/classify.md).
type classifyOptions struct {
	In nodeInput
	protocol.NodeClassSpec
	Split     string  `flag:"split"`
	Val       int     `flag:"val"`
	Test      int     `flag:"test"`
	Seeds     int     `flag:"seeds"`
	Seed      uint64  `flag:"seed"`
	Folds     int     `flag:"folds"`
	Metric    string  `flag:"metric"`
	Conformal float64 `flag:"conformal"`
	Out       string  `flag:"out"`
	Save      string  `flag:"save"`
	Plots     plotFlags
	JSON      bool
}

func newClassifyCommand(g *globals) *cobra.Command {
	opts := classifyOptions{In: newNodeInput(), NodeClassSpec: protocol.NodeClassSpec{Classifier: "auto"}, Split: "auto", Val: -1, Test: -1, Seeds: 1, Folds: eval.DefaultFolds, Metric: "auto"}
	return newCommand("classify", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runClassify(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// classifyResult is the JSON object of the command.
type classifyResult struct{ protocol.NodeClassRunReport }

func runClassify(ctx context.Context, opts classifyOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	search, err := opts.check()
	if err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	ds, x, err := classifyData(ctx, &opts, stderr)
	if err != nil {
		return err
	}
	defer ds.Close()
	res := classifyResult{protocol.NodeClassRunReport{NodeData: protocol.DescribeNodes(opts.In.source(), ds), ModelFlag: opts.Classifier, Split: opts.Split, Seeds: opts.Seeds, KNN: opts.In.builtSummary()}}
	_, res.Features = x.Features.Dims()
	spec, _ := eval.ParseSplitSpec(opts.Split) // checked
	splits, err := newSplitter(spec, ds, res.Data, opts.Val, opts.Test)
	if err != nil {
		return fmt.Errorf("classify: --split: %w", err)
	}
	if search, res.Advice, err = opts.NodeClassSpec.Auto(search, ds, splits, opts.Seed); err == nil {
		search.Metric, _ = eval.MetricFor(opts.Metric, ds.Classes) // checked
		err = protocol.CheckCalibrationSplit(splits, opts.Seed, opts.Conformal)
	}
	if err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	res.LoadSeconds = seconds(start)
	seeds := protocol.NodeClassSeeds(splits, opts.Seed, opts.Seeds)
	bar := newSteps(stderr, len(seeds), "classify")
	runs, err := protocol.EvaluateNodeClass(ctx, search, ds, x, splits, seeds, opts.Folds, func(done, runs int) {
		if runs > 1 {
			bar.to(done, runs, "seed %d of %d done", done, runs)
		}
	})
	bar.Finish()
	if err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	res.NodeClassReport = protocol.ReportNodeClass(search, ds.Classes, runs)
	first := runs[0]
	if res.Confidence, err = protocol.Conformal(first.Probabilities, first.Split, ds.Labels, opts.Conformal, opts.Seed); err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	// The run's time, before --out, --save and the plots are written: the
	// --report written next and the JSON show the same seconds.
	res.Seconds = seconds(start)
	rows := protocol.ClassRows{Split: first.Split, WithSplit: true, Probabilities: first.Probabilities, Conformal: res.Confidence}
	if res.Out, res.Saved, err = writeClassOutputs(opts.Out, opts.Save, ds, opts.In, rows, first.Best); err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	if err := opts.Plots.write(stderr, "classify", res, func() (picture, error) { return classifyPicture(ctx, ds, first, res) }); err != nil {
		return fmt.Errorf("classify: %w", err)
	}
	return reportSummary(stdout, opts.JSON, "classify", res)
}

// check validates the flags that need no data and returns the search of
// --classifier (for auto, the smoothing models' until the data tell).
func (opts *classifyOptions) check() (eval.NodeSearch, error) {
	s, err := opts.NodeClassSpec.Search()
	if err != nil {
		return s, fieldFlagError(err, opts)
	}
	if _, err := checkSplitFlags(opts.Split, opts.Seeds, opts.Val, opts.Test, opts.Folds); err != nil {
		return s, err
	}
	err = firstError(opts.Plots.check(), protocol.CheckConformal(opts.Metric, opts.Conformal), checkOutPath("out", opts.Out), checkOutPath("save", opts.Save))
	if err == nil && opts.Save != "" {
		err = opts.NodeClassSpec.CheckSave()
	}
	return s, err
}

// classifyData loads the data set and its features (with --embed, the
// eigenmap coordinates appended).
func classifyData(ctx context.Context, opts *classifyOptions, stderr io.Writer) (*loaders.NodeDataset, estimator.Nodes, error) {
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
	x, err := opts.NodeClassSpec.Nodes(ctx, ds, opts.In.source())
	if err != nil {
		ds.Close()
		return nil, estimator.Nodes{}, fmt.Errorf("classify: %w", err)
	}
	return ds, x, nil
}
