package graph

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMulBlock32RowsIntoBitwise checks the float32 block product against
// ScaledMulBlockTo on the same block in float64, bit for bit, for unit and
// general weights, widths across the column group (8, 12 and 16 on the
// AVX2 kernels of csr32_amd64.s) and row ranges.
func TestMulBlock32RowsIntoBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	for _, unit := range []bool{true, false} {
		g := sellTestGraph(t, rng, 2500, unit)
		n := g.Nodes()
		for _, c := range []int{1, 3, 8, 10, 12, 16, 17, 40} {
			x32 := make([]float32, n*c)
			x := mat.NewDense(n, c, nil)
			for i := range x32 {
				x32[i] = float32(rng.NormFloat64())
				x.RawMatrix().Data[i] = float64(x32[i])
			}
			want := mat.NewDense(n, c, nil)
			g.ScaledMulBlockTo(want, x, Scaling{})
			// The same block padded to a stride of c+4 (16 for c = 12).
			xs := c + 4
			padded := make([]float32, n*xs)
			for i := 0; i < n; i++ {
				copy(padded[i*xs:i*xs+c], x32[i*c:(i+1)*c])
			}
			for _, r := range [][2]int{{0, n}, {0, 0}, {7, 1031}, {n - 1, n}} {
				dst := make([]float64, (r[1]-r[0])*c)
				dstPadded := make([]float64, (r[1]-r[0])*c)
				g.MulBlock32RowsInto(dst, x32, c, r[0], r[1])
				g.MulBlock32StridedRowsInto(dstPadded, padded, xs, c, r[0], r[1])
				for i := r[0]; i < r[1]; i++ {
					for j := 0; j < c; j++ {
						w := want.At(i, j)
						if got := dst[(i-r[0])*c+j]; got != w {
							t.Fatalf("unit %v c %d rows %v: (%d, %d) = %v, want %v", unit, c, r, i, j, got, w)
						}
						if got := dstPadded[(i-r[0])*c+j]; got != w {
							t.Fatalf("unit %v c %d stride %d rows %v: (%d, %d) = %v, want %v", unit, c, xs, r, i, j, got, w)
						}
					}
				}
			}
		}
	}
}
