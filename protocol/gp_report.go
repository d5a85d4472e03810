package protocol

import (
	"github.com/gssl/gssl/gp"
)

// GPReport sums up a RunGP run for a reader (gssl gp prints it, and its
// JSON is the command's): the data, the fitted hyperparameters and the
// test scores in the targets' units, nil (with MetricsReason) without
// test targets.
type GPReport struct {
	Data          string  `json:"data"`
	Points        int     `json:"points"`
	Dims          int     `json:"dims"`
	Labelled      int     `json:"n_labelled"`
	Predicted     int     `json:"n_predicted"`
	Covariance    string  `json:"covariance"`
	Amplitude     float64 `json:"amplitude"`
	LengthScale   float64 `json:"length_scale"`
	Noise         float64 `json:"noise"`
	LML           any     `json:"log_marginal_likelihood"`
	Evaluations   int     `json:"evaluations"`
	RMSE          any     `json:"rmse"`
	NLL           any     `json:"nll"`
	MetricsReason string  `json:"rmse_reason,omitempty"`
}

// NewGPReport sums up run, the RunGP of m on t.
func NewGPReport(m *gp.Regressor, t *RegressionTask, run *GPRun) GPReport {
	n, d := t.X.Dims()
	h := m.Hyperparameters()
	return GPReport{Data: t.Name, Points: n, Dims: d, Labelled: len(t.Labelled), Covariance: m.Covariance.String(),
		Amplitude: h.Amplitude, LengthScale: h.LengthScale, Noise: h.Noise, LML: number(m.LogMarginalLikelihood()),
		Evaluations: m.Evaluations(), Predicted: len(run.Predictions), RMSE: number(run.RMSE), NLL: number(run.NLL), MetricsReason: run.Reason}
}

// RegressionTable is the table of predictions of RunGP or IMGPPredictions:
// id, set, the prediction, the variance of f and of a new observation,
// IMGP's γ when gamma is set, and the true target (nil when unknown).
func RegressionTable(preds []Prediction, gamma bool) PredictionTable {
	cols := []string{"id", "set", "prediction", "variance", "observation_variance", "gamma", "target"}
	if !gamma {
		cols = append(cols[:5], "target")
	}
	return PredictionTable{Columns: cols, Rows: len(preds), Row: func(k int, rec []any) {
		p := preds[k]
		rec[0], rec[1], rec[2], rec[3], rec[4], rec[len(rec)-1] = p.ID, p.Set, p.Mean, p.Variance, p.Observation, p.Target
		if gamma {
			rec[5] = p.Gamma
		}
	}}
}
