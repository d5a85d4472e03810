package kernel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// expULP is the accepted error of exp in units in the last place of the
// exact value: 2 (a table entry and the final scaling round once each, the
// polynomial is exact to half an ulp).
const expULP = 2

// bigExp returns e^x to 100 bits by its Taylor series after halving x
// until |x| < 1/2 and squaring back: an independent reference.
func bigExp(x float64) float64 {
	const prec = 200
	h := new(big.Float).SetPrec(prec).SetFloat64(x)
	halvings := 0
	for math.Abs(x) > 0.5 {
		x /= 2
		halvings++
	}
	h.SetMantExp(h, -halvings)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := int64(1); n < 60; n++ {
		term.Mul(term, h)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, term)
	}
	for range halvings {
		sum.Mul(sum, sum)
	}
	f, _ := sum.Float64()
	return f
}

func TestExpAgainstBigFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	xs := []float64{0, -1e-300, -1e-17, 1e-17, -0.5, -math.Ln2, -1, -10, -700, -707.9, 1, 20, 708.9}
	for range 20000 {
		xs = append(xs, -30*rng.Float64(), -708*rng.Float64(), 2*rng.Float64()-1)
	}
	for _, x := range xs {
		want := bigExp(x)
		got := exp(x)
		ulp := math.Nextafter(want, math.Inf(1)) - want
		require.LessOrEqual(t, math.Abs(got-want), expULP*ulp, "exp(%v) = %v, want %v", x, got, want)
	}
	// outside the fast range: math.Exp's answers
	for _, x := range []float64{-708.5, -745, -800, 710, math.Inf(-1), math.Inf(1)} {
		assert.Equal(t, math.Exp(x), exp(x), "exp(%v)", x)
	}
	assert.True(t, math.IsNaN(exp(math.NaN())))
}

func BenchmarkExp(b *testing.B) {
	xs := make([]float64, 1024)
	out := make([]float64, 1024)
	for i := range xs {
		xs[i] = -float64(i) / 300
	}
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for i, x := range xs {
				out[i] = math.Exp(x)
			}
		}
	})
	b.Run("exp", func(b *testing.B) {
		for b.Loop() {
			for i, x := range xs {
				out[i] = exp(x)
			}
		}
	})
}
