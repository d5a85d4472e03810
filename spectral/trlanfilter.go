package spectral

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/linop"
)

// This file holds the Chebyshev filter of the single-vector method: when
// spectrum bounds are known, Lanczos runs on
//
//	B = T_d(σ(A − γI)/e) / T_d(x_far),   γ = (c + end)/2,  e = |c − end|/2,
//
// which maps the unwanted part of the spectrum, between the far end of the
// bounds and the cut c, into [−1/T_d(x_far), 1/T_d(x_far)] and the wanted
// eigenvalues beyond c above it, in the same order (σ = +1 for the largest,
// −1 for the smallest, x_far the image of the wanted end of the bounds).
// Each Lanczos step costs d products instead of one, and the
// orthogonalisation against the basis, which dominates the cost of a step
// when products are cheap, is needed for far fewer steps: the filter turns
// the clustered wanted end of the spectrum into a well separated one.

// minFilteredTol is the smallest tolerance on B's residual estimates the
// filtered phase tightens to before it hands over to unfiltered Lanczos on
// A: below it the estimates are at rounding level.
const minFilteredTol = 1e-15

// startFilter places the cut from the Ritz values of the first cycle,
// which ran on A, and restarts the recursion on B from a random combination
// of the candidate Ritz vectors. The cut is the (k+buffer)-th Ritz value
// from the wanted end — by Cauchy interlacing at least k+buffer eigenvalues
// lie beyond it, so no wanted one is damped — moved towards the wanted end
// to where the Gauss quadrature of the start vector (Ritz values with
// weights y_{0i}², an estimate of the spectral density) puts twice the
// candidates beyond it. It reports false, leaving the run unfiltered, when
// the degree would be 1.
func (t *trlan) startFilter(theta []float64, y *mat.Dense, order []int) bool {
	m := t.m
	cand := min(t.k+t.c.buffer, m-1)
	cut := theta[order[cand-1]]
	var mass float64
	for _, i := range order {
		mass += y.At(0, i) * y.At(0, i) * float64(t.n)
		if mass >= float64(2*cand) {
			if (t.which == Largest && theta[i] > cut) || (t.which == Smallest && theta[i] < cut) {
				cut = theta[i]
			}
			break
		}
	}
	deg := t.c.filterDegree(t.which, cut)
	if deg <= 1 {
		return false
	}
	end, far := t.c.lo, t.c.hi
	t.sgn = 1
	if t.which == Smallest {
		end, far, t.sgn = t.c.hi, t.c.lo, -1
	}
	t.deg = deg
	t.gamma, t.e = (cut+end)/2, math.Abs(cut-end)/2
	t.tfar = chebT(deg, t.sgn*(far-t.gamma)/t.e)
	t.anormA, t.anorm = t.anorm, 1
	t.tolB = t.c.tol
	if t.cheb == nil {
		t.cheb = make([]float64, 4*t.n)
	}
	// Start vector: Σ_q g_q · V·y_{order[q]}, g ~ N(0, 1).
	s := make([]float64, m)
	for _, i := range order[:cand] {
		g := t.rng.NormFloat64()
		for r := 0; r < m; r++ {
			s[r] += g * y.At(r, i)
		}
	}
	t.restartFrom(s)
	return true
}

// stopFilter turns the filter off and restarts unfiltered Lanczos on A from
// a random combination of the first k basis vectors (the wanted Ritz
// vectors of B after a restart).
func (t *trlan) stopFilter() {
	t.deg = 1
	t.anorm = t.anormA
	s := make([]float64, t.m)
	for q := 0; q < t.k; q++ {
		s[q] = t.rng.NormFloat64()
	}
	t.restartFrom(s)
}

// restartFrom replaces the basis by the single unit vector V[:, :m]·s and
// clears H.
func (t *trlan) restartFrom(s []float64) {
	rotateColMajor(t.v, t.v, t.n, t.m, s, 1) // in place: column 0 becomes V·s
	u := t.col(0)
	nrm := t.norm2(u)
	for i := range u {
		u[i] /= nrm
	}
	clear(t.h)
}

// chebT returns the Chebyshev polynomial T_d(x) for x ≥ 1.
func chebT(d int, x float64) float64 {
	return math.Cosh(float64(d) * math.Acosh(x))
}

