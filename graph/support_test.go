package graph

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSupportProductBitwise checks ScaledMulBlockRowsSupportTo against
// ScaledMulBlockTo (SELL and CSR kernels) bit for bit, on blocks whose rows
// are mostly zero (+0 and −0 entries), for unit and weighted graphs, 1 to
// 17 columns, strided blocks, every Scaling and row ranges; and that the
// support of a dense block gives the dense product.
func TestSupportProductBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 53))
	for _, n := range []int{1, 70, 1500, 2*RowWindow + 333} {
		for _, unit := range []bool{true, false} {
			g := sellTestGraph(t, rng, n, unit)
			for _, c := range []int{1, 3, 5, 8, 9, 17} {
				for _, density := range []float64{0, 0.02, 0.3, 1} {
					xs := make([]float64, n*(c+1))
					support := make([]uint64, (n+63)/64)
					for i := range n {
						row := xs[i*(c+1) : i*(c+1)+c]
						if rng.Float64() < density {
							support[i/64] |= 1 << (i % 64)
							for j := range row {
								row[j] = rng.NormFloat64()
							}
							if c > 1 {
								row[0] = 0
							}
						} else {
							for j := range row {
								if rng.IntN(2) == 0 {
									row[j] = math.Copysign(0, -1)
								}
							}
						}
					}
					x := mat.NewDense(n, c+1, xs).Slice(0, n, 0, c).(*mat.Dense)
					for si, s := range sellScalings(rng, n) {
						want := mat.NewDense(n, c, nil)
						g.ScaledMulBlockTo(want, x, s)
						got := mat.NewDense(n, c, nil)
						for _, r := range [][2]int{{0, n / 2}, {n / 2, n}} {
							g.ScaledMulBlockRowsSupportTo(got, x, s, support, r[0], r[1])
						}
						for i := range n {
							for j := range c {
								if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
									t.Fatalf("n=%d unit=%v c=%d density %v scaling %d: entry (%d, %d) = %v, ScaledMulBlockTo %v", n, unit, c, density, si, i, j, got.At(i, j), want.At(i, j))
								}
							}
						}
					}
				}
			}
		}
	}
}
