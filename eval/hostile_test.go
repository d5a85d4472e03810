package eval

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allocatedBy returns the bytes allocated while f runs.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// hostileAlloc bounds what the hostile inputs below may allocate: a few
// slices of the 6 items, nothing sized by a label or a fold id.
const hostileAlloc = 1 << 20

func TestNestedCVFoldBounds(t *testing.T) {
	labels := []int{0, 1, 0, 1, 0, 1}
	outer := []int{0, 1, 0, 1, 1_000_000_000, 0}
	cv := NestedCV{Candidates: 1, Score: func(context.Context, int, []int, []int) (float64, error) { return 1, nil }}
	var err error
	assert.Less(t, allocatedBy(func() { _, err = cv.Run(context.Background(), labels, outer, 1) }), uint64(hostileAlloc))
	require.ErrorContains(t, err, "fold id 1000000000 of item 4 is invalid: it must be in [−1, 6)")
	_, err = cv.Run(context.Background(), labels, []int{0, 2, 0, 2, 2, 0}, 1)
	require.ErrorContains(t, err, "fold 1 has no item")
}

func TestSplitsHugeLabel(t *testing.T) {
	labels := []int{0, 2147483647, 0, 2147483647, -1, 0, 2147483647, 0}
	var err error
	assert.Less(t, allocatedBy(func() { _, err = RandomPerClass(labels, 1, 1, 1, 1) }), uint64(hostileAlloc))
	require.ErrorContains(t, err, "number the classes 0..C−1")
	var fold []int
	assert.Less(t, allocatedBy(func() { fold, err = StratifiedFolds(labels, 2, 1) }), uint64(hostileAlloc))
	require.NoError(t, err)
	// The same folds as for the labels numbered 0..C−1.
	want, err := StratifiedFolds([]int{0, 1, 0, 1, -1, 0, 1, 0}, 2, 1)
	require.NoError(t, err)
	assert.Equal(t, want, fold)
}

func TestMetricsHugeClassCount(t *testing.T) {
	pred, truth := []int{0, 1, 1, 0}, []int{0, 1, 0, 0}
	var err error
	assert.Less(t, allocatedBy(func() { _, err = MacroF1(pred, truth, nil, 1<<20) }), uint64(hostileAlloc))
	require.ErrorContains(t, err, "classes=1048576 is invalid")
	_, err = Confusion(pred, truth, nil, 1<<20)
	require.ErrorContains(t, err, "classes=1048576 is invalid")
	// The per-class counts give the confusion matrix's macro-F1:
	// class 0: tp 2, 3 true, 2 predicted; class 1: tp 1, 1 true, 2 predicted.
	f1, err := MacroF1(pred, truth, nil, 2)
	require.NoError(t, err)
	want := (2*(2.0/2)*(2.0/3)/(2.0/2+2.0/3) + 2*(1.0/2)*(1.0/1)/(1.0/2+1.0/1)) / 2
	assert.InDelta(t, want, f1, 1e-15)
}