// apply sets w to B·u (A·u without a filter), counting the products. The
// vector updates of the recursion run over the row chunks of the
// Gram–Schmidt passes (a product of a single vector by MulVecTo measured
// faster than the fused Chebyshev step of the block method's operators).
// On the normalised adjacency the scalings of the products join those
// passes (applyScaled).
func (t *trlan) apply(w, u []float64) {
	if t.deg <= 1 {
		t.a.MulVecTo(w, u)
		t.res.MatVecs++
		return
	}
	if t.scaled != nil {
		t.applyScaled(t.scaled, w, u)
		return
	}
	n := t.n
	size := t.chunk()
	buf := t.chebBuffers()
	a, g := t.sgn/t.e, t.gamma
	// T_1: y₁ = σ(A − γ)u/e.
	cur := buf[0]
	t.a.MulVecTo(cur, u)
	rowChunks(n, size, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			cur[i] = a * (cur[i] - g*u[i])
		}
	})
	prev := u
	for d := 2; d <= t.deg; d++ {
		next, f := buf[(d-1)%3], 1.0
		if d == t.deg {
			// The last step writes B·u = T_d(·)u / T_d(x_far) into w.
			next, f = w, 1/t.tfar
		}
		t.a.MulVecTo(next, cur)
		p, c := prev, cur
		rowChunks(n, size, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				next[i] = f * (2*a*(next[i]-g*c[i]) - p[i])
			}
		})
		prev, cur = cur, next
	}
	t.res.MatVecs += t.deg
}

// chebBuffers returns the three scratch vectors of the recursion.
func (t *trlan) chebBuffers() [3][]float64 {
	n := t.n
	return [3][]float64{t.cheb[:n], t.cheb[n : 2*n], t.cheb[2*n : 3*n]}
}

// scaledOperator returns a as a sparseOperator diag(l)·W·diag(r) (the
// normalised adjacency), or nil.
func scaledOperator(a linop.Operator) *sparseOperator {
	if o, ok := a.(*sparseOperator); ok && o.diag == nil && o.left != nil && o.right != nil {
		return o
	}
	return nil
}

// applyScaled is apply on A = diag(l)·W·diag(r) (the normalised adjacency
// D^{-1/2} W D^{-1/2} of a sparseOperator): each product forms only the sums
// W·(r∘x), and the pass of the recursion that follows scales them by l and
// forms r∘y for the next product, so the two vector passes MulVecTo adds to
// every product (r∘x before it, l after it) are not made. The first pass
// also normalises u (multiplies it by 1/t.unscaled, as extend would) when
// extend left that to it. The operations and their order are those of
// extend, MulVecTo and apply: the same B·u, bitwise.
func (t *trlan) applyScaled(o *sparseOperator, w, u []float64) {
	n, size := t.n, t.chunk()
	buf := t.chebBuffers()
	rx := t.cheb[3*n : 4*n]
	l, r := o.left, o.right
	a, g := t.sgn/t.e, t.gamma
	div := t.unscaled
	t.unscaled = 0
	rowChunks(n, size, func(_, lo, hi int) {
		scaleRX(u[lo:hi], r[lo:hi], rx[lo:hi], div)
	})
	// T_1: y₁ = σ(A − γ)u/e.
	cur := buf[0]
	o.g.ScaledMulVecTo(cur, rx, graph.Scaling{})
	rowChunks(n, size, func(_, lo, hi int) {
		chebPass(cur[lo:hi], l[lo:hi], u[lo:hi], nil, r[lo:hi], rx[lo:hi], a, g, 1)
	})
	prev := u
	for d := 2; d <= t.deg; d++ {
		next, f := buf[(d-1)%3], 1.0
		if d == t.deg {
			// The last step writes B·u = T_d(·)u / T_d(x_far) into w.
			next, f = w, 1/t.tfar
		}
		o.g.ScaledMulVecTo(next, rx, graph.Scaling{})
		p, c, last := prev, cur, d == t.deg
		rowChunks(n, size, func(_, lo, hi int) {
			var rc []float64
			if !last {
				rc = rx[lo:hi]
			}
			chebPass(next[lo:hi], l[lo:hi], c[lo:hi], p[lo:hi], r[lo:hi], rc, 2*a, g, f)
		})
		prev, cur = cur, next
	}
	t.res.MatVecs += t.deg
}

// scaleRX sets rx = r∘u, first scaling u by 1/div (rounded, then
// multiplied) unless div is 0; on the AVX2 kernel four entries at a time,
// bitwise the loop's.
func scaleRX(u, r, rx []float64, div float64) {
	n := len(u)
	r, rx = r[:n], rx[:n]
	inv, scale := 1.0, 0
	if div != 0 {
		inv, scale = 1/div, 1
	}
	body := 0
	if hasAVX2 {
		body = n &^ 3
	}
	if body > 0 {
		scaleRXAVX2(body, &u[0], &r[0], &rx[0], inv, scale)
	}
	for i := body; i < n; i++ {
		x := u[i]
		if scale != 0 {
			x *= inv
			u[i] = x
		}
		rx[i] = r[i] * x
	}
}

