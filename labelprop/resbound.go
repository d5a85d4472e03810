package labelprop

import (
	"math"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
)

// residualGap bounds, during a cold CG solve, the gap between the
// recursive residual that CG stops on and the true residual of the
// assembled iterate, so that the solve can end without the product of a
// final true residual (krylov.BlockCGBound). The bound is the standard
// rounding-error analysis of the recursive residual (A. Greenbaum, "Estimating
// the attainable accuracy of recursively computed residual methods", SIAM J.
// Matrix Anal. Appl. 18, 1997; G. L. G. Sleijpen and H. A. van der Vorst,
// "Reliable updated residuals in hybrid Bi-CG methods", Computing 56, 1996)
// in the standard model of floating point (N. J. Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., SIAM 2002, §2–3:
// γ_k = ku/(1 − ku), u = 2^-53), written out for the passes of spreadingCG.
// A is I − aS with the degrees the solve stores (those the true residual
// uses), ‖A‖ ≤ 1 + a and A ⪰ (1 − a)I; P = I − eeᵀ (I without deflation),
// ‖P‖ ≤ 1; p = u∘p̃ (exactly, in real numbers) is the direction the stored
// p̃ stands for; εm = γ_{m+16} with m the longest row, εn = γ_{n+m+16}.
//
//   - Product: q_i = u_i·p̃_i − a·t_i·Σ_j W_ij p̃_j, a sum of at most m
//     terms in any order plus six roundings of the scalings, so
//     |q − Ap| ≤ εm(|p| + aS|p|) and, S being nonnegative with ‖S‖ = 1,
//     ‖q − Ap‖ ≤ εm(1 + a)‖p‖. The computed pᵀq (an n-term sum) then
//     exceeds (1 − a)‖p‖²/2 while (εm + 2εn)(1 + a) ≤ (1 − a)/2 (else no
//     bound is kept), so ‖p‖ ≤ pn = √(2pᵀq/(1 − a)).
//   - Update, Step: x ← x + α·(u_i p̃_i) and r ← r − α·q with the same α,
//     each entry within γ_3 of exact: the gap f = P(b − Ax_s) − Pr, zero
//     from x_s = 0 and r = B (a cold solve's first residual), grows per
//     iteration by at most |α|εm(1 + a)pn (the product), (1 + a)εm(X +
//     |α|pn) (x's rounding, X ≥ ‖x_s‖ the sum of the |α|pn so far) and
//     εm(‖r‖ + 2|α|(1 + a)pn) (r's), plus 3εn‖r‖ for Step's explicit
//     projection r ← r − (êᵀr)ê (ê the stored e, within 3u of it).
//   - The stopping sums: rr = ‖r‖² − (êᵀr)² as computed is within
//     6εn·ss of ‖Pr‖² (ss the computed ‖r‖²).
//   - Assembly: F = x_s + γ̂e with γ̂ = eᵀb/(1 − a) − eᵀx_s computed, so
//     b − AF = P(b − Ax_s) up to 4εn(1 + a)(2X + ‖b‖/(1 − a)) (the
//     rounding of γ̂, of ê and of the sum, and Ae − (1 − a)e, which the
//     rounded degrees of a weighted graph make at most aεm).
//
// Hence ‖b − AF‖ ≤ √(rr + 6εn·ss) + G + 4εn(1 + a)(2X + ‖b‖/(1 − a)),
// G the gap's accumulated bound; ResidualBound returns it times 1 + 4εn
// (the terms of second order in u). At 1 M edges it is below 10⁻¹³‖b‖,
// so the solve stops where the true residual would have stopped it. It
// is kept only for cold solves (a warm start's first residual takes a
// product, whose own error would start the gap), and the solve falls back
// to the true residual whenever the bound misses Tol. With the float32
// gathers (gather32.go) p̃ is the direction rounded to float32 when Step
// or Restart forms it; the product reads that p̃ (its float32 copy holds
// the same values) with the float64 kernels' operations and x's update
// reads it too, so the analysis above applies to it unchanged: it bounds
// the gap between x and r for whatever directions they moved by, and
// assumes nothing of their conjugacy, which the rounding perturbs.
type residualGap struct {
	a, epsM, epsN float64
	// per column: pn bounds ‖p‖ (the last product), x bounds ‖x_s‖, g the
	// gap, rr and ss the last Update's ‖Pr‖² and ‖r‖² as computed.
	pn, x, g, rr, ss []float64
}

