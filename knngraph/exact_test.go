package knngraph

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// bruteForce is the reference: every distance by SquaredDistance, sorted by
// (distance, index), self excluded when self is true.
func bruteForce(base *mat.Dense, q []float64, exclude int, k int) ([]int32, []float64) {
	n, _ := base.Dims()
	h := newMaxHeap(k)
	for j := 0; j < n; j++ {
		if j == exclude {
			continue
		}
		d := SquaredDistance(q, base.RawRowView(j))
		if !h.full() || less(d, int32(j), h.dist[0], h.idx[0]) {
			h.push(d, int32(j))
		}
	}
	sortPairs(h.dist, h.idx)
	return h.idx, h.dist
}

func randomPoints(rng *rand.Rand, n, d int, levels int) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for t := 0; t < d; t++ {
			if levels > 0 {
				x.Set(i, t, float64(rng.IntN(levels)))
			} else {
				x.Set(i, t, rng.NormFloat64())
			}
		}
	}
	return x
}

func TestExactEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []struct {
		name       string
		n, d, k    int
		levels     int // >0: integer coordinates in [0, levels), many ties
		candidates int
	}{
		{"gaussian", 301, 13, 7, 0, 0},
		{"integer ties", 257, 5, 10, 3, 0},
		{"few candidates", 200, 4, 5, 2, 5},
		{"k = n-1", 40, 3, 39, 0, 0},
		{"d = 1", 100, 1, 4, 7, 0},
	}
	for _, c := range cases {
		for _, prec := range []Precision{Float32, Float64} {
			x := randomPoints(rng, c.n, c.d, c.levels)
			nb, err := Exact(context.Background(), x, c.k, &Settings{Precision: prec, Candidates: c.candidates})
			require.NoError(t, err)
			for i := 0; i < c.n; i++ {
				wi, wd := bruteForce(x, x.RawRowView(i), i, c.k)
				gi, gd := nb.Row(i)
				require.Equal(t, wi, gi, "%s %v: row %d indices", c.name, prec, i)
				require.Equal(t, wd, gd, "%s %v: row %d distances", c.name, prec, i)
			}
		}
	}
}

// TestExactMNISTGroundTruth checks the exact graph of the first 10 000 MNIST
// images (raw pixel values, so squared distances are integers) against the
// 1000 sampled rows saved by shared/bench/peers/knn.py: same indices in the
// same order (ties by smaller index) and the same integer distances.
func TestExactMNISTGroundTruth(t *testing.T) {
	const n, k = 10000, 10
	x := readImages(t, "mnist", n, 784)
	gt := readGroundTruth(t, "knn_exact_mnist_N10000_k10.txt")
	require.Len(t, gt, 1000)
	rows := make([]int, len(gt))
	for i, g := range gt {
		rows[i] = g.query
	}
	nb, err := ExactRows(context.Background(), x, rows, k, nil)
	require.NoError(t, err)
	for i, g := range gt {
		idx, d2 := nb.Row(i)
		require.Equal(t, g.index, idx, "query %d", g.query)
		require.Equal(t, g.dist2, d2, "query %d", g.query)
	}
}
