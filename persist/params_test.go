package persist

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/labelprop"
)

// SetParam gives the model the value a Go caller's assignment gives it,
// by the field's Go or snake_case name, and refuses unknown fields and
// values that do not parse as the field's type.
func TestSetParam(t *testing.T) {
	got := &labelprop.Spreading{}
	require.NoError(t, SetParam(got, "alpha", "0.8"))
	require.NoError(t, SetParam(got, "max_iter", "50"))
	require.NoError(t, SetParam(got, "ClassMassNormalization", "true"))
	require.NoError(t, SetParam(got, "solver", "2"))
	want := &labelprop.Spreading{Alpha: 0.8, MaxIter: 50, ClassMassNormalization: true, Solver: labelprop.Solver(2)}
	assert.Equal(t, want, got)

	assert.ErrorContains(t, SetParam(got, "Alfa", "0.8"), `no field "Alfa"`)
	assert.ErrorContains(t, SetParam(got, "MaxIter", "1.5"), `MaxIter is a int: "1.5" is not one`)
	assert.ErrorContains(t, SetParam(got, "MaxIter", "99999999999999999999"), "is not one")
	assert.Error(t, SetParam(*got, "Alpha", "1"), "a struct value cannot be set")
}

// NewNodeClassifier builds only node classifiers, applies every parameter
// and validates the result.
func TestNewNodeClassifier(t *testing.T) {
	kinds := NodeClassifierKinds()
	assert.Contains(t, kinds, labelprop.SpreadingKind)
	assert.NotContains(t, kinds, gp.RegressorKind)

	m, err := NewNodeClassifier(labelprop.SpreadingKind, "Alpha=0.7", "tol=1e-8")
	require.NoError(t, err)
	assert.Equal(t, &labelprop.Spreading{Alpha: 0.7, Tol: 1e-8}, m)

	_, err = NewNodeClassifier(labelprop.SpreadingKind, "Alpha=2")
	assert.ErrorContains(t, err, "Alpha = 2 is invalid")
	_, err = NewNodeClassifier(labelprop.SpreadingKind, "Alpha")
	assert.ErrorContains(t, err, "want Field=value")
	_, err = NewNodeClassifier(gp.RegressorKind)
	assert.ErrorContains(t, err, "is not a node classifier")
	_, err = NewNodeClassifier("nope")
	assert.ErrorContains(t, err, `unknown model kind "nope"`)
}
