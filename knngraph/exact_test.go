package knngraph

import (
	"context"
	"fmt"
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

// TestExactMNISTGroundTruth checks exact neighbours among the first 10 000
// and 20 000 MNIST images (ExactRows, and the whole graph by Exact at
// 10 000; raw pixel values, so squared distances are integers) against the
// 1000 sampled rows saved by shared/bench/peers/knn.py: same indices in the
// same order (ties by smaller index) and the same integer distances.
func TestExactMNISTGroundTruth(t *testing.T) {
	const k = 10
	x := readImages(t, "mnist", 20000, 784)
	for _, n := range []int{10000, 20000} {
		gt := readGroundTruth(t, fmt.Sprintf("knn_exact_mnist_N%d_k10.txt", n))
		require.Len(t, gt, 1000)
		rows := make([]int, len(gt))
		for i, g := range gt {
			rows[i] = g.query
		}
		sub := x.Slice(0, n, 0, 784).(*mat.Dense)
		nb, err := ExactRows(context.Background(), sub, rows, k, nil)
		require.NoError(t, err)
		for i, g := range gt {
			idx, d2 := nb.Row(i)
			require.Equal(t, g.index, idx, "N=%d query %d", n, g.query)
			require.Equal(t, g.dist2, d2, "N=%d query %d", n, g.query)
		}
		if n > 10000 {
			continue // the whole graph once, on the smaller set (CI time)
		}
		all, err := Exact(context.Background(), sub, k, nil)
		require.NoError(t, err)
		for _, g := range gt {
			idx, d2 := all.Row(g.query)
			require.Equal(t, g.index, idx, "Exact, N=%d query %d", n, g.query)
			require.Equal(t, g.dist2, d2, "Exact, N=%d query %d", n, g.query)
		}
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed+1)) }

func TestIndexQueriesEqualBruteForce(t *testing.T) {
	rng := newRand(19)
	base := randomPoints(rng, 400, 9, 4) // integer coordinates: many ties
	for _, prec := range []Precision{Float32, Float64} {
		ix, err := NewIndex(base, &Settings{Precision: prec})
		require.NoError(t, err)
		require.Equal(t, 400, ix.Len())
		// Two batches at once; the second holds copies of base points, which
		// are found at distance 0.
		batches := []*mat.Dense{randomPoints(rng, 37, 9, 4), mat.DenseCopyOf(base.Slice(10, 20, 0, 9))}
		results := make([]*Neighbors, len(batches))
		errs := make([]error, len(batches))
		done := make(chan int)
		for b := range batches {
			go func() { results[b], errs[b] = ix.Query(context.Background(), batches[b], 12); done <- b }()
		}
		<-done
		<-done
		for b, q := range batches {
			require.NoError(t, errs[b])
			nq, _ := q.Dims()
			for i := 0; i < nq; i++ {
				wi, wd := bruteForce(base, q.RawRowView(i), -1, 12)
				gi, gd := results[b].Row(i)
				require.Equal(t, wi, gi, "%v batch %d query %d", prec, b, i)
				require.Equal(t, wd, gd)
				if b == 1 {
					require.Equal(t, 0.0, gd[0])
				}
			}
		}
	}
}

// TestExactExtremeScales: points far below float32's normal range, far
// above its overflow, and queries far outside the base points all give the
// brute-force answer (scaling before the float32 conversion, rescans when an
// approximate distance is not finite).
func TestExactExtremeScales(t *testing.T) {
	rng := newRand(23)
	for _, scale := range []float64{1e-42, 1e-20, 1e100} {
		x := randomPoints(rng, 120, 5, 0)
		x.Scale(scale, x)
		nb, err := Exact(context.Background(), x, 4, nil)
		require.NoError(t, err)
		for i := 0; i < 120; i++ {
			wi, wd := bruteForce(x, x.RawRowView(i), i, 4)
			gi, gd := nb.Row(i)
			require.Equal(t, wi, gi, "scale %g row %d", scale, i)
			require.Equal(t, wd, gd)
		}
	}
	base := randomPoints(rng, 90, 3, 0)
	q := mat.NewDense(2, 3, []float64{1e35, 0, 0, -3e120, 1, 2})
	nb, err := Query(context.Background(), base, q, 5, nil)
	require.NoError(t, err)
	for i := 0; i < 2; i++ {
		wi, wd := bruteForce(base, q.RawRowView(i), -1, 5)
		gi, gd := nb.Row(i)
		require.Equal(t, wi, gi)
		require.Equal(t, wd, gd)
	}
	_, err = Exact(context.Background(), mat.NewDense(3, 1, []float64{0, 1, 2e150}), 1, nil)
	require.ErrorContains(t, err, "point 2, coordinate 0 is 2e+150; coordinates must be at most 1e+150")
}

// TestExactConstantColumns: the self-join packs only the columns that vary;
// with constant columns of any value (here 0, 3.7 and 1e3) among them the
// result is still the brute-force one, bit for bit.
func TestExactConstantColumns(t *testing.T) {
	const n, d, k = 700, 12, 6
	rng := rand.New(rand.NewPCG(31, 32))
	x := randomPoints(rng, n, d, 0)
	for i := 0; i < n; i++ {
		x.Set(i, 0, 0)
		x.Set(i, 5, 3.7)
		x.Set(i, 11, 1e3)
	}
	ix := newIndex(x, Float32, true)
	require.Equal(t, []int{1, 2, 3, 4, 6, 7, 8, 9, 10}, ix.cols)
	got, err := Exact(context.Background(), x, k, nil)
	require.NoError(t, err)
	want := bruteForceAll(x, k)
	require.Equal(t, want.Index, got.Index)
	require.Equal(t, want.Dist2, got.Dist2)
}
