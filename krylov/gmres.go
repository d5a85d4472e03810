package krylov

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/linop"
)

// GMRES solves A x = b for any non-singular A by restarted GMRES(m) with
// right preconditioning (A M u = b, x = M u) and Givens rotations.
// Settings.Restart is m. x is the initial guess on entry.
//
// Each new Arnoldi vector is orthogonalised by classical Gram–Schmidt,
// four basis vectors at a time (one read of the vector per four), and a
// second pass is made only when the first removed more than 1 − 1/√2 of its
// norm (the Daniel–Gragg–Kaufman–Stewart criterion: "twice is enough"), as
// in ARPACK; the basis is then orthogonal to working precision.
func GMRES(ctx context.Context, a linop.Operator, b, x []float64, s Settings) (Result, error) {
	sv, err := newSolve(ctx, "GMRES", a, b, x, s, false)
	if err != nil {
		return Result{}, err
	}
	if sv.zeroRHS() {
		return sv.res, nil
	}
	g := newGMRES(sv, s.Restart) // a value: the state stays on the stack
	for {
		if end, res, err := sv.atRestart(x, g.r); end {
			return res, err
		}
		if err := g.cycle(x, sv.res.Residual); err != nil {
			return sv.fail(err)
		}
	}
}

// gmres is the state of one GMRES(m) solve: the Arnoldi basis v, the
// Hessenberg matrix h (h[i][j], column j), the Givens rotations (cs, sn),
// the rotated right-hand side g, and work vectors.
type gmres struct {
	sv    *solve
	m     int
	v, h  [][]float64
	cs    []float64
	sn    []float64
	g     []float64
	coef  []float64
	yv    []float64
	z, wv []float64
	r     []float64
}

// newGMRES allocates GMRES(restart); restart 0 means 50, and at most n.
func newGMRES(sv *solve, restart int) gmres {
	n := sv.n
	m := restart
	if m <= 0 {
		m = 50
	}
	if m > n {
		m = n
	}
	g := gmres{sv: sv, m: m, v: make([][]float64, m+1), h: make([][]float64, m+1)}
	for i := range g.v {
		g.v[i] = make([]float64, n)
	}
	for i := range g.h {
		g.h[i] = make([]float64, m)
	}
	makeVecs(m, &g.cs, &g.sn)
	makeVecs(m+1, &g.g, &g.coef)
	makeVecs(m, &g.yv)
	makeVecs(n, &g.z, &g.wv, &g.r)
	return g
}

// cycle runs up to m Arnoldi steps from the residual in r, of relative size
// rel, and adds the correction to x.
func (g *gmres) cycle(x []float64, rel float64) error {
	sv, v := g.sv, g.v
	beta := rel * sv.bnorm
	for i := range g.r {
		v[0][i] = g.r[i] / beta
	}
	for i := range g.g {
		g.g[i] = 0
	}
	g.g[0] = beta
	j := 0
	for j < g.m && sv.res.Iterations < sv.max {
		hn := g.arnoldi(j)
		g.rotate(j, hn)
		j++
		est := math.Abs(g.g[j]) / sv.bnorm
		if err := sv.step(est); err != nil {
			sv.update(x, v, g.h, g.g, g.yv, g.z, g.wv, j)
			return err
		}
		if est <= sv.tol || hn == 0 {
			break
		}
		for i := range g.wv {
			v[j][i] = g.wv[i] / hn
		}
	}
	sv.update(x, v, g.h, g.g, g.yv, g.z, g.wv, j)
	return nil
}

// arnoldi computes w = A M v_j orthogonalised against v_0…v_j into wv and
// column j of h, and returns ‖w‖, the subdiagonal entry.
func (g *gmres) arnoldi(j int) float64 {
	sv, v, h, wv, coef := g.sv, g.v, g.h, g.wv, g.coef
	sv.precond(g.z, v[j])
	sv.mul(wv, g.z)
	before := floats.Norm(wv, 2)
	gramSchmidt(wv, v[:j+1], coef)
	for i := 0; i <= j; i++ {
		h[i][j] = coef[i]
	}
	hn := floats.Norm(wv, 2)
	if hn < dgks*before {
		gramSchmidt(wv, v[:j+1], coef)
		for i := 0; i <= j; i++ {
			h[i][j] += coef[i]
		}
		hn = floats.Norm(wv, 2)
	}
	return hn
}

// rotate applies the previous rotations to column j of h, computes the
// rotation that zeroes its subdiagonal entry hn, and applies it to g.
func (g *gmres) rotate(j int, hn float64) {
	h, cs, sn := g.h, g.cs, g.sn
	for i := 0; i < j; i++ {
		t := cs[i]*h[i][j] + sn[i]*h[i+1][j]
		h[i+1][j] = -sn[i]*h[i][j] + cs[i]*h[i+1][j]
		h[i][j] = t
	}
	d := math.Hypot(h[j][j], hn)
	if d == 0 {
		cs[j], sn[j] = 1, 0
	} else {
		cs[j], sn[j] = h[j][j]/d, hn/d
	}
	h[j][j] = d
	g.g[j+1] = -sn[j] * g.g[j]
	g.g[j] = cs[j] * g.g[j]
}

// dgks is the Daniel–Gragg–Kaufman–Stewart threshold 1/√2: a Gram–Schmidt
// pass that leaves less than this fraction of a vector's norm is repeated.
const dgks = 0.7071067811865476

// gramSchmidt removes from w its components along the orthonormal vectors
// v by one classical Gram–Schmidt pass, c_i = v_iᵀw for all i, then
// w −= Σ c_i v_i, and stores the c_i in c. Four vectors at a time: w is read
// once per four basis vectors in each half.
func gramSchmidt(w []float64, v [][]float64, c []float64) {
	k := len(v)
	i := 0
	for ; i+4 <= k; i += 4 {
		d := gemm.Dot4(v[i], v[i+1], v[i+2], v[i+3], w)
		copy(c[i:i+4], d[:])
	}
	for ; i < k; i++ {
		c[i] = floats.Dot(v[i], w)
	}
	i = 0
	for ; i+4 <= k; i += 4 {
		gemm.SubMul4(w, v[i], v[i+1], v[i+2], v[i+3], [4]float64{c[i], c[i+1], c[i+2], c[i+3]})
	}
	for ; i < k; i++ {
		floats.AddScaled(w, -c[i], v[i])
	}
}

// update adds M·V_j·y to x where H_j y = g (upper triangular, order j).
func (sv *solve) update(x []float64, v, h [][]float64, g, y, z, tmp []float64, j int) {
	for i := j - 1; i >= 0; i-- {
		s := g[i]
		for k := i + 1; k < j; k++ {
			s -= h[i][k] * y[k]
		}
		if h[i][i] == 0 {
			y[i] = 0
			continue
		}
		y[i] = s / h[i][i]
	}
	for i := range tmp {
		tmp[i] = 0
	}
	for k := 0; k < j; k++ {
		floats.AddScaled(tmp, y[k], v[k])
	}
	sv.precond(z, tmp)
	floats.Add(x, z)
}
