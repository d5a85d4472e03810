package protocol

import (
	"github.com/gssl/gssl/imgp"
)

// IMGPReport sums up a RunIMGP run for a reader (gssl imgp prints it, and
// its JSON is the command's). RMSE and NLL are in standardised target
// units; NLL is the mean Gaussian negative log-likelihood of the test
// targets under the predictive mean and the variance of a new observation.
// A figure that does not exist is nil (null in JSON).
type IMGPReport struct {
	Data            string  `json:"data"`
	Nodes           int     `json:"nodes"`
	Test            int     `json:"test"`
	Labelled        float64 `json:"labelled"` // fraction of the nodes
	NLabelled       int     `json:"n_labelled"`
	Seed            uint64  `json:"seed"`
	K               int     `json:"k"`
	Nu              int     `json:"nu"`
	Eigenpairs      int     `json:"eigenpairs"`
	RMSE            any     `json:"rmse"`
	NLL             any     `json:"nll"`
	MetricsReason   string  `json:"rmse_reason,omitempty"`
	ManifoldRMSE    any     `json:"manifold_rmse"`
	RefinedRMSE     any     `json:"refined_rmse"`
	RefinedNLL      any     `json:"refined_nll"`
	RefinedKappa    float64 `json:"refined_kappa"`
	RefinedNoise    float64 `json:"refined_noise"`
	EuclideanRMSE   any     `json:"euclidean_rmse"`
	EuclideanNLL    any     `json:"euclidean_nll"`
	NodeRMSE        any     `json:"node_rmse"`
	NodeRMSEFull    any     `json:"node_rmse_full_rank"`
	GammaMean       float64 `json:"gamma_mean"`
	Alpha           float64 `json:"alpha"`
	Kappa           float64 `json:"kappa"`
	Amplitude       float64 `json:"amplitude"`
	Variance        any     `json:"variance"`
	Noise           float64 `json:"noise"`
	EuclideanAmp    float64 `json:"euclidean_amplitude"`
	EuclideanLength float64 `json:"euclidean_length_scale"`
	EuclideanNoise  float64 `json:"euclidean_noise"`
	EuclideanLML    any     `json:"euclidean_log_marginal_likelihood"`
	// LML is the GMRF log marginal likelihood at the fitted
	// hyperparameters (imgp.Regressor.LogMarginalLikelihood), LMLStdErr its
	// standard error over the SLQ probes (0 when exact); nil when skipped.
	LML             any     `json:"log_marginal_likelihood"`
	LMLStdErr       any     `json:"log_marginal_likelihood_stderr"`
	LMLExact        bool    `json:"log_marginal_likelihood_exact"`
	SecondsLML      float64 `json:"seconds_likelihood"`
	AdamSteps       int     `json:"adam_steps"`
	CGIterations    int     `json:"cg_iterations"`
	Components      int     `json:"components"`
	SecondsGraph    float64 `json:"seconds_graph"`
	SecondsTrain    float64 `json:"seconds_train"`
	SecondsEigen    float64 `json:"seconds_eigen"`
	SecondsEucl     float64 `json:"seconds_euclidean"`
	SecondsEuclPred float64 `json:"seconds_euclidean_predict"`
	SecondsPredict  float64 `json:"seconds_predict"`
	SecondsFit      float64 `json:"seconds_fit"`
}

// NewIMGPReport sums up run, the RunIMGP of r on t (r fitted).
func NewIMGPReport(r *imgp.Regressor, t *RegressionTask, run *IMGPRun) IMGPReport {
	n, lab := rowCount(t.X), len(t.Labelled)
	res := IMGPReport{Data: t.Name, Nodes: n, Test: rowCount(t.XTest), NLabelled: lab, Seed: r.Seed, K: r.K, Nu: r.Nu,
		Eigenpairs: r.Eigenpairs, SecondsFit: run.Fit.Seconds(), Labelled: float64(lab) / float64(n)}
	if res.Eigenpairs == 0 {
		res.Eigenpairs = min(n, imgp.DefaultEigenpairs) // what Fit used
	}
	switch {
	case t.XTest == nil:
		res.MetricsReason = "no points off the graph (--test-features)"
	case t.YTest == nil:
		res.MetricsReason = "no true targets for the points off the graph (--test-targets)"
	}
	if sc := run.Scores; sc != nil {
		res.RMSE, res.NLL, res.RefinedRMSE, res.RefinedNLL = number(sc.RMSE), number(sc.NLL), number(sc.RefinedRMSE), number(sc.RefinedNLL)
		res.EuclideanRMSE, res.EuclideanNLL = number(sc.EuclideanRMSE), number(sc.EuclideanNLL)
		rh := sc.Refined.Hyperparameters()
		res.RefinedKappa, res.RefinedNoise = rh.Kappa, rh.Noise
	}
	res.ManifoldRMSE, res.GammaMean = number(run.ManifoldRMSE), run.GammaMean
	res.NodeRMSE, res.NodeRMSEFull = number(run.NodeRMSE), number(run.NodeRMSEFull)
	res.SecondsPredict, res.SecondsEuclPred = run.Predict.Seconds(), run.EuclideanPredict.Seconds()
	e := r.EuclideanModel()
	eh, h := e.Hyperparameters(), r.Hyperparameters()
	res.Alpha, res.Kappa, res.Amplitude, res.Noise, res.Variance = h.Alpha, h.Kappa, h.Amplitude, h.Noise, number(r.Variance())
	res.EuclideanAmp, res.EuclideanLength, res.EuclideanNoise, res.EuclideanLML = eh.Amplitude, eh.LengthScale, eh.Noise, number(e.LogMarginalLikelihood())
	res.AdamSteps, res.CGIterations = r.Steps()
	_, res.Components = r.FittedGraph().Dist2.Components()
	tm := r.Timings()
	res.SecondsGraph, res.SecondsTrain, res.SecondsEigen, res.SecondsEucl = tm.Graph.Seconds(), tm.Train.Seconds(), tm.Eigen.Seconds(), tm.Euclidean.Seconds()
	if ll := run.Likelihood; ll != nil {
		res.LML, res.LMLStdErr, res.LMLExact, res.SecondsLML = number(ll.Value), number(ll.StdErr), ll.Exact, run.LikelihoodTime.Seconds()
	}
	return res
}

