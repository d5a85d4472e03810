package protocol

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
)

// coraTrainLabels returns Cora's label vector with only the 140 training
// nodes of its Planetoid split labelled.
func coraTrainLabels(t *testing.T) (estimator.Nodes, []int) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	labels := make([]int, ds.Graph.Nodes())
	for i := range labels {
		labels[i] = -1
	}
	for _, v := range ds.Split.Train {
		labels[v] = ds.Labels[v]
	}
	return estimator.Nodes{Graph: ds.Graph}, labels
}

// manualCV is the loop ChooseAlpha stands for: for every a and every fold,
// fit newModel(a) on the other folds and count the right held-out
// predictions.
func manualCV(t *testing.T, x estimator.Nodes, labels []int, grid []float64, folds *eval.Folds, newModel func(a float64) *labelprop.Spreading) []float64 {
	var want []float64
	for _, a := range grid {
		right, total := 0, 0
		for f := 0; f < folds.K; f++ {
			train, test := folds.Split(f)
			tc := make([]int, len(train))
			for k, v := range train {
				tc[k] = labels[v]
			}
			m := newModel(a)
			require.NoError(t, m.FitIndexed(context.Background(), x.Graph, train, tc))
			for _, v := range test {
				total++
				if m.Labels()[v] == labels[v] {
					right++
				}
			}
		}
		assert.Equal(t, 140, total, "every labelled node is held out once")
		want = append(want, float64(right)/float64(total))
	}
	return want
}

// ChooseAlpha against the loop it stands for.
func TestChooseAlphaMatchesManualCV(t *testing.T) {
	x, labels := coraTrainLabels(t)
	grid := []float64{0.5, 0.9, 0.99}
	got, err := ChooseAlpha(context.Background(), x, labels, &labelprop.Spreading{}, grid, eval.CV{Folds: 4, Seed: 3})
	require.NoError(t, err)
	assert.Equal(t, 4, got.Folds)
	folds, err := eval.NewFolds(labels, 4, 3)
	require.NoError(t, err)
	want := manualCV(t, x, labels, grid, folds, func(a float64) *labelprop.Spreading { return &labelprop.Spreading{Alpha: a, Classes: 7} })
	assert.Equal(t, want, got.Accuracy)
	best, _ := eval.FirstBest(want)
	assert.Equal(t, grid[best], got.Alpha)
	assert.Greater(t, want[best], 0.5, "far above chance (1/7)")
}

// TestChooseAlphaKeepsSettings: the candidates are clones of the base
// model, so its float32 iterates and its stopping rule are those
// cross-validated (gssl labelprop --float32 without a split used to
// cross-validate in float64 with the residual rule, and only the final fit
// in float32). The loose label rule makes the difference visible in the
// accuracies.
func TestChooseAlphaKeepsSettings(t *testing.T) {
	x, labels := coraTrainLabels(t)
	base := &labelprop.Spreading{Float32: true, Stop: labelprop.StopLabels, LabelPatience: 1, LabelTol: 0.5, Tol: 2e-5, MaxIter: 500, Ordering: labelprop.ReverseCuthillMcKee}
	grid := []float64{0.5, 0.9, 0.99}
	for i, c := range labelprop.AlphaCandidates(base, grid) {
		want := *base
		want.Alpha = grid[i]
		assert.Equal(t, want, *c, "candidate %d is the base with its a", i)
	}
	got, err := ChooseAlpha(context.Background(), x, labels, base, grid, eval.CV{Folds: 4, Seed: 3})
	require.NoError(t, err)
	folds, err := eval.NewFolds(labels, 4, 3)
	require.NoError(t, err)
	want := manualCV(t, x, labels, grid, folds, func(a float64) *labelprop.Spreading {
		return &labelprop.Spreading{Alpha: a, Classes: 7, Float32: true, Stop: labelprop.StopLabels, LabelPatience: 1, LabelTol: 0.5, Tol: 2e-5, MaxIter: 500, Ordering: labelprop.ReverseCuthillMcKee}
	})
	assert.Equal(t, want, got.Accuracy)
	converged := manualCV(t, x, labels, grid, folds, func(a float64) *labelprop.Spreading { return &labelprop.Spreading{Alpha: a, Classes: 7} })
	assert.NotEqual(t, converged, got.Accuracy, "the fixture must tell the two settings apart")
}

func TestChooseAlphaErrors(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	x := estimator.Nodes{Graph: ds.Graph}
	_, err = ChooseAlpha(context.Background(), x, []int{0, 1}, &labelprop.Spreading{}, nil, eval.CV{})
	assert.ErrorContains(t, err, "2 labels for a graph of 2708 nodes")
	labels := make([]int, ds.Graph.Nodes())
	for i := range labels {
		labels[i] = -1
	}
	labels[0], labels[1] = 0, 1
	_, err = ChooseAlpha(context.Background(), x, labels, &labelprop.Spreading{}, nil, eval.CV{})
	assert.ErrorContains(t, err, "a class with at least 2 labelled items")
}

// ChooseAlpha's cross-validation reports each fit of a value on a fold to
// CV.Progress: values × folds calls, the last one (total, total).
func TestChooseAlphaProgress(t *testing.T) {
	x, labels := coraTrainLabels(t)
	grid := []float64{0.5, 0.9}
	var done []int
	total := 0
	c, err := ChooseAlpha(context.Background(), x, labels, &labelprop.Spreading{}, grid, eval.CV{Folds: 3, Seed: 1, Progress: func(d, n int) { done, total = append(done, d), n }})
	require.NoError(t, err)
	assert.Equal(t, 3, c.Folds)
	assert.Equal(t, len(grid)*c.Folds, total)
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6}, done)
}
