package main

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/protocol"
	"gonum.org/v1/plot"
)

// gpPicture: the test predictions against their targets with the ±2σ band
// of a new observation, in the targets' units (the points with a known
// target only).
func gpPicture(run *protocol.GPRun, res gpResult) (picture, error) {
	pic := picture{caption: fmt.Sprintf("GP (%s) on %s: test predictions against targets", res.Covariance, res.Data)}
	if math.IsNaN(run.RMSE) {
		pic.notes = append(pic.notes, "no prediction panel: "+run.Reason)
		return pic, nil
	}
	b := figures.Band{Name: "GP, " + res.Covariance}
	for _, p := range run.Predictions {
		if p.Set == "test-features" {
			b.Truth, b.Mean, b.SD = append(b.Truth, p.Target), append(b.Mean, p.Mean), append(b.SD, math.Sqrt(p.Observation))
		}
	}
	if len(b.Truth) == 0 {
		pic.notes = append(pic.notes, "no prediction panel: no test point")
		return pic, nil
	}
	pl, err := figures.PredictionBands(fmt.Sprintf("GP on %s: RMSE %s", filepath.Base(res.Data), formatOr("%.4f", "n/a", res.RMSE)), "true target", "predicted (±2σ)", b)
	if err != nil {
		return pic, err
	}
	pic.panels = []*plot.Plot{pl}
	return pic, nil
}

// runFacts: the seeds and timings of the run, for --report.
func (r gpResult) runFacts() (string, []htmlreport.Timing) {
	return "", []htmlreport.Timing{timing("seconds", r.Seconds)}
}
