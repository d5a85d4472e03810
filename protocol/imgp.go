package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/knngraph"
)

// IMGPScores are the test metrics of one IMGP fit: the RMSE and the mean Gaussian
// negative log-likelihood (with the variance of a new observation) of IMGP,
// of its rank-L refit (Regressor.Refined) and of the Euclidean GP it blends
// in, in the standardised units of the fit (imgp.Regressor.TargetScaling).
// An NLL is NaN when it is undefined (a zero variance).
type IMGPScores struct {
	RMSE, RefinedRMSE, EuclideanRMSE float64
	NLL, RefinedNLL, EuclideanNLL    float64
	// Refined is the rank-L refit and RefinedPrediction its prediction at
	// the test points.
	Refined           *imgp.Regressor
	RefinedPrediction *imgp.Prediction
}

// ScoreIMGP scores the prediction p of r at the test points xt
// (r.Posterior) against their targets yt, in the targets' units, and fits
// and scores the rank-L refit (imgp.Regressor.Refined).
func ScoreIMGP(ctx context.Context, r *imgp.Regressor, p *imgp.Prediction, xt *mat.Dense, yt []float64) (*IMGPScores, error) {
	if len(p.Mean) != len(yt) {
		return nil, fmt.Errorf("protocol: imgp: %d predictions for %d test targets", len(p.Mean), len(yt))
	}
	if s := r.TargetScaling(); s != (imgp.Scaling{Scale: 1}) {
		std := make([]float64, len(yt))
		for i, v := range yt {
			std[i] = (v - s.Mean) / s.Scale
		}
		yt = std
	}
	sc := &IMGPScores{}
	var err error
	if sc.RMSE, err = eval.RMSE(p.Mean, yt); err != nil {
		return nil, err
	}
	sc.NLL = nllOrNaN(p.Mean, p.Observation, yt)
	en := r.EuclideanModel().Hyperparameters().Noise
	ev := make([]float64, len(p.EuclideanVariance))
	for i, v := range p.EuclideanVariance {
		ev[i] = v + en
	}
	sc.EuclideanRMSE, _ = eval.RMSE(p.EuclideanMean, yt)
	sc.EuclideanNLL = nllOrNaN(p.EuclideanMean, ev, yt)
	if sc.Refined, err = r.Refined(ctx); err != nil {
		return nil, err
	}
	if sc.RefinedPrediction, err = sc.Refined.Posterior(ctx, xt); err != nil {
		return nil, err
	}
	sc.RefinedRMSE, _ = eval.RMSE(sc.RefinedPrediction.Mean, yt)
	sc.RefinedNLL = nllOrNaN(sc.RefinedPrediction.Mean, sc.RefinedPrediction.Observation, yt)
	return sc, nil
}

func nllOrNaN(mean, variance, truth []float64) float64 {
	v, err := eval.GaussianNLL(mean, variance, truth)
	if err != nil {
		return math.NaN()
	}
	return v
}

// IMGPSweep compares IMGP with the Euclidean GP over labelled fractions
// and seeds on one KNN graph of the training points (the protocol of gssl
// imgp sweep and BENCHMARKS.md): for every fraction f and seed s in
// 0..Seeds−1 a clone of Model, with Seed s and a fresh Euclidean GP, is
// fitted on the labelled subset Subset(f, s) and scored on the test points.
type IMGPSweep struct {
	// Model is the template of every fit (cloned); its Graph, Seed,
	// Euclidean and Progress are set per run.
	Model     *imgp.Regressor
	Fractions []float64
	Seeds     int
	// Subset returns the labelled indices of fraction f and seed s; nil
	// means eval.RandomLabelled(n, f, s).
	Subset func(f float64, s int) ([]int, error)
	// Progress, if not nil, is called after every run.
	Progress func(IMGPSweepRun)
}

// IMGPSweepRun is one (fraction, seed) fit.
type IMGPSweepRun struct {
	Fraction  float64
	Seed      int
	Labelled  int
	Scores    IMGPScores
	Fitted    imgp.Hyperparameters
	Duration  time.Duration
	Regressor *imgp.Regressor
}

