package spectral

import (
	"github.com/gssl/gssl/internal/hugepage"
	"github.com/gssl/gssl/internal/parallel"
)

// Float32 filter passes of the subspace iteration. While the residuals are
// large the filter's recursion runs on float32 blocks: a row of 12 float32
// values is 48 bytes, so each stored entry of the graph gathers one cache
// line instead of two, and the blocks take half the memory. Products are
// still summed in float64 (graph.MulBlock32RowsInto) and the
// orthonormalisation and Rayleigh–Ritz steps stay in float64; only the
// rounding of the stored block (relative 6e-8) limits a float32 pass (to residuals near 1e-6 on the benchmark graphs), so
// passes switch to float64 once the largest wanted residual is below
// subspace32Above, and a float32 pass aims at subspace32Target rather than
// Tol.
const (
	subspace32Above  = 1e-4
	subspace32Target = 1e-5
	// subspace32Rows is the number of rows a task multiplies at a time: the
	// float64 products of those rows stay in cache until they are finished.
	subspace32Rows = 256
)

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

// filter32 is filter with the recursion Z_{i+1} = (2/e)(D^{-1}W − γ)Z_i −
// Z_{i−1} on float32 blocks (rows padded to stride32(p), huge pages), Z_{i+1} overwriting Z_{i−1} row by row (the
// gathers read only Z_i).
func (s *subspace) filter32(d int, gamma, e float64) {
	n, p, xs := s.n, s.p, stride32(s.p)
	if s.f32a == nil {
		s.f32a, s.f32b = hugepage.Float32s(n*xs), hugepage.Float32s(n*xs)
	}
	xm := s.x.RawMatrix()
	prev, cur := s.f32a, s.f32b
	parallel.For(n, subspaceRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for j, v := range xm.Data[i*xm.Stride : i*xm.Stride+p] {
				prev[i*xs+j] = float32(v * s.invSqrtD[i])
			}
		}
	})
	s.step32(cur, prev, 1/e, gamma, true)
	for i := 1; i < d; i++ {
		s.step32(prev, cur, 2/e, gamma, false)
		prev, cur = cur, prev
	}
	s.matvecs += d * p
	parallel.For(n, subspaceRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := xm.Data[i*xm.Stride : i*xm.Stride+p]
			for j := range row {
				row[j] = float64(cur[i*xs+j]) * s.sqrtD[i]
			}
		}
	})
}

// step32 sets next = α(D^{-1}W·cur − γ·cur) − next (first: without the
// subtraction), rows in parallel.
func (s *subspace) step32(next, cur []float32, alpha, gamma float64, first bool) {
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
					y := alpha * (f*v - gamma*float64(c[j]))
					if !first {
						y -= float64(nx[j])
					}
					nx[j] = float32(y)
				}
			}
		}
	})
}
