package eval

import (
	"context"
	"fmt"
)

// Summary is a metric over repeated runs: mean, population standard
// deviation (ddof 0, numpy's default) and the number of runs.
type Summary struct {
	Mean, Std float64
	N         int
}

// Summarize returns the Summary of xs (NaN mean and std when xs is empty).
func Summarize(xs []float64) Summary {
	m, s := MeanStd(xs)
	return Summary{Mean: m, Std: s, N: len(xs)}
}

// String prints "mean ± std (N runs)", or just the value for one run.
func (s Summary) String() string {
	if s.N == 1 {
		return fmt.Sprintf("%.4f", s.Mean)
	}
	return fmt.Sprintf("%.4f ± %.4f (%d runs)", s.Mean, s.Std, s.N)
}

// Seeds returns the seeds 0, 1, …, n−1.
func Seeds(n int) []uint64 {
	out := make([]uint64, max(n, 0))
	for i := range out {
		out[i] = uint64(i)
	}
	return out
}

// RunSeeds calls run once per seed, in order, and returns the results in the
// same order. ctx is checked before each run; done, when set, is called with
// the number of finished runs after each (to drive a progress bar). The first
// error stops the loop and is returned naming the seed, with the results so
// far.
func RunSeeds[R any](ctx context.Context, seeds []uint64, run func(ctx context.Context, seed uint64) (R, error), done func(finished int)) ([]R, error) {
	out := make([]R, 0, len(seeds))
	for k, s := range seeds {
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("eval: stopped before seed %d: %w", s, err)
		}
		r, err := run(ctx, s)
		if err != nil {
			return out, fmt.Errorf("eval: seed %d: %w", s, err)
		}
		out = append(out, r)
		if done != nil {
			done(k + 1)
		}
	}
	return out, nil
}

// SeedRange returns the n seeds first, first+1, …, first+n−1.
func SeedRange[T ~int | ~uint64](first T, n int) []T {
	out := make([]T, max(n, 0))
	for i := range out {
		out[i] = first + T(i)
	}
	return out
}
