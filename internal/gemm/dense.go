package gemm

import (
	"fmt"
	"sync"

	"gonum.org/v1/gonum/blas/blas64"

	"github.com/gssl/gssl/internal/parallel"
)

// PackOp64 packs the rows of op(m) into panels of width w (MR for a left
// operand, NR64 for a right one), op(m) = mᵀ when trans is set, reusing
// buf's storage when it is large enough. Only the padding rows of the last
// panel are cleared: every other entry is written.
func PackOp64(m blas64.General, trans bool, w int, buf []float64) *Panels[float64] {
	return packRows64(m, nil, trans, w, buf)
}

// packSix stores rows i0 … i5 of m as one full panel of width MR, writing
// the panel in order.
func packSix(panel []float64, m blas64.General, i0, i1, i2, i3, i4, i5 int) {
	k := m.Cols
	r0 := m.Data[i0*m.Stride : i0*m.Stride+k]
	r1 := m.Data[i1*m.Stride : i1*m.Stride+k]
	r2 := m.Data[i2*m.Stride : i2*m.Stride+k]
	r3 := m.Data[i3*m.Stride : i3*m.Stride+k]
	r4 := m.Data[i4*m.Stride : i4*m.Stride+k]
	r5 := m.Data[i5*m.Stride : i5*m.Stride+k]
	panel = panel[:MR*k]
	for t := range k {
		d := panel[t*MR : t*MR+MR]
		d[0], d[1], d[2], d[3], d[4], d[5] = r0[t], r1[t], r2[t], r3[t], r4[t], r5[t]
	}
}

// panelPool recycles the packing buffers of Mul64.
var panelPool sync.Pool

func getBuf() []float64 {
	if b, ok := panelPool.Get().(*[]float64); ok {
		return *b
	}
	return nil
}

func putBuf(b []float64) { panelPool.Put(&b) }

// Mul64 sets dst = op(a)·op(b), op(m) = mᵀ when its flag is set, for
// row-major float64 matrices (dst may be a view with a stride, and must not
// share storage with a or b). The operands are packed by PackOp64 and
// multiplied by ParallelMulTTo, so each entry is one dot product
// accumulated in order of the inner index: the result does not depend on
// the number of workers, nor on which other rows are multiplied with it.
func Mul64(dst, a blas64.General, ta bool, b blas64.General, tb bool) {
	ar, ac := a.Rows, a.Cols
	if ta {
		ar, ac = ac, ar
	}
	br, bc := b.Rows, b.Cols
	if tb {
		br, bc = bc, br
	}
	if ac != br || dst.Rows != ar || dst.Cols != bc {
		panic(fmt.Sprintf("gemm: product of %d×%d and %d×%d into %d×%d", ar, ac, br, bc, dst.Rows, dst.Cols))
	}
	if dst.Rows == 0 || dst.Cols == 0 {
		return
	}
	if ac == 0 {
		for i := 0; i < dst.Rows; i++ {
			clear(dst.Data[i*dst.Stride : i*dst.Stride+dst.Cols])
		}
		return
	}
	// The left operand's rows are op(a)'s rows; the right operand's rows
	// are op(b)'s columns, the rows of op(b)ᵀ.
	pa := PackOp64(a, ta, MR, getBuf())
	pb := PackOp64(b, !tb, NR64, getBuf())
	ParallelMulTTo(dst.Data, dst.Stride, pa, pb)
	putBuf(pa.Data)
	putBuf(pb.Data)
}

// PackRows64 is PackOp64 of the rows idx of m (trans unset: op(m)'s rows
// are m's rows idx) or of their transpose (trans set: op(m) = m[idx]ᵀ,
// whose inner index runs over idx in its order).
func PackRows64(m blas64.General, idx []int, trans bool, w int, buf []float64) *Panels[float64] {
	return packRows64(m, idx, trans, w, buf)
}

