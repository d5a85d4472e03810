package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/protocol"
)

// falkonSweepResult is the JSON object of gssl falkon with several --m.
type falkonSweepResult struct {
	Data        string             `json:"data"`
	Solver      string             `json:"solver"`
	Train       int                `json:"n_train"`
	Test        int                `json:"n_test"`
	Dim         int                `json:"d"`
	Kernel      string             `json:"kernel"`
	Sigma       float64            `json:"sigma"`
	Lambda      float64            `json:"lambda"`
	MaxIter     int                `json:"max_iter,omitempty"`
	Centres     string             `json:"centres"`
	Seed        uint64             `json:"seed"`
	Precision   string             `json:"precision"`
	Task        string             `json:"task"`
	Classes     int                `json:"classes,omitempty"`
	TestReason  string             `json:"test_error_reason,omitempty"`
	Sweep       []falkonSweepPoint `json:"sweep"`
	LoadSeconds float64            `json:"load_seconds"`
	PeakRSSMB   float64            `json:"peak_rss_mb"`
}

// falkonSweepPoint is one M of the sweep.
type falkonSweepPoint struct {
	M              int     `json:"m"`
	CentresUsed    int     `json:"centres_used"`
	TestError      any     `json:"test_error,omitempty"`
	TestRMSE       any     `json:"test_rmse,omitempty"`
	FitSeconds     float64 `json:"fit_seconds"`
	PredictSeconds float64 `json:"predict_seconds"`
	Iterations     int     `json:"iterations,omitempty"`
	JitterRaises   int     `json:"jitter_raises,omitempty"`
}

// runFalkonSweep fits one model per value of --m (protocol.SweepCentres) and
// reports test error and fit time against M.
func runFalkonSweep(ctx context.Context, opts falkonOptions, stdout, stderr io.Writer) error {
	switch {
	case opts.Out != "":
		return fmt.Errorf("falkon: --out needs one --m (a sweep fits %d models)", len(opts.Sweep))
	case opts.Save != "":
		return fmt.Errorf("falkon: --save needs one --m (a sweep fits %d models)", len(opts.Sweep))
	case opts.Centres != "uniform" && opts.Centres != "leverage":
		return fmt.Errorf("falkon: --centres %s: a file of centres holds one M; sweep --m with uniform or leverage centres", opts.Centres)
	}
	for i, m := range opts.Sweep {
		if m < 1 {
			return fmt.Errorf("falkon: --m value %d (%d) is invalid: every M of a sweep must be ≥ 1", i+1, m)
		}
	}
	if err := opts.Plots.check(); err != nil {
		return fmt.Errorf("falkon: %w", err)
	}
	model, fk, err := falkonModel(opts, stderr)
	if err != nil {
		return err
	}
	start := timeNow()
	data, err := falkonTask(opts)
	if err != nil {
		return err
	}
	n, d := data.X.Dims()
	for _, m := range opts.Sweep {
		if m > n {
			return fmt.Errorf("falkon: --m %d is invalid: there are %d training points (every M must be in [1, %d])", m, n, n)
		}
	}
	y, err := data.TargetMatrix()
	if err != nil {
		return err
	}
	res := falkonSweepResult{Data: data.Name, Solver: opts.Solver, Train: n, Test: rowsOf(data.XTest), Dim: d, Kernel: opts.Kernel,
		Sigma: opts.Sigma, Lambda: opts.Lambda, Centres: opts.Centres, Seed: opts.Seed, Precision: opts.Precision,
		Task: "classification", Classes: len(data.ClassNames), LoadSeconds: seconds(start)}
	if data.Regression() {
		res.Task = "regression"
	}
	logf(stderr, "falkon: %s: %d train, %d to predict, d=%d; sweep over M = %v", data.Name, n, res.Test, d, opts.Sweep)
	if fk != nil {
		res.MaxIter = opts.Iter
		bar := newProgress(stderr, opts.Iter*len(opts.Sweep), "CG")
		fk.Progress = func(int, float64) { bar.Add(1) }
		defer bar.Finish()
	}
	pts, err := protocol.SweepCentres(orBackground(ctx), model, opts.Sweep, data.X, y, data.XTest)
	if err != nil {
		return fmt.Errorf("falkon: %w", err)
	}
	for _, p := range pts {
		sc := data.TestScore(p.Prediction)
		res.TestReason = sc.Reason
		res.Sweep = append(res.Sweep, falkonSweepPoint{M: p.M, CentresUsed: p.Centres, FitSeconds: p.FitSeconds, PredictSeconds: p.PredictSeconds,
			Iterations: p.Info.Iterations, JitterRaises: p.Info.JitterRaises, TestError: finite(sc.ErrorRate), TestRMSE: finite(sc.RMSE)})
		if p.Centres < p.M {
			logf(stderr, "falkon: M=%d: %d centres repeat a point already chosen and were left out", p.M, p.M-p.Centres)
		}
	}
	res.PeakRSSMB = peakRSSMB()
	if err := opts.Plots.write(stderr, "falkon", res, func() (picture, error) { return falkonSweepPicture(res) }); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printFalkonSweep(w, res) })
}

