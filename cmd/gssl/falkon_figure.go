package main

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
)

// runFacts: the timings of the run, for --report.
func (r falkonResult) runFacts() (string, []htmlreport.Timing) {
	return "", []htmlreport.Timing{timing("cpu_seconds", r.CPUSeconds), timing("fit_seconds", r.FitSeconds),
		timing("load_seconds", r.LoadSeconds), timing("predict_seconds", r.PredictSeconds), timing("seconds", r.Seconds)}
}

// runFacts: the seed and timings of the sweep, for --report.
func (r falkonSweepResult) runFacts() (string, []htmlreport.Timing) {
	return fmt.Sprintf("seed = %d", r.Seed), []htmlreport.Timing{timing("load_seconds", r.LoadSeconds)}
}

// falkonSweepPicture: test error (or RMSE) against M, and the fit time
// against M, M on a log axis when the sweep spans a factor of 8 or more.
func falkonSweepPicture(res falkonSweepResult) (picture, error) {
	pic := picture{caption: fmt.Sprintf("%s on %s: test error and fit time against the number of centres M", res.Solver, res.Data)}
	score := "test error"
	if res.Task == "regression" {
		score = "test RMSE"
	}
	t := htmlreport.Table{Caption: "sweep over M", Header: []string{"M", "centres used", score, "fit seconds", "predict seconds"}}
	var ms, scores, secs []float64
	for _, p := range res.Sweep {
		v, ok := p.Score().(float64)
		cell := "–"
		if ok {
			cell = strconv.FormatFloat(v, 'g', 4, 64)
		} else {
			v = math.NaN()
		}
		ms, scores, secs = append(ms, float64(p.M)), append(scores, v), append(secs, p.FitSeconds)
		t.Rows = append(t.Rows, []string{strconv.Itoa(p.M), strconv.Itoa(p.CentresUsed), cell,
			strconv.FormatFloat(p.FitSeconds, 'f', 3, 64), strconv.FormatFloat(p.PredictSeconds, 'f', 3, 64)})
	}
	pic.tables = append(pic.tables, t)
	logM, xLabel := spansFactor(ms, 8), "M (Nyström centres)"
	if res.TestReason != "" {
		pic.notes = append(pic.notes, "no error panel: "+res.TestReason)
	} else {
		title := fmt.Sprintf("%s against M\n(%s, %s σ=%g, λ=%g)", score, res.Solver, res.Kernel, res.Sigma, res.Lambda)
		p, err := figures.Curves(title, xLabel, score, logM, spansDecade(scores), figures.Series{X: ms, Y: scores})
		if err != nil {
			return pic, err
		}
		pic.panels = append(pic.panels, p)
	}
	p, err := figures.Curves(fmt.Sprintf("fit time against M\n(%d training points, d = %d)", res.Train, res.Dim), xLabel, "fit seconds",
		logM, spansDecade(secs), figures.Series{X: ms, Y: secs})
	pic.panels = append(pic.panels, p)
	return pic, err
}

// spansDecade says whether positive values span a factor of ten or more
// (a log axis then shows them better); a zero or NaN keeps the axis linear.
func spansDecade(v []float64) bool { return spansFactor(v, 10) }

// spansFactor says whether more than one positive value is given and the
// largest is at least factor times the smallest; a zero or NaN says no.
func spansFactor(v []float64, factor float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, x := range v {
		if !(x > 0) {
			return false
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return len(v) > 1 && hi >= factor*lo
}
