package protocol

import (
	"errors"
	"fmt"

	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/loaders"
)

// KRRModels are the models of gssl falkon: the Spec with each number of
// centres of M, several for a sweep (SweepKRR); a Spec.Centres that is
// neither uniform nor leverage names a file of centre indices (one per
// line), which holds one M.
type KRRModels struct {
	M []int `flag:"m"`
	krr.Spec
}

// Sweep reports whether several M are given.
func (k KRRModels) Sweep() bool { return len(k.M) > 1 }

// Resolve checks M and returns the Spec of the first M (the sweep's
// template) with a file's centres read; note says when the file's count
// of centres replaces the M given.
func (k KRRModels) Resolve() (s krr.Spec, note string, err error) {
	s = k.Spec
	file := k.Centres != "uniform" && k.Centres != "leverage"
	switch {
	case len(k.M) == 0:
		return s, "", errors.New("--m is empty: give a number of centres, or several (--m 250,500,1000)")
	case k.Sweep() && file:
		return s, "", fmt.Errorf("--centres %s: a file of centres holds one M; sweep --m with uniform or leverage centres", k.Centres)
	case !k.Sweep():
		s.M = k.M[0]
	}
	if !file {
		return s, "", nil
	}
	idx, err := loaders.ReadInts(k.Centres)
	if err != nil {
		return s, "", fmt.Errorf("--centres: %w", err)
	}
	if s.M != 0 && len(idx) != s.M {
		note = fmt.Sprintf("%s holds %d centres; using M=%d", k.Centres, len(idx), len(idx))
	}
	s.CentreIndices = idx
	return s, note, nil
}

// Warnings are what the fit of r did that its user should know: centres
// that repeat a point already chosen, and a jitter raised on a singular
// K_MM.
func (r KRRReport) Warnings() []string {
	var w []string
	if r.DroppedCentres > 0 {
		w = append(w, fmt.Sprintf("%d centres repeat a point already chosen and were left out: M=%d", r.DroppedCentres, r.M))
	}
	if r.JitterRaises > 0 {
		w = append(w, fmt.Sprintf("K_MM is numerically singular for λ=%g: jitter ε raised %d times to %g", r.Lambda, r.JitterRaises, r.Jitter))
	}
	return w
}
