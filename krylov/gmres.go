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
	n := sv.n
	m := s.Restart
	if m <= 0 {
		m = 50
	}
	if m > n {
		m = n
	}
	v := make([][]float64, m+1)
	for i := range v {
		v[i] = make([]float64, n)
	}
	h := make([][]float64, m+1) // h[i][j], column j of the Hessenberg matrix
	for i := range h {
		h[i] = make([]float64, m)
	}
	cs := make([]float64, m)
	sn := make([]float64, m)
	g := make([]float64, m+1)
	coef := make([]float64, m+1)
	yv := make([]float64, m)
	z := make([]float64, n)
	wv := make([]float64, n)
	r := make([]float64, n)
	for {
		rel := sv.residual(r, x)
		sv.res.Residual = rel
		sv.remember(x, rel)
		if rel <= sv.tol {
			return sv.res, nil
		}
		if sv.res.Iterations >= sv.max {
			return sv.fail(nil)
		}
		beta := rel * sv.bnorm
		for i := range r {
			v[0][i] = r[i] / beta
		}
		for i := range g {
			g[i] = 0
		}
		g[0] = beta
		j := 0
		for j < m && sv.res.Iterations < sv.max {
			sv.precond(z, v[j])
			sv.mul(wv, z)
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
			g[j+1] = -sn[j] * g[j]
			g[j] = cs[j] * g[j]
			j++
			est := math.Abs(g[j]) / sv.bnorm
			if err := sv.step(est); err != nil {
				sv.update(x, v, h, g, yv, z, wv, j)
				return sv.fail(err)
			}
			if est <= sv.tol || hn == 0 {
				break
			}
			for i := range wv {
				v[j][i] = wv[i] / hn
			}
		}
		sv.update(x, v, h, g, yv, z, wv, j)
	}
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
