package sgemm

import (
	"fmt"

	"github.com/gssl/gssl/internal/parallel"
)

// Panels is a float32 matrix of Rows rows and K columns packed for Kernel:
// the rows are grouped in panels of W consecutive rows (W = MR for the left
// operand A, NR for the right operand B), and each panel is stored column
// by column, so that entry (i, t) is at
//
//	Data[(i/W)·W·K + t·W + i%W].
//
// Rows past Rows in the last panel are zero. The zero value is empty; build
// one with NewPanels.
type Panels struct {
	Rows, K, W int
	Data       []float32
}

// NewPanels returns zeroed panels for a rows×k matrix in groups of w rows
// (MR or NR), reusing buf's storage when it is large enough.
func NewPanels(rows, k, w int, buf []float32) *Panels {
	if w != MR && w != NR {
		panic(fmt.Sprintf("sgemm: panel width %d: want %d or %d", w, MR, NR))
	}
	if rows < 0 || k < 0 {
		panic(fmt.Sprintf("sgemm: %d×%d panels", rows, k))
	}
	size := (rows + w - 1) / w * w * k
	if cap(buf) >= size {
		buf = buf[:size]
		clear(buf)
	} else {
		buf = make([]float32, size)
	}
	return &Panels{Rows: rows, K: k, W: w, Data: buf}
}

// Count returns the number of panels, ⌈Rows/W⌉.
func (p *Panels) Count() int { return (p.Rows + p.W - 1) / p.W }

// Panel returns the storage of panel q (W·K values), as Kernel takes it.
func (p *Panels) Panel(q int) []float32 { return p.Data[q*p.W*p.K : (q+1)*p.W*p.K] }

// SetRow stores row i: (row_t − shift_t)·scale rounded to float32, for
// t < K (shift nil means no shift). It returns the squared norm of the
// stored float32 values, summed in float64.
func (p *Panels) SetRow(i int, row, shift []float64, scale float64) float64 {
	if i < 0 || i >= p.Rows || len(row) < p.K || (shift != nil && len(shift) < p.K) {
		panic(fmt.Sprintf("sgemm: SetRow(%d) of %d×%d panels with a row of length %d", i, p.Rows, p.K, len(row)))
	}
	if p.K == 0 {
		return 0
	}
	w := p.W
	dst := p.Data[(i/w)*w*p.K+i%w:]
	var s float64
	if shift == nil {
		for t, v := range row[:p.K] {
			c := float32(v * scale)
			dst[t*w] = c
			s += float64(c) * float64(c)
		}
		return s
	}
	for t, v := range row[:p.K] {
		c := float32((v - shift[t]) * scale)
		dst[t*w] = c
		s += float64(c) * float64(c)
	}
	return s
}

// groupA is the number of A panels multiplied against one B panel before
// moving to the next: 8·MR rows at K = 784 is 150 kB of float32, which
// stays in a core's L2 cache while the panels of B stream past.
const groupA = 8

// MulTTo sets the Rows(A)×Rows(B) matrix C = A·Bᵀ, row-major with row
// stride ldc, converted to float64, on the calling goroutine. A must have
// panel width MR and B width NR, with the same K. Each entry is a float32
// dot product accumulated in order of t.
func MulTTo(c []float64, ldc int, a, b *Panels) {
	check(c, ldc, a, b)
	mulT(c, ldc, a, b, 0, a.Count())
}

// ParallelMulTTo is MulTTo with the panels of A shared among
// parallel.Workers() goroutines.
func ParallelMulTTo(c []float64, ldc int, a, b *Panels) {
	check(c, ldc, a, b)
	parallel.For(a.Count(), groupA, func(lo, hi int) { mulT(c, ldc, a, b, lo, hi) })
}

func check(c []float64, ldc int, a, b *Panels) {
	if a.W != MR || b.W != NR || a.K != b.K {
		panic(fmt.Sprintf("sgemm: A is %d×%d in panels of %d, B is %d×%d in panels of %d: want widths %d and %d and the same K",
			a.Rows, a.K, a.W, b.Rows, b.K, b.W, MR, NR))
	}
	if a.Rows > 0 && (ldc < b.Rows || len(c) < (a.Rows-1)*ldc+b.Rows) {
		panic(fmt.Sprintf("sgemm: C has %d values with stride %d, want %d×%d", len(c), ldc, a.Rows, b.Rows))
	}
}

// mulT computes the rows of C held by A panels [p0, p1).
func mulT(c []float64, ldc int, a, b *Panels, p0, p1 int) {
	var tile [MR * NR]float32
	k := a.K
	for g0 := p0; g0 < p1; g0 += groupA {
		g1 := min(g0+groupA, p1)
		for q := 0; q < b.Count(); q++ {
			bp := b.Panel(q)
			col0 := q * NR
			ncol := min(NR, b.Rows-col0)
			for pa := g0; pa < g1; pa++ {
				Kernel(k, a.Panel(pa), bp, tile[:])
				row0 := pa * MR
				for i := 0; i < min(MR, a.Rows-row0); i++ {
					dst := c[(row0+i)*ldc+col0 : (row0+i)*ldc+col0+ncol]
					for j := range dst {
						dst[j] = float64(tile[i*NR+j])
					}
				}
			}
		}
	}
}
