package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/nodeclass"
)

// TestFitByKind: gssl fit --kind with --set fits the registered model with
// that hyperparameter, as the library does, and gssl predict answers from
// the saved model with the library's classes; a bad --set names the field.
func TestFitByKind(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.gssl")
	stdout, _, err := runRoot(t, "fit", "--kind", labelprop.SpreadingKind, "--set", "alpha=0.8", "--save", model, "--json")
	require.NoError(t, err)
	var res fitResult
	require.NoError(t, json.Unmarshal([]byte(stdout), &res))

	ds, err := datasets.Cora()
	require.NoError(t, err)
	ref := &labelprop.Spreading{Alpha: 0.8}
	require.NoError(t, ref.Fit(context.Background(), estimator.Nodes{Graph: ds.Graph}, ds.Labels))
	scores, err := ref.Predict(context.Background(), estimator.FittedNodes)
	require.NoError(t, err)
	want := map[string]int{}
	for _, c := range estimator.Argmax(scores) {
		want[className(ds, c)]++
	}
	assert.Equal(t, want, res.Predicted)
	assert.Equal(t, ref.Info(), res.Info)

	_, _, err = runRoot(t, "fit", "--kind", labelprop.SpreadingKind, "--set", "Alfa=0.8")
	assert.ErrorContains(t, err, `no field "Alfa"`)
	_, _, err = runRoot(t, "fit", "--kind", labelprop.SpreadingKind, "--set", "Alpha=2")
	assert.ErrorContains(t, err, "Alpha = 2 is invalid")
}

// TestFitSplit: gssl fit --split planetoid fits the model on the split's
// training labels only, as the library does with the other labels hidden,
// and reports its accuracy on the split's validation and test nodes,
// counted here from the library's predictions; --split none keeps every
// label, and a bad split is an error naming the flag.
func TestFitSplit(t *testing.T) {
	stdout, _, err := runRoot(t, "fit", "--kind", nodeclass.SGCKind, "--set", "K=2", "--set", "L2=0.003", "--split", "planetoid", "--json")
	require.NoError(t, err)
	var res fitResult
	require.NoError(t, json.Unmarshal([]byte(stdout), &res))

	ds, err := datasets.Cora()
	require.NoError(t, err)
	require.NotNil(t, ds.Split)
	train := make([]int, len(ds.Labels))
	for i := range train {
		train[i] = -1
	}
	for _, i := range ds.Split.Train {
		train[i] = ds.Labels[i]
	}
	ref := &nodeclass.SGC{K: 2, L2: 0.003}
	require.NoError(t, ref.Fit(context.Background(), ds.EstimatorNodes(), train))
	scores, err := ref.Predict(context.Background(), estimator.FittedNodes)
	require.NoError(t, err)
	accuracy := func(nodes []int) float64 {
		right := 0
		for _, i := range nodes {
			if floats.MaxIdx(scores.RawRowView(i)) == ds.Labels[i] {
				right++
			}
		}
		return float64(right) / float64(len(nodes))
	}
	assert.Equal(t, len(ds.Split.Train), res.Labelled)
	assert.Equal(t, "planetoid", res.Split)
	assert.Equal(t, accuracy(ds.Split.Val), res.ValAccuracy)
	assert.Equal(t, accuracy(ds.Split.Test), res.TestAccuracy)
	assert.Equal(t, ref.Info(), res.Info)
	assert.Greater(t, res.TestAccuracy, 0.75, "SGC on Cora's Planetoid split")
	assert.Greater(t, res.FitSeconds, 0.0)
	assert.GreaterOrEqual(t, res.Seconds, res.FitSeconds+res.LoadSeconds)

	stdout, _, err = runRoot(t, "fit", "--kind", nodeclass.SGCKind, "--json")
	require.NoError(t, err)
	res = fitResult{}
	require.NoError(t, json.Unmarshal([]byte(stdout), &res))
	assert.Equal(t, len(ds.Labelled()), res.Labelled, "--split none: every label")
	assert.Nil(t, res.TestAccuracy)
	assert.Empty(t, res.Split)

	_, _, err = runRoot(t, "fit", "--kind", nodeclass.SGCKind, "--split", "random:0")
	assert.ErrorContains(t, err, "--split")
}
