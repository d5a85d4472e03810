package krr

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
)

// TestRolesAreOneColumnOfFitTargets: Fit and Predict of one target are
// FitTargets and PredictTargets on that column, bitwise, for the four
// models; a model fitted on two targets refuses Predict; NaN targets are
// refused.
func TestRolesAreOneColumnOfFitTargets(t *testing.T) {
	x, y := problem(21, 120, 3)
	xt, _ := problem(22, 15, 3)
	k := kernel.Gaussian{Sigma: 1.2}
	col := mat.Col(nil, 0, y)
	for _, m := range []MultiOutput{
		&Exact{Kernel: k, Lambda: 1e-3},
		&Nystrom{Kernel: k, Lambda: 1e-3, Centres: Centres{M: 30, Seed: 1}},
		&Falkon{Kernel: k, Lambda: 1e-3, Centres: Centres{M: 30, Seed: 1}, Iterations: 5},
		&RandomFeatures{Sigma: 1.2, D: 50, Lambda: 1e-3, Seed: 2},
	} {
		one := CloneModel(m).(estimator.PointRegressor)
		require.NoError(t, one.Fit(ctx, x, col))
		got, err := one.Predict(ctx, xt)
		require.NoError(t, err)
		require.NoError(t, m.FitTargets(ctx, x, mat.NewDense(120, 1, col)))
		want, err := m.PredictTargets(ctx, xt)
		require.NoError(t, err)
		for i, v := range got.Mean {
			require.Equal(t, math.Float64bits(want.At(i, 0)), math.Float64bits(v), "%T row %d", m, i)
		}
		require.NoError(t, m.FitTargets(ctx, x, y))
		_, err = m.(estimator.PointRegressor).Predict(ctx, xt)
		assert.ErrorContains(t, err, "fitted on 2 targets", "%T", m)
		bad := append([]float64(nil), col...)
		bad[3] = math.NaN()
		assert.ErrorContains(t, one.Fit(ctx, x, bad), "target 3 is NaN", "%T", m)
	}
}

// TestClassifierIsOneHotRegression: the classifier's scores are the
// regression of OneHot(labels), and it survives a round trip.
func TestClassifierIsOneHotRegression(t *testing.T) {
	x, y := problem(23, 100, 2)
	labels := make([]int, 100)
	for i := range labels {
		if y.At(i, 0) > 0 {
			labels[i] = 1
		}
		if y.At(i, 1) > 0.5 {
			labels[i] = 2
		}
	}
	base := &Falkon{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1e-3, Centres: Centres{M: 40, Seed: 3}, Iterations: 6}
	c := &Classifier{Model: base}
	_, err := c.Predict(ctx, x)
	require.ErrorIs(t, err, estimator.ErrNotFitted)
	require.NoError(t, c.Fit(ctx, x, labels))
	got, err := c.Predict(ctx, x)
	require.NoError(t, err)
	oh, err := OneHot(labels, 3)
	require.NoError(t, err)
	ref := base.Clone()
	require.NoError(t, ref.FitTargets(ctx, x, oh))
	want, err := ref.PredictTargets(ctx, x)
	require.NoError(t, err)
	assert.True(t, mat.Equal(want, got))
	assert.Zero(t, base.Details().Iterations, "Model itself is not fitted")
	b, err := c.MarshalBinary()
	require.NoError(t, err)
	back := &Classifier{}
	require.NoError(t, back.UnmarshalBinary(b))
	again, err := back.Predict(ctx, x)
	require.NoError(t, err)
	assert.True(t, mat.Equal(got, again))
	labels[5] = -1
	assert.ErrorContains(t, (&Classifier{Model: base}).Fit(ctx, x, labels), "label -1 of row 5")
	assert.ErrorContains(t, (&Classifier{}).Validate(), "Classifier.Model")
}
