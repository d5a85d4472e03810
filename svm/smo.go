package svm

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// Settings control the SMO solver. The zero value is usable.
type Settings struct {
	// Tol is the stopping tolerance ε on the maximal KKT violation
	// m(α) − M(α) (Fan, Chen & Lin 2005, eq. 9); 0 means 1e-3, LIBSVM's and
	// scikit-learn's default.
	Tol float64
	// MaxIter caps the SMO iterations; 0 means max(10⁷, 100n) as in LIBSVM.
	MaxIter int
}

// DefaultTol is the stopping tolerance used when Settings.Tol is 0.
const DefaultTol = 1e-3

// tau replaces a non-positive curvature a_ij = K_ii + K_jj − 2K_ij (a kernel
// that is not positive definite on the pair), as in Fan, Chen & Lin's WSS 3.
const tau = 1e-12

func (s Settings) validate() error {
	if !(s.Tol >= 0 && s.Tol < 1) {
		return fmt.Errorf("svm: Tol=%v is invalid: it must be in [0, 1) (0 means %g)", s.Tol, DefaultTol)
	}
	if s.MaxIter < 0 {
		return fmt.Errorf("svm: MaxIter=%d is invalid: it must be ≥ 0 (0 means max(10⁷, 100n))", s.MaxIter)
	}
	return nil
}

// Dual is the solution of the C-SVM dual problem
//
//	min_α ½ αᵀQα − eᵀα   subject to 0 ≤ α_i ≤ C, yᵀα = 0,   Q_ij = y_i y_j K_ij
//
// with decision function g(x) = Σ_i α_i y_i k(x_i, x) + B.
type Dual struct {
	Alpha      []float64 // α_i, in [0, C]
	B          float64   // the offset b (LIBSVM's −ρ)
	Iterations int       // SMO iterations (pairs updated)
	Gap        float64   // final maximal violation m(α) − M(α) ≤ Tol
}

// NotConvergedError is returned when SMO stops at MaxIter with a maximal
// KKT violation (Residual) above the tolerance; the Dual returned with it
// is the last iterate. It is the contract's one shape,
// estimator.NotConvergedError.
type NotConvergedError = estimator.NotConvergedError

// SolveDual solves the binary C-SVM dual for the Gram matrix k of the
// training points and labels y_i ∈ {−1, +1} by sequential minimal
// optimisation with the second-order working-set selection of Fan, Chen &
// Lin (JMLR 6, 2005, WSS 2, with τ for non-positive curvature as in WSS 3).
// It reads K into a dense n×n array (the precomputed kernel is dense
// anyway), and each iteration costs O(n). It checks ctx every 1000
// iterations.
func SolveDual(ctx context.Context, k mat.Symmetric, y []float64, c float64, s Settings) (Dual, error) {
	if err := s.validate(); err != nil {
		return Dual{}, err
	}
	if !(c > 0) || math.IsInf(c, 0) {
		return Dual{}, fmt.Errorf("svm: C=%v is invalid: it must be finite and > 0", c)
	}
	n := k.SymmetricDim()
	if len(y) != n {
		return Dual{}, fmt.Errorf("svm: the Gram matrix is %d×%d but there are %d labels", n, n, len(y))
	}
	var pos, neg int
	for i, v := range y {
		switch v {
		case 1:
			pos++
		case -1:
			neg++
		default:
			return Dual{}, fmt.Errorf("svm: label y[%d] = %v: binary labels must be −1 or +1", i, v)
		}
	}
	if pos == 0 || neg == 0 {
		return Dual{}, fmt.Errorf("svm: the binary problem needs both classes; got %d positive and %d negative labels", pos, neg)
	}
	src, err := newGramSource(k)
	if err != nil {
		return Dual{}, err
	}
	return smo(ctx, src.rows(nil), n, y, c, s)
}

// gramSource reads a symmetric matrix fast: straight from the upper
// triangle of a *mat.SymDense, through At otherwise.
type gramSource struct {
	k   mat.Symmetric
	raw []float64 // upper triangle, row-major with stride, for a SymDense
	st  int
}

