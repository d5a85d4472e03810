package main

import (
	"context"
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/knngraph"
)

// knnCompared is one search of gssl knn --compare: its time and its
// recall@K against the exact graph of all the points.
type knnCompared struct {
	Method     string  `json:"method"`
	Iterations int     `json:"iterations,omitempty"` // NN-descent: the limit given
	Ran        int     `json:"iterations_run,omitempty"`
	Seconds    float64 `json:"seconds"`
	Recall     float64 `json:"recall"`
}

func (c knnCompared) label() string {
	if c.Method == "exact" {
		return "exact"
	}
	return fmt.Sprintf("nn-descent, ≤ %d iterations", c.Iterations)
}

func checkCompare(opts knnOptions) error {
	if !opts.Compare {
		return nil
	}
	if len(opts.CompareIter) == 0 {
		return fmt.Errorf("knn: --compare-iterations is empty: give NN-descent iteration limits, e.g. 1,2,4,8")
	}
	for _, it := range opts.CompareIter {
		if it < 1 || it > maxIterations {
			return fmt.Errorf("knn: --compare-iterations value %d is invalid: it must be in [1, %d]", it, maxIterations)
		}
	}
	return nil
}

// knnCompare times the exact search (reusing the run's when it was exact)
// and NN-descent stopped after each iteration limit, and measures each
// one's recall against the exact graph (knngraph.Recall). x holds the raw
// pixel bytes, so distances are exact integers and ties are ties.
func knnCompare(ctx context.Context, opts knnOptions, x *mat.Dense, nb *knngraph.Neighbors, res knnResult, prec knngraph.Precision, stderr io.Writer) ([]knnCompared, error) {
	exact, secs := nb, res.Seconds
	if opts.Approx {
		start := timeNow()
		var err error
		if exact, err = knngraph.Exact(ctx, x, opts.K, &knngraph.Settings{Precision: prec}); err != nil {
			return nil, fmt.Errorf("knn: --compare: the exact search: %w", err)
		}
		secs = seconds(start)
	}
	out := []knnCompared{{Method: "exact", Seconds: secs, Recall: 1}}
	logf(stderr, "knn: --compare: exact search in %.3f s", secs)
	for _, it := range opts.CompareIter {
		ran := 0
		start := timeNow()
		ap, err := knngraph.Approximate(ctx, x, opts.K, &knngraph.Descent{Seed: opts.Seed, MaxIterations: it, Progress: func(i, _ int) { ran = i }})
		if err != nil {
			return nil, fmt.Errorf("knn: --compare: NN-descent, %d iterations: %w", it, err)
		}
		c := knnCompared{Method: "nn-descent", Iterations: it, Ran: ran, Seconds: seconds(start)}
		if c.Recall, err = knngraph.Recall(ap, exact); err != nil {
			return nil, fmt.Errorf("knn: --compare: %w", err)
		}
		logf(stderr, "knn: --compare: NN-descent, %d of at most %d iterations: %.3f s, recall %.4f", ran, it, c.Seconds, c.Recall)
		out = append(out, c)
	}
	return out, nil
}
