package stkr

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// mustPredict, mustVectors and mustAlpha return what the fitted r's
// accessors return, failing the test on an error.
func mustPredict(t testing.TB, r interface{ Scores() (*mat.Dense, error) }) *mat.Dense {
	t.Helper()
	f, err := r.Scores()
	require.NoError(t, err)
	return f
}

func mustVectors(t testing.TB, r *Regressor) *mat.Dense {
	t.Helper()
	u, err := r.Vectors()
	require.NoError(t, err)
	return u
}

func mustAlpha(t testing.TB, r *Regressor) *mat.Dense {
	t.Helper()
	a, err := r.Alpha()
	require.NoError(t, err)
	return a
}

func TestAccessorsBeforeFitAreErrors(t *testing.T) {
	var r Regressor
	_, err := r.Scores()
	require.ErrorIs(t, err, estimator.ErrNotFitted)
	_, err = r.Vectors()
	require.ErrorIs(t, err, estimator.ErrNotFitted)
	_, err = r.Alpha()
	require.ErrorIs(t, err, estimator.ErrNotFitted)
}

// cls is r as a Classifier (the protocols choose among classifiers).
func cls(r *Regressor) *Classifier { return &Classifier{Regressor: *r} }
