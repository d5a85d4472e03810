package eval

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNestedCVSelectsOnInnerFoldsOnly(t *testing.T) {
	labels := make([]int, 60)
	for i := range labels {
		labels[i] = i % 3
	}
	outer, err := StratifiedFolds(labels, 5, 7)
	require.NoError(t, err)
	var mu sync.Mutex
	calls := map[int]int{}
	cv := NestedCV{
		Candidates: 4,
		Score: func(_ context.Context, c int, train, test []int) (float64, error) {
			// Train and test are disjoint; a call that sees a whole outer
			// fold as test is the refit, and must come from the chosen one.
			for _, i := range test {
				if slices.Contains(train, i) {
					return 0, errors.New("train and test overlap")
				}
			}
			mu.Lock()
			calls[c]++
			mu.Unlock()
			// Candidate 2 scores best on every inner fold; 1 and 3 tie below.
			return []float64{0.1, 0.5, 0.9, 0.5}[c], nil
		},
	}
	res, err := cv.Run(context.Background(), labels, outer, 3)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 2, 2, 2, 2}, res.Chosen)
	assert.InDelta(t, 0.9, res.Mean, 1e-15)
	// 5 outer folds × 3 inner folds for every candidate, plus 5 refits of 2.
	assert.Equal(t, map[int]int{0: 15, 1: 15, 2: 20, 3: 15}, calls)
}

func TestNestedCVTiesGoToTheFirstCandidate(t *testing.T) {
	labels := []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}
	outer, err := StratifiedFolds(labels, 2, 1)
	require.NoError(t, err)
	cv := NestedCV{InnerFolds: 2, Candidates: 3, Score: func(_ context.Context, c int, _, test []int) (float64, error) {
		// Inner scores equal for 1 and 2; the outer score reveals the choice.
		return []float64{0.2, 0.7, 0.7}[c], nil
	}}
	res, err := cv.Run(context.Background(), labels, outer, 0)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 1}, res.Chosen)
}

func TestNestedCVInnerFoldsPartitionTheOuterTraining(t *testing.T) {
	labels := make([]int, 40)
	for i := range labels {
		labels[i] = i % 2
	}
	outer, err := StratifiedFolds(labels, 4, 2)
	require.NoError(t, err)
	var mu sync.Mutex
	var seen [][]int // train ∪ test of every inner call
	cv := NestedCV{Candidates: 1, Score: func(_ context.Context, _ int, train, test []int) (float64, error) {
		mu.Lock()
		defer mu.Unlock()
		all := append(slices.Clone(train), test...)
		slices.Sort(all)
		if len(all) == 30 { // an inner call: 3 of the 4 outer folds of 10
			seen = append(seen, all)
		}
		return 1, nil
	}}
	_, err = cv.Run(context.Background(), labels, outer, 5)
	require.NoError(t, err)
	assert.Len(t, seen, 4*3, "4 outer folds × 3 inner folds")
	for _, all := range seen {
		// Every inner call sees exactly the items of three outer folds.
		folds := map[int]int{}
		for _, i := range all {
			folds[outer[i]]++
		}
		assert.Len(t, folds, 3)
	}
}

func TestNestedCVBadInput(t *testing.T) {
	ok := func(context.Context, int, []int, []int) (float64, error) { return 1, nil }
	labels := []int{0, 1, 0, 1}
	for _, c := range []struct {
		cv    NestedCV
		outer []int
		msg   string
	}{
		{NestedCV{Score: ok}, []int{0, 1, 0, 1}, "Candidates=0 is invalid"},
		{NestedCV{Candidates: 1}, []int{0, 1, 0, 1}, "no Score function"},
		{NestedCV{Candidates: 1, Score: ok, InnerFolds: 1}, []int{0, 1, 0, 1}, "InnerFolds=1 is invalid"},
		{NestedCV{Candidates: 1, Score: ok}, []int{0, 1, 0}, "3 fold ids for 4 labels"},
		{NestedCV{Candidates: 1, Score: ok}, []int{0, 0, 0, 0}, "has 1 folds"},
		{NestedCV{Candidates: 1, Score: ok}, []int{0, -2, 1, 1}, "fold id -2 of item 1"},
		{NestedCV{Candidates: 1, Score: ok}, []int{0, 1, 0, 1}, "k=3 must be in [2, 2]"},
	} {
		_, err := c.cv.Run(context.Background(), labels, c.outer, 0)
		require.ErrorContains(t, err, c.msg)
	}
	failing := NestedCV{Candidates: 1, Score: func(context.Context, int, []int, []int) (float64, error) {
		return 0, errors.New("boom")
	}}
	_, err := failing.Run(context.Background(), []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}, []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}, 0)
	require.ErrorContains(t, err, "candidate 0, inner fold 0: boom")
}
