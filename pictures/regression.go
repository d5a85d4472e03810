package pictures

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/protocol"
)

// GP draws a GP run's test predictions against their targets with the ±2σ
// band of a new observation, in the targets' units (the points with a
// known target only); rep is the run's report.
func GP(run *protocol.GPRun, rep protocol.GPReport) (Picture, error) {
	pic := Picture{Caption: fmt.Sprintf("GP (%s) on %s: test predictions against targets", rep.Covariance, rep.Data)}
	if math.IsNaN(run.RMSE) {
		pic.note("no prediction panel: " + run.Reason)
		return pic, nil
	}
	b := figures.Band{Name: "GP, " + rep.Covariance}
	for _, p := range run.Predictions {
		if p.Set == "test-features" {
			b.Truth, b.Mean, b.SD = append(b.Truth, p.Target), append(b.Mean, p.Mean), append(b.SD, math.Sqrt(p.Observation))
		}
	}
	if len(b.Truth) == 0 {
		pic.note("no prediction panel: no test point")
		return pic, nil
	}
	pl, err := figures.PredictionBands(fmt.Sprintf("GP on %s: RMSE %.4f", filepath.Base(rep.Data), run.RMSE), "true target", "predicted (±2σ)", b)
	pic.Panels = []*figures.Plot{pl}
	return pic, err
}

// IMGP draws predicted against true test targets of an IMGP run of r on
// data, in the data's original units (scale × standardised), for the
// Euclidean GP, IMGP and its rank-L refit, each with the ±2σ band of a new
// observation and the diagonal.
func IMGP(data *protocol.RegressionTask, r *imgp.Regressor, run *protocol.IMGPRun) (Picture, error) {
	if run.Scores == nil {
		return Picture{Notes: []string{"no figure: it needs the true targets of the points off the graph (--test-targets)"}}, nil
	}
	yt, p, refined, scale := data.Standardised(), run.Test, run.Scores.RefinedPrediction, data.Scaling.Scale
	band := func(name string, mean, variance []float64, noise float64) figures.Band {
		b := figures.Band{Name: name, Truth: make([]float64, len(yt)), Mean: make([]float64, len(yt)), SD: make([]float64, len(yt))}
		for i := range yt {
			b.Truth[i], b.Mean[i], b.SD[i] = scale*yt[i], scale*mean[i], scale*math.Sqrt(variance[i]+noise)
		}
		return b
	}
	pl, err := figures.PredictionBands(fmt.Sprintf("IMGP vs Euclidean GP (%s)", data.Name), "true target", "predicted (±2σ)",
		band("Euclidean GP", p.EuclideanMean, p.EuclideanVariance, r.EuclideanModel().Hyperparameters().Noise),
		band("IMGP", p.Mean, p.Observation, 0),
		band("IMGP, rank-L refit", refined.Mean, refined.Observation, 0))
	return Picture{Panels: []*figures.Plot{pl}, Caption: "IMGP and the Euclidean GP: " + data.Name}, err
}

// IMGPSweep draws test RMSE against the labelled fraction, mean ± std over
// seeds, for IMGP, its refit and the Euclidean GP, on log axes.
func IMGPSweep(r *protocol.IMGPSweepResult) (Picture, error) {
	series := func(name string, f func(s protocol.IMGPSweepSummary) (float64, float64)) figures.Series {
		out := figures.Series{Name: name}
		for _, s := range r.Summary {
			m, sd := f(s)
			out.X, out.Y, out.Err = append(out.X, s.Fraction), append(out.Y, m), append(out.Err, sd)
		}
		return out
	}
	pl, err := figures.Curves("RMSE against labelled fraction", "labelled fraction", "test RMSE (standardised), mean ± std over seeds", true, true,
		series("IMGP", func(s protocol.IMGPSweepSummary) (float64, float64) { return s.RMSEMean, s.RMSEStd }),
		series("IMGP, rank-L refit", func(s protocol.IMGPSweepSummary) (float64, float64) { return s.RefinedRMSEMean, s.RefinedRMSEStd }),
		series("Euclidean GP (Matérn 5/2)", func(s protocol.IMGPSweepSummary) (float64, float64) { return s.EuclideanRMSEMean, s.EuclideanRMSEStd }))
	return Picture{Panels: []*figures.Plot{pl}}, err
}

// KRRSweep draws a Nyström sweep: test error (or RMSE) against the number
// of centres M and the fit time against M, M on a log axis when the sweep
// spans a factor of 8 or more, with the table of every M.
func KRRSweep(res protocol.KRRSweepReport) (Picture, error) {
	pic := Picture{Caption: fmt.Sprintf("%s on %s: test error and fit time against the number of centres M", res.Solver, res.Data)}
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
	pic.Tables = append(pic.Tables, t)
	logM, xLabel := spansFactor(ms, 8), "M (Nyström centres)"
	if res.TestReason != "" {
		pic.note("no error panel: " + res.TestReason)
	} else {
		title := fmt.Sprintf("%s against M\n(%s, %s σ=%g, λ=%g)", score, res.Solver, res.Kernel, res.Sigma, res.Lambda)
		p, err := figures.Curves(title, xLabel, score, logM, spansFactor(scores, 10), figures.Series{X: ms, Y: scores})
		if err != nil {
			return pic, err
		}
		pic.Panels = append(pic.Panels, p)
	}
	p, err := figures.Curves(fmt.Sprintf("fit time against M\n(%d training points, d = %d)", res.Train, res.Dim), xLabel, "fit seconds",
		logM, spansFactor(secs, 10), figures.Series{X: ms, Y: secs})
	pic.Panels = append(pic.Panels, p)
	return pic, err
}
