package imgp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/gp"
)

// Scores are the test metrics of one fit: the RMSE and the mean Gaussian
// negative log-likelihood (with the variance of a new observation) of IMGP,
// of its rank-L refit (Regressor.Refined) and of the Euclidean GP it blends
// in. An NLL is NaN when it is undefined (a zero variance).
type Scores struct {
	RMSE, RefinedRMSE, EuclideanRMSE float64
	NLL, RefinedNLL, EuclideanNLL    float64
	// Refined is the rank-L refit and RefinedPrediction its prediction at
	// the test points.
	Refined           *Regressor
	RefinedPrediction *Prediction
}

// Score scores the prediction p of r at the test points xt against their
// targets yt, and fits and scores the rank-L refit.
func Score(ctx context.Context, r *Regressor, p *Prediction, xt *mat.Dense, yt []float64) (*Scores, error) {
	if len(p.Mean) != len(yt) {
		return nil, fmt.Errorf("imgp: %d predictions for %d test targets", len(p.Mean), len(yt))
	}
	sc := &Scores{}
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
	if sc.RefinedPrediction, err = sc.Refined.Predict(ctx, xt); err != nil {
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

// RandomLabelled draws the labelled points of a transductive run: a seeded
// random subset of round(fraction·n) of the n points, fraction in (0, 1].
func RandomLabelled(n int, fraction float64, seed uint64) ([]int, error) {
	if !(fraction > 0 && fraction <= 1) {
		return nil, fmt.Errorf("imgp: labelled fraction %v is invalid: it must be in (0, 1]", fraction)
	}
	m := int(math.Round(fraction * float64(n)))
	if m < 1 {
		return nil, fmt.Errorf("imgp: labelled fraction %v of %d points labels no point; use at least %.3g", fraction, n, 1/float64(n))
	}
	rng := rand.New(rand.NewPCG(seed, 0x1abe1))
	return rng.Perm(n)[:m], nil
}

// Sweep compares IMGP with the Euclidean GP over labelled fractions and
// seeds on one KNN graph of the training points (the protocol of gssl imgp
// sweep and BENCHMARKS.md): for every fraction f and seed s in 0..Seeds−1 a
// Regressor like Model, with Seed s and a fresh Euclidean GP, is fitted on
// the labelled subset Subset(f, s) and scored on the test points.
type Sweep struct {
	// Model is the template of every fit: K, Nu, Eigenpairs, Iterations,
	// LearningRate, Probes, Distance, Approximate are used; Graph, Seed and
	// Euclidean are set per run.
	Model     Regressor
	Fractions []float64
	Seeds     int
	// Subset returns the labelled indices of fraction f and seed s; nil
	// means RandomLabelled(n, f, s).
	Subset func(f float64, s int) ([]int, error)
	// Progress, if not nil, is called after every run.
	Progress func(SweepRun)
}

// SweepRun is one (fraction, seed) fit.
type SweepRun struct {
	Fraction  float64
	Seed      int
	Labelled  int
	Scores    Scores
	Fitted    Hyperparameters
	Duration  time.Duration
	Regressor *Regressor
}

// SweepSummary is the mean and standard deviation over the seeds of one
// fraction; NLLs that are undefined in a run are left out of their mean.
type SweepSummary struct {
	Fraction                                float64
	RMSEMean, RMSEStd, NLLMean, NLLStd      float64
	EuclideanRMSEMean, EuclideanRMSEStd     float64
	EuclideanNLLMean, EuclideanNLLStd       float64
	RefinedRMSEMean, RefinedRMSEStd         float64
	RefinedNLLMean, RefinedNLLStd           float64
	EuclideanOverIMGP, EuclideanOverRefined float64 // RMSE ratios
}

// SweepResult holds every run in order (fractions outer, seeds inner) and
// the summary of every fraction.
type SweepResult struct {
	Runs      []SweepRun
	Summary   []SweepSummary
	GraphTime time.Duration
}

// Run sweeps on training points x with targets y (every row is a graph
// node) and test points xt with targets yt.
func (s Sweep) Run(ctx context.Context, x *mat.Dense, y []float64, xt *mat.Dense, yt []float64) (*SweepResult, error) {
	if s.Seeds < 1 {
		return nil, fmt.Errorf("imgp: sweep: %d seeds is invalid: it must be ≥ 1", s.Seeds)
	}
	if len(s.Fractions) == 0 {
		return nil, fmt.Errorf("imgp: sweep: no labelled fractions")
	}
	n, _ := x.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("imgp: sweep: %d targets for %d points", len(y), n)
	}
	k := s.Model.K
	if k == 0 {
		k = 50
	}
	if k < 1 || k >= n {
		return nil, fmt.Errorf("imgp: sweep: K=%d is invalid for %d points: it must be in [1, %d]", k, n, n-1)
	}
	if err := s.Model.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	geo, err := BuildGraph(ctx, x, k, s.Model.Approximate)
	if err != nil {
		return nil, err
	}
	res := &SweepResult{GraphTime: time.Since(start)}
	for _, frac := range s.Fractions {
		for seed := 0; seed < s.Seeds; seed++ {
			var lab []int
			if s.Subset != nil {
				lab, err = s.Subset(frac, seed)
			} else {
				lab, err = RandomLabelled(n, frac, uint64(seed))
			}
			if err != nil {
				return nil, err
			}
			ys := make([]float64, len(lab))
			for p, i := range lab {
				if i < 0 || i >= n {
					return nil, fmt.Errorf("imgp: sweep: fraction %v seed %d: labelled index %d is not a point in [0, %d)", frac, seed, i, n)
				}
				ys[p] = y[i]
			}
			t0 := time.Now()
			r := s.Model
			r.Graph, r.Seed, r.Euclidean, r.Progress = geo, uint64(seed), &gp.Regressor{}, nil
			if err := r.FitIndexed(ctx, x, lab, ys); err != nil {
				return nil, fmt.Errorf("imgp: sweep: fraction %v seed %d: %w", frac, seed, err)
			}
			p, err := r.Predict(ctx, xt)
			if err != nil {
				return nil, err
			}
			sc, err := Score(ctx, &r, p, xt, yt)
			if err != nil {
				return nil, err
			}
			run := SweepRun{Fraction: frac, Seed: seed, Labelled: len(lab), Scores: *sc, Fitted: r.Hyperparameters(), Duration: time.Since(t0), Regressor: &r}
			res.Runs = append(res.Runs, run)
			if s.Progress != nil {
				s.Progress(run)
			}
		}
	}
	for _, frac := range s.Fractions {
		var rm, nl, erm, enl, frm, fnl []float64
		for _, run := range res.Runs {
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
		m := SweepSummary{Fraction: frac}
		m.RMSEMean, m.RMSEStd = eval.MeanStd(rm)
		m.NLLMean, m.NLLStd = eval.MeanStd(nl)
		m.EuclideanRMSEMean, m.EuclideanRMSEStd = eval.MeanStd(erm)
		m.EuclideanNLLMean, m.EuclideanNLLStd = eval.MeanStd(enl)
		m.RefinedRMSEMean, m.RefinedRMSEStd = eval.MeanStd(frm)
		m.RefinedNLLMean, m.RefinedNLLStd = eval.MeanStd(fnl)
		m.EuclideanOverIMGP = m.EuclideanRMSEMean / m.RMSEMean
		m.EuclideanOverRefined = m.EuclideanRMSEMean / m.RefinedRMSEMean
		res.Summary = append(res.Summary, m)
	}
	return res, nil
}
