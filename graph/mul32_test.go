package graph

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMulBlock32RowsIntoBitwise checks the float32 block product against
// ScaledMulBlockTo on the same block in float64, bit for bit, for unit and
// general weights, widths across the column group and row ranges.
func TestMulBlock32RowsIntoBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	for _, unit := range []bool{true, false} {
		g := sellTestGraph(t, rng, 2500, unit)
		n := g.Nodes()
		for _, c := range []int{1, 3, 10, 16, 17, 40} {
			x32 := make([]float32, n*c)
			x := mat.NewDense(n, c, nil)
			for i := range x32 {
				x32[i] = float32(rng.NormFloat64())
				x.RawMatrix().Data[i] = float64(x32[i])
			}
			want := mat.NewDense(n, c, nil)
			g.ScaledMulBlockTo(want, x, Scaling{})
			for _, r := range [][2]int{{0, n}, {0, 0}, {7, 1031}, {n - 1, n}} {
				dst := make([]float64, (r[1]-r[0])*c)
				g.MulBlock32RowsInto(dst, x32, c, r[0], r[1])
				for i := r[0]; i < r[1]; i++ {
					for j := 0; j < c; j++ {
						if got, w := dst[(i-r[0])*c+j], want.At(i, j); got != w {
							t.Fatalf("unit %v c %d rows %v: (%d, %d) = %v, want %v", unit, c, r, i, j, got, w)
						}
					}
				}
			}
		}
	}
}