// falkonSweepScore returns the score a sweep point is drawn and printed
// with (error rate or RMSE) and whether there is one.
func falkonSweepScore(res falkonSweepResult, p falkonSweepPoint) (float64, bool) {
	v := p.TestError
	if res.Task == "regression" {
		v = p.TestRMSE
	}
	f, ok := v.(float64)
	return f, ok
}

func printFalkonSweep(w io.Writer, res falkonSweepResult) {
	fmt.Fprintf(w, "%s on %s: %d train / %d predicted, d=%d, %s σ=%g, λ=%g, %s centres (seed %d), %s\n",
		res.Solver, res.Data, res.Train, res.Test, res.Dim, res.Kernel, res.Sigma, res.Lambda, res.Centres, res.Seed, res.Precision)
	score := "test error"
	if res.Task == "regression" {
		score = "test RMSE"
	}
	fmt.Fprintf(w, "%8s %8s %12s %10s %10s\n", "M", "used", score, "fit s", "predict s")
	for _, p := range res.Sweep {
		s := "n/a"
		if v, ok := falkonSweepScore(res, p); ok {
			s = strconv.FormatFloat(v, 'g', 4, 64)
			if res.Task != "regression" {
				s = fmtPercent(v)
			}
		}
		fmt.Fprintf(w, "%8d %8d %12s %10.3f %10.3f\n", p.M, p.CentresUsed, s, p.FitSeconds, p.PredictSeconds)
	}
	if res.TestReason != "" {
		fmt.Fprintf(w, "no test score: %s\n", res.TestReason)
	}
}

// falkonSweepPicture: test error (or RMSE) against M, and the fit time
// against M, M on a log axis when the sweep spans a factor of 8 or more.
func falkonSweepPicture(res falkonSweepResult) (picture, error) {
	pic := picture{caption: fmt.Sprintf("%s on %s: test error and fit time against the number of centres M", res.Solver, res.Data)}
	t := htmlreport.Table{Caption: "sweep over M", Header: []string{"M", "centres used", "test error", "fit seconds", "predict seconds"}}
	if res.Task == "regression" {
		t.Header[2] = "test RMSE"
	}
	var ms, score, secs []float64
	lo, hi := math.Inf(1), 0.0
	for _, p := range res.Sweep {
		m := float64(p.M)
		lo, hi = math.Min(lo, m), math.Max(hi, m)
		v, ok := falkonSweepScore(res, p)
		cell := "–"
		if ok {
			cell = strconv.FormatFloat(v, 'g', 4, 64)
		} else {
			v = math.NaN()
		}
		ms, score, secs = append(ms, m), append(score, v), append(secs, p.FitSeconds)
		t.Rows = append(t.Rows, []string{strconv.Itoa(p.M), strconv.Itoa(p.CentresUsed), cell,
			strconv.FormatFloat(p.FitSeconds, 'f', 3, 64), strconv.FormatFloat(p.PredictSeconds, 'f', 3, 64)})
	}
	pic.tables = append(pic.tables, t)
	logM := hi >= 8*lo
	xLabel := "M (Nyström centres)"
	settings := fmt.Sprintf("(%s, %s σ=%g, λ=%g)", res.Solver, res.Kernel, res.Sigma, res.Lambda)
	yLabel, title := "test error", "test error against M"
	if res.Task == "regression" {
		yLabel, title = "test RMSE", "test RMSE against M"
	}
	if res.TestReason != "" {
		pic.notes = append(pic.notes, "no error panel: "+res.TestReason)
	} else {
		p, err := figures.Curves(title+"\n"+settings, xLabel, yLabel, logM, spansDecade(score), figures.Series{X: ms, Y: score})
		if err != nil {
			return pic, err
		}
		pic.panels = append(pic.panels, p)
	}
	p, err := figures.Curves(fmt.Sprintf("fit time against M\n(%d training points, d = %d)", res.Train, res.Dim), xLabel, "fit seconds", logM, spansDecade(secs),
		figures.Series{X: ms, Y: secs})
	if err != nil {
		return pic, err
	}
	pic.panels = append(pic.panels, p)
	return pic, nil
}

// spansDecade says whether positive values span a factor of ten or more
// (a log axis then shows them better); a zero or NaN keeps the axis linear.
func spansDecade(v []float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, x := range v {
		if !(x > 0) {
			return false
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return len(v) > 1 && hi >= 10*lo
}
