package gp

import (
	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/parallel"
)

// invBlock is the order of the diagonal blocks of the blocked inversion
// Z = R⁻¹: a multiple of 48 = lcm(MR, 2·NR64), so that block boundaries
// fall on panel boundaries of both operands.
const invBlock = 96

// groupPanels is the number of A panels multiplied against one pair of B
// panels before the next pair: 8 panels of depth 2000 are 768 kB, which
// stay in a core's L2 cache while the pairs stream past (as gemm's groupA).
const groupPanels = 8

// pairRows is the number of rows of Z that one two-panel kernel call
// covers on the right.
const pairRows = 2 * gemm.NR64

// inverse holds Z = R⁻¹ (R upper triangular, n×n) packed twice for the
// micro-kernels, and the scratch of its blocked computation. Its storage
// is kept across likelihood evaluations.
//
// Row i of Z is zero left of the diagonal, so each panel stores only the
// depths from its first row on: A panel p (rows 6p…6p+5, gemm.MR wide)
// the depths t ∈ [6p, n), B panel q (rows 8q…8q+7, gemm.NR64 wide) the
// depths t ∈ [16⌊q/2⌋, n), so that the two panels of a pair start at the
// same depth. Depths left of a row's diagonal hold zeros: a product summed
// from a panel's first depth on equals the full one bitwise (the skipped
// terms are exact zeros).
type inverse struct {
	n          int
	za, zb     []float64 // Z in A and B panels
	offA, offB []int     // where each panel starts
	ra, pb     []float64 // R[0:j0, J] in A panels; −R[0:j0, J]·Z_JJ in B panels (depth j0)
	zjj, zjjb  []float64 // Z_JJ row-major, and its columns in B panels
	zero       []float64 // a zero B panel of depth n (the partner of a last odd panel)
}

func newInverse(n int) *inverse {
	inv := &inverse{n: n}
	na := (n + gemm.MR - 1) / gemm.MR
	nb := (n + pairRows - 1) / pairRows * 2 // even: every panel has a partner
	inv.offA = make([]int, na+1)
	for p := 0; p < na; p++ {
		inv.offA[p+1] = inv.offA[p] + gemm.MR*(n-gemm.MR*p)
	}
	inv.offB = make([]int, nb+1)
	for q := 0; q < nb; q++ {
		inv.offB[q+1] = inv.offB[q] + gemm.NR64*max(n-bStart(q), 0)
	}
	inv.za = make([]float64, inv.offA[na])
	inv.zb = make([]float64, inv.offB[nb])
	inv.ra = make([]float64, (n+gemm.MR)*invBlock)
	inv.pb = make([]float64, (invBlock+pairRows)*n)
	inv.zjj = make([]float64, invBlock*invBlock)
	inv.zjjb = make([]float64, (invBlock+pairRows)*invBlock)
	inv.zero = make([]float64, gemm.NR64*n)
	return inv
}

// bStart is the first depth stored by B panel q.
func bStart(q int) int { return q / 2 * pairRows }

// setZ stores Z_it (t ≥ i) in both packings.
func (inv *inverse) setZ(i, t int, v float64) {
	p, q := i/gemm.MR, i/gemm.NR64
	inv.za[inv.offA[p]+(t-gemm.MR*p)*gemm.MR+i%gemm.MR] = v
	inv.zb[inv.offB[q]+(t-bStart(q))*gemm.NR64+i%gemm.NR64] = v
}

// panelA returns A panel p of Z from depth t0 ≥ 6p on.
func (inv *inverse) panelA(p, t0 int) []float64 {
	return inv.za[inv.offA[p]+(t0-gemm.MR*p)*gemm.MR : inv.offA[p+1]]
}

// panelB returns B panel q of Z from depth t0 ≥ bStart(q) on.
func (inv *inverse) panelB(q, t0 int) []float64 {
	return inv.zb[inv.offB[q]+(t0-bStart(q))*gemm.NR64 : inv.offB[q+1]]
}

// invert computes Z = R⁻¹ for the upper triangle of the n×n row-major r
// (row stride n; the entries below the diagonal are not read), block
// column by block column (left-looking, as LAPACK's dtrtri): with
// J = [j0, j1),
//
//	Z_JJ = R_JJ⁻¹ (back substitution),   Z[0:j0, J] = Z[0:j0, 0:j0] · (−R[0:j0, J] Z_JJ),
//
// both products by the GEMM kernels on all cores, each triangular operand
// summed from its panels' first depth: n³/6 multiply-adds in all.
func (inv *inverse) invert(r []float64) {
	n := inv.n
	for j0 := 0; j0 < n; j0 += invBlock {
		j1 := min(j0+invBlock, n)
		inv.diagonalBlock(r, j0, j1)
		if j0 > 0 {
			inv.offDiagonalProduct(r, j0, j1)
			inv.blockColumn(j0, j1)
		}
		for i := j0; i < j1; i++ {
			for t := i; t < j1; t++ {
				inv.setZ(i, t, inv.zjj[(i-j0)*invBlock+t-j0])
			}
		}
	}
}

