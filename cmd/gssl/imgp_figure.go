package main

import (
	"fmt"

	"gonum.org/v1/plot/vg"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/pictures"
	"github.com/gssl/gssl/protocol"
)

func imgpPicture(data *protocol.RegressionTask, r *imgp.Regressor, run *protocol.IMGPRun, _ imgpResult) (picture, error) {
	return pictures.IMGP(data, r, run)
}

func (r imgpResult) runFacts() (string, []htmlreport.Timing) {
	return fmt.Sprintf("seed = %d", r.Seed), timings("seconds_likelihood seconds_graph seconds_train seconds_eigen seconds_euclidean seconds_euclidean_predict seconds_predict seconds_fit seconds",
		r.SecondsLML, r.SecondsGraph, r.SecondsTrain, r.SecondsEigen, r.SecondsEucl, r.SecondsEuclPred, r.SecondsPredict, r.SecondsFit, r.Seconds)
}

// plotSweep draws the sweep (pictures.IMGPSweep) to path.
func plotSweep(path string, r *protocol.IMGPSweepResult) error {
	return savePanels(path, func() (picture, error) { return pictures.IMGPSweep(r) }, 6*vg.Inch, 4.5*vg.Inch)
}
