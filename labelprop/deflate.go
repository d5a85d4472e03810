package labelprop

import (
	"fmt"
	"math"

	"github.com/gssl/gssl/graph"
)

// spreadDeflate turns the deflation of spreadingCG on (the default); the
// tests turn it off to compare the plain recursion with krylov.BlockCG.
var spreadDeflate = true

// deflation is the known eigenvector of label spreading's CG solve:
// S e = e for e = D^{1/2}1/‖D^{1/2}1‖ (the row sums of D^{-1/2}W are the
// degrees' square roots), so (I − aS)e = (1 − a)e and the solution's
// component along e is eᵀb/(1 − a) in closed form. CG runs on the rest,
// (I − aS) restricted to e's orthogonal complement, whose spectrum lacks
// the extreme eigenvalue 1 − a (doc.go, "Deflation").
//
// The stored vectors are not projected. With P = I − eeᵀ, which commutes
// with I − aS, the recursion keeps r_s = b − (I − aS)x_s and the
// directions p_s, and the deflated CG's residual and directions are
// P r_s and P p_s: only the scalars need the projection,
//
//	‖P r_s‖² = ‖r_s‖² − (eᵀr_s)²,
//	(P p_s)ᵀ(I − aS)(P p_s) = p_sᵀq_s − (1 − a)(eᵀp_s)²,
//
// and the two dot products with e are summed in the passes that read r_s
// and p_s anyway. So r_s starts as B, nonzero on the labelled nodes only,
// and the first products still skip p̃'s zero rows. The iterate the
// recursion stands for is x = P x_s + (eᵀb/(1 − a))e; assemble writes it
// into X before every true residual (which is then that of X on the
// original system) and when the solve returns.
type deflation struct {
	// d holds the degrees (0 for an isolated node, whose e_i is 0) and
	// norm = ‖D^{1/2}1‖ = √Σd. The passes sum d_i·t_i·v_i = norm·eᵀv for
	// a vector v (t_i = d_i^{-1/2}) and d_i·p̃_i = norm·eᵀp for p = u∘p̃.
	d    []float64
	norm float64
	a1   float64 // 1 − a

	eb  []float64 // eᵀb_j
	rho []float64 // norm·eᵀr_j for the residual of the last pass over r
	pi  []float64 // norm·eᵀp_j for the direction of the last product
	rr  []float64 // ‖P r_j‖² of the last Update

	// kr and kp are the factors of the explicit projection in Step
	// (projections).
	kr, kp []float64
	corr   []float64 // subtracted from ‖r_j‖² by Precondition: (eᵀr_j)² after a true residual, else 0

	// assembled says X holds the iterate itself, not x_s. It starts
	// false: a nonzero initial guess gets the closed-form component too.
	assembled bool
}

// newDeflation returns the deflation of a solve on g for its degrees d,
// the scaling t of the directions and B, or nil when it is off or no
// labelled node has an edge. e is taken on the components that hold a
// nonzero row of B (b.reached, or g.Reachable): D^{1/2} times their
// indicator is an eigenvector too, and the iterates stay zero on the other
// components, as without deflation. d is zeroed outside them, in place.
func newDeflation(g *graph.CSR, d, t []float64, a float64, b sparseRHS) (*deflation, error) {
	if !spreadDeflate {
		return nil, nil
	}
	reached := b.reached
	if reached == nil {
		var err error
		if reached, err = rhsReached(g, b); err != nil {
			return nil, err
		}
	}
	sum := 0.0
	for i := range d {
		if !reached[i] {
			d[i] = 0
		}
		sum += d[i]
	}
	if !(sum > 0) || math.IsInf(sum, 1) {
		return nil, nil
	}
	df := &deflation{d: d, norm: math.Sqrt(sum), a1: 1 - a}
	return df.forRHS(t, b), nil
}

// forRHS returns the deflation of the same graph, a and support for the
// right-hand side b.
func (df *deflation) forRHS(t []float64, b sparseRHS) *deflation {
	c := b.c
	out := &deflation{d: df.d, norm: df.norm, a1: df.a1, eb: make([]float64, c),
		rho: make([]float64, c), corr: make([]float64, c), pi: make([]float64, c),
		rr: make([]float64, c), kr: make([]float64, c), kp: make([]float64, c)}
	for p, i := range b.rows {
		w := out.weight(i, t)
		for j, v := range b.vals[p*c : p*c+c] {
			out.eb[j] += w * v
		}
	}
	return out
}

// rhsReached marks the nodes of g with a path to a nonzero row of b.
func rhsReached(g *graph.CSR, b sparseRHS) ([]bool, error) {
	out, err := g.Reachable(b.rows)
	if err != nil {
		return nil, fmt.Errorf("labelprop: %w", err)
	}
	return out, nil
}

// weight returns d_i·t_i/norm = e_i.
func (df *deflation) weight(i int, t []float64) float64 { return df.d[i] * t[i] / df.norm }

// projectPAP sets pap_j ← p_sᵀq_s − (1 − a)(eᵀp_s)² from pq = p_sᵀq_s and
// raw = norm·eᵀp_s.
func (df *deflation) projectPAP(pap, pq, raw []float64) {
	for j := range pap {
		e := raw[j] / df.norm
		pap[j] = pq[j] - df.a1*e*e
	}
}

// projectRR sets rr_j ← max(‖r_j‖² − (eᵀr_j)², 0) from ss = ‖r_j‖² and
// raw = norm·eᵀr_j, and keeps raw and rr.
func (df *deflation) projectRR(rr, ss, raw []float64) {
	copy(df.rho, raw)
	for j := range rr {
		e := raw[j] / df.norm
		rr[j] = max(ss[j]-e*e, 0)
	}
	copy(df.rr, rr)
}

// deflateRatio is the ratio (eᵀr)²/‖P r‖² from which Step projects a
// column's r and p explicitly: the subtractions of projectRR and
// projectPAP then lose up to log10 of it digits, 4 of 16.
const deflateRatio = 1e4

// projections returns the factors of Step's explicit projection, or false
// when no column needs one: r ← r − kr_j·(d_i·t_i) (that is P r) and
// p̃ ← p̃ − kp_j·[d_i > 0] (P p, on p = u∘p̃), for the columns whose r has
// a component along e above deflateRatio times the rest (kr_j = kp_j = 0
// for the others). Kept implicit, the components would keep r and p
// nonzero where they are zero (the support products) but cost digits as
// the residual falls; projected once it is small, they stay near zero.
func (df *deflation) projections() ([]float64, []float64, bool) {
	some := false
	sum := df.norm * df.norm
	for j, rho := range df.rho {
		df.kr[j], df.kp[j] = 0, 0
		if rho*rho/sum > deflateRatio*df.rr[j] {
			df.kr[j], df.kp[j] = rho/sum, df.pi[j]/sum
			some = true
		}
	}
	return df.kr, df.kp, some
}

// assembleGamma returns γ_j = eᵀb_j/(1 − a) − eᵀx_j from raw = norm·eᵀx_j:
// x + γe is the iterate the recursion stands for.
func (df *deflation) assembleGamma(raw []float64) []float64 {
	for j := range raw {
		raw[j] = df.eb[j]/df.a1 - raw[j]/df.norm
	}
	return raw
}