// IMGPSweepSummary is the mean and standard deviation over the seeds of one
// fraction; NLLs that are undefined in a run are left out of their mean.
type IMGPSweepSummary struct {
	Fraction                                float64
	RMSEMean, RMSEStd, NLLMean, NLLStd      float64
	EuclideanRMSEMean, EuclideanRMSEStd     float64
	EuclideanNLLMean, EuclideanNLLStd       float64
	RefinedRMSEMean, RefinedRMSEStd         float64
	RefinedNLLMean, RefinedNLLStd           float64
	EuclideanOverIMGP, EuclideanOverRefined float64 // RMSE ratios
}

// IMGPSweepResult holds every run in order (fractions outer, seeds inner)
// and the summary of every fraction.
type IMGPSweepResult struct {
	Runs      []IMGPSweepRun
	Summary   []IMGPSweepSummary
	GraphTime time.Duration
}

// Run sweeps on training points x with targets y (every row is a graph
// node) and test points xt with targets yt.
func (s IMGPSweep) Run(ctx context.Context, x *mat.Dense, y []float64, xt *mat.Dense, yt []float64) (*IMGPSweepResult, error) {
	k, err := s.check(x, y)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	geo, err := imgp.BuildGraph(ctx, x, k, s.Model.Approximate)
	if err != nil {
		return nil, err
	}
	res := &IMGPSweepResult{GraphTime: time.Since(start)}
	for _, frac := range s.Fractions {
		for seed := 0; seed < s.Seeds; seed++ {
			run, err := s.runOne(ctx, geo, x, y, xt, yt, frac, seed)
			if err != nil {
				return nil, err
			}
			res.Runs = append(res.Runs, run)
			if s.Progress != nil {
				s.Progress(run)
			}
		}
	}
	for _, frac := range s.Fractions {
		res.Summary = append(res.Summary, summariseIMGP(res.Runs, frac))
	}
	return res, nil
}

// check validates the sweep's settings against the rows of x and returns
// the graph's number of neighbours (imgp.DefaultK for 0).
func (s IMGPSweep) check(x *mat.Dense, y []float64) (int, error) {
	if s.Model == nil {
		return 0, errors.New("protocol: imgp sweep: no Model")
	}
	if s.Seeds < 1 {
		return 0, fmt.Errorf("protocol: imgp sweep: %d seeds is invalid: it must be ≥ 1", s.Seeds)
	}
	if len(s.Fractions) == 0 {
		return 0, fmt.Errorf("protocol: imgp sweep: no labelled fractions")
	}
	for i, f := range s.Fractions {
		if !(f > 0 && f <= 1) {
			return 0, fmt.Errorf("protocol: imgp sweep: fraction %d (%v) is invalid: it must be in (0, 1]", i+1, f)
		}
	}
	n, _ := x.Dims()
	if len(y) != n {
		return 0, fmt.Errorf("protocol: imgp sweep: %d targets for %d points", len(y), n)
	}
	k := s.Model.K
	if k == 0 {
		k = imgp.DefaultK
	}
	if k < 1 || k >= n {
		return 0, fmt.Errorf("protocol: imgp sweep: K=%d is invalid for %d points: it must be in [1, %d]", k, n, n-1)
	}
	return k, s.Model.Validate()
}

