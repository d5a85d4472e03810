package protocol

import (
	"fmt"
	"math"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
)

// LabelPropReport is an outcome of EvaluateLabelProp summed up for a
// reader (gssl labelprop prints it, and its JSON is the command's): what
// was run, the chosen a, and the accuracies, mean ± standard deviation
// over the runs. A figure that does not exist (no validation or test
// nodes, one run only) is nil, null in JSON.
type LabelPropReport struct {
	Labelled         int       `json:"labelled"`
	Method           string    `json:"method"` // spreading or harmonic
	Solver           string    `json:"solver"` // the one Auto chose
	CMN              bool      `json:"cmn"`
	Tol              float64   `json:"tol"`
	Protocol         string    `json:"protocol"` // "split" or "all-labelled"
	Split            string    `json:"split"`
	Seeds            int       `json:"seeds"`
	FirstSeed        uint64    `json:"first_seed"`
	LastSeed         uint64    `json:"last_seed"`
	Folds            int       `json:"folds,omitempty"`
	Train            int       `json:"train"`
	Val              int       `json:"val"`
	Test             int       `json:"test"`
	Predicted        int       `json:"predicted"`
	Alpha            any       `json:"alpha"` // nil for the harmonic function
	AlphaPerSeed     []float64 `json:"alpha_per_seed,omitempty"`
	AlphaGrid        []float64 `json:"alpha_grid,omitempty"`
	GridValAccuracy  []any     `json:"grid_val_accuracy,omitempty"`
	GridTestAccuracy []any     `json:"grid_test_accuracy,omitempty"`
	GridIterations   []int     `json:"grid_iterations,omitempty"` // per value of a: iterations and seconds of its fit (one run with a split)
	GridSeconds      []float64 `json:"grid_seconds,omitempty"`
	GridCVAccuracy   []any     `json:"grid_cv_accuracy,omitempty"`
	CVAccuracy       any       `json:"cv_accuracy,omitempty"`
	ValAccuracy      any       `json:"val_accuracy"`
	ValReason        string    `json:"val_accuracy_reason,omitempty"`
	TestAccuracy     any       `json:"test_accuracy"`
	TestReason       string    `json:"test_accuracy_reason,omitempty"`
	TestAccuracyStd  any       `json:"test_accuracy_std,omitempty"`
	MacroF1          any       `json:"macro_f1"`
	MacroF1Std       any       `json:"macro_f1_std,omitempty"`
	Iterations       int       `json:"iterations"`
	ClassIterations  []int     `json:"class_iterations,omitempty"`
	Residual         float64   `json:"residual"`
	NIsolated        int       `json:"n_isolated"`
	NUnreached       int       `json:"n_unreached"`
	NIsolatedSeeds   int       `json:"n_isolated_seeds"`
	FitSeconds       float64   `json:"fit_seconds"`
	Notes            []string  `json:"notes,omitempty"`
}

// Report sums up o, an outcome of EvaluateLabelProp(e): the largest
// counters and the mean fit time over the runs, the a chosen most often,
// the per-value accuracies of a single run, and notes on what the protocol
// decided. notes come first among the notes.
func (e LabelPropExperiment) Report(o LabelPropOutcome, notes ...string) LabelPropReport {
	r0 := o.Runs[0]
	r := LabelPropReport{Method: "harmonic", Solver: "cg-jacobi", Split: e.Splits.Spec().Name(), Seeds: len(o.Runs),
		Train: len(r0.Split.Train), Val: len(r0.Split.Val), Test: len(r0.Split.Test), Protocol: "split", Notes: notes}
	if len(e.Seeds) > 0 {
		r.FirstSeed = e.Seeds[0]
	}
	r.LastSeed = r.FirstSeed + uint64(len(o.Runs)) - 1
	for _, l := range e.Labels {
		if l >= 0 {
			r.Labelled++
		}
	}
	r.Predicted = e.Graph.Nodes() - r.Train
	switch m := e.Model.(type) {
	case *labelprop.Spreading:
		r.Method, r.CMN, r.Tol, r.Solver = "spreading", m.ClassMassNormalization, m.Tol, m.Solver.String()
		if r0.Details.Solver != labelprop.Auto {
			r.Solver = r0.Details.Solver.String()
		}
	case *labelprop.Harmonic:
		r.CMN, r.Tol = m.ClassMassNormalization, m.Tol
	}
	if r.Tol == 0 {
		r.Tol = labelprop.DefaultTol
	}
	r.runs(o)
	if !r0.WithSplit {
		r.allLabelled(o, e.CV.Seed)
	} else {
		if r.Val == 0 {
			r.ValReason = "the split has no validation node"
		}
		if r.Test == 0 {
			r.TestReason = "the split has no test node"
		}
	}
	if r.NUnreached > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d nodes (%d of them isolated) have no path to a labelled training node; they get the class prior", r.NUnreached, r.NIsolated))
	}
	r.Notes = append(r.Notes, o.Notes...)
	return r
}

