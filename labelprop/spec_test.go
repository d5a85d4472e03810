package labelprop

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
)

func TestSpecModel(t *testing.T) {
	m, grid, err := Spec{Alpha: "0.9", Tol: 1e-8, Solver: "cg", CMN: true, KeepIsolatedSeeds: true}.Model()
	require.NoError(t, err)
	assert.Equal(t, []float64{0.9}, grid)
	assert.Equal(t, &Spreading{Tol: 1e-8, Solver: CG, Stop: StopResidual, ClassMassNormalization: true, IsolatedSeeds: IsolatedSeedKeep}, m)

	m, grid, err = Spec{Stop: "labels", Float32: true}.Model()
	require.NoError(t, err)
	assert.Equal(t, AlphaGrid(), grid)
	assert.Equal(t, &Spreading{Solver: Auto, Stop: StopLabels, Float32: true}, m)

	m, grid, err = Spec{Method: "harmonic", Solver: "cg", Tol: 1e-6}.Model()
	require.NoError(t, err)
	assert.Nil(t, grid)
	assert.Equal(t, &Harmonic{Tol: 1e-6}, m)
}

func TestSpecValidateNamesTheField(t *testing.T) {
	for _, c := range []struct {
		spec  Spec
		field string
	}{
		{Spec{Method: "gcn"}, "Method"},
		{Spec{Alpha: "0"}, "Alpha"},
		{Spec{Alpha: "1"}, "Alpha"},
		{Spec{Alpha: "big"}, "Alpha"},
		{Spec{Alpha: "0.9999999999999999"}, "Alpha"},
		{Spec{Tol: 1}, "Tol"},
		{Spec{Tol: -1e-9}, "Tol"},
		{Spec{Solver: "lu"}, "Solver"},
		{Spec{Stop: "argmax"}, "Stop"},
		{Spec{Stop: "labels", Solver: "cg"}, "Solver"},
		{Spec{Float32: true, Solver: "fixed-point"}, "Solver"},
		{Spec{Method: "harmonic", Alpha: "0.9"}, "Alpha"},
		{Spec{Method: "harmonic", Stop: "labels"}, "Stop"},
		{Spec{Method: "harmonic", Float32: true}, "Float32"},
		{Spec{Method: "harmonic", Solver: "chebyshev"}, "Solver"},
	} {
		err := c.spec.Validate()
		var fe *estimator.FieldError
		require.True(t, errors.As(err, &fe), "%+v: %v", c.spec, err)
		assert.Equal(t, c.field, fe.Field, "%+v", c.spec)
		assert.Equal(t, "labelprop", fe.Package)
		assert.NotEmpty(t, fe.Reason)
	}
	require.NoError(t, Spec{}.Validate())
	require.NoError(t, Spec{Method: "harmonic", Alpha: "auto", Stop: "residual", Solver: "auto"}.Validate())
}
