package confidence_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/persist"
)

// TestReadCalibratedBaseFile: a node classifier's file with only the
// calibration added (as gssl classify and labelprop --conformal save it,
// with no fit section) reads as the calibrated classifier, with the
// calibration's Alpha and Seed, predicting what the fitted one does.
func TestReadCalibratedBaseFile(t *testing.T) {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	require.NoError(t, err)
	labels := make([]int, len(ds.Labels))
	for i := range labels {
		labels[i] = -1
	}
	for _, i := range slices.Concat(ds.Split.Train, ds.Split.Val) {
		labels[i] = ds.Labels[i]
	}
	m := &confidence.Classifier{Base: &labelprop.Spreading{Alpha: 0.9}, Alpha: 0.2, Seed: 5}
	ctx := context.Background()
	require.NoError(t, m.FitHeldOut(ctx, estimator.Nodes{Graph: ds.Graph}, labels, ds.Split.Val))
	f, err := m.Fitted().(persist.Model).ModelFile()
	require.NoError(t, err)
	require.NoError(t, m.Calibration().Put(f))

	var back confidence.Classifier
	require.NoError(t, back.ReadModelFile(f))
	require.Equal(t, 0.2, back.Alpha)
	require.Equal(t, uint64(5), back.Seed)
	require.Zero(t, back.Holdout)
	want, err := m.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	got, err := back.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	require.Equal(t, want.RawMatrix().Data, got.RawMatrix().Data)

	// without a calibration it is no calibrated classifier
	plain, err := m.Fitted().(persist.Model).ModelFile()
	require.NoError(t, err)
	require.ErrorContains(t, back.ReadModelFile(plain), "holds no calibration")
}
