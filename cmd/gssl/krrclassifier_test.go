package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/persist"
	"github.com/gssl/gssl/savedmodel"
)

// TestKRRClassifierSaveThenPredict: a krr.Classifier fitted and saved by
// the library opens through package persist and savedmodel, and gssl
// predict answers with the library's own scores, bitwise, and its classes.
func TestKRRClassifierSaveThenPredict(t *testing.T) {
	const features = "../../testdata/points/features.csv"
	rows := readCSV(t, features)[1:]
	x := mat.NewDense(len(rows), len(rows[0]), nil)
	labels := make([]int, len(rows))
	for i, r := range rows {
		for j, v := range r {
			v, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err)
			x.Set(i, j, v)
		}
		labels[i] = 0
		if x.At(i, 0) > 0 {
			labels[i] = 1
		}
		if x.At(i, 1) > 0.5 {
			labels[i] = 2
		}
	}
	m := &krr.Classifier{Model: &krr.Exact{Kernel: kernel.Gaussian{Sigma: 0.7}, Lambda: 1e-3}}
	require.NoError(t, m.Fit(context.Background(), x, labels))
	want, err := m.Predict(context.Background(), x)
	require.NoError(t, err)

	model := filepath.Join(t.TempDir(), "krr.gssl")
	require.NoError(t, savedmodel.Save(model, m, savedmodel.Context{ClassNames: []string{"west", "east", "north"}}))
	p, err := persist.ReadFile(model)
	require.NoError(t, err)
	got, err := p.(*krr.Classifier).Predict(context.Background(), x)
	require.NoError(t, err)
	assert.Equal(t, want.RawMatrix().Data, got.RawMatrix().Data, "persist")

	stdout, _, err := runRoot(t, "predict", "--model", model, "--features", features, "--json")
	require.NoError(t, err)
	var res predictResult
	require.NoError(t, json.Unmarshal([]byte(stdout), &res))
	assert.Equal(t, krr.ClassifierKind, res.Kind)
	assert.Equal(t, []string{"west", "east", "north"}, res.Classes)
	require.Len(t, res.Predictions, len(rows))
	best := estimator.Argmax(want)
	for i, pr := range res.Predictions {
		assert.Equal(t, want.RawRowView(i), pr.Scores, "row %d", i)
		assert.Equal(t, res.Classes[best[i]], pr.Label, "row %d", i)
	}
}
