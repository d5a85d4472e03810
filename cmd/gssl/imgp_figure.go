package main

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/imgp"
)

// plotIMGP draws predicted against true targets (in the data's original
// units: scale × standardised) for both models, each with its ±2σ band of a
// new observation as error bars, and the diagonal (figures.PredictionBands);
// refined is IMGP after the rank-L refit (Regressor.Refined).
func plotIMGP(path, name string, yt []float64, p, refined *imgp.Prediction, euclNoise, scale float64) error {
	pl, err := imgpPanel(name, yt, p, refined, euclNoise, scale)
	if err != nil {
		return err
	}
	fig := &figures.Figure{Panels: []*plot.Plot{pl}, PanelWidth: 7 * vg.Inch, PanelHeight: 6 * vg.Inch}
	if err := fig.Save(path); err != nil {
		return fmt.Errorf("imgp: writing the plot: %w", err)
	}
	return nil
}

// imgpPanel is plotIMGP's panel; yt are the standardised test targets.
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
		return nil, fmt.Errorf("imgp: drawing the plot: %w", err)
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
