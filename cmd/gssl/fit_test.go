package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/labelprop"
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
