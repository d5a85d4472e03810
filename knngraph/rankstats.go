package knngraph

import (
	"fmt"
	"math"
	"sort"
)

// RankDistances returns the Euclidean distance of every point to its
// neighbour of the given rank (1 = the nearest, K = the farthest kept).
func (nb *Neighbors) RankDistances(rank int) ([]float64, error) {
	if rank < 1 || rank > nb.K {
		return nil, fmt.Errorf("knngraph: rank %d is invalid: it must be in [1, %d]", rank, nb.K)
	}
	out := make([]float64, nb.N)
	for i := range out {
		_, d := nb.Row(i)
		out[i] = math.Sqrt(d[rank-1])
	}
	return out, nil
}

// RankQuantiles returns, for each quantile p of ps (in [0, 1]) and each
// neighbour rank r = 1..K, the p-quantile over the points of their
// Euclidean distance to their r-th neighbour: out[q][r−1]. The quantile is
// the order statistic at index ⌊p·(N−1)⌋ of the sorted distances (no
// interpolation).
func (nb *Neighbors) RankQuantiles(ps []float64) ([][]float64, error) {
	if nb.N < 1 || nb.K < 1 {
		return nil, fmt.Errorf("knngraph: RankQuantiles of %d points with %d neighbours", nb.N, nb.K)
	}
	out := make([][]float64, len(ps))
	for q, p := range ps {
		if !(p >= 0 && p <= 1) {
			return nil, fmt.Errorf("knngraph: quantile %v is invalid: it must be in [0, 1]", p)
		}
		out[q] = make([]float64, nb.K)
	}
	for r := 1; r <= nb.K; r++ {
		col, _ := nb.RankDistances(r)
		sort.Float64s(col)
		for q, p := range ps {
			out[q][r-1] = col[int(p*float64(nb.N-1))]
		}
	}
	return out, nil
}
