package main

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"gonum.org/v1/plot"
)

// gpPicture: the test predictions against their targets with the ±2σ band
// of a new observation, in the targets' units (the points with a known
// target only).
func gpPicture(p *gpPrediction, data *regressionData, noise float64, res gpResult) (picture, error) {
	pic := picture{caption: fmt.Sprintf("GP (%s) on %s: test predictions against targets", res.Covariance, res.Data)}
	if data.yt == nil {
		pic.notes = append(pic.notes, "no prediction panel: the test points have no targets (--test-targets)")
		return pic, nil
	}
	n, _ := data.x.Dims()
	b := figures.Band{Name: "GP, " + res.Covariance}
	for k, r := range p.rows {
		if r >= n {
			b.Truth = append(b.Truth, data.mean+data.scale*data.yt[r-n])
			b.Mean = append(b.Mean, data.mean+data.scale*p.mean[k])
			b.SD = append(b.SD, data.scale*math.Sqrt(p.latent[k]+noise))
		}
	}
	if len(b.Truth) == 0 {
		pic.notes = append(pic.notes, "no prediction panel: no test point")
		return pic, nil
	}
	pl, err := figures.PredictionBands(fmt.Sprintf("GP on %s: RMSE %s", filepath.Base(res.Data), fmtAny(res.RMSE)), "true target", "predicted (±2σ)", b)
	if err != nil {
		return pic, err
	}
	pic.panels = []*plot.Plot{pl}
	return pic, nil
}

// runFacts: the seeds and timings of the run, for --report.
func (r gpResult) runFacts() (string, []htmlreport.Timing) {
	return "", []htmlreport.Timing{
		timing("seconds", r.Seconds),
	}
}
