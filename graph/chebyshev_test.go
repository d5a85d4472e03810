package graph

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestChebyshevStepAgainstDense checks dst = α(C + L·W·R)x − prev against
// dense gonum products, with and without prev, for block widths on both
// sides of the generated kernels and graphs larger than one row chunk.
func TestChebyshevStepAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 9, stepRows + 3, 3000} {
		g, err := FromEdges(n, randomEdges(rng, n, 5*n), Options{Duplicates: DuplicateSum})
		require.NoError(t, err)
		l, r, c := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range l {
			l[i], r[i], c[i] = rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		}
		full := mat.NewDense(n, n, nil)
		full.Apply(func(i, j int, v float64) float64 { return l[i] * v * r[j] }, g.Dense())
		for i := 0; i < n; i++ {
			full.Set(i, i, full.At(i, i)+c[i])
		}
		const alpha = -1.7
		for _, cols := range []int{1, 4, 8, 11} {
			x, prev := mat.NewDense(n, cols, nil), mat.NewDense(n, cols, nil)
			for i := 0; i < n; i++ {
				for j := 0; j < cols; j++ {
					x.Set(i, j, rng.NormFloat64())
					prev.Set(i, j, rng.NormFloat64())
				}
			}
			var want mat.Dense
			want.Mul(full, x)
			want.Scale(alpha, &want)
			got := mat.NewDense(n, cols, nil)
			g.ChebyshevStepTo(got, x, nil, Scaling{Diag: c, Left: l, Right: r}, alpha)
			assert.True(t, mat.EqualApprox(got, &want, 1e-10*float64(n)), "n=%d cols=%d without prev", n, cols)
			want.Sub(&want, prev)
			g.ChebyshevStepTo(got, x, prev, Scaling{Diag: c, Left: l, Right: r}, alpha)
			assert.True(t, mat.EqualApprox(got, &want, 1e-10*float64(n)), "n=%d cols=%d with prev", n, cols)
			// Bitwise the CSR kernels' result, whichever layout ran (the
			// SELL-4-σ copy for n = 3000 and cols ≤ 8 on AVX2 CPUs).
			ref := mat.NewDense(n, cols, nil)
			rm, xm := ref.RawMatrix(), x.RawMatrix()
			g.scaledBlockRows(rm.Data, rm.Stride, xm.Data, xm.Stride, cols, Scaling{Diag: c, Left: l, Right: r}, 0, n)
			for i := 0; i < n; i++ {
				for j := 0; j < cols; j++ {
					ref.Set(i, j, alpha*ref.At(i, j)-prev.At(i, j))
				}
			}
			assert.True(t, mat.Equal(got, ref), "n=%d cols=%d: not bitwise the CSR kernels' result (sliced: %v)", n, cols, g.SlicedRows(0, n, cols))
			// dst = prev: bitwise the result with a separate dst.
			inPlace := mat.DenseCopyOf(prev)
			g.ChebyshevStepTo(inPlace, x, inPlace, Scaling{Diag: c, Left: l, Right: r}, alpha)
			assert.True(t, mat.Equal(inPlace, got), "n=%d cols=%d: dst = prev differs from a separate dst (sliced: %v)", n, cols, g.SlicedRows(0, n, cols))
		}
	}
	g, err := FromEdges(3, []Edge{{0, 1, 1}}, Options{})
	require.NoError(t, err)
	assert.PanicsWithValue(t, "graph: block dimension mismatch: graph has 3 nodes, x is 3×2, prev is 3×1",
		func() {
			g.ChebyshevStepTo(mat.NewDense(3, 2, nil), mat.NewDense(3, 2, nil), mat.NewDense(3, 1, nil), Scaling{}, 1)
		})
}