// newGramSource checks that every entry of k is finite (an error names the
// first that is not) and prepares the reader.
func newGramSource(k mat.Symmetric) (*gramSource, error) {
	g := &gramSource{k: k}
	if sd, ok := k.(*mat.SymDense); ok && sd.SymmetricDim() > 0 {
		r := sd.RawSymmetric()
		g.raw, g.st = r.Data, r.Stride
	}
	n := k.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if v := g.at(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("svm: Gram matrix entry (%d, %d) = %v is not finite", i, j, v)
			}
		}
	}
	return g, nil
}

func (g *gramSource) at(i, j int) float64 {
	if g.raw == nil {
		return g.k.At(i, j)
	}
	if i > j {
		i, j = j, i
	}
	return g.raw[i*g.st+j]
}

// rows returns the lazily filled rows of K[idx, idx] (idx nil: all items).
func (g *gramSource) rows(idx []int) *gramRows {
	if idx == nil {
		idx = make([]int, g.k.SymmetricDim())
		for i := range idx {
			idx[i] = i
		}
	}
	m := len(idx)
	return &gramRows{src: g, idx: idx, data: make([]float64, m*m), filled: make([]bool, m)}
}

// gramRows holds the rows of a Gram matrix that SMO has asked for, in one
// m×m array: a row is read from the source the first time it is needed
// (LIBSVM computes kernel columns on demand in the same way), so a solve
// that touches few working pairs reads a fraction of the matrix.
type gramRows struct {
	src    *gramSource
	idx    []int
	data   []float64
	filled []bool
}

func (g *gramRows) row(p int) []float64 {
	m := len(g.idx)
	r := g.data[p*m : (p+1)*m : (p+1)*m]
	if !g.filled[p] {
		ip := g.idx[p]
		for q, iq := range g.idx {
			r[q] = g.src.at(ip, iq)
		}
		g.filled[p] = true
	}
	return r
}

func (g *gramRows) diag(p int) float64 { return g.src.at(g.idx[p], g.idx[p]) }

func smo(ctx context.Context, kd *gramRows, n int, y []float64, c float64, s Settings) (Dual, error) {
	tol := s.Tol
	if tol == 0 {
		tol = DefaultTol
	}
	maxIter := s.MaxIter
	if maxIter == 0 {
		maxIter = max(10_000_000, 100*n)
	}
	sv := &smoState{kd: kd, n: n, y: y, c: c,
		alpha: make([]float64, n), grad: make([]float64, n), gbar: make([]float64, n),
		diag: make([]float64, n), inUp: make([]bool, n), inLow: make([]bool, n)}
	for t := 0; t < n; t++ {
		sv.grad[t] = -1 // ∇f(0) = −e
		sv.diag[t] = kd.diag(t)
		sv.setSets(t)
	}
	sv.activateAll()
	unshrink := false
	counter := min(n, shrinkEvery) + 1
	var gap float64
	iter := 0
	for {
		if iter%1000 == 0 {
			if err := ctx.Err(); err != nil {
				sv.reconstruct()
				return Dual{Alpha: sv.alpha, Iterations: iter}, fmt.Errorf("svm: SMO stopped after %d iterations: %w", iter, err)
			}
		}
		if counter--; counter == 0 {
			counter = min(n, shrinkEvery)
			unshrink = sv.shrink(tol, unshrink)
		}
		var i, j int
		i, j, gap = sv.selectPair()
		if gap < tol || j < 0 {
			if len(sv.active) == n {
				break
			}
			// Converged on the active set: check all the variables.
			sv.reconstruct()
			sv.activateAll()
			if i, j, gap = sv.selectPair(); gap < tol || j < 0 {
				break
			}
			counter = 1 // shrink again at the next iteration
		}
		if iter >= maxIter {
			sv.reconstruct()
			d := Dual{Alpha: sv.alpha, B: 0 - offset(sv.alpha, sv.grad, y, c), Iterations: iter, Gap: gap}
			return d, &NotConvergedError{Model: "svm", Method: "SMO", Iterations: iter, Residual: gap, Tol: tol,
				Hint: "the residual is the maximal KKT violation m(α) − M(α): raise Settings.MaxIter or Tol"}
		}
		iter++
		sv.update(i, j)
	}
	// b = 0 − ρ rather than −ρ, so that ρ = 0 prints as 0, not −0.
	return Dual{Alpha: sv.alpha, B: 0 - offset(sv.alpha, sv.grad, y, c), Iterations: iter, Gap: gap}, nil
}