// gamma returns γ_k = ku/(1 − ku), u = 2^-53.
func gamma(k int) float64 {
	ku := float64(k) * 0x1p-53
	return ku / (1 - ku)
}

// longestRow returns the length of g's longest row.
func longestRow(g *graph.CSR) int {
	n := g.Nodes()
	const grain = 1 << 16
	best := make([]int, parallel.NumChunks(n, grain))
	parallel.Chunks(n, grain, func(k, lo, hi int) {
		for i := lo; i < hi; i++ {
			best[k] = max(best[k], g.RowLen(i))
		}
	})
	m := 0
	for _, v := range best {
		m = max(m, v)
	}
	return m
}

// newResidualGap returns the gap bound of a cold solve of n×c blocks with
// longest row m, or nil when rounding could hide ‖p‖ in pᵀq.
func newResidualGap(a float64, n, m, c int) *residualGap {
	g := &residualGap{a: a, epsM: gamma(m + 16), epsN: gamma(n + m + 16)}
	if !((g.epsM+2*g.epsN)*(1+a) <= (1-a)/2) {
		return nil
	}
	v := make([]float64, 5*c)
	g.pn, g.x, g.g, g.rr, g.ss = v[:c], v[c:2*c], v[2*c:3*c], v[3*c:4*c], v[4*c:]
	return g
}

// directions records ‖p_j‖ ≤ √(2pᵀq/(1 − a)) from a product's computed
// pᵀq; false when a sum is not positive (no bound is kept).
func (g *residualGap) directions(pq []float64) bool {
	for j, v := range pq {
		if !(v >= 0) {
			return false
		}
		g.pn[j] = math.Sqrt(2 * v / (1 - g.a))
	}
	return true
}

// update adds an Update's (and the following Step's) rounding to the gap:
// alpha the steps, rr and ss the computed ‖Pr‖² and ‖r‖² of the new r.
func (g *residualGap) update(alpha, rr, ss []float64) {
	a1, em, en := 1+g.a, g.epsM, g.epsN
	for j, al := range alpha {
		g.rr[j], g.ss[j] = rr[j], ss[j]
		rn := math.Sqrt(ss[j] / (1 - en))
		step := math.Abs(al) * g.pn[j]
		g.x[j] = (g.x[j] + step) * (1 + em)
		g.g[j] += em*a1*step + a1*em*(g.x[j]+step) + em*(rn+2*a1*step) + 3*en*rn
	}
}

// bound sets bound_j to the bound of ‖b_j − AF_j‖ (see residualGap) for
// ‖b_j‖ = bnorm_j.
func (g *residualGap) bound(bound, bnorm []float64) {
	a1, en := 1+g.a, g.epsN
	for j := range bound {
		assembly := 4 * en * a1 * (2*g.x[j] + bnorm[j]/(1-g.a))
		bound[j] = (math.Sqrt(g.rr[j]+6*en*g.ss[j]) + g.g[j] + assembly) * (1 + 4*en)
	}
}

// ResidualBound sets bound_j to an upper bound on the true residual
// ‖b_j − AF_j‖ of the iterate the solve returns (residualGap), or returns
// false when the solve keeps none.
func (cg *spreadingCG) ResidualBound(bound []float64) bool {
	if cg.gap == nil {
		return false
	}
	cg.gap.bound(bound, cg.bnorm)
	return true
}
