package gp

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

func gpProblem(seed uint64) (*mat.Dense, []float64, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 7))
	n, d := 25, 2
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		a, b := 4*rng.Float64()-2, 4*rng.Float64()-2
		x.Set(i, 0, a)
		x.Set(i, 1, b)
		y[i] = math.Sin(a) + 0.5*b + 0.05*rng.NormFloat64()
	}
	q := mat.NewDense(6, d, nil)
	for i := 0; i < 6; i++ {
		q.Set(i, 0, 4*rng.Float64()-2)
		q.Set(i, 1, 4*rng.Float64()-2)
	}
	return x, y, q
}

func sameBits(t *testing.T, what string, a, b []float64) {
	t.Helper()
	require.Len(t, b, len(a))
	for i := range a {
		require.Equal(t, math.Float64bits(a[i]), math.Float64bits(b[i]), "%s[%d]: %v vs %v", what, i, a[i], b[i])
	}
}

func TestRegressorModelRoundTrip(t *testing.T) {
	x, y, q := gpProblem(1)
	for _, r := range []*Regressor{{}, {Covariance: SquaredExponential, Fixed: true, Initial: Hyperparameters{LengthScale: 0.7}}} {
		require.NoError(t, r.Fit(context.Background(), x, y))
		b, err := r.MarshalBinary()
		require.NoError(t, err)
		got := &Regressor{}
		require.NoError(t, got.UnmarshalBinary(b))
		m0, v0, err := predict(r, q)
		require.NoError(t, err)
		m1, v1, err := predict(got, q)
		require.NoError(t, err)
		sameBits(t, "mean", m0, m1)
		sameBits(t, "variance", v0, v1)
		assert.Equal(t, r.Hyperparameters(), got.Hyperparameters())
		assert.Equal(t, math.Float64bits(r.LogMarginalLikelihood()), math.Float64bits(got.LogMarginalLikelihood()))
		assert.Equal(t, r.Evaluations(), got.Evaluations())
		assert.Equal(t, []any{r.Covariance, r.Initial, r.Bounds, r.Fixed, r.MaxIterations, r.Jitter},
			[]any{got.Covariance, got.Initial, got.Bounds, got.Fixed, got.MaxIterations, got.Jitter})
		b2, err := got.MarshalBinary()
		require.NoError(t, err)
		assert.True(t, bytes.Equal(b, b2))
		_, _, err = predict(got, mat.NewDense(1, 1, []float64{1}))
		assert.ErrorContains(t, err, "query points have 1 coordinates, want 2")

		var buf bytes.Buffer
		require.NoError(t, gob.NewEncoder(&buf).Encode(r))
		viaGob := &Regressor{}
		require.NoError(t, gob.NewDecoder(&buf).Decode(viaGob))
		gm, _, err := predict(viaGob, q)
		require.NoError(t, err)
		sameBits(t, "gob mean", m0, gm)
		_, err = json.Marshal(r)
		assert.ErrorIs(t, err, estimator.ErrJSON)

		for i := 0; i < len(b); i += 3 {
			d := bytes.Clone(b)
			d[i] ^= 0x44
			require.Error(t, (&Regressor{}).UnmarshalBinary(d), "byte %d", i)
		}
	}
	f, err := modelfile.Unmarshal(func() []byte { b, _ := (&Regressor{Fixed: true}).MarshalBinary(); return b }())
	assert.Nil(t, f, "an unfitted model writes nothing")
	assert.Error(t, err)
	_, err = (&Regressor{}).MarshalBinary()
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	_, _, err = predict(&Regressor{}, nil)
	assert.ErrorIs(t, err, ErrNotFitted)
}

// predict is Predict with its Regression taken apart.
func predict(r *Regressor, x *mat.Dense) (mean, variance []float64, err error) {
	p, err := r.Predict(context.Background(), x)
	return p.Mean, p.Variance, err
}

func TestFitUnknownTargets(t *testing.T) {
	x, y, q := gpProblem(2)
	yy := append([]float64(nil), y...)
	yy[3], yy[10] = math.NaN(), math.NaN()
	a := &Regressor{Fixed: true}
	require.NoError(t, a.Fit(context.Background(), x, yy))
	var rows []float64
	var ty []float64
	for i := range y {
		if i != 3 && i != 10 {
			rows = append(rows, x.RawRowView(i)...)
			ty = append(ty, y[i])
		}
	}
	b := &Regressor{Fixed: true}
	require.NoError(t, b.Fit(context.Background(), mat.NewDense(len(ty), 2, rows), ty))
	ma, _, _ := predict(a, q)
	mb, _, _ := predict(b, q)
	sameBits(t, "mean", ma, mb)
	assert.ErrorContains(t, a.Fit(context.Background(), x, y[1:]), "give one per point")
	assert.Equal(t, 2, a.Features())
	assert.Equal(t, 0, a.Info().Iterations, "fixed hyperparameters: no evaluations")
}
