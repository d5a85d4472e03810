package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/labelprop"
)

// LabelPropExperiment is the evaluation protocol of gssl labelprop, set up: which
// model, which values of a, which splits and seeds. EvaluateLabelProp runs it.
type LabelPropExperiment struct {
	// Graph and Labels are the data: Labels[i] is node i's class, −1 when
	// it is unknown.
	Graph  *graph.CSR
	Labels []int
	// Model is the base model, a *labelprop.Spreading or a *labelprop.Harmonic with every
	// hyperparameter set: the models fitted are its clones.
	Model labelprop.Classifier
	// Grid holds the values of a a labelprop.Spreading chooses from; nil means its
	// own Alpha alone. A labelprop.Harmonic ignores it.
	Grid []float64
	// Splits builds the split of each seed. Its resolved kind
	// eval.SplitNone is the protocol without a split: fit on every
	// labelled node, with a chosen by cross-validation (CV).
	Splits *eval.Splitter
	// Seeds lists the seeds of the runs, one run each; nil means seed 0.
	Seeds []uint64
	// CV is the cross-validation of the protocol without a split.
	CV eval.CV
	// Progress, when set, is called after each run with the number done.
	Progress func(done int)
}

// LabelPropRun is the outcome of the protocol on one split (or on every labelled
// node).
type LabelPropRun struct {
	Seed uint64
	// Split is the split fitted and scored; WithSplit is false for the
	// protocol without a split (Split.Train is every labelled node).
	Split     eval.Split
	WithSplit bool
	// Alpha is the chosen a (0 for the harmonic function).
	Alpha float64
	// Per value of the grid (with a split): the validation and test
	// accuracies (NaN without such nodes), the iterations and fit seconds.
	GridVal, GridTest []float64
	GridIterations    []int
	GridSeconds       []float64
	// The chosen model's validation and test accuracies and test macro-F1
	// (NaN without nodes).
	Val, Test, MacroF1 float64
	// Model is the chosen model, fitted on Split.Train; Details its fit's
	// and FitSeconds the seconds the fit took.
	Model      labelprop.Classifier
	Details    labelprop.Details
	FitSeconds float64
}

// LabelPropOutcome is the outcome of EvaluateLabelProp.
type LabelPropOutcome struct {
	// Runs holds one run per seed (one without a split).
	Runs []LabelPropRun
	// CV is the cross-validation that chose (or, for a single value,
	// scored) a without a split; nil otherwise, or when it was impossible.
	CV *AlphaChoice
	// Notes say what the protocol had to decide for the user.
	Notes []string
	// Grid holds the values of a chosen from (nil for the harmonic
	// function).
	Grid []float64
}

// LabelPropSummary is an Outcome over its runs.
type LabelPropSummary struct {
	// Alpha is the a chosen most often (the first in grid order on ties);
	// 0 for the harmonic function.
	Alpha float64
	// Val, Test and MacroF1 are the chosen models' accuracies and test
	// macro-F1 over the runs (mean ± standard deviation).
	Val, Test, MacroF1 eval.Summary
	// The largest counters over the runs' fits.
	Iterations, Isolated, Unreached, IsolatedSeeds int
	Residual                                       float64
	// FitSeconds is the mean seconds of a run's chosen fit.
	FitSeconds float64
}

// Summary summarises the runs.
func (o LabelPropOutcome) Summary() LabelPropSummary {
	var s LabelPropSummary
	var vals, tests, f1s []float64
	count := make([]int, len(o.Grid))
	for _, r := range o.Runs {
		vals, tests, f1s = append(vals, r.Val), append(tests, r.Test), append(f1s, r.MacroF1)
		d := r.Details
		s.Iterations, s.Residual = max(s.Iterations, d.Iterations), max(s.Residual, d.Residual)
		s.Isolated, s.Unreached, s.IsolatedSeeds = max(s.Isolated, d.Isolated), max(s.Unreached, d.Unreached), max(s.IsolatedSeeds, d.IsolatedSeeds)
		s.FitSeconds += r.FitSeconds / float64(len(o.Runs))
		for k, a := range o.Grid {
			if a == r.Alpha {
				count[k]++
			}
		}
	}
	s.Val, s.Test, s.MacroF1 = eval.Summarize(vals), eval.Summarize(tests), eval.Summarize(f1s)
	if len(o.Grid) > 0 {
		best := 0
		for k, c := range count {
			if c > count[best] {
				best = k
			}
		}
		s.Alpha = o.Grid[best]
	}
	return s
}

