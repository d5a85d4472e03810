package eval

import (
	"context"
	"fmt"
)

// DefaultFolds is the number of cross-validation folds when none is asked
// for (scikit-learn's default of cross_val_score and GridSearchCV).
const DefaultFolds = 5

// Folds is a stratified k-fold assignment of the labelled items of a label
// vector, for choosing hyperparameters by cross-validation when there is no
// validation split.
//
// Every class must be in every training part, or a model trained on it cannot
// predict that class (label propagation refuses such training sets). So K is
// at most the size of the smallest class that has at least two labels, and
// the items of a class with a single label are never held out: they are in
// every training part and in no test part.
type Folds struct {
	// K is the number of folds actually used (≤ the number asked for).
	K      int
	fold   []int // per item: its fold, or −1 (unlabelled, or always trained on)
	always []int // items of single-label classes, trained on in every fold
}

// NewFolds assigns the labelled items of labels (negative = unknown) to
// min(k, smallest class of ≥ 2 items) stratified folds, seeded (see
// StratifiedFolds). k 0 means DefaultFolds. It fails when k is 1 or negative,
// or when no class has two labelled items (nothing can be held out).
func NewFolds(labels []int, k int, seed uint64) (*Folds, error) {
	if k == 0 {
		k = DefaultFolds
	}
	if k < 2 {
		return nil, fmt.Errorf("eval: folds=%d is invalid: cross-validation needs at least 2 folds (0 means %d)", k, DefaultFolds)
	}
	counts := make([]int, Classes(labels))
	for _, l := range labels {
		if l >= 0 {
			counts[l]++
		}
	}
	smallest := 0
	for _, c := range counts {
		if c >= 2 && (smallest == 0 || c < smallest) {
			smallest = c
		}
	}
	if smallest == 0 {
		return nil, fmt.Errorf("eval: cross-validation needs a class with at least 2 labelled items; every class has at most 1")
	}
	k = min(k, smallest)
	masked := make([]int, len(labels))
	f := &Folds{K: k}
	for i, l := range labels {
		masked[i] = l
		if l >= 0 && counts[l] < 2 {
			masked[i] = -1
			f.always = append(f.always, i)
		}
	}
	fold, err := StratifiedFolds(masked, k, seed)
	if err != nil {
		return nil, err
	}
	f.fold = fold
	return f, nil
}

// Split returns fold i's training items (every other fold, and the items of
// single-label classes) and its held-out items, both ascending.
func (f *Folds) Split(i int) (train, test []int) {
	train, test = FoldSplit(f.fold, i)
	if len(f.always) > 0 {
		train = mergeSorted(train, f.always)
	}
	return train, test
}

func mergeSorted(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		if j == len(b) || (i < len(a) && a[i] < b[j]) {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	return out
}

// CrossValidate scores every value of grid by cross-validation over folds:
// score fits on train with value v and returns the number of held-out items
// it predicts right and the number it scored. The score of v is the pooled
// accuracy Σ correct / Σ scored over the folds. The best value is chosen by
// FirstBest (the first in grid order on ties). An error from score stops the
// search and is returned naming the value and the fold.
func CrossValidate[T any](ctx context.Context, grid []T, folds *Folds, score func(ctx context.Context, v T, train, test []int) (correct, scored int, err error)) (best int, accuracy []float64, err error) {
	return GridSearch(ctx, grid, func(ctx context.Context, v T) (float64, error) {
		right, total := 0, 0
		for i := 0; i < folds.K; i++ {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			train, test := folds.Split(i)
			c, s, err := score(ctx, v, train, test)
			if err != nil {
				return 0, fmt.Errorf("fold %d of %d: %w", i+1, folds.K, err)
			}
			right += c
			total += s
		}
		if total == 0 {
			return 0, fmt.Errorf("no held-out item was scored")
		}
		return float64(right) / float64(total), nil
	})
}
