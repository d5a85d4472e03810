package krr

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"
)

// SweepPoint is one fit of SweepCentres.
type SweepPoint struct {
	// M is the number of centres asked for; Centres the number used (a
	// centre repeating a point already chosen is dropped).
	M, Centres int
	// Prediction holds the predictions of the rows of the points to
	// predict, nil when there are none.
	Prediction *mat.Dense
	// FitSeconds is the wall time of Fit, PredictSeconds that of Predict.
	FitSeconds, PredictSeconds float64
	// Info is FALKON's description of the fit (zero for Nystrom).
	Info FalkonInfo
}

// SweepCentres fits model once for every number of centres in ms and
// predicts xt (which may be nil) with each fit: test error and time against
// M, the trade-off of Nyström methods (Rudi, Carratino & Rosasco 2017,
// Fig. 1–2). model is a *Falkon or a *Nystrom and is not modified; every
// fit copies its settings, Centres.M aside, so all share the sampler and
// its seed. With Uniform centres the M centres are then the first M of one
// seeded permutation, so the centre sets are nested and the curve shows M,
// not the luck of the draw. Fixed centres hold one M and are refused.
// Each fit holds its own O(M²) state only while it runs.
func SweepCentres(ctx context.Context, model Regressor, ms []int, x, y, xt *mat.Dense) ([]SweepPoint, error) {
	if len(ms) == 0 {
		return nil, fmt.Errorf("krr: SweepCentres: no value of M")
	}
	var cs Centres
	switch m := model.(type) {
	case *Falkon:
		cs = m.Centres
	case *Nystrom:
		cs = m.Centres
	default:
		return nil, fmt.Errorf("krr: SweepCentres: a %T has no Nyström centres; give a *Falkon or a *Nystrom", model)
	}
	if _, ok := cs.Sampler.(Fixed); ok {
		return nil, fmt.Errorf("krr: SweepCentres: Fixed centres hold one M; sweep with Uniform or Leverage")
	}
	for i, m := range ms {
		if m < 1 {
			return nil, fmt.Errorf("krr: SweepCentres: M=%d (value %d) is invalid: it must be ≥ 1", m, i+1)
		}
	}
	out := make([]SweepPoint, 0, len(ms))
	for _, m := range ms {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		var fit Regressor
		var centres func() int
		var info func() FalkonInfo
		switch base := model.(type) {
		case *Falkon:
			f := &Falkon{Kernel: base.Kernel, Lambda: base.Lambda, Centres: base.Centres, Iterations: base.Iterations,
				Tol: base.Tol, Jitter: base.Jitter, Precision: base.Precision, BlockRows: base.BlockRows,
				Products: base.Products, Progress: base.Progress}
			f.Centres.M = m
			fit, centres, info = f, func() int { return len(f.info.Centres) }, f.Info
		case *Nystrom:
			s := &Nystrom{Kernel: base.Kernel, Lambda: base.Lambda, Centres: base.Centres, Jitter: base.Jitter,
				Precision: base.Precision, BlockRows: base.BlockRows}
			s.Centres.M = m
			fit, centres, info = s, func() int { return len(s.idx) }, func() FalkonInfo { return FalkonInfo{} }
		}
		t0 := time.Now()
		if err := fit.Fit(ctx, x, y); err != nil {
			return out, fmt.Errorf("krr: SweepCentres: M=%d: %w", m, err)
		}
		p := SweepPoint{M: m, Centres: centres(), FitSeconds: time.Since(t0).Seconds(), Info: info()}
		if xt != nil {
			t1 := time.Now()
			pred, err := fit.Predict(xt)
			if err != nil {
				return out, fmt.Errorf("krr: SweepCentres: M=%d: %w", m, err)
			}
			p.Prediction, p.PredictSeconds = pred, time.Since(t1).Seconds()
		}
		out = append(out, p)
	}
	return out, nil
}
