package knngraph

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRankQuantiles checks the distances by rank against a brute-force
// search over every pair, and the quantiles against the sorted values.
func TestRankQuantiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d, k = 41, 3, 4
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	nb := &Neighbors{N: n, K: k, Index: make([]int32, n*k), Dist2: make([]float64, n*k)}
	want := make([][]float64, k) // want[r][i]: distance of i to its (r+1)-th neighbour
	for r := range want {
		want[r] = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		var ds []float64
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			s := 0.0
			for c := 0; c < d; c++ {
				v := x[i*d+c] - x[j*d+c]
				s += v * v
			}
			ds = append(ds, s)
		}
		slices.Sort(ds)
		for r := 0; r < k; r++ {
			nb.Dist2[i*k+r] = ds[r]
			want[r][i] = math.Sqrt(ds[r])
		}
	}
	for r := 1; r <= k; r++ {
		got, err := nb.RankDistances(r)
		require.NoError(t, err)
		require.Equal(t, want[r-1], got)
	}
	q, err := nb.RankQuantiles([]float64{0, 0.5, 1})
	require.NoError(t, err)
	for r := 0; r < k; r++ {
		s := slices.Sorted(slices.Values(want[r]))
		require.Equal(t, []float64{s[0], s[20], s[40]}, []float64{q[0][r], q[1][r], q[2][r]})
	}
	_, err = nb.RankDistances(0)
	require.ErrorContains(t, err, "rank 0 is invalid")
	_, err = nb.RankQuantiles([]float64{1.5})
	require.ErrorContains(t, err, "quantile 1.5 is invalid")
}