// IsolatedError is EvaluateLabelProp's error for a training node of degree zero
// when the model's IsolatedSeeds is IsolatedSeedError: its label cannot
// spread.
type IsolatedError struct{ Node int }

func (e *IsolatedError) Error() string {
	return fmt.Sprintf("labelprop: training node %d is isolated (degree 0), so its label cannot spread", e.Node)
}

// ErrNoLabels is EvaluateLabelProp's error when no node is labelled.
var ErrNoLabels = errors.New("labelprop: no node is labelled")

// EvaluateLabelProp runs the experiment. With a split, for every seed: the seed's
// split, one clone of the model per value of the grid fitted on the
// training nodes (each labelprop.Chebyshev or labelprop.Auto solve warm-started from the
// previous value's, the grid being in increasing order), the one with the
// best validation accuracy chosen (eval.SelectOnSplit) and scored on the
// test nodes. Without one: a chosen by cross-validation over the labelled
// nodes (ChooseAlpha; labelprop.DefaultAlpha, with a note, when no class has two
// labels to cross-validate with), then one fit on every labelled node.
func EvaluateLabelProp(ctx context.Context, e LabelPropExperiment) (LabelPropOutcome, error) {
	if e.Graph == nil || e.Model == nil || e.Splits == nil {
		return LabelPropOutcome{}, errors.New("labelprop: Evaluate needs a graph, a model and a Splitter")
	}
	if len(e.Labels) != e.Graph.Nodes() {
		return LabelPropOutcome{}, fmt.Errorf("labelprop: %d labels for a graph of %d nodes", len(e.Labels), e.Graph.Nodes())
	}
	if sp, ok := e.Model.(*labelprop.Spreading); ok && e.Grid == nil {
		a := sp.Alpha
		if a == 0 {
			a = labelprop.DefaultAlpha
		}
		e.Grid = []float64{a}
	}
	var grid []float64
	if _, ok := e.Model.(*labelprop.Spreading); ok {
		grid = e.Grid
	}
	if e.Splits.Spec().Kind == eval.SplitNone {
		out, err := e.allLabelled(ctx)
		out.Grid = grid
		return out, err
	}
	seeds := e.Seeds
	if seeds == nil {
		seeds = []uint64{0}
	}
	runs, err := eval.RunSeeds(ctx, seeds, func(ctx context.Context, seed uint64) (LabelPropRun, error) {
		sp, _, err := e.Splits.Split(seed)
		if err != nil {
			return LabelPropRun{}, fmt.Errorf("labelprop: %w", err)
		}
		r, err := e.onSplit(ctx, sp)
		r.Seed = seed
		return r, err
	}, e.Progress)
	return LabelPropOutcome{Runs: runs, Grid: grid}, err
}

// candidates returns the number of models the grid asks for and the i-th
// of them, unfitted, warm-started from the previous one where the solver
// takes it.
func (e *LabelPropExperiment) candidates() (int, func(i int) labelprop.Classifier) {
	sp, ok := e.Model.(*labelprop.Spreading)
	if !ok {
		return 1, func(int) labelprop.Classifier { return e.Model.(*labelprop.Harmonic).Clone() }
	}
	// --solver cg starts from zero, so that its iteration counts stay those
	// of the peer's scipy CG.
	warm := sp.Solver == labelprop.Chebyshev || sp.Solver == labelprop.Auto
	var prev *labelprop.Spreading
	return len(e.Grid), func(i int) labelprop.Classifier {
		m := sp.Clone()
		m.Alpha = e.Grid[i]
		if warm {
			if prev != nil {
				prev.WarmStart = nil // fitted: only the newest model keeps its predecessor alive
			}
			m.WarmStart, prev = prev, m
		}
		return m
	}
}

// checkIsolated refuses a training node of degree 0 when the model does.
func (e *LabelPropExperiment) checkIsolated(train []int) error {
	policy := labelprop.IsolatedSeedKeep
	switch m := e.Model.(type) {
	case *labelprop.Spreading:
		policy = m.IsolatedSeeds
	case *labelprop.Harmonic:
		policy = m.IsolatedSeeds
	}
	if policy == labelprop.IsolatedSeedKeep {
		return nil
	}
	for _, v := range train {
		if e.Graph.Degree(v) == 0 {
			return &IsolatedError{Node: v}
		}
	}
	return nil
}

