package labelprop

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// warmStartGuess writes into f (n×c, in the caller's numbering) the initial
// guess of a spreading solve with weight a and seeds s from the fitted model
// prev: the scores F' of prev, class by class scaled by the β_j that
// minimises the initial residual ‖b_j − β_j·A F'_j‖₂, A = I − aS,
// b = (1 − a)Y. A F' needs no product: F' solves (I − a'S)F' = (1 − a')Y'
// (to prev's tolerance), so a'SF' = F' − (1 − a')Y' and
//
//	A F' = (1 − a/a')·F' + (a/a')(1 − a')·Y',
//	β_j = ⟨A F'_j, b_j⟩ / ‖A F'_j‖²
//
// (β_j = 1 would leave r_0 = (a' − a)(Y − SF'), which does not shrink with
// the distance between the two values; the scale removes the part of r_0
// along A F'). The Chebyshev and CG solvers take any x_0: only the number of
// iterations depends on it, through ‖r_0‖.
func warmStartGuess(prev *Spreading, a float64, g *graph.CSR, s *seeds, f *mat.Dense) error {
	if !prev.fitted {
		return fmt.Errorf("labelprop: WarmStart: %w", ErrNotFitted)
	}
	n, c := f.Dims()
	pn, pc := prev.scores.Dims()
	if pn != n || pc != c || prev.g.Nodes() != g.Nodes() {
		return fmt.Errorf("labelprop: WarmStart was fitted on %d nodes and %d classes, this fit has %d and %d", pn, pc, n, c)
	}
	ap := prev.alpha()
	fa, ya := 1-a/ap, (a/ap)*(1-ap)
	num, den := make([]float64, c), make([]float64, c)
	for i := 0; i < n; i++ {
		row := prev.scores.RawRowView(i)[:c]
		pk, k := prev.seeds.class[i], s.class[i]
		for j, v := range row {
			af := fa * v
			if int(pk) == j {
				af += ya
			}
			if int(k) == j {
				num[j] += af * (1 - a)
			}
			den[j] += af * af
		}
	}
	for j := range num {
		beta := 0.0
		if den[j] > 0 {
			beta = num[j] / den[j]
		}
		num[j] = beta
	}
	for i := 0; i < n; i++ {
		dst, src := f.RawRowView(i)[:c], prev.scores.RawRowView(i)[:c]
		for j, v := range src {
			dst[j] = num[j] * v
		}
	}
	return nil
}
