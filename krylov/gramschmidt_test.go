package krylov

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestGramSchmidtAgainstQR: the basis is the Q of a dense QR (gonum), and w
// lies almost in its span, so one classical pass cancels nearly all of w
// and the DGKS test asks for a second. After the passes the summed
// coefficients equal Qᵀw and what is left is orthogonal to Q to working
// precision, for every basis size around the four-column blocking.
func TestGramSchmidtAgainstQR(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 203
	for _, k := range []int{1, 3, 4, 5, 8, 11} {
		a := mat.NewDense(n, k, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				a.Set(i, j, rng.NormFloat64())
			}
		}
		var qr mat.QR
		qr.Factorize(a)
		var q mat.Dense
		qr.QTo(&q)
		v := make([][]float64, k)
		for j := range v {
			v[j] = mat.Col(nil, j, &q)
		}
		w := make([]float64, n)
		for j := range v {
			floats.AddScaled(w, float64(j+1), v[j])
		}
		for i := range w {
			w[i] += 1e-9 * rng.NormFloat64()
		}
		orig := append([]float64(nil), w...)
		want := make([]float64, k) // Qᵀw
		for j := range v {
			want[j] = floats.Dot(v[j], orig)
		}

		c := make([]float64, k)
		sum := make([]float64, k)
		before := floats.Norm(w, 2)
		gramSchmidt(w, v, c)
		floats.Add(sum, c)
		assert.Less(t, floats.Norm(w, 2), dgks*before, "k=%d: w was nearly in the span, so the test must ask for a second pass", k)
		gramSchmidt(w, v, c)
		floats.Add(sum, c)
		for j := range v {
			assert.InDelta(t, want[j], sum[j], 1e-13*float64(j+1), "k=%d coefficient %d", k, j)
			assert.Less(t, math.Abs(floats.Dot(v[j], w)), 1e-15*before, "k=%d: residual not orthogonal to v_%d", k, j)
		}
		// w + Q·sum reproduces the original vector.
		back := append([]float64(nil), w...)
		for j := range v {
			floats.AddScaled(back, sum[j], v[j])
		}
		for i := range back {
			assert.InDelta(t, orig[i], back[i], 1e-13, "k=%d entry %d", k, i)
		}
	}
}
