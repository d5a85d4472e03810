package nodeclass

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// dmulTol bounds the difference from gonum's product: both sum at most 70
// terms of magnitude ≤ 1 in float64, in different orders.
const dmulTol = 1e-12

// TestMulInto checks mulInto against mat.Dense.Mul for every combination
// of transposes, shapes that are not multiples of the kernel's tile, and a
// destination that is a strided view.
func TestMulInto(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fill := func(r, c int) *mat.Dense {
		m := mat.NewDense(r, c, nil)
		for i := range m.RawMatrix().Data {
			m.RawMatrix().Data[i] = 2*rng.Float64() - 1
		}
		return m
	}
	for _, sz := range [][3]int{{1, 1, 1}, {7, 5, 3}, {13, 64, 9}, {70, 17, 64}, {100, 6, 8}} {
		r, k, c := sz[0], sz[1], sz[2]
		for _, ta := range []bool{false, true} {
			for _, tb := range []bool{false, true} {
				a, b := fill(r, k), fill(k, c)
				var opA, opB mat.Matrix = a, b
				if ta {
					a = mat.DenseCopyOf(a.T())
					opA = a.T()
				}
				if tb {
					b = mat.DenseCopyOf(b.T())
					opB = b.T()
				}
				var want mat.Dense
				want.Mul(opA, opB)
				big := fill(r+3, c+5)
				before := mat.DenseCopyOf(big)
				dst := big.Slice(1, r+1, 2, c+2).(*mat.Dense)
				mulInto(dst, a, ta, b, tb)
				for i := 0; i < r+3; i++ {
					for j := 0; j < c+5; j++ {
						if i >= 1 && i <= r && j >= 2 && j < c+2 {
							require.InDelta(t, want.At(i-1, j-2), big.At(i, j), dmulTol, "%v ta=%v tb=%v (%d,%d)", sz, ta, tb, i-1, j-2)
						} else {
							require.Equal(t, before.At(i, j), big.At(i, j), "outside the view (%d,%d)", i, j)
						}
					}
				}
			}
		}
	}
}
