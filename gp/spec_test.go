package gp

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
)

// TestSpec: the Spec builds the regressor written by hand, its aliases of
// the squared exponential included, and names an invalid field.
func TestSpec(t *testing.T) {
	m, err := DefaultSpec().Regressor()
	require.NoError(t, err)
	assert.Equal(t, &Regressor{Covariance: Matern52, MaxIterations: DefaultMaxIterations}, m)
	for _, name := range []string{"squared-exponential", "rbf", "gaussian"} {
		m, err := Spec{Covariance: name, Fixed: true, MaxIter: 7}.Regressor()
		require.NoError(t, err)
		assert.Equal(t, &Regressor{Covariance: SquaredExponential, Fixed: true, MaxIterations: 7}, m)
	}
	for _, c := range []struct {
		s     Spec
		field string
	}{{Spec{Covariance: "poly", MaxIter: 1}, "Covariance"}, {Spec{Covariance: "matern52"}, "MaxIter"}} {
		_, err := c.s.Regressor()
		var fe *estimator.FieldError
		require.True(t, errors.As(err, &fe), "%v", err)
		assert.Equal(t, c.field, fe.Field)
	}
}