// shrinkEvery is how often (in iterations) SMO removes variables stuck at
// a bound from the active set, as in LIBSVM.
const shrinkEvery = 1000

// smoState is the working state of SMO with LIBSVM's shrinking: the
// gradient is kept exact on the active set, and gbar_t = C Σ_{α_j = C} Q_tj
// lets it be rebuilt for the others (Fan, Chen & Lin 2005, §4; Chang & Lin,
// "LIBSVM", §5.1).
type smoState struct {
	kd    *gramRows
	n     int
	y     []float64
	c     float64
	alpha []float64
	grad  []float64 // ∇f(α) = Qα − e, exact on the active set
	gbar  []float64
	diag  []float64
	// I_up = {t : y_t = +1, α_t < C or y_t = −1, α_t > 0} and I_low = {t :
	// y_t = +1, α_t > 0 or y_t = −1, α_t < C} (Fan et al. eq. 7).
	inUp, inLow []bool
	active      []int
	shrunk      bool
}

func (sv *smoState) setSets(t int) {
	y, a, c := sv.y[t], sv.alpha[t], sv.c
	sv.inUp[t] = (y == 1 && a < c) || (y == -1 && a > 0)
	sv.inLow[t] = (y == 1 && a > 0) || (y == -1 && a < c)
}

func (sv *smoState) activateAll() {
	sv.active = sv.active[:0]
	for t := 0; t < sv.n; t++ {
		sv.active = append(sv.active, t)
	}
	sv.shrunk = false
}

// selectPair is WSS 2 over the active set: i maximises −y_t∇_t over I_up,
// j minimises −b_it²/a_it over I_low with −y_t∇_t < −y_i∇_i; gap is
// m(α) − M(α).
func (sv *smoState) selectPair() (i, j int, gap float64) {
	y, grad := sv.y, sv.grad
	gmax := math.Inf(-1)
	i = -1
	for _, t := range sv.active {
		if sv.inUp[t] {
			if v := -y[t] * grad[t]; v >= gmax {
				gmax, i = v, t
			}
		}
	}
	// gmax2 is −M(α) = max over I_low of y_t ∇_t.
	gmax2 := math.Inf(-1)
	j = -1
	objMin := math.Inf(1)
	var ki []float64
	if i >= 0 {
		ki = sv.kd.row(i)
	}
	for _, t := range sv.active {
		if !sv.inLow[t] {
			continue
		}
		v := y[t] * grad[t]
		if v > gmax2 {
			gmax2 = v
		}
		gdiff := gmax + v
		if i < 0 || gdiff <= 0 {
			continue
		}
		a := sv.diag[i] + sv.diag[t] - 2*ki[t]
		if a <= 0 {
			a = tau
		}
		if obj := -gdiff * gdiff / a; obj <= objMin {
			objMin, j = obj, t
		}
	}
	return i, j, gmax + gmax2
}

// update solves the two-variable subproblem in (α_i, α_j) analytically,
// clips it to the box as LIBSVM does, and updates the gradient on the
// active set and gbar everywhere.
func (sv *smoState) update(i, j int) {
	y, alpha, grad, c, n := sv.y, sv.alpha, sv.grad, sv.c, sv.n
	ki, kj := sv.kd.row(i), sv.kd.row(j)
	oldI, oldJ := alpha[i], alpha[j]
	qij := y[i] * y[j] * ki[j]
	if y[i] != y[j] {
		a := sv.diag[i] + sv.diag[j] + 2*qij
		if a <= 0 {
			a = tau
		}
		delta := (-grad[i] - grad[j]) / a
		diff := alpha[i] - alpha[j]
		alpha[i] += delta
		alpha[j] += delta
		if diff > 0 {
			if alpha[j] < 0 {
				alpha[j], alpha[i] = 0, diff
			}
		} else if alpha[i] < 0 {
			alpha[i], alpha[j] = 0, -diff
		}
		if diff > 0 {
			if alpha[i] > c {
				alpha[i], alpha[j] = c, c-diff
			}
		} else if alpha[j] > c {
			alpha[j], alpha[i] = c, c+diff
		}
	} else {
		a := sv.diag[i] + sv.diag[j] - 2*qij
		if a <= 0 {
			a = tau
		}
		delta := (grad[i] - grad[j]) / a
		sum := alpha[i] + alpha[j]
		alpha[i] -= delta
		alpha[j] += delta
		if sum > c {
			if alpha[i] > c {
				alpha[i], alpha[j] = c, sum-c
			}
		} else if alpha[j] < 0 {
			alpha[j], alpha[i] = 0, sum
		}
		if sum > c {
			if alpha[j] > c {
				alpha[j], alpha[i] = c, sum-c
			}
		} else if alpha[i] < 0 {
			alpha[i], alpha[j] = 0, sum
		}
	}
	sv.setSets(i)
	sv.setSets(j)
	yi, yj := y[i]*(alpha[i]-oldI), y[j]*(alpha[j]-oldJ)
	for _, t := range sv.active {
		grad[t] += y[t] * (ki[t]*yi + kj[t]*yj)
	}
	// gbar changes when a variable reaches or leaves the upper bound.
	for _, m := range [2]struct {
		t    int
		old  float64
		kcol []float64
	}{{i, oldI, ki}, {j, oldJ, kj}} {
		was, now := m.old >= c, alpha[m.t] >= c
		if was == now {
			continue
		}
		s := c * y[m.t]
		if was {
			s = -s
		}
		for t := 0; t < n; t++ {
			sv.gbar[t] += s * y[t] * m.kcol[t]
		}
	}
}

