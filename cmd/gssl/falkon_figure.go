package main

import (
	"fmt"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/pictures"
)

func falkonSweepPicture(res falkonSweepResult) (picture, error) {
	return pictures.KRRSweep(res.KRRSweepReport)
}

func (r falkonResult) runFacts() (string, []htmlreport.Timing) {
	return "", timings("cpu_seconds fit_seconds load_seconds predict_seconds seconds",
		r.CPUSeconds, r.FitSeconds, r.LoadSeconds, r.PredictSeconds, r.Seconds)
}

func (r falkonSweepResult) runFacts() (string, []htmlreport.Timing) {
	return fmt.Sprintf("seed = %d", r.Seed), timings("load_seconds", r.LoadSeconds)
}
