package eval

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// NewFolds: K shrinks to the smallest class of ≥ 2 labels, every class is in
// every training part, single-label classes are never held out, unlabelled
// items are in no part, and the held-out parts cover every other labelled
// item exactly once.
func TestNewFolds(t *testing.T) {
	labels := []int{0, 0, 0, 0, 0, 0, 1, 1, 1, -1, 2, 0, 1, -1}
	f, err := NewFolds(labels, 0, 7)
	require.NoError(t, err)
	assert.Equal(t, 4, f.K, "class 1 has 4 labels: at most 4 folds")
	seen := map[int]int{}
	for k := 0; k < f.K; k++ {
		train, test := f.Split(k)
		assert.True(t, slices.IsSorted(train))
		assert.Contains(t, train, 10, "the single label of class 2 is always trained on")
		assert.NotContains(t, test, 10)
		classes := map[int]bool{}
		for _, i := range train {
			classes[labels[i]] = true
		}
		assert.Len(t, classes, 3, "fold %d trains on every class", k)
		for _, i := range test {
			seen[i]++
			assert.NotContains(t, train, i)
		}
		for _, i := range append(train, test...) {
			assert.GreaterOrEqual(t, labels[i], 0)
		}
	}
	for i, l := range labels {
		if l >= 0 && i != 10 {
			assert.Equal(t, 1, seen[i], "item %d held out once", i)
		}
	}
	again, err := NewFolds(labels, 0, 7)
	require.NoError(t, err)
	assert.Equal(t, f, again, "the same seed gives the same folds")

	_, err = NewFolds(labels, 1, 0)
	assert.ErrorContains(t, err, "folds=1 is invalid")
	_, err = NewFolds([]int{0, 1, 2, -1}, 5, 0)
	assert.ErrorContains(t, err, "a class with at least 2 labelled items")
}

// CrossValidate pools the counts over the folds and picks the first best.
func TestCrossValidate(t *testing.T) {
	labels := []int{0, 1, 0, 1, 0, 1, 0, 1}
	f, err := NewFolds(labels, 2, 1)
	require.NoError(t, err)
	// value v predicts v right out of every held-out part's items: the
	// pooled accuracy is v·(folds)/(items held out).
	best, acc, err := CrossValidate(context.Background(), []int{1, 3, 3, 2}, f, func(_ context.Context, v int, train, test []int) (int, int, error) {
		return min(v, len(test)), len(test), nil
	})
	require.NoError(t, err)
	assert.Equal(t, 1, best, "the first of equal scores")
	assert.Equal(t, []float64{2.0 / 8, 6.0 / 8, 6.0 / 8, 4.0 / 8}, acc)
}