// runOne fits and scores the sweep's model at one labelled fraction and
// seed on the graph geo.
func (s IMGPSweep) runOne(ctx context.Context, geo *knngraph.Graph, x *mat.Dense, y []float64, xt *mat.Dense, yt []float64, frac float64, seed int) (IMGPSweepRun, error) {
	n, _ := x.Dims()
	var lab []int
	var err error
	if s.Subset != nil {
		lab, err = s.Subset(frac, seed)
	} else {
		lab, err = eval.RandomLabelled(n, frac, uint64(seed))
	}
	if err != nil {
		return IMGPSweepRun{}, err
	}
	ys := make([]float64, len(lab))
	for p, i := range lab {
		if i < 0 || i >= n {
			return IMGPSweepRun{}, fmt.Errorf("protocol: imgp sweep: fraction %v seed %d: labelled index %d is not a point in [0, %d)", frac, seed, i, n)
		}
		ys[p] = y[i]
	}
	t0 := time.Now()
	r := s.Model.Clone()
	r.Graph, r.Seed, r.Euclidean, r.Progress = geo, uint64(seed), &gp.Regressor{}, nil
	if err := r.FitIndexed(ctx, x, lab, ys); err != nil {
		return IMGPSweepRun{}, fmt.Errorf("protocol: imgp sweep: fraction %v seed %d: %w", frac, seed, err)
	}
	p, err := r.Posterior(ctx, xt)
	if err != nil {
		return IMGPSweepRun{}, err
	}
	sc, err := ScoreIMGP(ctx, r, p, xt, yt)
	if err != nil {
		return IMGPSweepRun{}, err
	}
	return IMGPSweepRun{Fraction: frac, Seed: seed, Labelled: len(lab), Scores: *sc, Fitted: r.Hyperparameters(), Duration: time.Since(t0), Regressor: r}, nil
}

// summariseIMGP returns the means and standard deviations over the runs of
// one fraction; undefined NLLs are left out of their means.
func summariseIMGP(runs []IMGPSweepRun, frac float64) IMGPSweepSummary {
	var rm, nl, erm, enl, frm, fnl []float64
	for _, run := range runs {
		if run.Fraction != frac {
			continue
		}
		sc := run.Scores
		rm, erm, frm = append(rm, sc.RMSE), append(erm, sc.EuclideanRMSE), append(frm, sc.RefinedRMSE)
		if !math.IsNaN(sc.NLL) {
			nl = append(nl, sc.NLL)
		}
		if !math.IsNaN(sc.EuclideanNLL) {
			enl = append(enl, sc.EuclideanNLL)
		}
		if !math.IsNaN(sc.RefinedNLL) {
			fnl = append(fnl, sc.RefinedNLL)
		}
	}
	m := IMGPSweepSummary{Fraction: frac}
	m.RMSEMean, m.RMSEStd = eval.MeanStd(rm)
	m.NLLMean, m.NLLStd = eval.MeanStd(nl)
	m.EuclideanRMSEMean, m.EuclideanRMSEStd = eval.MeanStd(erm)
	m.EuclideanNLLMean, m.EuclideanNLLStd = eval.MeanStd(enl)
	m.RefinedRMSEMean, m.RefinedRMSEStd = eval.MeanStd(frm)
	m.RefinedNLLMean, m.RefinedNLLStd = eval.MeanStd(fnl)
	m.EuclideanOverIMGP = m.EuclideanRMSEMean / m.RMSEMean
	m.EuclideanOverRefined = m.EuclideanRMSEMean / m.RefinedRMSEMean
	return m
}

// IMGPTask is the data of one transductive IMGP run: every row of X is a
// graph node; the rows Labelled have their targets in Y and are fitted on,
// the other rows are predicted on the graph; XTest are points off the
// graph. Y has one target per row of X, NaN where unknown (a benchmark
// knows the unlabelled rows' targets too, and scores them); YTest is nil
// when the test targets are unknown. Targets are in their own units.
type IMGPTask struct {
	X        *mat.Dense
	Y        []float64
	Labelled []int
	XTest    *mat.Dense
	YTest    []float64
	// Likelihood, if not nil, has RunIMGP compute the log marginal
	// likelihood at the fitted hyperparameters with these settings.
	Likelihood *imgp.LikelihoodSettings
}

