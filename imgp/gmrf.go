package imgp

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/linop"
)

// Hyperparameters of the graph Matérn model (IMGP §3.3 and §4). Amplitude is
// s = σ²/C, the factor in front of Σ_l Φ(λ_l) f_l f_lᵀ; σ² itself is s·C
// (see Regressor.Variance). Training in s rather than σ² leaves the maximum of
// the likelihood unchanged: for fixed α and κ the map σ² ↦ σ²/C is a bijection.
type Hyperparameters struct {
	Alpha     float64 // graph bandwidth α of exp(−‖x−x′‖²/(4α²))
	Kappa     float64 // length scale κ, c = 2ν/κ²
	Amplitude float64 // s = σ²/C
	Noise     float64 // σ_ε², the observation noise variance
}

func (h Hyperparameters) String() string {
	return fmt.Sprintf("α %.4g, κ %.4g, amplitude %.4g, noise %.4g", h.Alpha, h.Kappa, h.Amplitude, h.Noise)
}

func (h Hyperparameters) validate(prefix string) error {
	for _, p := range []struct {
		name string
		v    float64
	}{{"Alpha", h.Alpha}, {"Kappa", h.Kappa}, {"Amplitude", h.Amplitude}, {"Noise", h.Noise}} {
		if err := checkPositive(prefix+p.name, p.v); err != nil {
			return err
		}
	}
	return nil
}

// gmrf is the semi-supervised marginal likelihood in GMRF form
// (ALGORITHMS.md §3):
//
//	Q = P + E/σ_ε²,  m = Q⁻¹ỹ/σ_ε²
//	log p(y) = −½[yᵀy/σ_ε² − (ỹ/σ_ε²)ᵀQ⁻¹(ỹ/σ_ε²) + log det Q − log det P + n log σ_ε² + n log 2π]
//
// and its gradient. For θ among α, κ, s (dQ = dP):
//
//	∂log p/∂θ = −½[mᵀ(∂P)m + tr(Q⁻¹∂P) − tr(P⁻¹∂P)]
//	tr(P⁻¹∂P/∂α) = ν tr(M⁻¹∂M/∂α) − (ν−1) Σ_i (∂D_i/∂α)/D_i
//	tr(P⁻¹∂P/∂c) = ν tr(M⁻¹D),   tr(P⁻¹∂P/∂log s) = −N
//	∂log p/∂log σ_ε² = ½[‖y − m_n‖²/σ_ε² + tr((Q⁻¹)_nn)/σ_ε² − n]
//
// with every trace estimated as the mean of zᵀX⁻¹(∂X)z over the probes z
// (IMGP eq. 15, Hutchinson), X⁻¹z by conjugate gradients. Probes that are the
// N unit vectors give the exact traces.
type gmrf struct {
	geo      *knngraph.Graph
	nu       int
	labelled []int
	y        []float64
	tol      float64 // CG relative residual
}

// state is everything at one hyperparameter setting.
type state struct {
	h   Hyperparameters
	w   *knngraph.Weights
	p   *Precision
	dA  *graph.CSR // ∂Ã/∂α
	g   []float64  // (∂D̃/∂α)/D̃
	dD  []float64  // ∂D/∂α
	inv []float64  // 1/D̃
	sel []float64  // E/σ_ε² as a diagonal
}

func (pr *gmrf) state(h Hyperparameters, derivatives bool) (*state, error) {
	w, err := pr.geo.Weights(h.Alpha)
	if err != nil {
		return nil, err
	}
	n := len(w.D)
	st := &state{h: h, w: w, p: newPrecision(w.A, w.D, pr.nu, 2*float64(pr.nu)/(h.Kappa*h.Kappa), 1/h.Amplitude)}
	st.sel = make([]float64, n)
	for _, i := range pr.labelled {
		st.sel[i] = 1 / h.Noise
	}
	if !derivatives {
		return st, nil
	}
	if st.dA, err = pr.geo.AffinityDerivative(h.Alpha); err != nil {
		return nil, err
	}
	dDT := st.dA.Degrees()
	st.g = make([]float64, n)
	st.inv = make([]float64, n)
	for i := range dDT {
		st.inv[i] = 1 / w.DTilde[i]
		st.g[i] = dDT[i] * st.inv[i]
	}
	st.dD = make([]float64, n)
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	st.mulDA(st.dD, ones)
	return st, nil
}

