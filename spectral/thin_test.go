package spectral

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// thinTol bounds the difference between the thin kernels and plain sums:
// both add L ≤ 70 products of entries below 1 in different orders, each
// rounding within ε of the running sum.
const thinTol = 1e-13

// TestThinKernelsAgainstPlainSums: projectRows, projectRows2, subtractRows
// and subtractRows2 agree with the plain sums for every number of columns
// from 1 to 9 (the four-column groups and the padded last group) and row
// counts around the kernels' multiples of 4 and 8, and leave the entries
// past the columns' coefficients untouched.
func TestThinKernelsAgainstPlainSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for p := 1; p <= 9; p++ {
		for _, L := range []int{1, 3, 4, 7, 8, 13, 70} {
			ld := L + 3
			v := make([]float64, (p+1)*ld)
			for i := range v {
				v[i] = rng.Float64() - 0.5
			}
			a, b := make([]float64, L), make([]float64, L)
			for i := range a {
				a[i], b[i] = rng.Float64()-0.5, rng.Float64()-0.5
			}
			dot := func(i int, w []float64) float64 {
				var s float64
				for r, x := range w {
					s += v[i*ld+r] * x
				}
				return s
			}
			ca, cb, c1 := make([]float64, p+1), make([]float64, p+1), make([]float64, p+1)
			ca[p], cb[p], c1[p] = 7, 8, 9 // past the columns: untouched
			projectRows2(ca[:p], cb[:p], v, ld, a, b)
			projectRows(c1[:p], v, ld, a)
			for i := 0; i < p; i++ {
				require.InDelta(t, dot(i, a), ca[i], thinTol, "p %d L %d col %d", p, L, i)
				require.InDelta(t, dot(i, b), cb[i], thinTol, "p %d L %d col %d", p, L, i)
				require.InDelta(t, dot(i, a), c1[i], thinTol, "p %d L %d col %d", p, L, i)
			}
			require.Equal(t, [3]float64{7, 8, 9}, [3]float64{ca[p], cb[p], c1[p]})
			wantA, wantB := append([]float64(nil), a...), append([]float64(nil), b...)
			for r := range wantA {
				for i := 0; i < p; i++ {
					wantA[r] -= ca[i] * v[i*ld+r]
					wantB[r] -= cb[i] * v[i*ld+r]
				}
			}
			gotA, gotB, got1 := append([]float64(nil), a...), append([]float64(nil), b...), append([]float64(nil), a...)
			subtractRows2(gotA, gotB, v, ld, ca[:p], cb[:p])
			subtractRows(got1, v, ld, ca[:p])
			for r := range wantA {
				require.InDelta(t, wantA[r], gotA[r], thinTol, "p %d L %d row %d", p, L, r)
				require.InDelta(t, wantB[r], gotB[r], thinTol, "p %d L %d row %d", p, L, r)
				require.InDelta(t, wantA[r], got1[r], thinTol, "p %d L %d row %d", p, L, r)
			}
			require.False(t, math.IsNaN(gotA[0]))
		}
	}
}
