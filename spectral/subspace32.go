package spectral

import (
	"github.com/gssl/gssl/internal/hugepage"
	"github.com/gssl/gssl/internal/parallel"
)

// Float32 filter passes of the subspace iteration (filterCorrected): the
// recursion runs on float32 blocks, so a block row of 12 values padded to 16
// is one 64-byte cache line, each stored entry of the graph gathers one line
// instead of two, and the blocks take half the memory. Products are summed
// in float64 (graph.MulBlock32StridedRowsInto); only the correction E to
// X·T_d(Θ̂) is stored in float32, so the passes reach float64 residuals.
// The orthonormalisation and Rayleigh–Ritz steps stay in float64.

// subspace32Rows is the number of rows a task multiplies at a time: the
// float64 products of those rows stay in cache until they are finished.
const subspace32Rows = 256

// stride32 returns the row stride of the float32 blocks of p columns: p
// rounded up to 4, 8 or 16 entries (16, 32 or 64 bytes), so that no row
// straddles two cache lines and each stored entry of the graph gathers one
// line (a row of 12 float32 is 48 bytes: half of them would straddle two).
func stride32(p int) int {
	for _, s := range []int{4, 8, 16} {
		if p <= s {
			return s
		}
	}
	return p
}

// step32 sets next = α(D^{-1}W·cur − γ·cur) − next + coef_j·force (column
// j), rows in parallel.
func (s *subspace) step32(next, cur, force []float32, coef []float64, alpha, gamma float64) {
	p, xs := s.p, stride32(s.p)
	parallel.Balanced(s.g.Arrays().Indptr, 1<<15, func(lo, hi int) {
		buf := make([]float64, subspace32Rows*p)
		for r0 := lo; r0 < hi; r0 += subspace32Rows {
			r1 := min(hi, r0+subspace32Rows)
			s.g.MulBlock32StridedRowsInto(buf, cur, xs, p, r0, r1)
			for i := r0; i < r1; i++ {
				b, c, nx := buf[(i-r0)*p:(i-r0+1)*p], cur[i*xs:i*xs+p], next[i*xs:i*xs+p]
				f := s.invD[i]
				for j, v := range b {
					y := alpha*(f*v-gamma*float64(c[j])) - float64(nx[j]) + coef[j]*float64(force[i*xs+j])
					nx[j] = float32(y)
				}
			}
		}
	})
}

// filterCorrected is filter, with float64 accuracy from float32 products,
// for a block X of Ritz vectors (s.x, with s.ax = S·X and the Ritz values
// theta of its columns): with R = SX − XΘ and Ŝ = (S − γ)/e,
//
//	T_i(Ŝ)X = X·T_i(Θ̂) + E_i,   Θ̂ = (Θ − γ)/e,
//	E_0 = 0,  E_1 = R/e,  E_{i+1} = 2ŜE_i − E_{i−1} + 2(R/e)·T_i(Θ̂),
//
// (ŜX = XΘ̂ + R/e in the recursion of T_{i+1}). The correction E is of the
// size of R and is all that runs in float32, on F = D^{-1/2}E with the
// graph's float32 kernels: its rounding (relative 6e-8 a step) costs the
// filtered block about 6e-8·d·‖R‖, far below the residuals the pass
// reaches, while X·T_d(Θ̂) is formed in float64. One product fewer than
// filter (E_1 needs none); a third float32 block holds D^{-1/2}R/e.
func (s *subspace) filterCorrected(d int, theta []float64, gamma, e float64) {
	n, p, xs := s.n, s.p, stride32(s.p)
	if s.f32a == nil {
		s.f32a, s.f32b = hugepage.Float32s(n*xs), hugepage.Float32s(n*xs)
	}
	if s.f32r == nil {
		s.f32r = hugepage.Float32s(n * xs)
	}
	xm, am := s.x.RawMatrix(), s.ax.RawMatrix()
	prev, cur, force := s.f32a, s.f32b, s.f32r
	parallel.For(n, subspaceRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xr, ar := xm.Data[i*xm.Stride:i*xm.Stride+p], am.Data[i*am.Stride:i*am.Stride+p]
			for j := range xr {
				f := float32((ar[j] - theta[j]*xr[j]) * s.invSqrtD[i] / e)
				force[i*xs+j], cur[i*xs+j], prev[i*xs+j] = f, f, 0
			}
		}
	})
	// T_{i−1}(θ̂_j), T_i(θ̂_j) and the forcing coefficients 2·T_i(θ̂_j).
	th, tPrev, tCur, coef := make([]float64, p), make([]float64, p), make([]float64, p), make([]float64, p)
	for j := range th {
		th[j] = (theta[j] - gamma) / e
		tPrev[j], tCur[j] = 1, th[j]
	}
	for i := 1; i < d; i++ {
		for j := range coef {
			coef[j] = 2 * tCur[j]
		}
		s.step32(prev, cur, force, coef, 2/e, gamma)
		prev, cur = cur, prev
		for j := range th {
			tPrev[j], tCur[j] = tCur[j], 2*th[j]*tCur[j]-tPrev[j]
		}
	}
	s.matvecs += (d - 1) * p
	parallel.For(n, subspaceRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := xm.Data[i*xm.Stride : i*xm.Stride+p]
			for j := range row {
				row[j] = row[j]*tCur[j] + float64(cur[i*xs+j])*s.sqrtD[i]
			}
		}
	})
}
