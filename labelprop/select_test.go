package labelprop

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/eval"
)

// ChooseAlpha against the loop it stands for: for every a and every fold,
// fit on the other folds and count the right held-out predictions.
func TestChooseAlphaMatchesManualCV(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	nodes := ds.Split.Train // 20 labelled nodes per class
	classes := make([]int, len(nodes))
	labels := make([]int, ds.Graph.Nodes())
	for i := range labels {
		labels[i] = -1
	}
	for k, v := range nodes {
		classes[k] = ds.Labels[v]
		labels[v] = ds.Labels[v]
	}
	grid := []float64{0.5, 0.9, 0.99}
	got, err := ChooseAlpha(context.Background(), ds.Graph, nodes, classes, &Spreading{}, grid, eval.CV{Folds: 4, Seed: 3})
	require.NoError(t, err)
	assert.Equal(t, 4, got.Folds)

	folds, err := eval.NewFolds(labels, 4, 3)
	require.NoError(t, err)
	var want []float64
	for _, a := range grid {
		right, total := 0, 0
		for f := 0; f < 4; f++ {
			train, test := folds.Split(f)
			tc := make([]int, len(train))
			for k, v := range train {
				tc[k] = labels[v]
			}
			m := &Spreading{Alpha: a, Classes: 7}
			require.NoError(t, m.FitIndexed(context.Background(), ds.Graph, train, tc))
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
	assert.Equal(t, want, got.Accuracy)
	best, _ := eval.FirstBest(want)
	assert.Equal(t, grid[best], got.Alpha)
	assert.Greater(t, want[best], 0.5, "far above chance (1/7)")
}

func TestChooseAlphaErrors(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	_, err = ChooseAlpha(context.Background(), ds.Graph, []int{0, 1}, []int{0}, &Spreading{}, nil, eval.CV{})
	assert.ErrorContains(t, err, "2 labelled nodes but 1 classes")
	_, err = ChooseAlpha(context.Background(), ds.Graph, []int{0, 1}, []int{0, 1}, &Spreading{}, nil, eval.CV{})
	assert.ErrorContains(t, err, "a class with at least 2 labelled items")
}

// ChooseOnSplit on Cora's Planetoid split gives lp.py's choice and figures
// (shared/bench/peers/lp.py, line lp-zhou: a = 0.95, val 0.706, test 0.718).
func TestChooseOnSplitCora(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	c, err := ChooseOnSplit(context.Background(), ds.Graph, ds.Labels, ds.Classes, *ds.Split, AlphaGrid(), func(a float64) Classifier {
		return &Spreading{Alpha: a, Classes: ds.Classes}
	})
	require.NoError(t, err)
	assert.Equal(t, 0.95, AlphaGrid()[c.Best])
	assert.Equal(t, []float64{0.658, 0.672, 0.692, 0.694, 0.706, 0.686}, c.GridVal)
	assert.Equal(t, 0.718, c.Test)
	assert.Equal(t, 0.706, c.Val)

	noVal := *ds.Split
	noVal.Val = nil
	_, err = ChooseOnSplit(context.Background(), ds.Graph, ds.Labels, ds.Classes, noVal, AlphaGrid(), func(a float64) Classifier { return &Spreading{Alpha: a} })
	assert.ErrorContains(t, err, "needs validation nodes")
}
