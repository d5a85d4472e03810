package stkr

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// TestClassifierFileKinds: a Classifier reads a file of kind RegressorKind
// written by a Regressor fitted on classes (its predictions bitwise those
// of the classifier that was fitted), refuses a regression's file and
// stays as it was, and a Regressor refuses a Classifier's file by kind.
func TestClassifierFileKinds(t *testing.T) {
	ctx := context.Background()
	g, labels, nn := modelProblem(t, 4)
	x := estimator.Nodes{Graph: g}
	c := &Classifier{Regressor: Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 0.1}}
	require.NoError(t, c.Fit(ctx, x, labels))
	want, err := c.Predict(ctx, estimator.NodeQuery{New: &nn})
	require.NoError(t, err)

	asRegressor, err := c.Regressor.MarshalBinary()
	require.NoError(t, err)
	f, err := modelfile.Unmarshal(asRegressor)
	require.NoError(t, err)
	require.Equal(t, RegressorKind, f.Kind)
	var read Classifier
	require.NoError(t, read.UnmarshalBinary(asRegressor))
	assert.Equal(t, 2, read.Classes)
	got, err := read.Predict(ctx, estimator.NodeQuery{New: &nn})
	require.NoError(t, err)
	bitsEqual(t, "a classifier read from a regressor's file", want.RawMatrix().Data, got.RawMatrix().Data)

	targets := make([]float64, len(labels))
	for i, l := range labels {
		targets[i] = math.NaN()
		if l >= 0 {
			targets[i] = float64(l)
		}
	}
	r := &Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 0.1}
	require.NoError(t, r.Fit(ctx, x, targets))
	regression, err := r.MarshalBinary()
	require.NoError(t, err)
	assert.ErrorContains(t, read.UnmarshalBinary(regression), "stkr: the model file holds a regression (no classes)")
	got, err = read.Predict(ctx, estimator.NodeQuery{New: &nn})
	require.NoError(t, err)
	bitsEqual(t, "the classifier after a refused file", want.RawMatrix().Data, got.RawMatrix().Data)
	_, err = (&Classifier{Regressor: *r}).MarshalBinary()
	assert.ErrorContains(t, err, "not fitted as a classifier")

	classifier, err := c.MarshalBinary()
	require.NoError(t, err)
	assert.ErrorIs(t, (&Regressor{}).UnmarshalBinary(classifier), modelfile.ErrKind)
}
