package krylov

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gssl/gssl/linop"
)

// GMRES solves A x = b for any non-singular A by restarted GMRES(m) with
// right preconditioning (A M u = b, x = M u), modified Gram–Schmidt with one
// re-orthogonalisation pass, and Givens rotations. Settings.Restart is m.
// x is the initial guess on entry.
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
			for pass := 0; pass < 2; pass++ {
				for i := 0; i <= j; i++ {
					c := floats.Dot(wv, v[i])
					if pass == 0 {
						h[i][j] = c
					} else {
						h[i][j] += c
					}
					floats.AddScaled(wv, -c, v[i])
				}
			}
			hn := floats.Norm(wv, 2)
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
