package graph

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPrescaledBlockBitwise: with Right scaling on a 0/1 graph
// ScaledMulBlockTo gathers from the rows of x scaled beforehand; every entry
// must be bitwise the direct kernels' (SELL widths, unrolled kernels and the
// loop; with and without Diag and Left; a node without edges; the SELL copy
// built and not).
func TestPrescaledBlockBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, n := range []int{40, 3000} {
		g := randomGraph(t, n-1, 8*n, true, uint64(n)) // as n−1 nodes, then one isolated
		a := g.Arrays()
		a.Indptr = append(a.Indptr, a.Indptr[len(a.Indptr)-1])
		a.Degrees = append(a.Degrees, 0)
		g, err := FromCSRArrays(n, a)
		if err != nil {
			t.Fatal(err)
		}
		if !g.UnitWeights() {
			t.Fatal("want a 0/1 graph")
		}
		vec := func() []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			return v
		}
		right, left, diag := vec(), vec(), vec()
		for _, s := range []Scaling{{Right: right}, {Left: left, Right: right}, {Diag: diag, Right: right}, {Diag: diag, Left: left, Right: right}} {
			// Vectors: against scaledRows, which reads Right itself.
			x := vec()
			got, want := make([]float64, n), make([]float64, n)
			g.ScaledMulVecTo(got, x, s)
			g.scaledRows(want, x, s, 0, n)
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("vector, n = %d, diag %v, left %v: entry %d = %v, the direct kernel gives %v", n, s.Diag != nil, s.Left != nil, i, got[i], want[i])
				}
			}
		}
		for _, s := range []Scaling{{Right: right}, {Left: left, Right: right}, {Diag: diag, Right: right}, {Diag: diag, Left: left, Right: right}} {
			for _, c := range []int{1, 3, 5, 8, 10, 16, 17, 40} {
				x := mat.NewDense(n, c, nil)
				for i := range n {
					for j := range c {
						x.Set(i, j, rng.NormFloat64())
					}
				}
				want := mat.NewDense(n, c, nil)
				g.directMulBlockTo(want, x, s)
				// ScaledMulBlockTo, and the prescaled product itself for the
				// widths that ScaledMulBlockTo sends to the direct kernels.
				for _, mul := range []func(dst, x *mat.Dense, s Scaling){g.ScaledMulBlockTo, g.prescaledMulBlockTo} {
					got := mat.NewDense(n, c, nil)
					mul(got, x, s)
					for i := range n {
						for j := range c {
							if a, b := got.At(i, j), want.At(i, j); math.Float64bits(a) != math.Float64bits(b) {
								t.Fatalf("n = %d, diag %v, left %v, c = %d: entry (%d, %d) = %v, the direct kernels give %v", n, s.Diag != nil, s.Left != nil, c, i, j, a, b)
							}
						}
					}
				}
			}
		}
	}
}
