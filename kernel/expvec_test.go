package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestExpDivAgainstBigFloat checks expDiv, on whichever path this CPU runs
// and on the scalar one, against the 200-bit reference bigExp within expULP
// ulp over the range of normal results, on slices of every length modulo 8
// (the padded tail), and its limits: 0 below e^−745.2, +Inf above e^709.8,
// NaN kept.
func TestExpDivAgainstBigFloat(t *testing.T) {
	for _, vec := range []bool{hasExpVec, false} {
		saved := hasExpVec
		hasExpVec = vec
		rng := rand.New(rand.NewPCG(21, 22))
		xs := []float64{0, -1e-300, -1e-17, 1e-17, -0.5, -math.Ln2, -1, -10, -700, -707.9, 1, 20, 708.9}
		for range 1500 {
			xs = append(xs, -30*rng.Float64(), -708*rng.Float64(), 2*rng.Float64()-1, 1418*rng.Float64()-709)
		}
		for _, den := range []float64{1, -450, 3} {
			want := make([]float64, len(xs))
			for i, x := range xs {
				want[i] = bigExp(x / den)
			}
			for start := 0; start < 9; start++ {
				got := make([]float64, len(xs)-start)
				copy(got, xs[start:])
				expDiv(got, den)
				for i, v := range got {
					want := want[start+i]
					ulp := math.Nextafter(want, math.Inf(1)) - want
					require.LessOrEqual(t, math.Abs(v-want), expULP*ulp, "vec=%v exp(%v/%v) = %v, want %v", vec, xs[start+i], den, v, want)
				}
			}
		}
		// subnormal results and the limits
		edge := []float64{-708.5, -720, -740, -745, -746, -800, -1e300, math.Inf(-1), 710, 1e300, math.Inf(1), math.NaN()}
		got := append([]float64(nil), edge...)
		expDiv(got, 1)
		for i, x := range edge {
			want := math.Exp(x)
			if math.IsNaN(x) {
				require.True(t, math.IsNaN(got[i]), "vec=%v exp(NaN) = %v", vec, got[i])
				continue
			}
			tol := 2 * math.SmallestNonzeroFloat64
			if want > 1 {
				tol = expULP * (math.Nextafter(want, math.Inf(1)) - want)
			}
			if math.IsInf(want, 1) {
				require.True(t, math.IsInf(got[i], 1), "vec=%v exp(%v) = %v", vec, x, got[i])
				continue
			}
			require.LessOrEqual(t, math.Abs(got[i]-want), tol, "vec=%v exp(%v) = %v, want %v", vec, x, got[i], want)
		}
		hasExpVec = saved
	}
}

func BenchmarkExpDiv(b *testing.B) {
	xs := make([]float64, 1000)
	for b.Loop() {
		for i := range xs {
			xs[i] = float64(i)
		}
		expDiv(xs, -450)
	}
}
