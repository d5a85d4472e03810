package eval

import (
	"context"
	"fmt"
	"sync"

	"github.com/gssl/gssl/internal/parallel"
)

// NestedCV is nested cross-validation for model selection: for every outer
// fold, each candidate setting (a C, a kernel height, …) is scored by
// stratified k-fold cross-validation on the outer training items, the one
// with the best mean inner score is refitted on all of them and scored on
// the outer test fold. Outer folds run in parallel.
type NestedCV struct {
	// InnerFolds is the number of inner folds; 0 means 3.
	InnerFolds int
	// Candidates is the number of candidate settings, numbered 0..Candidates−1.
	Candidates int
	// Score fits candidate c on the items train and returns its score
	// (higher is better; accuracy, say) on the items test. It is called
	// concurrently from several goroutines.
	Score func(ctx context.Context, candidate int, train, test []int) (float64, error)
	// Progress, when set, is called after each outer fold with the number
	// of folds done and their total.
	Progress func(done, total int)
}

// NestedResult is the outcome of one nested cross-validation.
type NestedResult struct {
	Scores []float64 // outer test score of every fold
	Chosen []int     // candidate chosen on the inner folds of every fold
	Mean   float64   // mean of Scores
}

// Run evaluates on items with labels (used for stratification), outer fold
// assignment outer (fold ids 0..k−1, −1 for items left out; see
// StratifiedFolds) and seed for the inner folds. The chosen candidate is
// the one with the best mean inner score, the lowest index on ties
// (FirstBest, as scikit-learn's GridSearchCV).
func (cv NestedCV) Run(ctx context.Context, labels, outer []int, seed uint64) (NestedResult, error) {
	if cv.Candidates < 1 {
		return NestedResult{}, fmt.Errorf("eval: nested CV: Candidates=%d is invalid: it must be ≥ 1", cv.Candidates)
	}
	if cv.Score == nil {
		return NestedResult{}, fmt.Errorf("eval: nested CV: no Score function")
	}
	inner := cv.InnerFolds
	if inner == 0 {
		inner = 3
	}
	if inner < 2 {
		return NestedResult{}, fmt.Errorf("eval: nested CV: InnerFolds=%d is invalid: it must be ≥ 2 (0 means 3)", cv.InnerFolds)
	}
	if len(outer) != len(labels) {
		return NestedResult{}, fmt.Errorf("eval: nested CV: %d fold ids for %d labels", len(outer), len(labels))
	}
	k := 0
	for i, f := range outer {
		if f < -1 || f >= len(labels) {
			// More folds than items cannot all be non-empty: refuse rather
			// than allocate for a fold id from a file.
			return NestedResult{}, fmt.Errorf("eval: nested CV: fold id %d of item %d is invalid: it must be in [−1, %d)", f, i, len(labels))
		}
		k = max(k, f+1)
	}
	if k < 2 {
		return NestedResult{}, fmt.Errorf("eval: nested CV: the outer assignment has %d folds; it needs at least 2", k)
	}
	size := make([]int, k)
	for _, f := range outer {
		if f >= 0 {
			size[f]++
		}
	}
	for f, c := range size {
		if c == 0 {
			return NestedResult{}, fmt.Errorf("eval: nested CV: fold %d has no item: the folds must be numbered 0..%d without gaps", f, k-1)
		}
	}
	res := NestedResult{Scores: make([]float64, k), Chosen: make([]int, k)}
	errs := make([]error, k)
	var mu sync.Mutex
	done := 0
	parallel.For(k, 1, func(lo, hi int) {
		for f := lo; f < hi; f++ {
			if ctx.Err() != nil {
				return
			}
			res.Chosen[f], res.Scores[f], errs[f] = cv.fold(ctx, labels, outer, f, inner, seed)
			if errs[f] != nil {
				return
			}
			if cv.Progress != nil {
				mu.Lock()
				done++
				cv.Progress(done, k)
				mu.Unlock()
			}
		}
	})
	for f, err := range errs {
		if err != nil {
			return NestedResult{}, fmt.Errorf("eval: nested CV outer fold %d: %w", f, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return NestedResult{}, err
	}
	res.Mean, _ = MeanStd(res.Scores)
	return res, nil
}

// fold selects a candidate on the inner folds of outer fold f and scores it.
func (cv NestedCV) fold(ctx context.Context, labels, outer []int, f, inner int, seed uint64) (int, float64, error) {
	train, test := FoldSplit(outer, f)
	if len(test) == 0 {
		return 0, 0, fmt.Errorf("no test items")
	}
	sub := make([]int, len(train))
	for p, i := range train {
		sub[p] = labels[i]
	}
	innerFold, err := StratifiedFolds(sub, inner, seed)
	if err != nil {
		return 0, 0, err
	}
	means := make([]float64, cv.Candidates)
	for c := range means {
		var sum float64
		for g := 0; g < inner; g++ {
			itr, ite := FoldSplit(innerFold, g)
			s, err := cv.Score(ctx, c, pick(train, itr), pick(train, ite))
			if err != nil {
				return 0, 0, fmt.Errorf("candidate %d, inner fold %d: %w", c, g, err)
			}
			sum += s
		}
		means[c] = sum / float64(inner)
	}
	best, err := FirstBest(means)
	if err != nil {
		return 0, 0, err
	}
	s, err := cv.Score(ctx, best, train, test)
	if err != nil {
		return 0, 0, fmt.Errorf("candidate %d refitted: %w", best, err)
	}
	return best, s, nil
}

// pick returns items[idx[k]] for every k.
func pick(items, idx []int) []int {
	out := make([]int, len(idx))
	for k, i := range idx {
		out[k] = items[i]
	}
	return out
}