// mulDA sets dst = (∂A/∂α) x = D̃⁻¹(∂Ã)D̃⁻¹x − g∘(Ax) − A(g∘x).
func (st *state) mulDA(dst, x []float64) {
	n := len(x)
	t := make([]float64, n)
	st.dA.ScaledMulVecTo(dst, x, graph.Scaling{Left: st.inv, Right: st.inv})
	st.w.A.MulVecTo(t, x)
	for i := range dst {
		dst[i] -= st.g[i] * t[i]
	}
	st.w.A.ScaledMulVecTo(t, x, graph.Scaling{Right: st.g})
	for i := range dst {
		dst[i] -= t[i]
	}
}

// mulDM sets dst = (∂M/∂α)x = (1+c)(∂D)x − (∂A)x.
func (st *state) mulDM(dst, x []float64) {
	st.mulDA(dst, x)
	c := st.p.Shift
	for i := range dst {
		dst[i] = (1+c)*st.dD[i]*x[i] - dst[i]
	}
}

// mulDP0Alpha sets dst = (∂P₀/∂α)x for P₀ = D B^ν, B = D⁻¹M:
// ∂P₀ = (∂D)B^ν + D Σ_k B^k (∂B) B^{ν−1−k},  ∂B = D⁻¹(∂M − (∂D)B).
func (st *state) mulDP0Alpha(dst, x []float64) {
	p := st.p
	n := len(x)
	nu := p.Nu
	pow := make([][]float64, nu+1) // pow[j] = B^j x
	pow[0] = x
	for j := 1; j <= nu; j++ {
		pow[j] = make([]float64, n)
		p.mulB(pow[j], pow[j-1])
	}
	for i := range dst {
		dst[i] = st.dD[i] * pow[nu][i]
	}
	t := make([]float64, n)
	u := make([]float64, n)
	for k := 0; k < nu; k++ {
		// ∂B applied to B^{ν−1−k}x
		v := pow[nu-1-k]
		st.mulDM(t, v)
		bv := pow[nu-k]
		for i := range t {
			t[i] = (t[i] - st.dD[i]*bv[i]) * p.invD[i]
		}
		for j := 0; j < k; j++ {
			p.mulB(u, t)
			t, u = u, t
		}
		for i := range dst {
			dst[i] += p.D[i] * t[i]
		}
	}
}

// mulDP0Shift sets dst = (∂P₀/∂c)x = ν D B^{ν−1} x.
func (st *state) mulDP0Shift(dst, x []float64) {
	p := st.p
	y := append([]float64(nil), x...)
	t := make([]float64, len(x))
	for k := 0; k < p.Nu-1; k++ {
		p.mulB(t, y)
		y, t = t, y
	}
	for i := range dst {
		dst[i] = float64(p.Nu) * p.D[i] * y[i]
	}
}

// posteriorOp is Q = P + E/σ_ε².
type posteriorOp struct{ st *state }

func (q posteriorOp) Dim() int          { return q.st.p.Dim() }
func (q posteriorOp) IsSymmetric() bool { return true }
func (q posteriorOp) MulVecTo(dst, x []float64) {
	q.st.p.MulVecTo(dst, x)
	for i, s := range q.st.sel {
		dst[i] += s * x[i]
	}
}

// MulBlockTo sets dst = (P + S)X, one pass over the graph per factor.
func (q posteriorOp) MulBlockTo(dst, x *mat.Dense) {
	q.st.p.MulBlockTo(dst, x)
	for i, s := range q.st.sel {
		drow, xrow := dst.RawRowView(i), x.RawRowView(i)
		for j := range drow {
			drow[j] += s * xrow[j]
		}
	}
}

// mOp is M = (1+c)D − A.
type mOp struct{ p *Precision }