// IMGPSweepReport is an IMGPSweepResult for a reader (gssl imgp sweep
// prints it, and its JSON is the command's): every run and the mean ± std
// over seeds per fraction, nil where undefined.
type IMGPSweepReport struct {
	Data         string              `json:"data"`
	Nodes        int                 `json:"nodes"`
	Test         int                 `json:"test"`
	K            int                 `json:"k"`
	Nu           int                 `json:"nu"`
	Eigenpairs   int                 `json:"eigenpairs"`
	Iterations   int                 `json:"iterations"`
	Runs         []IMGPSweepRunRow   `json:"runs"`
	Summary      []IMGPSweepFraction `json:"summary"`
	SecondsGraph float64             `json:"seconds_graph"`
}

// IMGPSweepRunRow is one (fraction, seed) fit of a sweep.
type IMGPSweepRunRow struct {
	Fraction      float64 `json:"fraction"`
	Seed          int     `json:"seed"`
	NLabelled     int     `json:"n_labelled"`
	RMSE          float64 `json:"rmse"`
	NLL           any     `json:"nll"`
	EuclideanRMSE float64 `json:"euclidean_rmse"`
	EuclideanNLL  any     `json:"euclidean_nll"`
	RefinedRMSE   float64 `json:"refined_rmse"`
	RefinedNLL    any     `json:"refined_nll"`
	Alpha         float64 `json:"alpha"`
	Kappa         float64 `json:"kappa"`
	Noise         float64 `json:"noise"`
	Seconds       float64 `json:"seconds"`
}

// IMGPSweepFraction is mean ± std over the seeds of one fraction.
type IMGPSweepFraction struct {
	Fraction         float64 `json:"fraction"`
	RMSEMean         any     `json:"rmse_mean"`
	RMSEStd          any     `json:"rmse_std"`
	NLLMean          any     `json:"nll_mean"`
	NLLStd           any     `json:"nll_std"`
	EuclideanRMSE    any     `json:"euclidean_rmse_mean"`
	EuclideanRMSEStd any     `json:"euclidean_rmse_std"`
	EuclideanNLL     any     `json:"euclidean_nll_mean"`
	EuclideanNLLStd  any     `json:"euclidean_nll_std"`
	Ratio            any     `json:"euclidean_over_imgp_rmse"`
	RefinedRMSE      any     `json:"refined_rmse_mean"`
	RefinedRMSEStd   any     `json:"refined_rmse_std"`
	RefinedNLL       any     `json:"refined_nll_mean"`
	RefinedNLLStd    any     `json:"refined_nll_std"`
	RefinedRatio     any     `json:"euclidean_over_refined_rmse"`
}

// Report is sr, the Run of s on t, for a reader; iterations is the Adam
// steps asked for.
func (s IMGPSweep) Report(sr *IMGPSweepResult, t *RegressionTask, iterations int) IMGPSweepReport {
	r := IMGPSweepReport{Data: t.Name, Nodes: rowCount(t.X), Test: rowCount(t.XTest), K: s.Model.K, Nu: s.Model.Nu,
		Eigenpairs: s.Model.Eigenpairs, Iterations: iterations, SecondsGraph: sr.GraphTime.Seconds()}
	for _, run := range sr.Runs {
		sc := run.Scores
		r.Runs = append(r.Runs, IMGPSweepRunRow{Fraction: run.Fraction, Seed: run.Seed, NLabelled: run.Labelled,
			RMSE: sc.RMSE, NLL: number(sc.NLL), EuclideanRMSE: sc.EuclideanRMSE, EuclideanNLL: number(sc.EuclideanNLL),
			RefinedRMSE: sc.RefinedRMSE, RefinedNLL: number(sc.RefinedNLL), Alpha: run.Fitted.Alpha, Kappa: run.Fitted.Kappa,
			Noise: run.Fitted.Noise, Seconds: run.Duration.Seconds()})
	}
	for _, m := range sr.Summary {
		r.Summary = append(r.Summary, IMGPSweepFraction{Fraction: m.Fraction, RMSEMean: number(m.RMSEMean), RMSEStd: number(m.RMSEStd),
			NLLMean: number(m.NLLMean), NLLStd: number(m.NLLStd), EuclideanRMSE: number(m.EuclideanRMSEMean), EuclideanRMSEStd: number(m.EuclideanRMSEStd),
			EuclideanNLL: number(m.EuclideanNLLMean), EuclideanNLLStd: number(m.EuclideanNLLStd), Ratio: number(m.EuclideanOverIMGP),
			RefinedRMSE: number(m.RefinedRMSEMean), RefinedRMSEStd: number(m.RefinedRMSEStd), RefinedNLL: number(m.RefinedNLLMean),
			RefinedNLLStd: number(m.RefinedNLLStd), RefinedRatio: number(m.EuclideanOverRefined)})
	}
	return r
}
