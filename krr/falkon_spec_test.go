package krr

import (
	"context"
	"errors"
	"github.com/gssl/gssl/estimator"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/kernel"
)

// A Spec's model is the Falkon built by hand from the same settings: the
// same predictions bit for bit; each invalid field is named.
func TestSpecModel(t *testing.T) {
	x := mat.NewDense(6, 1, []float64{0, 1, 2, 3, 4, 5})
	y := mat.NewDense(6, 1, []float64{0, 1, 0, 1, 0, 1})
	s := Spec{Solver: "falkon", Kernel: "gaussian", Sigma: 1, Lambda: 1e-3, M: 4, MaxIter: 5, Centres: "uniform", Seed: 2, Precision: "float64"}
	m, err := s.Model()
	require.NoError(t, err)
	ref := &Falkon{Kernel: kernel.Gaussian{Sigma: 1}, Lambda: 1e-3, Centres: Centres{M: 4, Seed: 2, Sampler: Uniform{}}, Iterations: 5, Precision: kernel.Float64}
	ctx := context.Background()
	require.NoError(t, m.FitTargets(ctx, x, y))
	require.NoError(t, ref.FitTargets(ctx, x, y))
	got, err := m.PredictTargets(ctx, x)
	require.NoError(t, err)
	want, err := ref.PredictTargets(ctx, x)
	require.NoError(t, err)
	assert.Equal(t, want.RawMatrix().Data, got.RawMatrix().Data)

	s.Solver, s.CentreIndices = "nystrom", []int{0, 2, 4}
	m, err = s.Model()
	require.NoError(t, err)
	n, ok := m.(*Nystrom)
	require.True(t, ok)
	assert.Equal(t, 3, n.Centres.M)
	assert.Equal(t, Fixed{0, 2, 4}, n.Centres.Sampler)

	for field, edit := range map[string]func(*Spec){
		"Kernel": func(s *Spec) { s.Kernel = "rbf" }, "Precision": func(s *Spec) { s.Precision = "half" },
		"Solver": func(s *Spec) { s.Solver = "sgd" }, "M": func(s *Spec) { s.M = -1 }, "Lambda": func(s *Spec) { s.Lambda = 0 },
		"MaxIter": func(s *Spec) { s.MaxIter = 0 }, "Centres": func(s *Spec) { s.Centres, s.CentreIndices = "file", nil },
	} {
		bad := Spec{Solver: "falkon", Kernel: "gaussian", Sigma: 1, Lambda: 1, MaxIter: 5, Centres: "uniform", Precision: "float32"}
		edit(&bad)
		var se *estimator.FieldError
		require.True(t, errors.As(bad.Validate(), &se), field)
		assert.Equal(t, field, se.Field)
	}
}