// chebPass is the pass of applyScaled after a product nx = W·(r∘x): nx_i ←
// y_i = f·(s·(nx_i·lc_i − g·cc_i) − pc_i) (without − pc_i for nil pc), each
// operation rounded in that order, and rc_i ← ru_i·y_i unless rc is nil.
// The entries are independent, so the AVX2 kernel's four at a time are
// bitwise the loop's.
func chebPass(nx, lc, cc, pc, ru, rc []float64, s, g, f float64) {
	n := len(nx)
	lc, cc, ru = lc[:n], cc[:n], ru[:n]
	body := 0
	if hasAVX2 {
		body = n &^ 3
	}
	if body > 0 {
		var pp, rp *float64
		if pc != nil {
			pp = &pc[0]
		}
		if rc != nil {
			rp = &rc[0]
		}
		chebPassAVX2(body, &nx[0], &lc[0], &cc[0], pp, &ru[0], rp, &[3]float64{s, g, f})
	}
	for i := body; i < n; i++ {
		y := s * (float64(nx[i]*lc[i]) - g*cc[i])
		if pc != nil {
			y -= pc[i]
		}
		y *= f
		nx[i] = y
		if rc != nil {
			rc[i] = ru[i] * y
		}
	}
}

// checkFiltered computes the Ritz pairs of A on the first k basis vectors
// (the wanted Ritz vectors of B after a restart): Rayleigh quotients and true
// residuals, k products. When every residual is within Tol·‖A‖ it returns
// the pairs, ascending, as the Result. Otherwise it tightens the tolerance
// on B's residual estimates rb (in the order of the basis vectors) by the
// ratio the failing pairs show, and returns the pairs that did converge.
func (t *trlan) checkFiltered(rb []float64) (*Result, float64, bool) {
	n, k := t.n, t.k
	u := mat.NewDense(n, k, nil)
	raw := u.RawMatrix()
	for q := 0; q < k; q++ {
		for r, x := range t.col(q) {
			raw.Data[r*raw.Stride+q] = x
		}
	}
	au := mat.NewDense(n, k, nil)
	linop.MulBlock(t.a, au, u)
	t.res.MatVecs += k
	vals := make([]float64, k)
	ar := au.RawMatrix()
	for r := 0; r < n; r++ {
		ur, aur := raw.Data[r*raw.Stride:r*raw.Stride+k], ar.Data[r*ar.Stride:r*ar.Stride+k]
		for q := range vals {
			vals[q] += ur[q] * aur[q]
		}
	}
	// Refine each quotient by uᵀ(Au − θu): the first sum carries rounding
	// errors of about √n·ε from its running total of size |θ|; the
	// correction's total is of the size of the residual, so its own errors
	// are negligible.
	corr := make([]float64, k)
	for r := 0; r < n; r++ {
		ur, aur := raw.Data[r*raw.Stride:r*raw.Stride+k], ar.Data[r*ar.Stride:r*ar.Stride+k]
		for q := range corr {
			corr[q] += ur[q] * (aur[q] - vals[q]*ur[q])
		}
	}
	for q := range vals {
		vals[q] += corr[q]
	}
	resid := residualNorms(au, u, vals)
	tolA := t.c.tol * t.anormA
	var worst float64
	scale := 1.0
	var conv []int
	for q, r := range resid {
		if r <= tolA {
			conv = append(conv, q)
			continue
		}
		worst = math.Max(worst, r)
		scale = math.Min(scale, tolA/r*rb[q]/t.tolB)
	}
	if len(conv) < k {
		t.tolB *= math.Max(scale/2, 1e-3)
	}
	// The converged pairs, ascending by value.
	for a := 1; a < len(conv); a++ {
		for b := a; b > 0 && vals[conv[b]] < vals[conv[b-1]]; b-- {
			conv[b], conv[b-1] = conv[b-1], conv[b]
		}
	}
	res := &Result{Values: make([]float64, len(conv)), Residuals: make([]float64, len(conv)), Restarts: t.res.Restarts, MatVecs: t.res.MatVecs}
	if len(conv) == 0 {
		res.Vectors = &mat.Dense{}
		return res, worst, false
	}
	// The product is spent: the result takes its storage.
	res.Vectors = mat.NewDense(n, len(conv), ar.Data[:n*len(conv)])
	for j, q := range conv {
		res.Values[j], res.Residuals[j] = vals[q], resid[q]
		for r := 0; r < n; r++ {
			res.Vectors.Set(r, j, raw.Data[r*raw.Stride+q])
		}
	}
	fixSigns(res.Vectors)
	return res, worst, len(conv) == k
}
