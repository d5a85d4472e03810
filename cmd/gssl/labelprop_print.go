package main

import (
	"fmt"
	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/estimator"
	"io"
	"math"
	"strings"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
)

// labelpropResult is the JSON object of the command: the data set, the
// protocol's report, the outputs and the times.
type labelpropResult struct {
	Data       string   `json:"data"`
	Dataset    string   `json:"dataset"`
	Nodes      int      `json:"nodes"`
	Edges      int      `json:"edges"`
	Classes    int      `json:"classes"`
	ClassNames []string `json:"class_names"`
	protocol.LabelPropReport
	Confidence  *confidence.Report `json:"confidence,omitempty"` // --conformal: the first run
	LoadSeconds float64            `json:"load_seconds"`
	KNN         *knnSummary        `json:"knn,omitempty"` // the graph built from --features
	Seconds     float64            `json:"seconds"`
	Out         string             `json:"out,omitempty"`
	Saved       string             `json:"saved,omitempty"`
}

// summarizeLabelprop builds the JSON object from EvaluateLabelProp's outcome.
func summarizeLabelprop(opts labelpropOptions, exp protocol.LabelPropExperiment, ds *loaders.NodeDataset, out protocol.LabelPropOutcome) labelpropResult {
	var notes []string
	if opts.In.Features != "" && !opts.In.fromPoints() {
		notes = append(notes, "the features are read but not used: label propagation uses only the graph")
	}
	res := labelpropResult{Data: opts.source(), Dataset: ds.Name, Nodes: ds.Graph.Nodes(), Edges: ds.Graph.Edges(), Classes: ds.Classes,
		LabelPropReport: exp.Report(out, notes...)}
	for c := 0; c < ds.Classes; c++ {
		res.ClassNames = append(res.ClassNames, className(ds, c))
	}
	return res
}

func printLabelprop(w io.Writer, res labelpropResult, runs []protocol.LabelPropRun) {
	fmt.Fprintf(w, "%s: %d nodes, %d edges, %d classes, %d labelled (%s)\n", res.Dataset, res.Nodes, res.Edges, res.Classes, res.Labelled, res.Data)
	switch {
	case res.Protocol == "all-labelled":
		fmt.Fprintf(w, "protocol: fit on the %d labelled nodes, predict the %d others\n", res.Train, res.Predicted)
	case res.Seeds > 1:
		fmt.Fprintf(w, "split: %s, seeds %d..%d — %d train, %d val, %d test each\n", res.Split, res.FirstSeed, res.FirstSeed+uint64(res.Seeds)-1, res.Train, res.Val, res.Test)
	default:
		fmt.Fprintf(w, "split: %s — %d train, %d val, %d test\n", res.Split, res.Train, res.Val, res.Test)
	}
	cmn := ""
	if res.CMN {
		cmn = ", class-mass normalisation"
	}
	if res.Method == "spreading" {
		fmt.Fprintf(w, "method: label spreading (Zhou et al. 2003), %s solver, tol %g%s\n", res.Solver, res.Tol, cmn)
	} else {
		fmt.Fprintf(w, "method: harmonic function (Zhu, Ghahramani & Lafferty 2003), Jacobi-preconditioned CG, tol %g%s\n", res.Tol, cmn)
	}
	printLabelpropGrids(w, res, runs[0])
	fmt.Fprintln(w)
	printLabelpropScores(w, res)
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if res.Out != "" {
		fmt.Fprintf(w, "predictions of %d nodes written to %s\n", res.Predicted, res.Out)
	}
	if res.Saved != "" {
		fmt.Fprintf(w, "model saved to %s (gssl predict --model %s; gssl serve --model %s)\n", res.Saved, res.Saved, res.Saved)
	}
}

// printLabelpropGrids prints the accuracy of every a of the grid: by
// cross-validation without a split, on the validation and test nodes of a
// single split.
func printLabelpropGrids(w io.Writer, res labelpropResult, r protocol.LabelPropRun) {
	if res.GridCVAccuracy != nil && len(res.AlphaGrid) == len(res.GridCVAccuracy) {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  alpha    cv acc\n")
		for k, a := range res.AlphaGrid {
			mark := " "
			if a == res.Alpha {
				mark = "*"
			}
			fmt.Fprintf(w, "  %-5g %s  %s\n", a, mark, num(res.GridCVAccuracy[k]))
		}
		fmt.Fprintf(w, "  * chosen by %d-fold cross-validation over the labelled nodes (the first best on ties)\n", res.Folds)
	}
	if res.Seeds == 1 && res.GridValAccuracy != nil {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  alpha    val acc  test acc  iterations  seconds\n")
		for k, a := range res.AlphaGrid {
			mark := " "
			if a == r.Alpha {
				mark = "*"
			}
			fmt.Fprintf(w, "  %-5g %s  %s   %s    %-10d  %.3f\n", a, mark, pct(r.GridVal[k]), pct(r.GridTest[k]), r.GridIterations[k], r.GridSeconds[k])
		}
		fmt.Fprintf(w, "  * chosen on the validation nodes (best accuracy, the first in grid order on ties)\n")
	}
}

