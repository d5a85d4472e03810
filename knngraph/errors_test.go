package knngraph

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	x, err := FromRows([][]float64{{0, 0}, {1, 0}, {0, 1}, {1, 1}})
	require.NoError(t, err)

	_, err = FromRows([][]float64{{0, 0}, {1, 0, 2}})
	require.ErrorContains(t, err, "point 1 has 3 coordinates, point 0 has 2")
	_, err = FromRows([][]float64{{0, 0}, {1, math.NaN()}})
	require.ErrorContains(t, err, "point 1, coordinate 1 is NaN")
	_, err = FromRows(nil)
	require.ErrorContains(t, err, "no points")

	nan := mat.NewDense(3, 2, []float64{0, 0, 1, 1, math.Inf(1), 2})
	_, err = Exact(ctx, nan, 1, nil)
	require.ErrorContains(t, err, "point 2, coordinate 0 is +Inf")
	_, err = Approximate(ctx, nan, 1, nil)
	require.ErrorContains(t, err, "point 2, coordinate 0 is +Inf")

	for _, k := range []int{0, -1} {
		_, err = Exact(ctx, x, k, nil)
		require.ErrorContains(t, err, "must be at least 1")
		_, err = Approximate(ctx, x, k, nil)
		require.ErrorContains(t, err, "must be at least 1")
	}
	for _, k := range []int{4, 5} {
		_, err = Exact(ctx, x, k, nil)
		require.ErrorContains(t, err, "k must be at most n − 1 = 3")
		_, err = Approximate(ctx, x, k, nil)
		require.ErrorContains(t, err, "k must be at most n − 1 = 3")
	}
	_, err = ExactRows(ctx, x, []int{0, 4}, 1, nil)
	require.ErrorContains(t, err, "rows[1] = 4 is out of range [0, 4)")

	q := mat.NewDense(1, 3, []float64{0, 0, 0})
	_, err = Query(ctx, x, q, 1, nil)
	require.ErrorContains(t, err, "queries have 3 coordinates, base points have 2")
	q2 := mat.NewDense(1, 2, []float64{0, math.NaN()})
	_, err = Query(ctx, x, q2, 1, nil)
	require.ErrorContains(t, err, "query 0, coordinate 1 is NaN")
	_, err = Query(ctx, x, mat.NewDense(1, 2, nil), 5, nil)
	require.ErrorContains(t, err, "it must be at most 4")

	_, err = Exact(ctx, x, 1, &Settings{Precision: 7})
	require.ErrorContains(t, err, "Settings.Precision = 7")
	_, err = Exact(ctx, x, 1, &Settings{Candidates: -2})
	require.ErrorContains(t, err, "Settings.Candidates = -2")
	for _, s := range []Descent{{ListSize: -1}, {Sample: 1.5}, {Sample: math.NaN()}, {MaxIterations: -1}, {Delta: 1}, {LeafSize: -3}} {
		_, err = Approximate(ctx, x, 1, &s)
		require.ErrorContains(t, err, "Descent.")
	}

	px := []uint8{0, 0, 1, 0, 0, 1, 1, 1}
	for _, c := range []struct {
		b    []uint8
		d, k int
		msg  string
	}{{px, 0, 1, "8 bytes do not make points of 0 coordinates"}, {px, 3, 1, "8 bytes do not make points of 3"}, {nil, 2, 1, "0 bytes"},
		{px, 2, 4, "k must be at most n − 1 = 3"}, {px, 2, 0, "must be at least 1"}} {
		_, err = ApproximateBytes(ctx, c.b, c.d, c.k, nil)
		require.ErrorContains(t, err, c.msg)
	}
	_, err = ApproximateBytes(ctx, px, 2, 1, &Descent{Sample: 2})
	require.ErrorContains(t, err, "Descent.Sample")

	nb, err := Exact(ctx, x, 2, nil)
	require.NoError(t, err)
	g, err := NewGraph(nb, Or)
	require.NoError(t, err)
	for _, a := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		_, err = g.Weights(a)
		require.ErrorContains(t, err, "bandwidth α")
	}
	_, err = NewGraph(nb, Rule(9))
	require.ErrorContains(t, err, "unknown rule 9")
	bad := &Neighbors{N: 2, K: 1, Index: []int32{1, 1}, Dist2: []float64{1, 1}}
	_, err = NewGraph(bad, Or)
	require.ErrorContains(t, err, "row 1 lists neighbour 1")

	w, err := g.Weights(0.01)
	require.NoError(t, err)
	_, err = w.Extend([]int32{0}, []float64{1e6})
	require.ErrorContains(t, err, "underflows to 0")
	_, err = w.Extend([]int32{9}, []float64{1})
	require.ErrorContains(t, err, "neighbour 9 is not a graph node")
	_, err = w.Extend([]int32{0}, []float64{-1})
	require.ErrorContains(t, err, "squared distance -1")
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := mat.NewDense(100, 2, nil)
	_, err := Exact(ctx, x, 3, nil)
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
	_, err = Approximate(ctx, x, 3, nil)
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
	_, err = ApproximateBytes(ctx, make([]uint8, 200), 2, 3, nil)
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
}

func TestRescanPathExact(t *testing.T) {
	// With as many candidates as neighbours and heavy ties, the float32
	// candidates cannot be certified: rows are recomputed, still exactly.
	x := randomPoints(newRand(17), 300, 4, 2)
	nb, err := Exact(context.Background(), x, 6, &Settings{Candidates: 6})
	require.NoError(t, err)
	require.Positive(t, nb.Rescanned)
	for i := 0; i < 300; i++ {
		wi, wd := bruteForce(x, x.RawRowView(i), i, 6)
		gi, gd := nb.Row(i)
		require.Equal(t, wi, gi)
		require.Equal(t, wd, gd)
	}
}
