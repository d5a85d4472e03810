package krylov

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBlockRowPassesEqualPlainLoops: the four-column passes give bitwise the
// results of the plain per-entry loops (each column summed over the rows in
// order), for every width around the blocking and strides wider than c.
func TestBlockRowPassesEqualPlainLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const n = 203
	for c := 1; c <= 10; c++ {
		s := c + 2 // row stride
		fill := func() []float64 {
			v := make([]float64, n*s)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			return v
		}
		u, v := fill(), fill()
		lo, hi := 17, 190
		want := make([]float64, c)
		for j := range want {
			want[j] = float64(j) // a running sum from an earlier chunk
		}
		got := append([]float64(nil), want...)
		for i := lo; i < hi; i++ {
			for j := 0; j < c; j++ {
				want[j] += u[i*s+j] * v[i*s+j]
			}
		}
		addColDots(got, u, s, v, s, lo, hi)
		require.Equal(t, want, got, "addColDots c=%d", c)

		r, q := fill(), fill()
		alpha := make([]float64, c)
		for j := range alpha {
			alpha[j] = rng.NormFloat64()
		}
		wr := append([]float64(nil), r...)
		wantRR, gotRR := make([]float64, c), make([]float64, c)
		for i := lo; i < hi; i++ {
			for j := 0; j < c; j++ {
				nv := wr[i*s+j] - alpha[j]*q[i*s+j]
				wr[i*s+j] = nv
				wantRR[j] += nv * nv
			}
		}
		updateRows(gotRR, alpha, r, s, q, s, lo, hi)
		require.Equal(t, wr, r, "updateRows r c=%d", c)
		require.Equal(t, wantRR, gotRR, "updateRows ‖r‖² c=%d", c)
	}
}
