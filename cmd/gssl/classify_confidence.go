package main

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/spf13/pflag"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/eval"
)

// addConfidenceFlags adds --metric and --conformal.
func addConfidenceFlags(f *pflag.FlagSet, metric *string, alpha *float64) {
	f.StringVar(metric, "metric", "auto", "what chooses the hyperparameters and is reported beside accuracy: accuracy, auc (ROC AUC; macro one-vs-rest for more than two classes), or auto (auc for two classes, as binary benchmarks such as tolokers report, else accuracy)")
	addConformalFlag(f, alpha)
}

// addConformalFlag adds --conformal.
func addConformalFlag(f *pflag.FlagSet, alpha *float64) {
	f.Float64Var(alpha, "conformal", 0, "calibrate the chosen model's probabilities on the validation nodes (temperature scaling) and give each node a prediction set that holds its class with probability ≥ 1 − ALPHA (split-conformal, adaptive sets); ALPHA in (0, 1), 0: off")
}

// checkConfidenceFlags checks --metric and --conformal.
func checkConfidenceFlags(metric string, alpha float64) error {
	if metric != "auto" && metric != "" {
		if _, err := eval.ParseMetric(metric); err != nil {
			return fmt.Errorf("--metric: %w, auto", err)
		}
	}
	if !(alpha >= 0 && alpha < 1) || math.IsNaN(alpha) {
		return fmt.Errorf("--conformal %v is invalid: it must be in the open interval (0, 1), or 0 for off", alpha)
	}
	return nil
}

// resolveMetric is --metric for a task of this many classes (checked
// already; "" is auto).
func resolveMetric(metric string, classes int) eval.Metric {
	if metric == "auto" || metric == "" {
		return eval.ConventionalMetric(classes)
	}
	m, _ := eval.ParseMetric(metric)
	return m
}

var errNoCalibrationNodes = errors.New("--conformal needs validation nodes to calibrate on, and the split has none: use a split with val nodes (planetoid, random:K, per-class:T,V or a split file with val lines)")

// conformalReport calibrates the scores of a run's chosen model (fitted on
// the training labels of split) on the split's validation nodes and
// measures it on its test nodes.
func conformalReport(scores mat.Matrix, split eval.Split, labels []int, alpha float64, seed uint64) (*confidence.Report, error) {
	if len(split.Val) == 0 {
		return nil, errNoCalibrationNodes
	}
	r, err := confidence.Evaluate(scores, labels, split.Val, split.Test, alpha, seed)
	if err != nil {
		return nil, fmt.Errorf("--conformal: %w", err)
	}
	return r, nil
}

// printConfidence prints the --conformal report.
func printConfidence(w io.Writer, r *confidence.Report) {
	if r == nil {
		return
	}
	fmt.Fprintf(w, "calibrated on %d val nodes: temperature %.3f, smoothing %g; ECE on the test nodes %.4f before, %.4f after\n",
		r.Calibrated, r.Temperature, r.Smoothing, r.ECEBefore, r.ECEAfter)
	if r.Tested > 0 {
		fmt.Fprintf(w, "prediction sets at alpha %g: coverage %.4f of %d test nodes (guaranteed ≥ %.2f on average), mean set size %.2f\n",
			r.Alpha, r.Coverage, r.Tested, 1-r.Alpha, r.SetSize)
	}
}
