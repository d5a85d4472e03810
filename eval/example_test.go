package eval_test

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/eval"
)

// Choosing a hyperparameter on validation nodes: every value is scored in
// grid order and the first of equal best scores wins.
func ExampleGridSearch() {
	// Validation accuracy of some model for each value (a stand-in for a fit).
	valAccuracy := map[float64]float64{0.5: 0.66, 0.9: 0.70, 0.95: 0.70, 0.99: 0.68}
	grid := []float64{0.5, 0.9, 0.95, 0.99}
	best, scores, err := eval.GridSearch(context.Background(), grid, func(_ context.Context, a float64) (float64, error) {
		return valAccuracy[a], nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("scores:", scores)
	fmt.Println("chosen:", grid[best])
	// Output:
	// scores: [0.66 0.7 0.7 0.68]
	// chosen: 0.9
}

// Repeating an experiment over seeds and summarising a metric.
func ExampleRunSeeds() {
	acc, err := eval.RunSeeds(context.Background(), eval.Seeds(4), func(_ context.Context, seed uint64) (float64, error) {
		return 0.70 + 0.01*float64(seed), nil // a stand-in for "fit on split `seed`, score on test"
	}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(eval.Summarize(acc))
	// Output:
	// 0.7150 ± 0.0112 (4 runs)
}