// runs sets the accuracies (mean and spread over the runs), the largest
// counters, the mean fit time, and a and its grid.
func (r *LabelPropReport) runs(o LabelPropOutcome) {
	s, runs := o.Summary(), o.Runs
	r.Iterations, r.Residual, r.FitSeconds = s.Iterations, s.Residual, s.FitSeconds
	r.NIsolated, r.NUnreached, r.NIsolatedSeeds = s.Isolated, s.Unreached, s.IsolatedSeeds
	spreading, auto := o.Grid != nil, len(o.Grid) > 1
	if spreading {
		r.Alpha = s.Alpha
		if auto {
			r.AlphaGrid = o.Grid
		}
	}
	r.ValAccuracy, r.TestAccuracy, r.MacroF1 = number(s.Val.Mean), number(s.Test.Mean), number(s.MacroF1.Mean)
	if len(runs) > 1 {
		r.TestAccuracyStd, r.MacroF1Std = number(s.Test.Std), number(s.MacroF1.Std)
		for _, run := range runs {
			if spreading {
				r.AlphaPerSeed = append(r.AlphaPerSeed, run.Alpha)
			}
		}
		return
	}
	r.ClassIterations = runs[0].Details.ClassIterations
	if spreading && auto && runs[0].WithSplit {
		r.GridValAccuracy, r.GridTestAccuracy = numbers(runs[0].GridVal), numbers(runs[0].GridTest)
		r.GridIterations, r.GridSeconds = runs[0].GridIterations, runs[0].GridSeconds
	}
}

// allLabelled sets the fields of the protocol without a split.
func (r *LabelPropReport) allLabelled(o LabelPropOutcome, seed uint64) {
	r.Protocol = "all-labelled"
	r.ValReason = "no validation split: every labelled node is trained on"
	r.TestReason = "no test split: every labelled node is trained on; the unlabelled nodes are predicted"
	if cv := o.CV; cv != nil {
		r.Folds, r.GridCVAccuracy = cv.Folds, numbers(cv.Accuracy)
		for k, a := range cv.Grid {
			if a == cv.Alpha {
				r.CVAccuracy = cv.Accuracy[k]
			}
		}
		what := "alpha chosen"
		if len(cv.Grid) == 1 {
			what = "accuracy estimated"
		}
		r.Notes = append(r.Notes, fmt.Sprintf("%s by %d-fold cross-validation over the %d labelled nodes (seed %d)", what, cv.Folds, r.Labelled, seed))
	}
	if r.Predicted == 0 {
		r.Notes = append(r.Notes, "every node is labelled, so there is nothing to predict; --split planetoid, random:K or a split file scores a benchmark split")
	}
}

// number is v, or nil (JSON null) when v is NaN or infinite.
func number(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// numbers maps number over v (nil for nil).
func numbers(v []float64) []any {
	if v == nil {
		return nil
	}
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = number(x)
	}
	return out
}

// summary is eval.Summarize of xs as JSON numbers: mean and standard
// deviation, nil where undefined.
func summary(xs []float64) (mean, std any) {
	s := eval.Summarize(xs)
	return number(s.Mean), number(s.Std)
}
