package graph

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestSlicedLimitBitwise checks that products are bitwise the same with the
// SELL-4-σ copy and with the CSR kernels only (SetSlicedLimit(0)), and that
// a graph above the limit builds no copy.
func TestSlicedLimitBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	for _, unit := range []bool{true, false} {
		const n = 3000
		sc := sellScalings(rng, n)
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		xb := mat.NewDense(n, 5, nil)
		for i := range n {
			for j := range 5 {
				xb.Set(i, j, rng.NormFloat64())
			}
		}
		products := func(g *CSR) [][]float64 {
			var out [][]float64
			for _, s := range sc {
				dst := make([]float64, n)
				g.ScaledMulVecTo(dst, x, s)
				out = append(out, dst)
				db := mat.NewDense(n, 5, nil)
				g.ScaledMulBlockTo(db, xb, s)
				out = append(out, slices.Clone(db.RawMatrix().Data))
				db.Zero()
				g.ScaledMulBlockRowsTo(db, xb, s, 0, RowWindow)
				g.ScaledMulBlockRowsTo(db, xb, s, RowWindow, n)
				out = append(out, slices.Clone(db.RawMatrix().Data))
			}
			sums := make([]float64, n*5)
			g.MulBlockRowsFunc(xb, 0, n, func(rows []int32, s []float64) {
				for t, r := range rows {
					if r >= 0 {
						copy(sums[int(r)*5:int(r)*5+5], s[8*t:8*t+5])
					}
				}
			})
			return append(out, sums)
		}
		old := SetSlicedLimit(0)
		g := sellTestGraph(t, rng, n, unit)
		plain := products(g)
		require.Zero(t, g.SlicedBytes(), "a copy was built above the limit")
		require.False(t, g.SlicedRows(0, n, 5))
		SetSlicedLimit(old)
		fast := products(g)
		if hasSellAVX2 {
			require.NotZero(t, g.SlicedBytes(), "no copy below the limit")
			require.GreaterOrEqual(t, int64(g.SlicedBytes()), g.SlicedEstimate())
			require.LessOrEqual(t, float64(g.SlicedBytes()), 1.3*float64(g.SlicedEstimate()))
		}
		for k := range plain {
			for i := range plain[k] {
				if plain[k][i] != fast[k][i] && !(plain[k][i] != plain[k][i] && fast[k][i] != fast[k][i]) {
					t.Fatalf("unit %v product %d entry %d: CSR %v, SELL %v", unit, k, i, plain[k][i], fast[k][i])
				}
			}
		}
		// A built copy is used whatever the limit.
		SetSlicedLimit(0)
		require.Equal(t, hasSellAVX2, g.SlicedRows(0, n, 5))
		SetSlicedLimit(old)
	}
	require.Equal(t, DefaultSlicedLimit, SlicedLimit())
}
