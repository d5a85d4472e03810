package eval

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFirstBest(t *testing.T) {
	i, err := FirstBest([]float64{0.5, 0.7, 0.7, 0.6})
	require.NoError(t, err)
	assert.Equal(t, 1, i, "the first of equal scores wins")
	i, err = FirstBest([]float64{-1})
	require.NoError(t, err)
	assert.Equal(t, 0, i)
	_, err = FirstBest(nil)
	assert.ErrorContains(t, err, "no score")
	_, err = FirstBest([]float64{1, math.NaN()})
	assert.ErrorContains(t, err, "score 1 is NaN")
}

func TestGridSearch(t *testing.T) {
	ctx := context.Background()
	// The validation accuracies of lp.py on Cora (Planetoid split) for
	// a = 0.5 … 0.99: 0.95 is chosen.
	val := map[float64]float64{0.5: 0.658, 0.7: 0.672, 0.8: 0.692, 0.9: 0.694, 0.95: 0.706, 0.99: 0.686}
	grid := []float64{0.5, 0.7, 0.8, 0.9, 0.95, 0.99}
	var order []float64
	best, scores, err := GridSearch(ctx, grid, func(_ context.Context, a float64) (float64, error) {
		order = append(order, a)
		return val[a], nil
	})
	require.NoError(t, err)
	assert.Equal(t, 4, best)
	assert.Equal(t, grid, order, "values are tried in grid order")
	assert.Equal(t, []float64{0.658, 0.672, 0.692, 0.694, 0.706, 0.686}, scores)

	// Ties: PubMed's 0.8 and 0.99 both score 0.708; the earlier one wins.
	best, _, err = GridSearch(ctx, []string{"x", "y", "z"}, func(_ context.Context, s string) (float64, error) {
		return map[string]float64{"x": 0.708, "y": 0.7, "z": 0.708}[s], nil
	})
	require.NoError(t, err)
	assert.Equal(t, 0, best)

	boom := errors.New("boom")
	_, _, err = GridSearch(ctx, grid, func(_ context.Context, a float64) (float64, error) {
		if a == 0.8 {
			return 0, boom
		}
		return 1, nil
	})
	assert.ErrorIs(t, err, boom)
	assert.ErrorContains(t, err, "grid value 2 (0.8)")
	_, _, err = GridSearch(ctx, grid, func(context.Context, float64) (float64, error) { return math.NaN(), nil })
	assert.ErrorContains(t, err, "grid value 0 (0.5) scored NaN")
	_, _, err = GridSearch(ctx, []int{}, func(context.Context, int) (float64, error) { return 0, nil })
	assert.ErrorContains(t, err, "empty grid")

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = GridSearch(cctx, grid, func(context.Context, float64) (float64, error) { return 0, nil })
	assert.ErrorIs(t, err, context.Canceled)
}

func TestSummarizeAndRunSeeds(t *testing.T) {
	// numpy: np.mean([0.70, 0.72, 0.71, 0.69]) = 0.705, np.std(...) = 0.01118034.
	s := Summarize([]float64{0.70, 0.72, 0.71, 0.69})
	assert.InDelta(t, 0.705, s.Mean, tol)
	assert.InDelta(t, 0.011180339887498959, s.Std, tol)
	assert.Equal(t, 4, s.N)
	assert.Equal(t, "0.7050 ± 0.0112 (4 runs)", s.String())
	assert.Equal(t, "0.7000", Summarize([]float64{0.7}).String())
	assert.Equal(t, []uint64{0, 1, 2}, Seeds(3))
	assert.Empty(t, Seeds(0))

	var finished []int
	out, err := RunSeeds(context.Background(), []uint64{3, 1, 4}, func(_ context.Context, seed uint64) (uint64, error) {
		return seed * 10, nil
	}, func(k int) { finished = append(finished, k) })
	require.NoError(t, err)
	assert.Equal(t, []uint64{30, 10, 40}, out)
	assert.Equal(t, []int{1, 2, 3}, finished)

	boom := errors.New("boom")
	ints, err := RunSeeds(context.Background(), Seeds(5), func(_ context.Context, seed uint64) (int, error) {
		if seed == 2 {
			return 0, boom
		}
		return int(seed), nil
	}, nil)
	assert.ErrorIs(t, err, boom)
	assert.ErrorContains(t, err, "seed 2")
	assert.Equal(t, []int{0, 1}, ints)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = RunSeeds(ctx, Seeds(2), func(context.Context, uint64) (int, error) { return 0, nil }, nil)
	assert.ErrorIs(t, err, context.Canceled)
}
