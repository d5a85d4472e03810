package main

import (
	"fmt"

	"github.com/gssl/gssl/htmlreport"
)

// runFacts: the timings of the run, for --report.
func (r falkonResult) runFacts() (string, []htmlreport.Timing) {
	return "", []htmlreport.Timing{
		timing("cpu_seconds", r.CPUSeconds),
		timing("fit_seconds", r.FitSeconds),
		timing("load_seconds", r.LoadSeconds),
		timing("predict_seconds", r.PredictSeconds),
		timing("seconds", r.Seconds),
	}
}

// runFacts: the seed and timings of the sweep, for --report.
func (r falkonSweepResult) runFacts() (string, []htmlreport.Timing) {
	return fmt.Sprintf("seed = %d", r.Seed), []htmlreport.Timing{timing("load_seconds", r.LoadSeconds)}
}