func (m mOp) Dim() int                  { return m.p.Dim() }
func (m mOp) IsSymmetric() bool         { return true }
func (m mOp) MulVecTo(dst, x []float64) { m.p.mulM(dst, x) }
func (m mOp) MulBlockTo(dst, x *mat.Dense) {
	m.p.A.ScaledMulBlockTo(dst, x, m.p.mScl)
}

// gradient is the result of one evaluation.
type gradient struct {
	// d log p / d log α, log κ, log s, log σ_ε²
	Grad [4]float64
	// Mean is the posterior mean on every node.
	Mean []float64
	// Iterations is the total number of CG iterations.
	Iterations int
}

func (st *state) solveQ(ctx context.Context, b []float64, tol float64) ([]float64, int, error) {
	q := posteriorOp{st}
	pre, err := krylov.Jacobi(st.qDiagonal())
	if err != nil {
		return nil, 0, err
	}
	x := make([]float64, len(b))
	res, err := krylov.CG(ctx, q, b, x, krylov.Settings{Tol: tol, Preconditioner: pre, MaxIter: 20 * len(b)})
	if err != nil {
		return x, res.Iterations, fmt.Errorf("imgp: solving with the posterior precision: %w", err)
	}
	return x, res.Iterations, nil
}

func (st *state) solveM(ctx context.Context, b []float64, tol float64) ([]float64, int, error) {
	p := st.p
	pre, err := krylov.Jacobi(st.mDiagonal())
	if err != nil {
		return nil, 0, err
	}
	x := make([]float64, len(b))
	res, err := krylov.CG(ctx, linop.Operator(mOp{p}), b, x, krylov.Settings{Tol: tol, Preconditioner: pre, MaxIter: 20 * len(b)})
	if err != nil {
		return x, res.Iterations, fmt.Errorf("imgp: solving with (1+c)D − A: %w", err)
	}
	return x, res.Iterations, nil
}

// solveBlock solves A X = B for the right-hand sides cols (one column
// each) by block CG with the Jacobi preconditioner diag: the columns run in
// lockstep, one pass over the graph per product for all of them (each
// column's recursion is the one CG would run alone). It returns the
// solutions and the iterations summed over the columns.
func solveBlock(ctx context.Context, a linop.Operator, diag []float64, cols [][]float64, tol float64, what string) ([][]float64, int, error) {
	pre, err := krylov.Jacobi(diag)
	if err != nil {
		return nil, 0, err
	}
	n, c := len(diag), len(cols)
	b := mat.NewDense(n, c, nil)
	for j, col := range cols {
		b.SetCol(j, col)
	}
	x := mat.NewDense(n, c, nil)
	res, err := krylov.BlockCG(ctx, a, b, x, krylov.Settings{Tol: tol, Preconditioner: pre, MaxIter: 20 * n})
	iters := 0
	for _, it := range res.Iterations {
		iters += it
	}
	out := make([][]float64, c)
	for j := range out {
		out[j] = mat.Col(nil, j, x)
	}
	if err != nil {
		return out, iters, fmt.Errorf("imgp: solving with %s: %w", what, err)
	}
	return out, iters, nil
}

// qDiagonal is the diagonal of the posterior precision P + S.
func (st *state) qDiagonal() []float64 {
	diag := st.p.Diagonal()
	for i, s := range st.sel {
		diag[i] += s
	}
	return diag
}

// mDiagonal is the diagonal of M = (1+c)D − A.
func (st *state) mDiagonal() []float64 {
	p := st.p
	diag := make([]float64, p.Dim())
	for i := range diag {
		diag[i] = (1+p.Shift)*p.D[i] - p.A.Weight(i, i)
	}
	return diag
}

