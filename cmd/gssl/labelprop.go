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

// labelpropOptions are the flags of gssl labelprop (help/labelprop.md).
type labelpropOptions struct {
	In                nodeInput
	Images            string  `flag:"images"`
	N                 int     `flag:"n"`
	Method            string  `flag:"method"`
	Alpha             string  `flag:"alpha"`
	Split             string  `flag:"split"`
	Val               int     `flag:"val"`
	Test              int     `flag:"test"`
	Folds             int     `flag:"folds"`
	Seeds             int     `flag:"seeds"`
	Seed              uint64  `flag:"seed"`
	CMN               bool    `flag:"cmn"`
	Solver            string  `flag:"solver"`
	Tol               float64 `flag:"tol"`
	Stop              string  `flag:"stop"`
	Float32           bool    `flag:"float32"`
	KeepIsolatedSeeds bool    `flag:"keep-isolated-seeds"`
	Conformal         float64 `flag:"conformal"`
	Out               string  `flag:"out"`
	Save              string  `flag:"save"`
	Plots             plotFlags
	JSON              bool
	Neighbors         int // In.KNN.Neighbors, for --images
}

// newLabelpropCmd builds gssl labelprop.
func newLabelpropCmd(g *globals) *cobra.Command {
	opts := labelpropOptions{In: newNodeInput(), Method: "spreading", Alpha: "auto", Split: "auto", Val: -1, Test: -1,
		Folds: eval.DefaultFolds, Seeds: 1, Solver: labelprop.Auto.String(), Stop: labelprop.StopResidual.String()}
	cmd := newCommand("labelprop", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		opts.Neighbors = opts.In.KNN.Neighbors
		if opts.Images != "" && !opts.In.embedded() {
			return fmt.Errorf("labelprop: --images excludes --data, --edges and --labels: a graph, or an image set to build a KNN graph from")
		}
		return runLabelprop(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	renamedFlag(cmd, "k", "neighbors")
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
