package labelprop

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRowKernelsBitwise checks the generated row passes (rows_gen.go)
// against the generic loops they replace, bit for bit, for every width they
// cover, with and without the deflation sums, on rows [lo, hi) not starting
// at 0, more than one block of the deflated updateRowsW (updateBlock) and
// x wider than the panel.
func TestRowKernelsBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	const lo, hi, n = 5, 77, 80
	require.Greater(t, hi-lo, updateBlock)
	tt, u, d := vec(n), vec(n), vec(n)
	for w := 1; w <= rowsMaxW; w++ {
		for _, dd := range [][]float64{nil, d} {
			rows := (hi - lo) * w
			alpha, beta, on := vec(w), vec(w), vec(w)
			on[0] = 0
			r, q, p := vec(rows), vec(rows), vec(rows)
			acc, accD := vec(w), vec(w)

			r1, a1, z1 := slices.Clone(r), slices.Clone(acc), slices.Clone(accD)
			r2, a2, z2 := slices.Clone(r), slices.Clone(acc), slices.Clone(accD)
			require.True(t, updateRowsW(a1, z1, alpha, r1, q, tt, dd, w, lo, hi))
			updateRowsLoop(a2, z2, alpha, r2, q, tt, dd, w, lo, hi)
			requireBitwise(t, "updateRows", w, r1, r2, a1, a2, z1, z2)

			a1, z1 = slices.Clone(acc), slices.Clone(accD)
			a2, z2 = slices.Clone(acc), slices.Clone(accD)
			require.True(t, addPQW(a1, z1, u, dd, p, q, w, lo, hi))
			addPQLoop(a2, z2, u, dd, p, q, w, lo, hi)
			requireBitwise(t, "addPQ", w, a1, a2, z1, z2)

			c := w + 2 // x has more columns than the panel
			x := vec((hi-lo-1)*c + w)
			x1, p1, x2, p2 := slices.Clone(x), slices.Clone(p), slices.Clone(x), slices.Clone(p)
			require.True(t, stepRowsW(x1, c, p1, r, tt, u, alpha, beta, on, w, lo, hi))
			stepRowsLoop(x2, c, p2, r, tt, u, alpha, beta, on, w, lo, hi)
			requireBitwise(t, "stepRows", w, x1, x2, p1, p2)

			// stepRows32 is stepRows followed by round32
			x1, p1 = slices.Clone(x), slices.Clone(p)
			p32 := make([]float32, (hi-lo)*8)
			require.True(t, stepRows32W(x1, c, p1, r, tt, u, alpha, beta, on, p32, w, lo, hi))
			for e, v := range p2 {
				p2[e] = float64(float32(v))
				require.Equal(t, float32(v), p32[e/w*8+e%w], "stepRows32, w = %d, entry %d", w, e)
			}
			requireBitwise(t, "stepRows32", w, x1, x2, p1, p2)

			s := vec((hi - lo) * 8) // the sums, 8 to a row
			diag, left := vec(n), vec(n)
			for _, sums := range []bool{false, true} {
				q1, q2 := slices.Clone(q), slices.Clone(q)
				a1, z1, a2, z2 = nil, nil, slices.Clone(acc), slices.Clone(accD)
				if sums {
					a1, z1 = slices.Clone(acc), slices.Clone(accD)
				}
				require.True(t, finish32W(a1, z1, q1, p, s, diag, left, u, dd, w, lo, hi))
				finish32Loop(q2, p, s, diag, left, w, 8, false, lo, hi)
				requireBitwise(t, "finish32", w, q1, q2)
				if sums {
					addPQLoop(a2, z2, u, dd, p, q2, w, lo, hi)
					requireBitwise(t, "finish32's sums", w, a1, a2, z1, z2)
				}
			}
		}
	}
	require.False(t, updateRowsW(nil, nil, nil, nil, nil, nil, nil, rowsMaxW+1, 0, 0))
}

// requireBitwise requires the pairs (got, want) of vs to be equal bit for
// bit (NaN included).
func requireBitwise(t *testing.T, what string, w int, vs ...[]float64) {
	t.Helper()
	for k := 0; k < len(vs); k += 2 {
		got, want := vs[k], vs[k+1]
		require.Len(t, got, len(want))
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s, w = %d, slice %d entry %d: %v, want %v", what, w, k/2, i, got[i], want[i])
			}
		}
	}
}