// printLabelpropScores prints the accuracies, a and the counters.
func printLabelpropScores(w io.Writer, res labelpropResult) {
	alpha := ""
	if res.Method == "spreading" {
		alpha = fmt.Sprintf("alpha %g, ", res.Alpha)
	}
	switch {
	case res.Protocol == "all-labelled":
		if res.CVAccuracy != nil {
			fmt.Fprintf(w, "cross-validation accuracy %s (%d folds over the labelled nodes)\n", num(res.CVAccuracy), res.Folds)
		}
		fmt.Fprintf(w, "%s%d iterations, fit %.3f s, total %.2f s\n", alpha, res.Iterations, res.FitSeconds, res.Seconds)
	case res.Seeds > 1:
		fmt.Fprintf(w, "test accuracy %s ± %s   macro-F1 %s ± %s   val accuracy %s  (mean ± std over %d seeds)\n",
			num(res.TestAccuracy), num(res.TestAccuracyStd), num(res.MacroF1), num(res.MacroF1Std), num(res.ValAccuracy), res.Seeds)
		if res.Method == "spreading" {
			fmt.Fprintf(w, "alpha per seed %v; at most %d iterations; fit %.3f s per seed, total %.2f s\n", res.AlphaPerSeed, res.Iterations, res.FitSeconds, res.Seconds)
		} else {
			fmt.Fprintf(w, "at most %d iterations; fit %.3f s per seed, total %.2f s\n", res.Iterations, res.FitSeconds, res.Seconds)
		}
	default:
		fmt.Fprintf(w, "test accuracy %s   macro-F1 %s   val accuracy %s\n", num(res.TestAccuracy), num(res.MacroF1), num(res.ValAccuracy))
		fmt.Fprintf(w, "%s%d iterations, fit %.3f s, total %.2f s\n", alpha, res.Iterations, res.FitSeconds, res.Seconds)
	}
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "   -  "
	}
	return fmt.Sprintf("%.4f", v)
}

func num(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprintf("%.4f", f)
	}
	return "-"
}

// writeLabelprop writes --out and --save from the first run.
func writeLabelprop(opts labelpropOptions, ds *loaders.NodeDataset, run protocol.LabelPropRun, res *labelpropResult) error {
	var cal *confidence.Calibration
	if opts.Out != "" {
		var err error
		if c := res.Confidence; c != nil {
			err = writeClassSetRows(opts.Out, ds, run.Split, run.WithSplit, estimator.Argmax(c.Probabilities), c.Probabilities.RawRowView, c.Sets)
		} else {
			err = writeClassRows(opts.Out, ds, run.Split, run.WithSplit, run.Model.Labels(), run.Model.Probabilities().RawRowView)
		}
		if err != nil {
			return err
		}
		res.Out = opts.Out
	}
	if res.Confidence != nil {
		cal = res.Confidence.Calibration
	}
	if opts.Save != "" {
		if err := saveCalibrated(opts.Save, run.Model, ds, opts.In, cal); err != nil {
			return err
		}
		res.Saved = opts.Save
	}
	return nil
}

// writeClassRows writes a classifier's --out file: one row per node not
// trained on in sp, with the user's id, the predicted class, with withSplit
// the node's true class and part, and the probability of every class,
// p_<class name>.
func writeClassRows(path string, ds *loaders.NodeDataset, sp eval.Split, withSplit bool, pred []int, prob func(i int) []float64) error {
	return writeClassSetRows(path, ds, sp, withSplit, pred, prob, nil)
}

// writeClassSetRows is writeClassRows with, for non-nil sets, a last
// column "set": the node's prediction set, class names joined by "|".
func writeClassSetRows(path string, ds *loaders.NodeDataset, sp eval.Split, withSplit bool, pred []int, prob func(i int) []float64, sets [][]int) error {
	part := sp.Parts(len(ds.Labels))
	var rows []int
	for i, p := range part {
		if p != "train" {
			rows = append(rows, i)
		}
	}
	cols := []string{"id", "predicted"}
	if withSplit {
		cols = append(cols, "label", "split")
	}
	first := len(cols)
	for c := 0; c < ds.Classes; c++ {
		cols = append(cols, "p_"+className(ds, c))
	}
	if sets != nil {
		cols = append(cols, "set")
	}
	return writeTable(path, cols, len(rows), func(r int, rec []any) {
		i := rows[r]
		rec[0], rec[1] = nodeID(ds, i), className(ds, pred[i])
		if withSplit {
			if ds.Labels[i] >= 0 {
				rec[2] = className(ds, ds.Labels[i])
			}
			if part[i] != "" {
				rec[3] = part[i]
			}
		}
		for c, p := range prob(i) {
			rec[first+c] = p
		}
		if sets != nil {
			names := make([]string, len(sets[i]))
			for k, c := range sets[i] {
				names[k] = className(ds, c)
			}
			rec[len(rec)-1] = strings.Join(names, "|")
		}
	})
}
