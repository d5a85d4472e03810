package eval

import (
	"context"
	"fmt"
	"math"
)

// FirstBest returns the index of the largest score, the first one on ties:
// grid order decides, as in the peer scripts (`if score > best`). It fails on
// an empty slice or a NaN score, naming its position.
func FirstBest(scores []float64) (int, error) {
	if len(scores) == 0 {
		return -1, fmt.Errorf("eval: no score to choose from")
	}
	best := 0
	for i, s := range scores {
		if math.IsNaN(s) {
			return -1, fmt.Errorf("eval: score %d is NaN", i)
		}
		if s > scores[best] {
			best = i
		}
	}
	return best, nil
}

// GridSearch calls score for every value of grid in order (a hyperparameter
// and its validation score, say) and returns the index of the best value by
// FirstBest's rule — the first of equal scores wins — with every score. ctx
// is checked before each value. An error from score stops the search and is
// returned naming the value.
func GridSearch[T any](ctx context.Context, grid []T, score func(ctx context.Context, v T) (float64, error)) (best int, scores []float64, err error) {
	if len(grid) == 0 {
		return -1, nil, fmt.Errorf("eval: grid search over an empty grid")
	}
	scores = make([]float64, 0, len(grid))
	for i, v := range grid {
		if err := ctx.Err(); err != nil {
			return -1, scores, fmt.Errorf("eval: grid search stopped before value %d (%v): %w", i, v, err)
		}
		s, err := score(ctx, v)
		if err != nil {
			return -1, scores, fmt.Errorf("eval: grid value %d (%v): %w", i, v, err)
		}
		if math.IsNaN(s) {
			return -1, scores, fmt.Errorf("eval: grid value %d (%v) scored NaN", i, v)
		}
		scores = append(scores, s)
	}
	best, err = FirstBest(scores)
	return best, scores, err
}