// IMGPRun is the outcome of RunIMGP. Scores and the RMSEs are in the
// standardised units of the fit (imgp.Regressor.TargetScaling); NaN where
// undefined or unscored.
type IMGPRun struct {
	// Test is the posterior at XTest (nil without test points), Scores
	// its metrics (nil without test targets).
	Test   *imgp.Prediction
	Scores *IMGPScores
	// ManifoldRMSE is the RMSE of the graph model alone at XTest;
	// GammaMean the mean γ over XTest.
	ManifoldRMSE, GammaMean float64
	// NodeRMSE and NodeRMSEFull are the RMSEs on the unlabelled nodes with
	// a known target: of the rank-L posterior and of the full-rank GMRF
	// mean.
	NodeRMSE, NodeRMSEFull float64
	// Likelihood is the log marginal likelihood at the fitted
	// hyperparameters (IMGPTask.Likelihood), nil when not asked for.
	Likelihood *imgp.LogLikelihood
	// The durations of the fit, the prediction at XTest, the Euclidean
	// GP's prediction at XTest alone and the likelihood.
	Fit, Predict, EuclideanPredict, LikelihoodTime time.Duration
}

// RunIMGP fits m on the labelled rows of t (m itself is fitted: the caller
// keeps the model) and predicts and scores the test points and the
// unlabelled nodes.
func RunIMGP(ctx context.Context, m *imgp.Regressor, t IMGPTask) (*IMGPRun, error) {
	n, _ := t.X.Dims()
	if len(t.Y) != n {
		return nil, fmt.Errorf("protocol: imgp: %d targets for %d points", len(t.Y), n)
	}
	ys := make([]float64, len(t.Labelled))
	for p, i := range t.Labelled {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("protocol: imgp: labelled index %d is not a point in [0, %d)", i, n)
		}
		ys[p] = t.Y[i]
	}
	run := &IMGPRun{ManifoldRMSE: math.NaN(), NodeRMSE: math.NaN(), NodeRMSEFull: math.NaN()}
	start := time.Now()
	if err := m.FitIndexed(ctx, t.X, t.Labelled, ys); err != nil {
		return nil, err
	}
	run.Fit = time.Since(start)
	sc := m.TargetScaling()
	std := func(v []float64) []float64 {
		if v == nil || sc == (imgp.Scaling{Scale: 1}) {
			return v
		}
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = (x - sc.Mean) / sc.Scale
		}
		return out
	}
	if t.XTest != nil {
		start = time.Now()
		p, err := m.Posterior(ctx, t.XTest)
		if err != nil {
			return nil, err
		}
		run.Predict, run.Test = time.Since(start), p
		if t.YTest != nil {
			if run.Scores, err = ScoreIMGP(ctx, m, p, t.XTest, t.YTest); err != nil {
				return nil, err
			}
			run.ManifoldRMSE, _ = eval.RMSE(p.ManifoldMean, std(t.YTest))
		}
		for _, g := range p.Gamma {
			run.GammaMean += g / float64(len(p.Gamma))
		}
		start = time.Now()
		if _, err := m.EuclideanModel().Predict(ctx, t.XTest); err != nil {
			return nil, err
		}
		run.EuclideanPredict = time.Since(start)
	}
	nodes, err := m.Posterior(ctx, nil)
	if err != nil {
		return nil, err
	}
	labelled := make([]bool, n)
	for _, i := range t.Labelled {
		labelled[i] = true
	}
	full, y := m.NodeMean(), std(t.Y)
	var pm, pf, tm []float64
	for i := range labelled {
		if !labelled[i] && !math.IsNaN(y[i]) {
			pm, pf, tm = append(pm, nodes.Mean[i]), append(pf, full[i]), append(tm, y[i])
		}
	}
	if len(pm) > 0 {
		run.NodeRMSE, _ = eval.RMSE(pm, tm)
		run.NodeRMSEFull, _ = eval.RMSE(pf, tm)
	}
	if t.Likelihood != nil {
		start = time.Now()
		ll, err := m.LogMarginalLikelihood(ctx, *t.Likelihood)
		if err != nil {
			return nil, err
		}
		run.Likelihood, run.LikelihoodTime = &ll, time.Since(start)
	}
	return run, nil
}
