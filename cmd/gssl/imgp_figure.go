package main

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/gssl/gssl/protocol"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/imgp"
)

// imgpPicture: predicted against true targets (in the data's original
// units: scale × standardised) for both models, each with its ±2σ band of
// a new observation as error bars, and the diagonal
// (figures.PredictionBands); the refined IMGP is the rank-L refit.
func imgpPicture(data *protocol.RegressionTask, r *imgp.Regressor, run *protocol.IMGPRun, res imgpResult) (picture, error) {
	if run.Scores == nil {
		return picture{notes: []string{"no figure: it needs the true targets of the points off the graph (--test-targets)"}}, nil
	}
	pl, err := imgpPanel(data.Name, data.Standardised(), run.Test, run.Scores.RefinedPrediction, r.EuclideanModel().Hyperparameters().Noise, data.Scaling.Scale)
	return picture{panels: []*figures.Plot{pl}, caption: "IMGP and the Euclidean GP: " + res.Data}, err
}

// imgpPanel is imgpPicture's panel; yt are the standardised test targets.
func imgpPanel(name string, yt []float64, p, refined *imgp.Prediction, euclNoise, scale float64) (*plot.Plot, error) {
	band := func(name string, mean, variance []float64, noise float64) figures.Band {
		b := figures.Band{Name: name, Truth: make([]float64, len(yt)), Mean: make([]float64, len(yt)), SD: make([]float64, len(yt))}
		for i := range yt {
			b.Truth[i], b.Mean[i], b.SD[i] = scale*yt[i], scale*mean[i], scale*math.Sqrt(variance[i]+noise)
		}
		return b
	}
	pl, err := figures.PredictionBands(fmt.Sprintf("IMGP vs Euclidean GP (%s)", name), "true target", "predicted (±2σ)",
		band("Euclidean GP", p.EuclideanMean, p.EuclideanVariance, euclNoise),
		band("IMGP", p.Mean, p.Observation, 0),
		band("IMGP, rank-L refit", refined.Mean, refined.Observation, 0))
	if err != nil {
		return nil, err
	}
	return pl, nil
}

// runFacts: the seeds and timings of the run, for --report.
func (r imgpResult) runFacts() (string, []htmlreport.Timing) {
	return fmt.Sprintf("seed = %d", r.Seed), []htmlreport.Timing{
		timing("seconds_likelihood", r.SecondsLML),
		timing("seconds_graph", r.SecondsGraph),
		timing("seconds_train", r.SecondsTrain),
		timing("seconds_eigen", r.SecondsEigen),
		timing("seconds_euclidean", r.SecondsEucl),
		timing("seconds_euclidean_predict", r.SecondsEuclPred),
		timing("seconds_predict", r.SecondsPredict),
		timing("seconds_fit", r.SecondsFit),
		timing("seconds", r.Seconds),
	}
}

// savePanels saves the panels draw returns to path, each w × h.
func savePanels(path string, draw func() (picture, error), w, h vg.Length) error {
	pic, err := draw()
	if err != nil {
		return fmt.Errorf("drawing the plot: %w", err)
	}
	fig := &figures.Figure{Panels: pic.panels, PanelWidth: w, PanelHeight: h}
	if err := fig.Save(path); err != nil {
		return fmt.Errorf("writing the plot: %w", err)
	}
	return nil
}

// plotSweep draws test RMSE against the labelled fraction, mean ± std over
// seeds, for IMGP, its refit and the Euclidean GP, on log axes.
func plotSweep(path string, r *protocol.IMGPSweepResult) error {
	type stat = func(s protocol.IMGPSweepSummary) (float64, float64)
	series := func(name string, f stat) figures.Series {
		out := figures.Series{Name: name}
		for _, s := range r.Summary {
			m, sd := f(s)
			out.X, out.Y, out.Err = append(out.X, s.Fraction), append(out.Y, m), append(out.Err, sd)
		}
		return out
	}
	return savePanels(path, func() (picture, error) {
		pl, err := figures.Curves("RMSE against labelled fraction", "labelled fraction", "test RMSE (standardised), mean ± std over seeds", true, true,
			series("IMGP", func(s protocol.IMGPSweepSummary) (float64, float64) { return s.RMSEMean, s.RMSEStd }),
			series("IMGP, rank-L refit", func(s protocol.IMGPSweepSummary) (float64, float64) { return s.RefinedRMSEMean, s.RefinedRMSEStd }),
			series("Euclidean GP (Matérn 5/2)", func(s protocol.IMGPSweepSummary) (float64, float64) { return s.EuclideanRMSEMean, s.EuclideanRMSEStd }))
		return picture{panels: []*figures.Plot{pl}}, err
	}, 6*vg.Inch, 4.5*vg.Inch)
}
