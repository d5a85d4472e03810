package svm

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/kernel"
)

// TestKernelRidgeAgainstGonumCholesky checks KernelRidge, which solves by
// krr.SolveGram (internal/dense's blocked Cholesky), against the solve it
// used before the two kernel ridges were made one: gonum's mat.Cholesky of
// K + rI and its SolveTo. Both are backward-stable factorisations of a
// system with condition number ≲ 1e3 here, so scores agree to 1e-12.
func TestKernelRidgeAgainstGonumCholesky(t *testing.T) {
	const tol = 1e-12
	rng := rand.New(rand.NewPCG(47, 48))
	n, test := 200, 50
	x := mat.NewDense(n+test, 4, nil)
	labels := make([]int, n)
	for i := 0; i < n+test; i++ {
		l := i % 4
		if i < n {
			labels[i] = l
		}
		for j := 0; j < 4; j++ {
			x.Set(i, j, rng.NormFloat64()+float64(l))
		}
	}
	train := x.Slice(0, n, 0, 4).(*mat.Dense)
	k := gaussianGram(t, train, 1.5)
	cross, err := kernel.Gram(kernel.Gaussian{Sigma: 1.5}, x.Slice(n, n+test, 0, 4).(*mat.Dense), train)
	require.NoError(t, err)
	for _, ridge := range []float64{0.1, 1} {
		kr := &KernelRidge{Ridge: ridge}
		require.NoError(t, kr.Fit(context.Background(), k, labels))
		got, err := kr.Scores(cross)
		require.NoError(t, err)

		sys := mat.NewSymDense(n, nil)
		sys.CopySym(k)
		for i := 0; i < n; i++ {
			sys.SetSym(i, i, sys.At(i, i)+ridge)
		}
		var chol mat.Cholesky
		require.True(t, chol.Factorize(sys))
		y := mat.NewDense(n, 4, nil)
		for i, l := range labels {
			y.Set(i, l, 1)
		}
		var alpha, want mat.Dense
		require.NoError(t, chol.SolveTo(&alpha, y))
		want.Mul(cross, &alpha)
		assert.True(t, mat.EqualApprox(&want, got, tol), "ridge %v: ‖difference‖∞ = %g", ridge, maxAbsDiff(&want, got))
	}
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1))
}
