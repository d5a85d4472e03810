package nodeclass

import (
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

// mulInto sets dst = op(a)·op(b), op(m) = mᵀ when the flag is set; dst
// may be a view with a stride, and must not share storage with a or b
// (gemm.Mul64).
func mulInto(dst *mat.Dense, a *mat.Dense, ta bool, b *mat.Dense, tb bool) {
	gemm.Mul64(dst.RawMatrix(), a.RawMatrix(), ta, b.RawMatrix(), tb)
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
