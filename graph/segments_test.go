package graph

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestColumnSegmentsBitwise checks that summing every row segment by
// segment (AddBlockRowsTo, then FinishRows) gives ScaledMulBlockTo's
// product bit for bit — the SELL kernels and the CSR ones — for unit and
// weighted graphs, 1 to 17 columns (17: the generic loop), strided blocks,
// 1 to 7 segments and every Scaling without Right, row range by row
// range; and that it agrees with a dense gonum product.
func TestColumnSegmentsBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	for _, n := range []int{1, 9, 1500, 2*RowWindow + 333} {
		for _, unit := range []bool{true, false} {
			g := sellTestGraph(t, rng, n, unit)
			dense := g.Dense()
			for _, k := range []int{1, 2, 3, 7} {
				if k > n {
					continue
				}
				cs, err := g.ColumnSegments(k)
				if err != nil {
					t.Fatal(err)
				}
				if cs.Len() != k || cs.Bytes() != int(g.SegmentsBytes(k)) {
					t.Fatalf("n=%d k=%d: Len %d, Bytes %d, SegmentsBytes %d", n, k, cs.Len(), cs.Bytes(), g.SegmentsBytes(k))
				}
				for _, c := range []int{1, 3, 5, 8, 17} {
					xs := make([]float64, n*(c+2))
					for i := range xs {
						xs[i] = rng.NormFloat64()
					}
					x := mat.NewDense(n, c+2, xs).Slice(0, n, 0, c).(*mat.Dense) // strided
					xm := x.RawMatrix()
					for si, s := range sellScalings(rng, n)[:4] { // no Right
						want := mat.NewDense(n, c, nil)
						g.ScaledMulBlockTo(want, x, s)
						got := make([]float64, n*(c+1))
						for i := range got {
							got[i] = math.NaN() // segment 0 ignores what dst holds
						}
						for _, r := range [][2]int{{0, n / 3}, {n / 3, n}} {
							for seg := range k {
								cs.AddBlockRowsTo(got, c+1, xm.Data, xm.Stride, c, seg, r[0], r[1])
							}
							cs.FinishRows(got, c+1, xm.Data, xm.Stride, c, s, r[0], r[1])
						}
						for j := range c {
							ref := denseScaled(dense, mat.Col(nil, j, x), s)
							for i := range n {
								v := got[i*(c+1)+j]
								if math.Float64bits(v) != math.Float64bits(want.At(i, j)) {
									t.Fatalf("n=%d unit=%v k=%d c=%d scaling %d: entry (%d, %d) = %v, ScaledMulBlockTo %v", n, unit, k, c, si, i, j, v, want.At(i, j))
								}
								if math.Abs(v-ref[i]) > 1e-12*(1+math.Abs(ref[i])) {
									t.Fatalf("n=%d unit=%v k=%d c=%d scaling %d: entry (%d, %d) = %v, dense %v", n, unit, k, c, si, i, j, v, ref[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestColumnSegmentsErrors checks the refused segment counts.
func TestColumnSegmentsErrors(t *testing.T) {
	g := mustGraph(t, 3, []Edge{{U: 0, V: 1, W: 1}})
	for _, k := range []int{0, -1, 4} {
		if _, err := g.ColumnSegments(k); err == nil {
			t.Errorf("ColumnSegments(%d) on 3 nodes: no error", k)
		}
	}
}
