package knngraph

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestRecall: the exact graph against itself is 1; a brute-force count of
// the shared neighbours gives NN-descent's recall when no distance ties.
func TestRecall(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	x := mat.NewDense(400, 6, nil)
	for i := 0; i < 400; i++ {
		for j := 0; j < 6; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	ex, err := Exact(context.Background(), x, 8, &Settings{Precision: Float64})
	require.NoError(t, err)
	r, err := Recall(ex, ex)
	require.NoError(t, err)
	require.Equal(t, 1.0, r)
	ap, err := Approximate(context.Background(), x, 8, &Descent{Seed: 1, MaxIterations: 1, Trees: -1})
	require.NoError(t, err)
	r, err = Recall(ap, ex)
	require.NoError(t, err)
	shared := 0
	for i := 0; i < 400; i++ {
		a, _ := ap.Row(i)
		e, _ := ex.Row(i)
		in := map[int32]bool{}
		for _, j := range e {
			in[j] = true
		}
		for _, j := range a {
			if in[j] {
				shared++
			}
		}
	}
	require.Equal(t, float64(shared)/(400*8), r)
	require.Less(t, r, 1.0, "one iteration from random lists is not exact")
	_, err = Recall(ap, &Neighbors{N: 400, K: 5})
	require.ErrorContains(t, err, "they must be the same rows and K")
}
