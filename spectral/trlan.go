package spectral

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/hugepage"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/linop"
)

// This file holds the single-vector thick-restart Lanczos method (Wu & Simon
// 2000, the restart ARPACK's implicit restart with exact shifts is
// equivalent to), the Method SingleVector path of Eigs.
//
// The basis is stored column-major: basis vector i is the contiguous run
// V[i·n : (i+1)·n], as ARPACK stores it, so classical Gram–Schmidt streams
// whole columns. Each new vector is orthogonalised against the whole basis
// by classical Gram–Schmidt with one re-orthogonalisation (CGS2), the second
// sweep delayed into the next step so that V is read twice per step (see
// extend), computed over fixed row chunks (parallel, reductions summed in chunk order, so the
// result does not depend on the number of cores). The projected matrix
// H = Vᵀ A V is formed explicitly from the Gram–Schmidt coefficients, so
// after a restart the arrowhead of the kept Ritz vectors appears in it by
// itself.

// chunk is the row chunk of the Gram–Schmidt passes: half the rows, one
// chunk per core on the 2-core machines gssl is measured on. The chunks
// depend on n only, so the reductions do not depend on the number of cores.
// (Chunks small enough to keep the rows of V in L2 between the update and
// the projection of the second sweep measured no faster: BENCHMARKS.md.)
func (t *trlan) chunk() int { return max((t.n+1)/2, 1) }

// serialRows is the size below which rowChunks (and rotateColMajor) run
// the chunks one after the other on the caller: a pass over a few thousand
// rows takes a few microseconds, no more than handing half of it to
// another core and waiting for it, and far less when that core is busy
// with another process: gssl cluster --lcc on Cora (2 485 nodes) took a
// median 0.031 s instead of 0.041 s on the loaded 2-core machine (40
// interleaved runs each). On Amazon Photo (7 487 nodes) the serial passes
// measured slower (0.064 s against 0.060 s, 20 runs each), hence 4096. A
// variable for the tests.
var serialRows = 1 << 12

// rowChunks is parallel.Chunks(n, size, body), serial when n < serialRows.
// The chunks are the same either way, and so are the results, bitwise.
func rowChunks(n, size int, body func(k, lo, hi int)) {
	if n >= serialRows {
		parallel.Chunks(n, size, body)
		return
	}
	size = max(size, 1)
	for k, lo := 0, 0; lo < n; k, lo = k+1, lo+size {
		body(k, lo, min(lo+size, n))
	}
}

// breakdownTol is the norm, relative to ‖A‖, below which a new Lanczos
// vector is taken as zero (the Krylov space is invariant) and replaced by a
// random direction orthogonal to the basis.
const breakdownTol = 1e-12

// singleVectorBasis returns the default basis size of the single-vector
// method, ARPACK's customary ncv = max(2k+1, k+20), at most n.
func singleVectorBasis(n, k, basis int) int {
	m := basis
	if m == 0 {
		m = max(2*k+1, k+20)
	}
	return min(max(m, k+2), n)
}

// trlan is the state of one single-vector thick-restart Lanczos run.
type trlan struct {
	ctx   context.Context
	a     linop.Operator
	n, k  int
	m     int // basis size
	which Which
	c     config
	rng   *rand.Rand

	v     []float64 // (m+1) column-major basis vectors
	h     []float64 // m×m projected matrix (upper triangle), row-major
	coef  []float64 // Gram–Schmidt coefficients of one vector
	part  []float64 // per-chunk partial coefficients
	anorm float64
	res   Result

	// The Chebyshev filter (filter.go): Lanczos runs on
	// B = T_deg(σ(A − γI)/e)/T_deg(far) when deg > 1.
	deg           int
	gamma, e, sgn float64
	tfar          float64
	anormA        float64   // ‖A‖ estimate while Lanczos runs on B
	tolB          float64   // convergence tolerance on B's residual estimates
	cheb          []float64 // scratch vectors of the recursion
	// scaled is the operator as the normalised adjacency when it is one
	// (applyScaled), else nil; unscaled, when not 0, is the norm the basis
	// vector apply reads next has yet to be normalised by (see extend).
	scaled   *sparseOperator
	unscaled float64
}