// shrink removes from the active set the variables at a bound that the
// optimality conditions say will stay there (LIBSVM's be_shrunk). Near the
// end (violation ≤ 10·tol) it first restores every variable, once; it
// returns whether that has happened.
func (sv *smoState) shrink(tol float64, unshrink bool) bool {
	y, grad, c := sv.y, sv.grad, sv.c
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1) // m(α) and −M(α) on the active set
	for _, t := range sv.active {
		if sv.inUp[t] {
			gmax1 = math.Max(gmax1, -y[t]*grad[t])
		}
		if sv.inLow[t] {
			gmax2 = math.Max(gmax2, y[t]*grad[t])
		}
	}
	if !unshrink && gmax1+gmax2 <= 10*tol {
		unshrink = true
		sv.reconstruct()
		sv.activateAll()
	}
	keep := sv.active[:0]
	for _, t := range sv.active {
		a := sv.alpha[t]
		out := false
		switch {
		case a >= c:
			if y[t] == 1 {
				out = -grad[t] > gmax1
			} else {
				out = -grad[t] > gmax2
			}
		case a <= 0:
			if y[t] == 1 {
				out = grad[t] > gmax2
			} else {
				out = grad[t] > gmax1
			}
		}
		if out {
			sv.shrunk = true
		} else {
			keep = append(keep, t)
		}
	}
	sv.active = keep
	return unshrink
}

// reconstruct makes the gradient exact on the variables outside the active
// set: ∇_t = gbar_t − 1 + Σ_{0 < α_j < C} α_j Q_tj (inactive variables are
// at a bound, so every free one is active).
func (sv *smoState) reconstruct() {
	if !sv.shrunk {
		return
	}
	n, y, c := sv.n, sv.y, sv.c
	isActive := make([]bool, n)
	for _, t := range sv.active {
		isActive[t] = true
	}
	var free []int
	for _, t := range sv.active {
		if a := sv.alpha[t]; a > 0 && a < c {
			free = append(free, t)
		}
	}
	for t := 0; t < n; t++ {
		if isActive[t] {
			continue
		}
		g := sv.gbar[t] - 1
		kt := sv.kd.row(t)
		for _, j := range free {
			g += sv.alpha[j] * y[t] * y[j] * kt[j]
		}
		sv.grad[t] = g
	}
}

// offset returns LIBSVM's ρ: the mean of y_i∇_i over free variables, or
// the middle of the feasible interval when no variable is free.
func offset(alpha, grad, y []float64, c float64) float64 {
	ub, lb := math.Inf(1), math.Inf(-1)
	var sum float64
	free := 0
	for i, a := range alpha {
		yg := y[i] * grad[i]
		switch {
		case a >= c:
			if y[i] == -1 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		case a <= 0:
			if y[i] == 1 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		default:
			free++
			sum += yg
		}
	}
	if free > 0 {
		return sum / float64(free)
	}
	return (ub + lb) / 2
}
