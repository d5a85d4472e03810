package knngraph

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Comparison measures NN-descent against the exact search on the same
// points: the exact search (timed, unless Exact is given) and NN-descent
// stopped after each of Limits iterations, each with its time and its
// recall@K against the exact neighbours (Recall, ties counted as found).
type Comparison struct {
	K      int   // neighbours per point
	Limits []int // NN-descent iteration limits, each in [1, MaxComparedIterations]
	Seed   uint64
	// Exact, when not nil, are the exact neighbours already found, in
	// ExactSeconds; otherwise Run searches with Settings.
	Exact        *Neighbors
	ExactSeconds float64
	Settings     *Settings
	// Progress, when not nil, sees each search once it is measured.
	Progress func(Compared)
}

// MaxComparedIterations bounds a Comparison's iteration limits.
const MaxComparedIterations = 100000

// Compared is one search of a Comparison.
type Compared struct {
	Method     string  `json:"method"`               // exact or nn-descent
	Iterations int     `json:"iterations,omitempty"` // NN-descent: the limit given
	Ran        int     `json:"iterations_run,omitempty"`
	Seconds    float64 `json:"seconds"`
	Recall     float64 `json:"recall"`
}

// Label names the search in a table: "exact" or "nn-descent, ≤ N iterations".
func (c Compared) Label() string {
	if c.Method == "exact" {
		return "exact"
	}
	return fmt.Sprintf("nn-descent, ≤ %d iterations", c.Iterations)
}

// Validate checks the limits, naming the first invalid one.
func (c Comparison) Validate() error {
	if len(c.Limits) == 0 {
		return fmt.Errorf("knngraph: Comparison.Limits is empty: give NN-descent iteration limits, e.g. 1,2,4,8")
	}
	for _, it := range c.Limits {
		if it < 1 || it > MaxComparedIterations {
			return fmt.Errorf("knngraph: Comparison.Limits value %d is invalid: it must be in [1, %d]", it, MaxComparedIterations)
		}
	}
	return nil
}

// Run carries out the comparison on the rows of x: the exact search first
// (recall 1), then one NN-descent run per limit, in the order given.
func (c Comparison) Run(ctx context.Context, x *mat.Dense) ([]Compared, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	exact, secs := c.Exact, c.ExactSeconds
	if exact == nil {
		start := time.Now()
		var err error
		if exact, err = Exact(ctx, x, c.K, c.Settings); err != nil {
			return nil, fmt.Errorf("knngraph: the exact search: %w", err)
		}
		secs = time.Since(start).Seconds()
	}
	out := []Compared{{Method: "exact", Seconds: secs, Recall: 1}}
	c.progress(out[0])
	for _, it := range c.Limits {
		r := Compared{Method: "nn-descent", Iterations: it}
		start := time.Now()
		ap, err := Approximate(ctx, x, c.K, &Descent{Seed: c.Seed, MaxIterations: it, Progress: func(i, _ int) { r.Ran = i }})
		if err != nil {
			return nil, fmt.Errorf("knngraph: NN-descent, %d iterations: %w", it, err)
		}
		r.Seconds = time.Since(start).Seconds()
		if r.Recall, err = Recall(ap, exact); err != nil {
			return nil, err
		}
		c.progress(r)
		out = append(out, r)
	}
	return out, nil
}

func (c Comparison) progress(r Compared) {
	if c.Progress != nil {
		c.Progress(r)
	}
}
