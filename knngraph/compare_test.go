package knngraph

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestComparison: the exact search has recall 1; each NN-descent run's
// recall is the fraction of its neighbours among the brute-force K nearest
// (no distance ties in Gaussian points), and more iterations do not lose
// recall on this easy set.
func TestComparison(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, d, k = 300, 5, 6
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	var seen []Compared
	c := Comparison{K: k, Limits: []int{1, 8}, Seed: 3, Settings: &Settings{Precision: Float64}, Progress: func(r Compared) { seen = append(seen, r) }}
	got, err := c.Run(context.Background(), x)
	require.NoError(t, err)
	require.Len(t, got, 3)
	require.Equal(t, got, seen)
	require.Equal(t, "exact", got[0].Label())
	require.Equal(t, 1.0, got[0].Recall)
	for i, it := range c.Limits {
		r := got[i+1]
		require.Equal(t, "nn-descent, ≤ "+map[int]string{1: "1", 8: "8"}[it]+" iterations", r.Label())
		require.LessOrEqual(t, r.Ran, it)
		ap, err := Approximate(context.Background(), x, k, &Descent{Seed: 3, MaxIterations: it})
		require.NoError(t, err)
		hits := 0
		for q := range n {
			want, _ := bruteForce(x, x.RawRowView(q), q, k)
			in := map[int32]bool{}
			for _, j := range want {
				in[j] = true
			}
			nb, _ := ap.Row(q)
			for _, j := range nb {
				if in[j] {
					hits++
				}
			}
		}
		require.Equal(t, float64(hits)/float64(n*k), r.Recall, "limit %d", it)
	}
	require.GreaterOrEqual(t, got[2].Recall, got[1].Recall)
	_, err = Comparison{K: k, Limits: []int{0}}.Run(context.Background(), x)
	require.ErrorContains(t, err, "Comparison.Limits value 0 is invalid")
	_, err = Comparison{K: k}.Run(context.Background(), x)
	require.ErrorContains(t, err, "Comparison.Limits is empty")
}
