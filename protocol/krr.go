package protocol

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/krr"
)

// CentresPoint is one fit of SweepCentres.
type CentresPoint struct {
	// M is the number of centres asked for; Centres the number used (a
	// centre repeating a point already chosen is dropped).
	M, Centres int
	// Prediction holds the predictions of the rows of the points to
	// predict, nil when there are none.
	Prediction *mat.Dense
	// FitSeconds is the wall time of the fit, PredictSeconds that of the
	// prediction.
	FitSeconds, PredictSeconds float64
	// Info is FALKON's description of the fit (zero for Nystrom).
	Info krr.FalkonInfo
}

// SweepCentres fits a clone of model once for every number of centres in
// ms (the clone's Centres.M) on the targets y, all columns at once, and
// predicts xt (which may be nil) with each fit: test error and time against
// M, the trade-off of Nyström methods (Rudi, Carratino & Rosasco 2017,
// Fig. 1–2). model is a *krr.Falkon or a *krr.Nystrom and is not modified;
// every clone shares the sampler and its seed. With Uniform centres the M
// centres are then the first M of one seeded permutation, so the centre
// sets are nested and the curve shows M, not the luck of the draw. Fixed
// centres hold one M and are refused. Each fit holds its own O(M²) state
// only while it runs.
func SweepCentres(ctx context.Context, model krr.MultiOutput, ms []int, x, y, xt *mat.Dense) ([]CentresPoint, error) {
	if len(ms) == 0 {
		return nil, fmt.Errorf("protocol: SweepCentres: no value of M")
	}
	var cs krr.Centres
	switch m := model.(type) {
	case *krr.Falkon:
		cs = m.Centres
	case *krr.Nystrom:
		cs = m.Centres
	default:
		return nil, fmt.Errorf("protocol: SweepCentres: a %T has no Nyström centres; give a *krr.Falkon or a *krr.Nystrom", model)
	}
	if _, ok := cs.Sampler.(krr.Fixed); ok {
		return nil, fmt.Errorf("protocol: SweepCentres: Fixed centres hold one M; sweep with Uniform or Leverage")
	}
	for i, m := range ms {
		if m < 1 {
			return nil, fmt.Errorf("protocol: SweepCentres: M=%d (value %d) is invalid: it must be ≥ 1", m, i+1)
		}
	}
	out := make([]CentresPoint, 0, len(ms))
	for _, m := range ms {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		var fit krr.MultiOutput
		var centres func() int
		var info func() krr.FalkonInfo
		switch base := model.(type) {
		case *krr.Falkon:
			f := base.Clone()
			f.Centres.M = m
			fit, info = f, f.Details
			centres = func() int { return len(f.Details().Centres) }
		case *krr.Nystrom:
			s := base.Clone()
			s.Centres.M = m
			fit, centres, info = s, func() int { return len(s.CentreIndices()) }, func() krr.FalkonInfo { return krr.FalkonInfo{} }
		}
		t0 := time.Now()
		if err := fit.FitTargets(ctx, x, y); err != nil {
			return out, fmt.Errorf("protocol: SweepCentres: M=%d: %w", m, err)
		}
		p := CentresPoint{M: m, Centres: centres(), FitSeconds: time.Since(t0).Seconds(), Info: info()}
		if xt != nil {
			t1 := time.Now()
			pred, err := fit.PredictTargets(ctx, xt)
			if err != nil {
				return out, fmt.Errorf("protocol: SweepCentres: M=%d: %w", m, err)
			}
			p.Prediction, p.PredictSeconds = pred, time.Since(t1).Seconds()
		}
		out = append(out, p)
	}
	return out, nil
}
