package nodeclass

import (
	"fmt"
	"sync"

	vec "gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/gemm"
)

// The trained networks (SepGNN, LINKX) multiply tall n×h activations by
// small h×h weights, and tall matrices by each other into h×h gradients,
// once or twice per layer and pass. These products run on the packed
// register-blocked kernel of package gemm (float64, AVX2 and FMA where the
// CPU has them) instead of mat.Dense.Mul: each entry is one dot product
// accumulated in the order of its inner index by one kernel call, so the
// result does not depend on the number of workers.

// panelPool recycles the packing buffers of the products.
var panelPool sync.Pool

func getBuf() []float64 {
	if b, ok := panelPool.Get().(*[]float64); ok {
		return *b
	}
	return nil
}

func putBuf(b []float64) { panelPool.Put(&b) }

// mulInto sets dst = op(a)·op(b), op(m) = mᵀ when the flag is set; dst
// may be a view with a stride, and must not share storage with a or b.
func mulInto(dst *mat.Dense, a *mat.Dense, ta bool, b *mat.Dense, tb bool) {
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ta {
		ar, ac = ac, ar
	}
	if tb {
		br, bc = bc, br
	}
	r, c := dst.Dims()
	if ac != br || r != ar || c != bc {
		panic(fmt.Sprintf("nodeclass: product of %d×%d and %d×%d into %d×%d", ar, ac, br, bc, r, c))
	}
	if r == 0 || c == 0 {
		return
	}
	if ac == 0 {
		dst.Zero()
		return
	}
	bufA, bufB := getBuf(), getBuf()
	pa := gemm.NewPanels[float64](ar, ac, gemm.MR, bufA)
	pb := gemm.NewPanels[float64](bc, ac, gemm.NR64, bufB)
	// The left operand's rows are op(a)'s rows; the right operand's rows
	// are op(b)'s columns.
	pack(pa, a, ta)
	pack(pb, b, !tb)
	d := dst.RawMatrix()
	gemm.ParallelMulTTo(d.Data, d.Stride, pa, pb)
	putBuf(pa.Data)
	putBuf(pb.Data)
}

// pack stores into p the rows of m (transpose false) or its columns
// (transpose true).
func pack(p *gemm.Panels[float64], m *mat.Dense, transpose bool) {
	raw := m.RawMatrix()
	if transpose {
		p.SetColumns(raw.Data, raw.Stride)
		return
	}
	for i := 0; i < raw.Rows; i++ {
		p.SetRow(i, raw.Data[i*raw.Stride:i*raw.Stride+raw.Cols], nil, 1)
	}
}

// rowAcc accumulates out += Σ a_k·row_k over the rows given to add, four
// at a time (gemm.SubMul4: out is read and written once per four rows), in
// the order they are given; flush adds the last fewer than four.
type rowAcc struct {
	out  []float64
	rows [4][]float64
	c    [4]float64
	k    int
}

func (s *rowAcc) add(a float64, row []float64) {
	s.rows[s.k], s.c[s.k] = row, -a
	if s.k++; s.k == 4 {
		gemm.SubMul4(s.out, s.rows[0], s.rows[1], s.rows[2], s.rows[3], s.c)
		s.k = 0
	}
}

func (s *rowAcc) flush() {
	for k := 0; k < s.k; k++ {
		vec.AddScaled(s.out, -s.c[k], s.rows[k])
	}
	s.k = 0
}
