package protocol

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/stkr"
)

// coraTrainTask is Cora with only its 140 Planetoid training labels known.
func coraTrainTask(t *testing.T) Task {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	labels := make([]int, ds.Graph.Nodes())
	for i := range labels {
		labels[i] = -1
	}
	for _, v := range ds.Split.Train {
		labels[v] = ds.Labels[v]
	}
	return Task{Graph: ds.Graph, Labels: labels, Classes: ds.Classes}
}

// ChooseSTKRCV against a direct loop: fit each candidate on each fold's
// training nodes, predict every node and count the held-out ones right.
func TestChooseCVMatchesManualLoop(t *testing.T) {
	task := coraTrainTask(t)
	cands := func() []*stkr.Classifier {
		return []*stkr.Classifier{
			{Regressor: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 0.1}},
			{Regressor: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.99}, Beta: 1}},
			{Regressor: stkr.Regressor{Transform: stkr.Power(2), Beta: 1}},
		}
	}
	got, err := ChooseSTKRCV(context.Background(), task, eval.CV{Folds: 3, Seed: 5}, cands())
	require.NoError(t, err)
	assert.Equal(t, 3, got.Folds)

	folds, err := eval.NewFolds(task.Labels, 3, 5)
	require.NoError(t, err)
	k, err := stkr.NewGraphKernel(task.Graph)
	require.NoError(t, err)
	var want []float64
	for _, r := range cands() {
		right, total := 0, 0
		for f := 0; f < 3; f++ {
			train, test := folds.Split(f)
			y := mat.NewDense(len(train), task.Classes, nil)
			for t, v := range train {
				y.Set(t, task.Labels[v], 1)
			}
			require.NoError(t, r.FitIndexed(context.Background(), k, train, y))
			pred := mustPredict(t, r)
			count := make([]int, task.Classes)
			prior := 0
			for _, v := range train {
				count[task.Labels[v]]++
			}
			for c := range count {
				if count[c] > count[prior] {
					prior = c
				}
			}
			for _, v := range test {
				total++
				// an all-zero row gets the most frequent training class
				p := eval.Argmax(pred.RawRowView(v), task.Classes)[0]
				if mat.Norm(pred.RowView(v), math.Inf(1)) == 0 {
					p = prior
				}
				if p == task.Labels[v] {
					right++
				}
			}
		}
		want = append(want, float64(right)/float64(total))
	}
	assert.InDeltaSlice(t, want, got.Accuracy, 1e-12)
	best, _ := eval.FirstBest(want)
	assert.Equal(t, best, got.Best)

	// The final fit: every node predicted, probabilities summing to 1.
	n, c := got.Probabilities.Dims()
	assert.Equal(t, task.Graph.Nodes(), n)
	assert.Equal(t, task.Classes, c)
	for i := 0; i < n; i++ {
		assert.InDelta(t, 1, mat.Sum(got.Probabilities.RowView(i)), 1e-12)
	}
	right := 0
	ds, _ := datasets.Cora()
	for _, v := range ds.Split.Test {
		if got.Labels[v] == ds.Labels[v] {
			right++
		}
	}
	assert.Greater(t, float64(right)/1000, 0.6, "Planetoid test accuracy from 140 labels")
}

// Any number of labels per class works: a class with one labelled node is
// trained on in every fold.
func TestChooseCVFewLabels(t *testing.T) {
	task := coraTrainTask(t)
	seen := map[int]int{}
	for i, l := range task.Labels {
		if l < 0 {
			continue
		}
		seen[l]++
		if (l == 6 && seen[l] > 1) || (l != 6 && seen[l] > 3) {
			task.Labels[i] = -1
		}
	}
	got, err := ChooseSTKRCV(context.Background(), task, eval.CV{Seed: 1}, []*stkr.Classifier{{Regressor: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 1}}})
	require.NoError(t, err)
	assert.Equal(t, 3, got.Folds, "the smallest class with two labels has three")
	assert.False(t, math.IsNaN(got.Accuracy[0]))
}

// ChooseSTKRSplit: one partition, or one per chunk whose test nodes together
// are the split's; the counts add up over the chunks.
func TestChooseSplit(t *testing.T) {
	ds, err := datasets.Cora()
	require.NoError(t, err)
	task := Task{Graph: ds.Graph, Labels: ds.Labels, Classes: ds.Classes}
	cands := func() []*stkr.Classifier {
		return []*stkr.Classifier{{Regressor: stkr.Regressor{Transform: stkr.Power(2), Beta: 1}}}
	}
	fits := 0
	one, err := ChooseSTKRSplit(context.Background(), task, *ds.Split, Transductive, 0.01, false, 3, cands, func(n int) { fits += n })
	require.NoError(t, err)
	assert.Len(t, one.Partitions, 1)
	assert.Equal(t, 27, one.TestScored) // round(0.01·2708)
	assert.Equal(t, 1, fits)
	all, err := ChooseSTKRSplit(context.Background(), task, *ds.Split, Transductive, 0.3, true, 3, cands, nil)
	require.NoError(t, err)
	assert.Len(t, all.Partitions, 2) // chunks of 812: 812 + 188
	assert.Equal(t, 1000, all.TestScored)
	whole, err := ChooseSTKRSplit(context.Background(), task, *ds.Split, Transductive, 0, false, 3, cands, nil)
	require.NoError(t, err)
	assert.Equal(t, whole.TestCorrect, all.TestCorrect, "transductive: every chunk's fit is the same fit")
	assert.Greater(t, whole.TestAccuracy(), 0.4, "chance is 1/7")
}

// With no class of two labels a single candidate is fitted without
// cross-validation; several are an error wrapping eval.ErrTooFewLabels.
func TestChooseCVNoFolds(t *testing.T) {
	task := coraTrainTask(t)
	seen := map[int]bool{}
	for i, l := range task.Labels {
		if l >= 0 && seen[l] {
			task.Labels[i] = -1
		}
		if l >= 0 {
			seen[l] = true
		}
	}
	one := []*stkr.Classifier{{Regressor: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 1}}}
	c, err := ChooseSTKRCV(context.Background(), task, eval.CV{}, one)
	require.NoError(t, err)
	assert.Equal(t, 0, c.Folds)
	assert.True(t, math.IsNaN(c.Accuracy[0]))
	assert.Len(t, c.Labels, task.Graph.Nodes())
	_, err = ChooseSTKRCV(context.Background(), task, eval.CV{}, append(one, cls(&stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.5}, Beta: 1})))
	assert.ErrorIs(t, err, eval.ErrTooFewLabels)
}

// ChooseSTKRCV reports each candidate's fit on each fold to CV.Progress.
func TestChooseSTKRCVProgress(t *testing.T) {
	task := coraTrainTask(t)
	var cands []*stkr.Classifier
	for _, beta := range []float64{1, 10} {
		cands = append(cands, &stkr.Classifier{Regressor: stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: beta}})
	}
	calls, total := 0, 0
	c, err := ChooseSTKRCV(context.Background(), task, eval.CV{Folds: 3, Seed: 1, Progress: func(d, n int) {
		calls++
		assert.Equal(t, calls, d)
		total = n
	}}, cands)
	require.NoError(t, err)
	assert.Equal(t, 3*len(cands), total)
	assert.Equal(t, c.Folds*len(cands), calls)
}