// evaluate computes the posterior mean and the gradient of log p(y) with the
// given probe vectors.
func (pr *gmrf) evaluate(ctx context.Context, h Hyperparameters, probes [][]float64) (gradient, error) {
	st, err := pr.state(h, true)
	if err != nil {
		return gradient{}, err
	}
	n := st.p.Dim()
	b := make([]float64, n)
	for k, i := range pr.labelled {
		b[i] = pr.y[k] / h.Noise
	}
	var out gradient
	// The mean and the probes' Q solves as one block, the probes' M solves
	// as another.
	wqs, it, err := solveBlock(ctx, posteriorOp{st}, st.qDiagonal(), append([][]float64{b}, probes...), pr.tol, "the posterior precision")
	out.Iterations += it
	if err != nil {
		return out, err
	}
	wms, it, err := solveBlock(ctx, mOp{st.p}, st.mDiagonal(), probes, pr.tol, "(1+c)D − A")
	out.Iterations += it
	if err != nil {
		return out, err
	}
	m := wqs[0]
	out.Mean = m
	out.Grad = pr.gradient(st, h, m, wqs[1:], wms, probes)
	if err := ctx.Err(); err != nil {
		return out, err
	}
	for _, g := range out.Grad {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return out, fmt.Errorf("imgp: the likelihood gradient is %v at %v", out.Grad, h)
		}
	}
	return out, nil
}

// gradient is the gradient of log p(y) in the four hyperparameters (the
// order of gradient.Grad) from the posterior mean m and the probes' solves
// with the posterior precision Q (wqs) and with M = (1+c)D − A (wms): the
// quadratic terms mᵀ∂P m and the residual from m, the traces from the
// probes.
func (pr *gmrf) gradient(st *state, h Hyperparameters, m []float64, wqs, wms, probes [][]float64) [4]float64 {
	n := st.p.Dim()
	nl := float64(len(pr.labelled))
	// Quadratic terms mᵀ ∂P m.
	tmp := make([]float64, n)
	dc := -4 * float64(pr.nu) / (h.Kappa * h.Kappa) // dc/dlog κ = −2c
	tau := 1 / h.Amplitude
	st.mulDP0Alpha(tmp, m)
	quadA := tau * h.Alpha * dot(m, tmp)
	st.mulDP0Shift(tmp, m)
	quadK := tau * dc * dot(m, tmp)
	st.p.MulVecTo(tmp, m)
	quadS := -dot(m, tmp)
	var resid float64
	for k, i := range pr.labelled {
		r := pr.y[k] - m[i]
		resid += r * r
	}
	tr := pr.traces(st, h, dc, tau, wqs, wms, probes)
	var dlogD float64
	for i, v := range st.dD {
		dlogD += v / st.p.D[i]
	}
	nu := float64(pr.nu)
	trPA := h.Alpha * (nu*tr.mdm - (nu-1)*dlogD)
	trPK := dc * nu * tr.md
	trPS := -float64(n)
	var g [4]float64
	g[0] = -0.5 * (quadA + tr.qa - trPA)
	g[1] = -0.5 * (quadK + tr.qk - trPK)
	g[2] = -0.5 * (quadS + tr.qs - trPS)
	g[3] = 0.5 * (resid/h.Noise + tr.qe/h.Noise - nl)
	return g
}

// gmrfTraces are the probes' trace estimates in the gradient: Q⁻¹ against
// the three derivatives of P and against the labelled nodes' selection,
// M⁻¹ against ∂M and against D.
type gmrfTraces struct{ qa, qk, qs, qe, mdm, md float64 }

// traces averages the probes' estimates (X⁻¹z)ᵀ Y z of the traces.
func (pr *gmrf) traces(st *state, h Hyperparameters, dc, tau float64, wqs, wms, probes [][]float64) gmrfTraces {
	var trQA, trQK, trQS, trQE, trMdM, trMD float64
	dz := make([]float64, st.p.Dim())
	for k, z := range probes {
		wq, wm := wqs[k], wms[k]
		st.mulDP0Alpha(dz, z)
		trQA += tau * h.Alpha * dot(wq, dz)
		st.mulDP0Shift(dz, z)
		trQK += tau * dc * dot(wq, dz)
		st.p.MulVecTo(dz, z)
		trQS -= dot(wq, dz)
		for _, i := range pr.labelled {
			trQE += wq[i] * z[i]
		}
		st.mulDM(dz, z)
		trMdM += dot(wm, dz)
		for i := range z {
			trMD += wm[i] * st.p.D[i] * z[i]
		}
	}
	np := float64(len(probes))
	return gmrfTraces{trQA / np, trQK / np, trQS / np, trQE / np, trMdM / np, trMD / np}
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
