package svm

import (
	"errors"
	"github.com/gssl/gssl/estimator"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/kernel"
)

// A Spec's machine is the one written by hand; a bad kernel or C is named.
func TestSpecPointSVC(t *testing.T) {
	p, err := Spec{Kernel: "gaussian", Sigma: 0.5, C: 2, Tol: 1e-4}.PointSVC()
	require.NoError(t, err)
	assert.Equal(t, &PointSVC{Kernel: kernel.Gaussian{Sigma: 0.5}, C: 2, Settings: Settings{Tol: 1e-4}}, p)
	p, err = Spec{Kernel: "linear", C: 1}.PointSVC()
	require.NoError(t, err)
	assert.Equal(t, kernel.Linear{}, p.Kernel)
	var se *estimator.FieldError
	_, err = Spec{Kernel: "poly", C: 1}.PointSVC()
	require.True(t, errors.As(err, &se))
	assert.Equal(t, "Kernel", se.Field)
	_, err = Spec{Kernel: "linear", C: 0}.PointSVC()
	require.True(t, errors.As(err, &se))
	assert.Equal(t, "C", se.Field)
	_, err = Spec{Kernel: "gaussian", Sigma: -1, C: 1}.PointSVC()
	assert.ErrorContains(t, err, "sigma")
}
