package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/protocol"
)

// labelpropOptions are the flags of gssl labelprop (help/labelprop.md).
type labelpropOptions struct {
	In nodeInput
	ImageGraph
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
}

// newLabelpropCmd builds gssl labelprop.
func newLabelpropCmd(g *globals) *cobra.Command {
	opts := labelpropOptions{In: newNodeInput(), Method: "spreading", Alpha: "auto", Split: "auto", Val: -1, Test: -1,
		Folds: eval.DefaultFolds, Seeds: 1, Solver: labelprop.Auto.String(), Stop: labelprop.StopResidual.String()}
	cmd := newCommand("labelprop", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runLabelprop(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	return cmd
}

// labelpropResult is the JSON object of the command: the data set, the
// protocol's report, the outputs and the times.
type labelpropResult struct {
	nodeData
	protocol.LabelPropReport
	Confidence  *confidence.Report `json:"confidence,omitempty"` // --conformal: the first run
	LoadSeconds float64            `json:"load_seconds"`
	KNN         *knnSummary        `json:"knn,omitempty"` // the graph built from --features
	Seconds     float64            `json:"seconds"`
	Out         string             `json:"out,omitempty"`
	Saved       string             `json:"saved,omitempty"`
}

// runLabelprop runs protocol.EvaluateLabelProp on the options and prints,
// writes and plots what it returns.
func runLabelprop(ctx context.Context, opts labelpropOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	exp, spec, err := opts.experiment()
	if err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	ds, err := opts.load(ctx, &opts.In, stderr)
	if err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	defer ds.Close()
	loadSeconds := seconds(start)
	if exp.Splits, err = newSplitter(spec, ds, opts.source(&opts.In), opts.Val, opts.Test); err == nil {
		err = checkCalibrationSplit(exp.Splits, opts.Seed, opts.Conformal)
	}
	if err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	exp.Graph, exp.Labels, exp.CV.Order = ds.Graph, ds.Labels, idOrder(ds, labelledNodes(ds))
	limit, err := parseBytes("max-memory", opts.In.MaxMemory)
	if err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	var need int64
	switch m := exp.Model.(type) {
	case *labelprop.Spreading:
		m.Classes, m.MaxMemory = ds.Classes, limit // block CG runs the classes in batches within the bound
		need = m.MemoryBytes(ds.Graph)
	case *labelprop.Harmonic:
		m.Classes = ds.Classes
		need = m.MemoryBytes(ds.Graph)
	}
	if err := checkClassMemory("labelprop", opts.In.MaxMemory, ds, need); err != nil {
		return err
	}
	defer labelpropProgress(&exp, stderr).Finish()
	out, err := protocol.EvaluateLabelProp(ctx, exp)
	if err != nil {
		return labelpropError(err, ds)
	}
	var notes []string
	if opts.In.Features != "" && !opts.In.fromPoints() {
		notes = append(notes, "the features are read but not used: label propagation uses only the graph")
	}
	run := out.Runs[0]
	res := labelpropResult{nodeData: newNodeData(opts.source(&opts.In), ds), LabelPropReport: exp.Report(out, notes...),
		LoadSeconds: loadSeconds, KNN: opts.In.builtSummary()}
	if !run.WithSplit {
		run.Split.Val = nil
	}
	if res.Confidence, err = conformalReport(run.Model.Probabilities(), run.Split, ds.Labels, opts.Conformal, opts.Seed); err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	rows := classRows{split: run.Split, withSplit: run.WithSplit, pred: run.Model.Labels(), prob: run.Model.Probabilities(), conf: res.Confidence}
	if res.Out, res.Saved, err = writeClassOutputs(opts.Out, opts.Save, ds, opts.In, rows, run.Model); err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	res.Seconds = seconds(start)
	if err := opts.Plots.write(stderr, "labelprop", res, func() (picture, error) { return labelpropPicture(ctx, ds, out.Runs, res) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "labelprop", res)
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
	exp.CV.Progress = cvProgress(st, func(total int) int { return total / values }, "cross-validation: %d of %d values of a done (%d folds each)")
	return st
}

// labelpropError names the flags and nodes behind the protocol's errors.
func labelpropError(err error, ds interface{ NodeID(int) string }) error {
	var iso *protocol.IsolatedError
	switch {
	case errors.As(err, &iso):
		return fmt.Errorf("labelprop: training node %s is isolated (degree 0), so its label cannot spread; pass --keep-isolated-seeds to keep it", ds.NodeID(iso.Node))
	case errors.Is(err, eval.ErrNoValidation):
		return errors.New("labelprop: --alpha auto needs validation nodes to choose a, and the split has none; give --alpha, or --split none to choose it by cross-validation")
	case errors.Is(err, protocol.ErrNoLabels):
		return errors.New("labelprop: no node is labelled: give --labels (an empty label means unlabelled)")
	}
	return err
}

// experiment checks the options and returns the protocol they ask for
// (without its data, which is loaded after) and the parsed --split.
func (opts labelpropOptions) experiment() (protocol.LabelPropExperiment, eval.SplitSpec, error) {
	exp := protocol.LabelPropExperiment{CV: eval.CV{Folds: opts.Folds, Seed: opts.Seed}}
	spec, err := checkSplitFlags(opts.Split, opts.Seeds, opts.Val, opts.Test, opts.Folds)
	if err == nil && opts.Seeds > 1 && !spec.Seeded() {
		err = fmt.Errorf("--seeds %d needs --split random:K or per-class:T,V; the other protocols are deterministic", opts.Seeds)
	}
	if err == nil {
		err = firstError(checkConfidenceFlags("auto", opts.Conformal), checkOutPath("out", opts.Out), checkOutPath("save", opts.Save), opts.Plots.check())
	}
	if err == nil {
		exp.Model, exp.Grid, err = opts.model()
		exp.Seeds = eval.SeedRange(opts.Seed, opts.Seeds) // the count is checked
	}
	return exp, spec, err
}

// model returns the base model of --method and its flags, and the values
// of a to choose from (nil for the harmonic function).
func (opts labelpropOptions) model() (labelprop.Classifier, []float64, error) {
	iso := labelprop.IsolatedSeedError
	if opts.KeepIsolatedSeeds {
		iso = labelprop.IsolatedSeedKeep
	}
	if opts.Tol != 0 && !(opts.Tol > 0 && opts.Tol < 1) {
		return nil, nil, fmt.Errorf("--tol %v is invalid: it must be inside (0, 1), or 0 for the default", opts.Tol)
	}
	switch opts.Method {
	case "spreading":
		grid, err := parseAlpha(opts.Alpha)
		if err != nil {
			return nil, nil, err
		}
		m := &labelprop.Spreading{Tol: opts.Tol, ClassMassNormalization: opts.CMN, IsolatedSeeds: iso, Float32: opts.Float32}
		if m.Solver, err = labelprop.ParseSolver(opts.Solver); err != nil {
			return nil, nil, fmt.Errorf("--solver: %w", err)
		}
		if m.Stop, err = labelprop.ParseStopRule(opts.Stop); opts.Stop != "" && err != nil {
			return nil, nil, fmt.Errorf("--stop: %w", err)
		}
		if (m.Stop == labelprop.StopLabels || m.Float32) && m.Solver != labelprop.Chebyshev && m.Solver != labelprop.Auto {
			return nil, nil, fmt.Errorf("--stop labels and --float32 need --solver chebyshev or auto (--solver is %s)", opts.Solver)
		}
		return m, grid, nil
	case "harmonic":
		switch {
		case opts.Alpha != "auto" && opts.Alpha != "":
			return nil, nil, fmt.Errorf("--alpha %s applies to --method spreading only; the harmonic function has no a", opts.Alpha)
		case (opts.Stop != "" && opts.Stop != labelprop.StopResidual.String()) || opts.Float32:
			return nil, nil, fmt.Errorf("--stop %s and --float32 apply to --method spreading only", opts.Stop)
		case opts.Solver != "auto" && opts.Solver != "cg" && opts.Solver != "": // the default and what it runs pass
			return nil, nil, fmt.Errorf("--solver %s applies to --method spreading only; the harmonic function is solved by CG", opts.Solver)
		}
		return &labelprop.Harmonic{Tol: opts.Tol, ClassMassNormalization: opts.CMN, IsolatedSeeds: iso}, nil, nil
	}
	return nil, nil, fmt.Errorf("--method %q is invalid: want spreading or harmonic", opts.Method)
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
		return nil, fmt.Errorf("--alpha %q is invalid: it must be a number inside the open interval (0, 1), or auto", s)
	}
	if a > maxAlpha { // the iterations grow like 1/√(1−a): a run would not end
		return nil, fmt.Errorf("--alpha %s is invalid: it must be at most %g (the solvers need about 1/√(1−a) iterations)", s, maxAlpha)
	}
	return []float64{a}, nil
}