// onSplit is the protocol on one split.
func (e *LabelPropExperiment) onSplit(ctx context.Context, sp eval.Split) (LabelPropRun, error) {
	if len(sp.Train) == 0 {
		return LabelPropRun{}, errors.New("labelprop: the split has no training node")
	}
	n, candidate := e.candidates()
	if n > 1 && len(sp.Val) == 0 {
		return LabelPropRun{}, fmt.Errorf("labelprop: %w: choosing a among %d values needs validation nodes, and the split has none", eval.ErrNoValidation, n)
	}
	if err := e.checkIsolated(sp.Train); err != nil {
		return LabelPropRun{}, err
	}
	c, err := eval.SelectOnSplit(ctx, estimator.Nodes{Graph: e.Graph}, e.Labels, sp, n, candidate)
	if err != nil {
		return LabelPropRun{}, fmt.Errorf("labelprop: %w", err)
	}
	r := LabelPropRun{Split: sp, WithSplit: true, Model: c.Model, Details: c.Model.Details(),
		GridVal: c.Val, GridTest: c.Test, GridIterations: c.Iterations, GridSeconds: c.Seconds,
		Val: c.ValAccuracy, Test: c.TestAccuracy, MacroF1: c.MacroF1, FitSeconds: c.Seconds[c.Best]}
	if e.Grid != nil {
		if _, ok := e.Model.(*labelprop.Spreading); ok {
			r.Alpha = e.Grid[c.Best]
		}
	}
	return r, nil
}

// allLabelled is the protocol without a split: a chosen by
// cross-validation over the labelled nodes when the grid has several
// values (a single value is cross-validated too, for its accuracy; a note
// says why when that is impossible), then one fit on every labelled node.
func (e *LabelPropExperiment) allLabelled(ctx context.Context) (LabelPropOutcome, error) {
	sp, _, err := e.Splits.Split(0)
	if err != nil {
		return LabelPropOutcome{}, fmt.Errorf("labelprop: %w", err)
	}
	if len(sp.Train) == 0 {
		return LabelPropOutcome{}, ErrNoLabels
	}
	if err := e.checkIsolated(sp.Train); err != nil {
		return LabelPropOutcome{}, err
	}
	var out LabelPropOutcome
	run := LabelPropRun{Split: sp, Val: math.NaN(), Test: math.NaN(), MacroF1: math.NaN()}
	x := estimator.Nodes{Graph: e.Graph}
	var m labelprop.Classifier
	switch base := e.Model.(type) {
	case *labelprop.Spreading:
		run.Alpha = e.Grid[0]
		c, err := ChooseAlpha(ctx, x, e.Labels, base, e.Grid, e.CV)
		switch {
		case err == nil:
			out.CV, run.Alpha = &c, c.Alpha
		case errors.Is(err, eval.ErrTooFewLabels) && len(e.Grid) > 1:
			run.Alpha = labelprop.DefaultAlpha
			out.Notes = append(out.Notes, fmt.Sprintf("no class has two labels, so a cannot be chosen by cross-validation: a = %g (--alpha sets it)", labelprop.DefaultAlpha))
		case len(e.Grid) > 1:
			return LabelPropOutcome{}, err
		default:
			out.Notes = append(out.Notes, fmt.Sprintf("no cross-validation accuracy: %v", err))
		}
		s := base.Clone()
		s.Alpha = run.Alpha
		m = s
	case *labelprop.Harmonic:
		m = base.Clone()
	default:
		return LabelPropOutcome{}, fmt.Errorf("labelprop: Evaluate: the model is a %T, not a *labelprop.Spreading or a *labelprop.Harmonic", e.Model)
	}
	t0 := time.Now()
	if err := m.Fit(ctx, x, e.Labels); err != nil {
		return LabelPropOutcome{}, err
	}
	run.FitSeconds, run.Model, run.Details = time.Since(t0).Seconds(), m, m.Details()
	out.Runs = []LabelPropRun{run}
	if e.Progress != nil {
		e.Progress(1)
	}
	return out, nil
}
