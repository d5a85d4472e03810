package eval

import (
	"context"
	"slices"
	"strings"
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

// With Order the folds are a function of the items' order, not of their
// numbering: renumbering the items and dealing them in the same order (by
// their ids, say) gives every item the same fold.
func TestFoldsOrderInvariance(t *testing.T) {
	labels := []int{0, 1, 0, 1, 2, 2, 0, 1, 2, 0, -1, 1}
	ids := []string{"k", "b", "x", "a", "q", "m", "c", "z", "d", "e", "f", "g"}
	byID := func(ids []string) []int {
		order := make([]int, len(ids))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(ids[a], ids[b]) })
		return order
	}
	f, err := CV{Folds: 3, Seed: 9, Order: byID(ids)}.NewFolds(labels)
	require.NoError(t, err)
	perm := []int{5, 3, 11, 0, 1, 10, 2, 4, 9, 8, 7, 6} // item i becomes perm[i]
	labels2, ids2 := make([]int, len(labels)), make([]string, len(ids))
	for i, p := range perm {
		labels2[p], ids2[p] = labels[i], ids[i]
	}
	g, err := CV{Folds: 3, Seed: 9, Order: byID(ids2)}.NewFolds(labels2)
	require.NoError(t, err)
	for i, p := range perm {
		assert.Equal(t, f.fold[i], g.fold[p], "item %s", ids[i])
	}
	plain, err := NewFolds(labels, 3, 9)
	require.NoError(t, err)
	std, err := StratifiedFolds(labels, 3, 9)
	require.NoError(t, err)
	assert.Equal(t, std, plain.fold, "index order: StratifiedFolds's assignment")
	_, err = CV{Folds: 3, Order: []int{0, 0, 1}}.NewFolds(labels)
	assert.ErrorContains(t, err, "twice")
}

// CV.Progress is carried by the folds and called after every fit of a
// value on a fold, counting up to values × folds, in order.
func TestCrossValidateProgress(t *testing.T) {
	labels := []int{0, 1, 0, 1, 0, 1, 0, 1, -1}
	var calls [][2]int
	f, err := CV{Folds: 3, Seed: 1, Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }}.NewFolds(labels)
	require.NoError(t, err)
	fits := 0
	_, _, err = CrossValidate(context.Background(), []int{1, 2}, f, func(_ context.Context, v int, train, test []int) (int, int, error) {
		fits++
		assert.Len(t, calls, fits-1, "called after the fit, not before")
		return 1, len(test), nil
	})
	require.NoError(t, err)
	want := make([][2]int, 2*f.K)
	for i := range want {
		want[i] = [2]int{i + 1, 2 * f.K}
	}
	assert.Equal(t, want, calls)
	assert.Equal(t, fits, len(calls))
}