func newTrlan(ctx context.Context, a linop.Operator, k int, which Which, c config, basis int) *trlan {
	n := a.Dim()
	m := singleVectorBasis(n, k, basis)
	return &trlan{
		ctx: ctx, a: a, n: n, k: k, m: m, which: which, c: c,
		rng: rand.New(rand.NewPCG(c.seed, 0x5eed1a9c21)),
		v:   hugepage.Float64s((m + 1) * n), // columns are gathered from at random

		h:      make([]float64, m*m),
		coef:   make([]float64, m+2),
		scaled: scaledOperator(a),
	}
}

// col returns basis vector i.
func (t *trlan) col(i int) []float64 { return t.v[i*t.n : (i+1)*t.n] }

// basisRows returns the first p basis vectors as the rows of a p×n matrix
// restricted to the rows [lo, hi) of V.
func (t *trlan) basisRows(p, lo, hi int) blas64.General {
	return blas64.General{Rows: p, Cols: hi - lo, Stride: t.n, Data: t.v[lo : (p-1)*t.n+hi]}
}

// cgs2 orthogonalises w against the first p basis vectors by classical
// Gram–Schmidt with a re-orthogonalisation when the DGKS criterion asks for
// it (as ARPACK's dsaitr: when the first sweep removed more than
// 1 − dgks² of ‖w‖², cancellation may have left components along V), and
// returns the coefficients Vᵀw (the sum of both sweeps) in t.coef[:p]. The
// update of the first sweep and the projection of the second run in one
// parallel loop over the row chunks.
func (t *trlan) cgs2(w []float64, p int) []float64 {
	size := t.chunk()
	nc := parallel.NumChunks(t.n, size)
	if len(t.part) < nc*(p+1) {
		t.part = make([]float64, nc*(t.m+2))
	}
	q := p + 1 // coefficients and ‖w‖² per chunk
	part := t.part[:nc*q]
	// Sweep 1: c = Vᵀw and ‖w‖².
	rowChunks(t.n, size, func(k, lo, hi int) {
		projectRows(part[k*q:k*q+p], t.v[lo:], t.n, w[lo:hi])
		var ss float64
		for _, x := range w[lo:hi] {
			ss += x * x
		}
		part[k*q+p] = ss
	})
	c := t.coef[:p+1]
	sumParts(c, part, nc, q)
	ww := c[p]
	c = c[:p]
	var cc float64
	for _, x := range c {
		cc += x * x
	}
	c1 := make([]float64, p)
	copy(c1, c)
	if ww-cc > dgks*dgks*ww {
		rowChunks(t.n, size, func(k, lo, hi int) {
			subtractRows(w[lo:hi], t.v[lo:], t.n, c1)
		})
		return c
	}
	// w ← w − V·c, then c₂ = Vᵀw on the same chunk.
	rowChunks(t.n, size, func(k, lo, hi int) {
		subtractRows(w[lo:hi], t.v[lo:], t.n, c1)
		projectRows(part[k*p:(k+1)*p], t.v[lo:], t.n, w[lo:hi])
	})
	c2 := make([]float64, p)
	sumParts(c2, part, nc, p)
	rowChunks(t.n, size, func(k, lo, hi int) {
		subtractRows(w[lo:hi], t.v[lo:], t.n, c2)
	})
	for i := range c {
		c[i] = c1[i] + c2[i]
	}
	return c
}

// dgks is the DGKS constant of the re-orthogonalisation test, 1/√2 as in
// ARPACK (Daniel, Gragg, Kaufman & Stewart 1976).
const dgks = 0.717

// sumParts sets dst to the sum of the nc per-chunk partial vectors in part,
// in chunk order.
func sumParts(dst, part []float64, nc, p int) {
	copy(dst, part[:p])
	for k := 1; k < nc; k++ {
		row := part[k*p : (k+1)*p]
		for i := range dst {
			dst[i] += row[i]
		}
	}
}