// diagonalBlock sets zjj to R_JJ⁻¹ by back substitution, column by column
// (R_JJ z = e_c), and packs its columns as B panels.
func (inv *inverse) diagonalBlock(r []float64, j0, j1 int) {
	n, m := inv.n, j1-j0
	z := inv.zjj
	clear(z)
	for c := 0; c < m; c++ {
		z[c*invBlock+c] = 1 / r[(j0+c)*n+j0+c]
		for i := c - 1; i >= 0; i-- {
			ri := r[(j0+i)*n+j0 : (j0+i)*n+j1]
			var s float64
			for k := i + 1; k <= c; k++ {
				s += ri[k] * z[k*invBlock+c]
			}
			z[i*invBlock+c] = -s / ri[i]
		}
	}
	// B row c = column c of Z_JJ, depth m
	b := inv.zjjb[:(m+pairRows-1)/pairRows*pairRows*m]
	clear(b)
	for t := 0; t < m; t++ {
		for c := t; c < m; c++ {
			b[(c/gemm.NR64)*gemm.NR64*m+t*gemm.NR64+c%gemm.NR64] = z[t*invBlock+c]
		}
	}
}

// offDiagonalProduct sets pb to −P = −R[0:j0, J]·Z_JJ as B panels (row c
// of the panels is column c of P, depth j0). Column c of Z_JJ is zero
// below row c, so the pair of columns [16Q, 16Q+16) needs depth 16Q + 16.
func (inv *inverse) offDiagonalProduct(r []float64, j0, j1 int) {
	n, m := inv.n, j1-j0
	pairs := (m + pairRows - 1) / pairRows
	parallel.For(j0/gemm.MR, 8, func(lo, hi int) {
		var tile [2 * gemm.MR * gemm.NR64]float64
		for p := lo; p < hi; p++ {
			a := inv.ra[p*gemm.MR*m : (p+1)*gemm.MR*m]
			for i := 0; i < gemm.MR; i++ {
				row := r[(p*gemm.MR+i)*n+j0 : (p*gemm.MR+i)*n+j1]
				for t, v := range row {
					a[t*gemm.MR+i] = v
				}
			}
			for q := 0; q < pairs; q++ {
				k := min(m, (q+1)*pairRows)
				b0 := inv.zjjb[2*q*gemm.NR64*m:]
				b1 := inv.zjjb[(2*q+1)*gemm.NR64*m:]
				gemm.KernelPair64(k, a, b0, b1, tile[:])
				inv.storeP(tile[:], p, q, m, j0)
			}
		}
	})
}

// storeP writes the negated tile of A panel p (rows of R) against the
// column pair q of Z_JJ into pb: entry (row i, column c) at B row c, depth i.
func (inv *inverse) storeP(tile []float64, p, q, m, j0 int) {
	for h := 0; h < 2; h++ {
		for jj := 0; jj < gemm.NR64; jj++ {
			c := q*pairRows + h*gemm.NR64 + jj
			if c >= m {
				return
			}
			dst := inv.pb[(c/gemm.NR64)*gemm.NR64*j0+p*gemm.MR*gemm.NR64+c%gemm.NR64:]
			for i := 0; i < gemm.MR; i++ {
				dst[i*gemm.NR64] = -tile[(h*gemm.MR+i)*gemm.NR64+jj]
			}
		}
	}
}

// blockColumn sets Z[0:j0, J] = Z[0:j0, 0:j0]·(−P), A panel p of Z summed
// from depth 6p on, and stores it in both packings.
func (inv *inverse) blockColumn(j0, j1 int) {
	m := j1 - j0
	np := j0 / gemm.MR
	pairs := (m + pairRows - 1) / pairRows
	prefix := make([]int, np+1)
	for p := 0; p < np; p++ {
		prefix[p+1] = prefix[p] + (j0 - p*gemm.MR)
	}
	parallel.Balanced(prefix, 16*j0, func(lo, hi int) {
		var tile [2 * gemm.MR * gemm.NR64]float64
		for g0 := lo; g0 < hi; g0 += groupPanels {
			for q := 0; q < pairs; q++ {
				for p := g0; p < min(g0+groupPanels, hi); p++ {
					t0 := p * gemm.MR
					b0 := inv.pb[(2*q*gemm.NR64*j0)+t0*gemm.NR64:]
					b1 := inv.pb[((2*q+1)*gemm.NR64*j0)+t0*gemm.NR64:]
					gemm.KernelPair64(j0-t0, inv.panelA(p, t0), b0, b1, tile[:])
					inv.storeZ(tile[:], t0, j0, q, m)
				}
			}
		}
	})
}

