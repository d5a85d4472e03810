package gemm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDistMask32 checks both kernels bitwise against the operations done
// one at a time in float32, with thresholds equal to some of the values
// (ties are marked), NaN and infinite entries.
func TestDistMask32(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for trial := 0; trial < 200; trial++ {
		c := make([]float32, MR*NR32)
		an, rthr := make([]float32, MR), make([]float32, MR)
		bn, cthr := make([]float32, NR32), make([]float32, NR32)
		for i := range c {
			c[i] = float32(rng.NormFloat64())
		}
		for i := range an {
			an[i] = float32(rng.ExpFloat64())
		}
		for j := range bn {
			bn[j] = float32(rng.ExpFloat64())
		}
		if trial%10 == 1 {
			c[rng.IntN(len(c))] = nan
			bn[rng.IntN(NR32)] = inf
		}
		want := make([]float32, len(c))
		for i := 0; i < MR; i++ {
			for j := 0; j < NR32; j++ {
				s := an[i] + bn[j]
				two := c[i*NR32+j] + c[i*NR32+j]
				want[i*NR32+j] = s - two
			}
		}
		// thresholds: a random value of the row or column, ±Inf, or −1
		for i := range rthr {
			switch rng.IntN(4) {
			case 0:
				rthr[i] = -inf
			case 1:
				rthr[i] = inf
			default:
				rthr[i] = want[i*NR32+rng.IntN(NR32)]
			}
		}
		for j := range cthr {
			switch rng.IntN(3) {
			case 0:
				cthr[j] = -1
			default:
				cthr[j] = want[rng.IntN(MR)*NR32+j]
			}
		}
		var wantMask [MR]uint16
		for i := 0; i < MR; i++ {
			for j := 0; j < NR32; j++ {
				if d := want[i*NR32+j]; d <= rthr[i] || d <= cthr[j] {
					wantMask[i] |= 1 << j
				}
			}
		}
		for name, f := range map[string]func([]float32, []float32, []float32, []float32, []float32, *[MR]uint16){"DistMask32": DistMask32, "DistMask32Go": DistMask32Go} {
			got := append([]float32(nil), c...)
			var mask [MR]uint16
			f(got, an, bn, rthr, cthr, &mask)
			for i := range want {
				require.Equal(t, math.Float32bits(want[i]), math.Float32bits(got[i]), "%s trial %d entry %d", name, trial, i)
			}
			require.Equal(t, wantMask, mask, "%s trial %d", name, trial)
		}
	}
	assert.Panics(t, func() {
		DistMask32(make([]float32, 95), make([]float32, 6), make([]float32, 16), make([]float32, 6), make([]float32, 16), new([MR]uint16))
	})
}