// norm2 returns the Euclidean norm of x (a sequential sum).
func (t *trlan) norm2(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// randomUnit fills basis vector j with a random unit vector orthogonal to
// the first j basis vectors.
func (t *trlan) randomUnit(j int) {
	w := t.col(j)
	for attempt := 0; ; attempt++ {
		for i := range w {
			w[i] = t.rng.NormFloat64()
		}
		if j > 0 {
			t.cgs2(w, j)
		}
		nrm := t.norm2(w)
		if nrm > 1e-8*math.Sqrt(float64(t.n)) || attempt > 5 {
			for i := range w {
				w[i] /= nrm
			}
			return
		}
	}
}

// extend runs Lanczos steps for columns j0, …, m−1 of H, leaving the next
// basis vector in column m, and returns its coupling β_m.
//
// Each new vector gets two sweeps of classical Gram–Schmidt (CGS2), the
// second one delayed into the next step (DCGS2: Hernández, Román & Tomás
// 2007; Świrydowicz et al. 2021): step j multiplies the once-orthogonalised
// ũ_j by A and projects ũ_j and w = A·ũ_j on V_j in one pass over V_j
// (a = V_jᵀũ_j, b = V_jᵀw), then updates both in one more pass:
// v_j = (ũ_j − V_j·a)/s and w ← w − V_j·b − γ·v_j. V is read twice per
// step instead of four times. Since ũ_j = s·v_j + V_j·a,
//
//	A·v_j = (w − A·V_j·a)/s,   A·V_j·a = V_{j+1}·H_{[:j+1, :j]}·a,
//
// so column j of H is ([b; γ] − H_{[:j+1, :j]}·a)/s (with γ = v_jᵀw =
// (ũ_jᵀw − aᵀb)/s), and column j−1, whose residual ũ_j has only now been
// re-orthogonalised, gains (β'_{j−1}/s_{j−1})·a, where β'_{j−1} is the norm
// ũ_j was normalised by. The last vector is re-orthogonalised on its own.
func (t *trlan) extend(j0 int) (float64, error) {
	n, m := t.n, t.m
	nc := parallel.NumChunks(n, t.chunk())
	q := 2*m + 3 // per chunk: a, b, ũᵀũ, ũᵀw, wᵀw
	if len(t.part) < nc*q {
		t.part = make([]float64, nc*q)
	}
	if len(t.coef) < q {
		t.coef = make([]float64, q)
	}
	hm := make([]float64, m) // H_{[:j+1, :j]}·a
	pending := false         // column j awaits its second sweep
	var scale, sPrev float64 // β'_{j−1} and s_{j−1} of a pending column j
	for j := j0; j < m; j++ {
		if err := t.ctx.Err(); err != nil {
			return 0, fmt.Errorf("spectral: %w", err)
		}
		u, w := t.col(j), t.col(j+1)
		t.apply(w, u)
		var ww float64
		sj := 1.0 // the norm v_j = (ũ_j − V_j·a)/s_j was divided by
		if !pending {
			ww = t.sweepFinal(j, w)
		} else {
			var err error
			ww, sj, err = t.sweepDelayed(j, u, w, scale, sPrev, hm)
			if err != nil {
				return 0, err
			}
		}
		t.anorm = math.Max(t.anorm, math.Abs(t.h[j*m+j]))
		beta := math.Sqrt(ww)
		if beta <= breakdownTol*math.Max(t.anorm, 1e-300) {
			// Invariant subspace: continue from a fresh direction
			// (orthogonal to V_{j+1} to working precision), with a zero
			// coupling.
			t.randomUnit(j + 1)
			pending = false
			continue
		}
		if t.deg > 1 && t.scaled != nil && j+1 < m {
			// applyScaled normalises w in its first pass.
			t.unscaled = beta
		} else {
			inv := 1 / beta
			for i := range w {
				w[i] *= inv
			}
		}
		pending, scale, sPrev = true, beta, sj
	}
	if !pending {
		return 0, nil
	}
	return t.sweepLast(scale, sPrev), nil
}

// sweepFinal is the step of extend for a final v_j = u: one sweep of
// w = A·v_j against V_{j+1}, whose coefficients are column j of H, the
// second one coming with the next step. It returns ‖w‖².
func (t *trlan) sweepFinal(j int, w []float64) float64 {
	n, m, size := t.n, t.m, t.chunk()
	nc := parallel.NumChunks(n, size)
	p := j + 1
	part := t.part[:nc*p]
	rowChunks(n, size, func(k, lo, hi int) {
		projectRows(part[k*p:(k+1)*p], t.v[lo:], n, w[lo:hi])
	})
	b := t.coef[:p]
	sumParts(b, part, nc, p)
	for i, x := range b {
		t.h[i*m+j] = x
	}
	rowChunks(n, size, func(k, lo, hi int) {
		subtractRows(w[lo:hi], t.v[lo:], n, b)
		t.part[k] = sumSquares(w[lo:hi])
	})
	return sumFirst(t.part, nc)
}

// sweepDelayed is the step of extend for a pending u = ũ_j, once
// orthogonalised, and w = A·ũ_j: it projects both on V_j in one pass
// (a = V_jᵀũ_j, b = V_jᵀw), gives column j−1 of H the second sweep of its
// residual (scale and sPrev are β'_{j−1} and s_{j−1}), sets column j of H
// (hm is scratch for H_{[:j+1, :j]}·a), and updates both vectors in one
// more pass: v_j = (ũ_j − V_j·a)/s, w ← w − V_j·b − γ·v_j. It returns ‖w‖²
// and s (as sj).
func (t *trlan) sweepDelayed(j int, u, w []float64, scale, sPrev float64, hm []float64) (ww, sj float64, err error) {
	n, size := t.n, t.chunk()
	nc := parallel.NumChunks(n, size)
	p := j
	r := 2*p + 3
	part := t.part[:nc*r]
	rowChunks(n, size, func(k, lo, hi int) {
		c := part[k*r : (k+1)*r]
		projectRows2(c[:p], c[p:2*p], t.v[lo:], n, u[lo:hi], w[lo:hi])
		var uu, uw float64
		for i, x := range u[lo:hi] {
			uu += x * x
			uw += x * w[lo+i]
		}
		c[2*p], c[2*p+1] = uu, uw
	})
	c := t.coef[:r]
	sumParts(c, part, nc, r)
	a, b := c[:p], c[p:2*p]
	uu, uw := c[2*p], c[2*p+1]
	var aa, ab float64
	for i := range a {
		aa += a[i] * a[i]
		ab += a[i] * b[i]
	}
	// ũ_j was kept only if its norm after one sweep exceeded
	// breakdownTol·‖A‖, so what is left of it along V_j is at most
	// ~ε/breakdownTol ≈ 2e-4 of it and s ≈ 1; anything else means the basis
	// has lost orthogonality.
	s := math.Sqrt(uu - aa)
	if !(s > 0.5) {
		return 0, 0, fmt.Errorf("spectral: single-vector Lanczos lost orthogonality at step %d (‖V_jᵀv_j‖² = %.3g of ‖v_j‖² = %.3g)", j, aa, uu)
	}
	gamma := (uw - ab) / s
	t.delayedColumn(j, a, b, gamma, s, scale, sPrev, hm)
	inv := 1 / s
	rowChunks(n, size, func(k, lo, hi int) {
		uc, wc := u[lo:hi], w[lo:hi]
		subtractRows2(uc, wc, t.v[lo:], n, a, b)
		wc = wc[:len(uc)]
		var ss float64
		for i, x := range uc {
			x *= inv
			y := wc[i] - gamma*x
			uc[i], wc[i] = x, y
			ss += y * y
		}
		t.part[k] = ss
	})
	return sumFirst(t.part, nc), s, nil
}

// delayedColumn updates H for sweepDelayed: column j−1 gains
// (β'_{j−1}/s_{j−1})·a, and column j is ([b; γ] − H_{[:j+1, :j]}·a)/s.
func (t *trlan) delayedColumn(j int, a, b []float64, gamma, s, scale, sPrev float64, hm []float64) {
	m := t.m
	f := scale / sPrev
	for i := 0; i < j; i++ {
		t.h[i*m+j-1] += f * a[i]
	}
	betaPrev := scale * s / sPrev
	// hm = H_{[:j+1, :j]}·a from the upper triangle of the symmetric H; row
	// j holds only the coupling β_{j−1} (the entries H[j][i], i < j−1,
	// vanish for j > j0).
	for l := 0; l < j; l++ {
		var x float64
		for i := 0; i < j; i++ {
			x += t.h[min(l, i)*m+max(l, i)] * a[i]
		}
		hm[l] = x
	}
	for l := 0; l < j; l++ {
		t.h[l*m+j] = (b[l] - hm[l]) / s
	}
	t.h[j*m+j] = (gamma - betaPrev*a[j-1]) / s
}

// sweepLast gives the last basis vector, pending, its second sweep on its
// own, adds its share to column m−1 of H and returns the coupling β_m.
func (t *trlan) sweepLast(scale, sPrev float64) float64 {
	n, m, size := t.n, t.m, t.chunk()
	nc := parallel.NumChunks(n, size)
	u := t.col(m)
	p := m
	part := t.part[:nc*p]
	rowChunks(n, size, func(k, lo, hi int) {
		projectRows(part[k*p:(k+1)*p], t.v[lo:], n, u[lo:hi])
	})
	a := t.coef[:p]
	sumParts(a, part, nc, p)
	rowChunks(n, size, func(k, lo, hi int) {
		subtractRows(u[lo:hi], t.v[lo:], n, a)
		t.part[k] = sumSquares(u[lo:hi])
	})
	s := math.Sqrt(sumFirst(t.part, nc))
	for i := range u {
		u[i] /= s
	}
	f := scale / sPrev
	for i := 0; i < m; i++ {
		t.h[i*m+m-1] += f * a[i]
	}
	return scale * s / sPrev
}

// sumSquares returns Σ x².
func sumSquares(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return s
}

// sumFirst returns the sum of part[:nc] in order.
func sumFirst(part []float64, nc int) float64 {
	var s float64
	for _, x := range part[:nc] {
		s += x
	}
	return s
}

// run iterates until the k wanted Ritz pairs converge or the restart cap is
// reached. With a Chebyshev filter (Bounds set, FilterDegree ≠ 1) the first
// cycle runs on A and places the cut (see startFilter); later cycles run on
// B = p(A), and convergence is decided on the true residuals with A (see
// checkFiltered).
func (t *trlan) run() (*Result, error) {
	k, m := t.k, t.m
	t.randomUnit(0)
	if t.c.hi > t.c.lo {
		t.anorm = math.Max(math.Abs(t.c.lo), math.Abs(t.c.hi))
	}
	probe := t.c.filtered()
	j0 := 0
	for {
		beta, err := t.extend(j0)
		if err != nil {
			return nil, err
		}
		theta, y, err := t.ritzPairs()
		if err != nil {
			return nil, err
		}
		// Ritz pairs ordered from the wanted end (the largest of B when
		// filtering).
		order := wantedOrder(m, t.which == Largest || t.deg > 1)
		tol := t.c.tol * t.anorm
		if t.deg > 1 {
			tol = t.tolB
		}
		rb := t.residualEstimates(beta, y, order[:k]) // of the wanted pairs
		nconv, worst := countConverged(rb, tol)
		capped := t.res.Restarts >= t.c.maxRestarts
		if probe && nconv < k && !capped {
			probe = false
			if t.startFilter(theta, y, order) {
				j0 = 0
				t.res.Restarts++
				continue
			}
		}
		if t.deg <= 1 && (nconv == k || capped) {
			return t.finalResult(theta, y, order[:k], rb, tol, worst)
		}
		// Thick restart: keep the wanted Ritz vectors and some more
		// (ARPACK's nev + min(nconv, (ncv − nev)/2)), then the residual
		// vector.
		keep := min(k+min(nconv, (m-k)/2), m-1)
		keep = max(keep, min(k+1, m-1))
		damped := t.deg > 1 && theta[order[k-1]] <= 1/t.tfar
		j0 = t.restart(theta, y, order[:keep])
		if t.deg > 1 && (nconv == k || capped) {
			// The first k basis vectors are now the wanted Ritz vectors.
			res, worstA, ok := t.checkFiltered(rb)
			if ok && !damped {
				return res, nil
			}
			if capped {
				return nil, &NotConvergedError{Wanted: k, Restarts: t.res.Restarts, MatVecs: t.res.MatVecs, Residual: worstA, Tol: t.c.tol * t.anormA, Converged: res}
			}
			if damped || t.tolB < minFilteredTol {
				// The k-th wanted Ritz value of B lies in the damped
				// interval (the cut is above a wanted eigenvalue), or the
				// filter cannot resolve the residuals: polish on A.
				t.stopFilter()
				j0 = 0
			}
		}
		t.res.Restarts++
		if t.c.progress != nil {
			t.c.progress(Status{Restarts: t.res.Restarts, MatVecs: t.res.MatVecs, Converged: nconv, Wanted: k, Residual: worst})
		}
	}
}

// ritzPairs returns the Ritz values (ascending) and vectors of H. Without a
// filter they raise the estimate of ‖A‖, and must lie inside Bounds when
// those are set.
func (t *trlan) ritzPairs() ([]float64, *mat.Dense, error) {
	theta, y, err := eigSym(t.h, t.m, t.m)
	if err != nil || t.deg > 1 {
		return theta, y, err
	}
	for _, th := range theta {
		t.anorm = math.Max(t.anorm, math.Abs(th))
	}
	if t.c.hi > t.c.lo {
		for _, th := range theta {
			if th < t.c.lo-1e-8*t.anorm || th > t.c.hi+1e-8*t.anorm {
				return nil, nil, fmt.Errorf("spectral: Ritz value %v lies outside Bounds [%v, %v]: the bounds are wrong for this operator", th, t.c.lo, t.c.hi)
			}
		}
	}
	return theta, y, nil
}

// residualEstimates returns the residual estimates |β_m·y_{m−1,i}| of the
// Ritz pairs sel.
func (t *trlan) residualEstimates(beta float64, y *mat.Dense, sel []int) []float64 {
	r := make([]float64, len(sel))
	for q, i := range sel {
		r[q] = math.Abs(beta * y.At(t.m-1, i))
	}
	return r
}

// countConverged returns how many of the residuals meet tol, and the
// largest of the others.
func countConverged(resid []float64, tol float64) (nconv int, worst float64) {
	for _, r := range resid {
		if r <= tol {
			nconv++
		} else {
			worst = math.Max(worst, r)
		}
	}
	return nconv, worst
}

// finalResult returns the result of an unfiltered run that stops: the
// wanted Ritz pairs when all converged (their residual estimates resid at
// most tol), else a *NotConvergedError holding the converged ones, from the
// wanted end, worst being the largest estimate of the others.
func (t *trlan) finalResult(theta []float64, y *mat.Dense, wanted []int, resid []float64, tol, worst float64) (*Result, error) {
	sel := make([]int, 0, len(wanted))
	for q, i := range wanted {
		if resid[q] <= tol {
			sel = append(sel, i)
		}
	}
	res := t.result(theta, y, sel)
	if len(sel) < len(wanted) {
		return nil, &NotConvergedError{Wanted: t.k, Restarts: t.res.Restarts, MatVecs: t.res.MatVecs, Residual: worst, Tol: tol, Converged: res}
	}
	return res, nil
}

// restart replaces the basis by the Ritz vectors sel followed by the
// residual vector v_m, and H by their arrowhead's diagonal (the couplings to
// the residual vector appear in column len(sel) when the next step computes
// it), and returns len(sel), the column Lanczos continues from.
func (t *trlan) restart(theta []float64, y *mat.Dense, sel []int) int {
	keep := len(sel)
	t.rotate(y, sel)
	copy(t.col(keep), t.col(t.m))
	clear(t.h)
	for q, i := range sel {
		t.h[q*t.m+q] = theta[i]
	}
	return keep
}

// rotate replaces the first len(sel) basis vectors by the Ritz vectors
// V[:, :m]·Y[:, sel].
func (t *trlan) rotate(y *mat.Dense, sel []int) {
	p := len(sel)
	ys := make([]float64, t.m*p)
	for r := 0; r < t.m; r++ {
		for q, i := range sel {
			ys[r*p+q] = y.At(r, i)
		}
	}
	rotateColMajor(t.v, t.v, t.n, t.m, ys, p)
}

// rotGroup is the number of micro-kernel row panels (of mr rows) rotated
// together by rotateColMajor: 8·6 rows × 200 basis vectors are 77 kB, read
// from L2 by every column panel of S after the first.
const rotGroup = 8

// rotateColMajor sets the column-major n×p matrix dst = V·S, where V is the
// column-major n×m matrix v (column i at v[i·n:]) and S is m×p row-major,
// on the AVX2/FMA micro-kernel of internal/gemm reading V's 6-row panels in
// place (six contiguous entries per column), parallel over row groups; only
// a last partial panel is packed. Each entry is a dot product accumulated
// in order over the m columns.
//
// dst may be v itself (p ≤ m): each row group's p outputs are formed in a
// buffer of rotGroup·mr rows and written back once the group's rows of V
// have been read, so the restart needs no second basis (m more vectors of
// n, 2.4 GB for 30 vectors of 10 M nodes).
func rotateColMajor(dst, v []float64, n, m int, s []float64, p int) {
	bp := (p + nr - 1) / nr
	bpan := make([]float64, bp*nr*m)
	packRunsTo(bpan, s, p, 0, m, 0, p, nr)
	rows := rotGroup * mr
	groups := (n + rows - 1) / rows
	grain := 1 // each group is independent of the others: any split gives the same dst
	if n < serialRows {
		grain = groups // one chunk, on the caller
	}
	parallel.For(groups, grain, func(lo, hi int) {
		var apan []float64 // the packed partial panel, if any
		var tile [mr * nr]float64
		buf := make([]float64, rows*p) // one group's rows of dst, column-major
		for g := lo; g < hi; g++ {
			r0 := g * rows
			nrow := min(rows, n-r0)
			np := (nrow + mr - 1) / mr
			for a := 0; a < np; a++ {
				i0 := r0 + a*mr
				valid := min(mr, n-i0)
				for q := 0; q < bp; q++ {
					width := min(nr, p-q*nr)
					bq := bpan[q*nr*m : (q+1)*nr*m]
					if valid == mr {
						gemm.Kernel64Strided(m, v[i0:], n, bq, tile[:])
					} else {
						if apan == nil {
							apan = make([]float64, mr*m)
							for c := 0; c < m; c++ {
								copy(apan[c*mr:c*mr+valid], v[c*n+i0:c*n+n])
							}
						}
						gemm.Kernel64(m, apan, bq, tile[:])
					}
					for j := 0; j < width; j++ {
						out := buf[(q*nr+j)*rows+a*mr : (q*nr+j)*rows+a*mr+valid]
						for i := range out {
							out[i] = tile[i*nr+j]
						}
					}
				}
			}
			for c := 0; c < p; c++ {
				copy(dst[c*n+r0:c*n+r0+nrow], buf[c*rows:c*rows+nrow])
			}
		}
	})
}

// result forms the Ritz pairs sel (ascending by value) with true residuals.
func (t *trlan) result(theta []float64, y *mat.Dense, sel []int) *Result {
	// Ascending by value.
	idx := append([]int(nil), sel...)
	for a := 1; a < len(idx); a++ {
		for b := a; b > 0 && theta[idx[b]] < theta[idx[b-1]]; b-- {
			idx[b], idx[b-1] = idx[b-1], idx[b]
		}
	}
	res := &Result{Values: make([]float64, len(idx)), Restarts: t.res.Restarts, MatVecs: t.res.MatVecs}
	if len(idx) == 0 {
		res.Vectors = &mat.Dense{}
		return res
	}
	t.rotate(y, idx)
	res.Vectors = mat.NewDense(t.n, len(idx), nil)
	raw := res.Vectors.RawMatrix()
	for q, i := range idx {
		res.Values[q] = theta[i]
		c := t.col(q)
		for r, x := range c {
			raw.Data[r*raw.Stride+q] = x
		}
	}
	finish(t.a, res)
	res.MatVecs += len(idx)
	return res
}
