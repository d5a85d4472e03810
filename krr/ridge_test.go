package krr_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/svm"
)

// TestExactIsKernelRidge checks the scaling between the two kernel ridge
// front doors: krr.Exact with λ solves the system of svm.KernelRidge with
// Ridge = nλ, so on one-hot targets their scores on new points agree. The
// two symmetrise K differently ((K + Kᵀ)/2 against the upper triangle), a
// difference of one rounding per entry, hence 1e-12 and not bitwise.
func TestExactIsKernelRidge(t *testing.T) {
	const tol = 1e-12
	rng := rand.New(rand.NewPCG(5, 6))
	n, test, classes := 150, 40, 3
	x := mat.NewDense(n, 2, nil)
	xt := mat.NewDense(test, 2, nil)
	labels := make([]int, n)
	y := mat.NewDense(n, classes, nil)
	for i := 0; i < n+test; i++ {
		l := i % classes
		row := []float64{rng.NormFloat64() + float64(l), rng.NormFloat64() - float64(l)}
		if i < n {
			x.SetRow(i, row)
			labels[i] = l
			y.Set(i, l, 1)
		} else {
			xt.SetRow(i-n, row)
		}
	}
	k := kernel.Gaussian{Sigma: 1.2}
	const lambda = 1e-3
	ex := &krr.Exact{Kernel: k, Lambda: lambda}
	require.NoError(t, ex.FitTargets(context.Background(), x, y))
	want, err := ex.PredictTargets(context.Background(), xt)
	require.NoError(t, err)

	gram, err := kernel.Gram(k, x, x)
	require.NoError(t, err)
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, gram.At(i, j))
		}
	}
	kr := &svm.KernelRidge{Ridge: float64(n) * lambda}
	require.NoError(t, kr.Fit(context.Background(), sym, labels))
	cross, err := kernel.Gram(k, xt, x)
	require.NoError(t, err)
	got, err := kr.Scores(cross)
	require.NoError(t, err)
	assert.True(t, mat.EqualApprox(want, got, tol), "Exact and KernelRidge(Ridge = nλ) differ")
}

// TestSolveGramErrors checks the errors of the shared solve.
func TestSolveGramErrors(t *testing.T) {
	ctx := context.Background()
	y := mat.NewDense(2, 1, []float64{1, 0})
	_, err := krr.SolveGram(ctx, mat.NewSymDense(2, []float64{1, 0, 0, 1}), 0, y)
	assert.ErrorContains(t, err, "r=0 is invalid")
	_, err = krr.SolveGram(ctx, mat.NewSymDense(3, nil), 1, y)
	assert.ErrorContains(t, err, "3×3 but Y has 2 rows")
	_, err = krr.SolveGram(ctx, mat.NewSymDense(2, []float64{1, 2, 2, 1}), 1e-3, y)
	assert.ErrorIs(t, err, krr.ErrNotPositiveDefinite)
}
