package eval

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// ErrTooFewLabels is returned (wrapped) by NewFolds when no class has two
// labelled items, so that nothing can be held out.
var ErrTooFewLabels = errors.New("eval: cross-validation needs a class with at least 2 labelled items")

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
	// Progress, when set, is called by CrossValidate after each fit with
	// the fits done and to do; CV.NewFolds sets it to CV.Progress.
	Progress func(done, total int)
}

// CV says how to cross-validate: Folds folds (0 means DefaultFolds) drawn
// with Seed. Order, when set, lists the items in the order in which they are
// dealt into folds (NewFolds), each labelled item once; sorting them by the user's ids makes the folds,
// and so every choice made on them, independent of how a reader numbered
// the items. nil means index order.
// Progress, when set, observes the fits: CrossValidate over the folds
// calls it after each fit of a value on a fold with the number of fits
// done and the number it will do (values × folds).
type CV struct {
	Folds    int
	Seed     uint64
	Order    []int
	Progress func(done, total int)
}

// NewFolds returns the folds of cv over labels (see NewFolds); they carry
// cv.Progress.
func (cv CV) NewFolds(labels []int) (*Folds, error) {
	f, err := newFolds(labels, cv.Folds, cv.Seed, cv.Order)
	if f != nil {
		f.Progress = cv.Progress
	}
	return f, err
}

// NewFolds assigns the labelled items of labels (negative = unknown) to
// min(k, smallest class of ≥ 2 items) stratified folds, seeded (see
// StratifiedFolds). k 0 means DefaultFolds. It fails when k is 1 or negative,
// or when no class has two labelled items (nothing can be held out).
func NewFolds(labels []int, k int, seed uint64) (*Folds, error) {
	return newFolds(labels, k, seed, nil)
}

func newFolds(labels []int, k int, seed uint64, order []int) (*Folds, error) {
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
		return nil, fmt.Errorf("%w; every class has at most 1", ErrTooFewLabels)
	}
	k = min(k, smallest)
	f := &Folds{K: k}
	if order == nil {
		order = make([]int, len(labels))
		for i := range order {
			order[i] = i
		}
	}
	// Class by class, in the given order, items are shuffled and dealt
	// round-robin, as StratifiedFolds does; single-label classes are kept
	// out of the folds.
	byClass := make([][]int, len(counts))
	for _, i := range order {
		if i < 0 || i >= len(labels) {
			return nil, fmt.Errorf("eval: folds: order names item %d, outside [0, %d)", i, len(labels))
		}
		if l := labels[i]; l >= 0 {
			if counts[l] < 2 {
				f.always = append(f.always, i)
			} else {
				byClass[l] = append(byClass[l], i)
			}
		}
	}
	slices.Sort(f.always)
	f.fold = make([]int, len(labels))
	for i := range f.fold {
		f.fold[i] = -1
	}
	rng := newRand(seed)
	next := 0
	for _, items := range byClass {
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		for _, it := range items {
			if f.fold[it] != -1 {
				return nil, fmt.Errorf("eval: folds: order lists item %d twice", it)
			}
			f.fold[it] = next
			next = (next + 1) % k
		}
	}
	listed := len(f.always)
	for _, items := range byClass {
		listed += len(items)
	}
	labelled := 0
	for _, c := range counts {
		labelled += c
	}
	if listed != labelled {
		return nil, fmt.Errorf("eval: folds: order lists %d labelled items, want each of the %d once", listed, labelled)
	}
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
// search and is returned naming the value and the fold. folds.Progress, when
// set, is called after each fit.
func CrossValidate[T any](ctx context.Context, grid []T, folds *Folds, score func(ctx context.Context, v T, train, test []int) (correct, scored int, err error)) (best int, accuracy []float64, err error) {
	done := 0
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
			if done++; folds.Progress != nil {
				folds.Progress(done, len(grid)*folds.K)
			}
		}
		if total == 0 {
			return 0, fmt.Errorf("no held-out item was scored")
		}
		return float64(right) / float64(total), nil
	})
}