// packRows64 is PackRows64, and PackOp64 when idx is nil (every row of m in
// its order).
func packRows64(m blas64.General, idx []int, trans bool, w int, buf []float64) *Panels[float64] {
	if w != MR && w != NR64 {
		panic(fmt.Sprintf("gemm: panel width %d: want %d or %d", w, MR, NR64))
	}
	n := m.Rows
	if idx != nil {
		n = len(idx)
	}
	row := func(i int) int {
		if idx == nil {
			return i
		}
		return idx[i]
	}
	rows, k := n, m.Cols
	if trans {
		rows, k = k, rows
	}
	size := (rows + w - 1) / w * w * k
	if cap(buf) >= size {
		buf = buf[:size]
	} else {
		buf = make([]float64, size)
	}
	p := &Panels[float64]{Rows: rows, K: k, W: w, Data: buf}
	if rows == 0 || k == 0 {
		return p
	}
	np := (rows + w - 1) / w
	if trans {
		// Row i of op(m) is column i of m[idx]: row t of m[idx] is read
		// once, in pieces of w entries, one per panel.
		for t := 0; t < k; t++ {
			r := row(t)
			src := m.Data[r*m.Stride : r*m.Stride+rows]
			for q := 0; q < np; q++ {
				dst := buf[q*w*k+t*w : q*w*k+t*w+w]
				r0 := q * w
				if r0+w <= rows {
					for i := range dst {
						dst[i] = src[r0+i]
					}
					continue
				}
				for i := range dst {
					dst[i] = 0
					if r0+i < rows {
						dst[i] = src[r0+i]
					}
				}
			}
		}
		return p
	}
	for q := 0; q < np; q++ {
		panel := buf[q*w*k : (q+1)*w*k]
		r0, r1 := q*w, min((q+1)*w, rows)
		if w == MR && r1-r0 == MR {
			packSix(panel, m, row(r0), row(r0+1), row(r0+2), row(r0+3), row(r0+4), row(r0+5))
			continue
		}
		for i := r0; i < r1; i++ {
			ri := row(i)
			src := m.Data[ri*m.Stride : ri*m.Stride+k]
			dst := panel[i-r0:]
			for t, v := range src {
				dst[t*w] = v
			}
		}
		for i := r1 - r0; i < w; i++ {
			for t := 0; t < k; t++ {
				panel[t*w+i] = 0
			}
		}
	}
	return p
}

// MulRows64 sets the rows idx of dst to the rows idx of a times op(b),
// leaving dst's other rows as they are: row for row what Mul64 of the
// whole matrices gives.
func MulRows64(dst, a blas64.General, idx []int, b blas64.General, tb bool) {
	br, bc := b.Rows, b.Cols
	if tb {
		br, bc = bc, br
	}
	if a.Cols != br || dst.Rows != a.Rows || dst.Cols != bc {
		panic(fmt.Sprintf("gemm: product of %d×%d and %d×%d into %d×%d", a.Rows, a.Cols, br, bc, dst.Rows, dst.Cols))
	}
	if len(idx) == 0 || bc == 0 {
		return
	}
	if a.Cols == 0 {
		for _, i := range idx {
			clear(dst.Data[i*dst.Stride : i*dst.Stride+bc])
		}
		return
	}
	pa := PackRows64(a, idx, false, MR, getBuf())
	pb := PackOp64(b, !tb, NR64, getBuf())
	parallel.For(pa.Count(), groupA, func(lo, hi int) { mulT(dst.Data, dst.Stride, idx, pa, pb, lo, hi) })
	putBuf(pa.Data)
	putBuf(pb.Data)
}

// MulTRows64 sets dst = a[idx]ᵀ·b[idx], the sum over the rows idx in their
// order: with the rows of a or b outside idx zero and idx ascending, the
// numbers of Mul64(dst, a, true, b, false) (a term a_ti·0 adds nothing to
// a finite sum).
func MulTRows64(dst, a, b blas64.General, idx []int) {
	if a.Rows != b.Rows || dst.Rows != a.Cols || dst.Cols != b.Cols {
		panic(fmt.Sprintf("gemm: product of %d×%d and %d×%d into %d×%d", a.Cols, a.Rows, b.Rows, b.Cols, dst.Rows, dst.Cols))
	}
	if dst.Rows == 0 || dst.Cols == 0 {
		return
	}
	if len(idx) == 0 {
		for i := 0; i < dst.Rows; i++ {
			clear(dst.Data[i*dst.Stride : i*dst.Stride+dst.Cols])
		}
		return
	}
	pa := PackRows64(a, idx, true, MR, getBuf())
	pb := PackRows64(b, idx, true, NR64, getBuf())
	ParallelMulTTo(dst.Data, dst.Stride, pa, pb)
	putBuf(pa.Data)
	putBuf(pb.Data)
}
