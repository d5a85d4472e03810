package eval_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/eval"
)

// Nested cross-validation picks, on the inner folds of every outer
// training set, the candidate with the best mean score; here a toy scorer
// where candidate 1 is best.
func ExampleNestedCV() {
	labels := make([]int, 30)
	for i := range labels {
		labels[i] = i % 2
	}
	outer, err := eval.StratifiedFolds(labels, 5, 0)
	if err != nil {
		panic(err)
	}
	cv := eval.NestedCV{
		Candidates: 3,
		Score: func(_ context.Context, c int, train, test []int) (float64, error) {
			return []float64{0.6, 0.8, 0.7}[c], nil
		},
	}
	res, err := cv.Run(context.Background(), labels, outer, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Chosen, res.Mean)
	// Output: [1 1 1 1 1] 0.8
}
