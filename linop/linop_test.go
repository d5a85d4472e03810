package linop

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

const tol = 1e-12 // products of small matrices with entries of order one

func randomDense(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	m.Apply(func(int, int, float64) float64 { return rng.NormFloat64() }, m)
	return m
}

func TestOperatorsAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 9
	a := randomDense(rng, n, n)
	d, err := NewDense(a)
	require.NoError(t, err)
	assert.True(t, mat.EqualApprox(ToDense(d), a, tol))
	assert.False(t, d.IsSymmetric())

	// Affine: 2I − 0.5A.
	aff := Affine{A: d, Scale: -0.5, Shift: 2}
	want := mat.NewDense(n, n, nil)
	want.Scale(-0.5, a)
	for i := 0; i < n; i++ {
		want.Set(i, i, want.At(i, i)+2)
	}
	assert.True(t, mat.EqualApprox(ToDense(aff), want, tol))
	assert.False(t, aff.IsSymmetric())

	diag := Diagonal{1, 2, 3}
	assert.True(t, mat.EqualApprox(ToDense(diag), mat.NewDiagDense(3, []float64{1, 2, 3}), tol))
	f := Func{N: 3, F: func(dst, x []float64) { diag.MulVecTo(dst, x) }}
	assert.True(t, IsSymmetric(f))
	assert.True(t, mat.EqualApprox(ToDense(f), ToDense(diag), tol))

	// MulBlock uses MulBlockTo when present and falls back to columns.
	x := randomDense(rng, n, 4)
	var wantB mat.Dense
	wantB.Mul(want, x)
	got := mat.NewDense(n, 4, nil)
	MulBlock(aff, got, x) // Affine has no block form: column fallback
	assert.True(t, mat.EqualApprox(got, &wantB, tol))
	wantB.Mul(a, x)
	MulBlock(d, got, x)
	assert.True(t, mat.EqualApprox(got, &wantB, tol))

	_, err = NewDense(mat.NewDense(2, 3, nil))
	assert.ErrorContains(t, err, "2×3")
	assert.PanicsWithValue(t, "linop.Diagonal: dimension mismatch: operator is 3×3, dst has length 3, x has length 2", func() {
		diag.MulVecTo(make([]float64, 3), make([]float64, 2))
	})
	assert.Panics(t, func() { MulBlock(d, mat.NewDense(n, 3, nil), x) })
}
