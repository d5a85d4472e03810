package spectral

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/linop"
)

// quadFormTol: with as many Lanczos steps as the dimension the Krylov space
// is the whole space and the quadrature is exact up to rounding (30×30,
// condition number below 100).
const quadFormTol = 1e-10

func TestQuadraticFormAgainstDense(t *testing.T) {
	const n = 30
	rng := rand.New(rand.NewPCG(3, 4))
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64()/math.Sqrt(n))
		}
	}
	a := mat.NewSymDense(n, nil)
	a.SymOuterK(1, g)
	for i := 0; i < n; i++ {
		a.SetSym(i, i, a.At(i, i)+0.5)
	}
	var es mat.EigenSym
	require.True(t, es.Factorize(a, true))
	var u mat.Dense
	es.VectorsTo(&u)
	z := make([]float64, n)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	// zᵀ log(A) z = Σ_k log λ_k (u_kᵀz)².
	var want float64
	for k, lam := range es.Values(nil) {
		c := mat.Dot(u.ColView(k), mat.NewVecDense(n, z))
		want += math.Log(lam) * c * c
	}
	op := linop.Dense{M: mat.DenseCopyOf(a)}
	got, err := QuadraticForm(op, Log(), z, n)
	require.NoError(t, err)
	require.InDelta(t, want, got, quadFormTol*math.Abs(want))
	// Few steps: an approximation, worse than the full run.
	few, err := QuadraticForm(op, Log(), z, 3)
	require.NoError(t, err)
	require.Greater(t, math.Abs(few-want), math.Abs(got-want))

	zero, err := QuadraticForm(op, Log(), make([]float64, n), n)
	require.NoError(t, err)
	require.Zero(t, zero)
	_, err = QuadraticForm(op, Log(), z[:n-1], n)
	require.ErrorContains(t, err, "length 29")
	_, err = QuadraticForm(nil, Log(), z, n)
	require.Error(t, err)
}
