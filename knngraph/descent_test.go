package knngraph

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// recall is |approx ∩ exact|/k averaged over rows, counting an approximate
// neighbour at distance ≤ the exact k-th distance as correct (ties), as
// shared/bench/peers/knn.py does.
func recall(approx, exact *Neighbors) float64 {
	hits := 0
	for i := 0; i < exact.N; i++ {
		_, ed := exact.Row(i)
		_, ad := approx.Row(i)
		for _, d := range ad {
			if d <= ed[len(ed)-1] {
				hits++
			}
		}
	}
	return float64(hits) / float64(exact.N*exact.K)
}

func TestApproximateRecallMNIST(t *testing.T) {
	const n, k = 5000, 10
	x := readImages(t, "mnist", n, 784)
	exact, err := Exact(context.Background(), x, k, nil)
	require.NoError(t, err)
	iters := 0
	approx, err := Approximate(context.Background(), x, k, &Descent{Seed: 1, Progress: func(it, u int) { iters = it; t.Logf("iteration %d: %d updates", it, u) }})
	require.NoError(t, err)
	r := recall(approx, exact)
	t.Logf("recall@%d = %.4f after %d iterations", k, r, iters)
	require.GreaterOrEqual(t, r, 0.95)
}