// storeZ stores a tile of Z[0:j0, J] (rows t0…t0+5, the columns of pair q
// of J) in both packings.
func (inv *inverse) storeZ(tile []float64, t0, j0, q, m int) {
	for h := 0; h < 2; h++ {
		for jj := 0; jj < gemm.NR64; jj++ {
			c := q*pairRows + h*gemm.NR64 + jj
			if c >= m {
				return
			}
			for i := 0; i < gemm.MR; i++ {
				inv.setZ(t0+i, j0+c, tile[(h*gemm.MR+i)*gemm.NR64+jj])
			}
		}
	}
}

// gradientPart is the part of the gradient sums held by one A panel.
type gradientPart struct{ amp, length, trace float64 }

// gradientParts returns, for each A panel p of Z (rows 6p…6p+5 of W), the
// sums over its entries j ≥ i of W = ααᵀ − K⁻¹ times ∂K (the off-diagonal
// entries twice): Σ W_ij·a·k_ij, Σ W_ij·a·k_ij·(∂ log k/∂ log ℓ)_ij and
// Σ W_ii. Each tile of K⁻¹ = ZZᵀ is computed by one kernel call summed
// from the first depth where both panels are non-zero, and consumed at
// once: K⁻¹ is never stored. The parts are summed in order by the caller,
// so the result does not depend on the number of workers.
func (inv *inverse) gradientParts(l *likelihood, h Hyperparameters) []gradientPart {
	n := inv.n
	np := (n + gemm.MR - 1) / gemm.MR
	pairs := (n + pairRows - 1) / pairRows
	parts := make([]gradientPart, np)
	prefix := make([]int, np+1)
	for p := 0; p < np; p++ {
		w := 0
		for q := p * gemm.MR / pairRows; q < pairs; q++ {
			w += n - max(p*gemm.MR, q*pairRows)
		}
		prefix[p+1] = prefix[p] + w
	}
	parallel.Balanced(prefix, 64*n, func(lo, hi int) {
		var tile [2 * gemm.MR * gemm.NR64]float64
		for g0 := lo; g0 < hi; g0 += groupPanels {
			g1 := min(g0+groupPanels, hi)
			for q := g0 * gemm.MR / pairRows; q < pairs; q++ {
				for p := g0; p < g1; p++ {
					if q < p*gemm.MR/pairRows {
						continue // below the diagonal
					}
					t0 := max(p*gemm.MR, q*pairRows)
					gemm.KernelPair64(n-t0, inv.panelA(p, t0), inv.panelB(2*q, t0), inv.panelB(2*q+1, t0), tile[:])
					inv.consume(&parts[p], tile[:], l, h, p, q)
				}
			}
		}
	})
	return parts
}

// consume adds the entries j ≥ i of a tile of K⁻¹ (rows of A panel p,
// columns of pair q) to the gradient sums s, as the dense loop over W
// would: w = α_iα_j − K⁻¹_ij, doubled off the diagonal.
func (inv *inverse) consume(s *gradientPart, tile []float64, l *likelihood, h Hyperparameters, p, q int) {
	n := inv.n
	diag := h.Noise + l.jitter
	dist := l.dist.RawMatrix()
	for ii := 0; ii < gemm.MR; ii++ {
		i := p*gemm.MR + ii
		if i >= n {
			return
		}
		srow := dist.Data[i*dist.Stride:]
		for hh := 0; hh < 2; hh++ {
			for jj := 0; jj < gemm.NR64; jj++ {
				j := q*pairRows + hh*gemm.NR64 + jj
				if j < i {
					continue
				}
				if j >= n {
					break
				}
				w := l.a[i]*l.a[j] - tile[(hh*gemm.MR+ii)*gemm.NR64+jj]
				var ak float64
				if j != i {
					w *= 2
					ak = l.f[j*n+i]
				} else {
					s.trace += w
					ak = l.kd[i] - diag
				}
				s.amp += w * ak
				s.length += w * ak * lengthSlopeAt(l.cov, srow[j], h.LengthScale)
			}
		}
	}
}
