package knngraph

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// naiveNeighbours sorts every other point by (squared distance, index): an
// O(n² log n) reference that shares no code with the searches.
func naiveNeighbours(base *mat.Dense, q []float64, exclude, k int) ([]int, []float64) {
	n, d := base.Dims()
	type pair struct {
		d float64
		j int
	}
	all := make([]pair, 0, n)
	for j := 0; j < n; j++ {
		if j == exclude {
			continue
		}
		s := 0.0
		for t := 0; t < d; t++ {
			v := q[t] - base.At(j, t)
			s += v * v
		}
		all = append(all, pair{s, j})
	}
	sort.Slice(all, func(a, b int) bool { return all[a].d < all[b].d || (all[a].d == all[b].d && all[a].j < all[b].j) })
	idx, d2 := make([]int, k), make([]float64, k)
	for p := 0; p < k; p++ {
		idx[p], d2[p] = all[p].j, all[p].d
	}
	return idx, d2
}

// weightTol bounds the difference between the sparse weights and the dense
// reference: the same exponentials of distances summed in another order
// (a few ulps of squared distances of order 10).
const weightTol = 1e-12

// TestWeighEqualsBruteForce checks every kernel's graph, exact and by
// NN-descent, against a dense reference built from sorted distances.
func TestWeighEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, dim, k := 60, 3, 8
	x := randomPoints(rng, n, dim, 0)
	nbr := make([][]int, n)
	dist := make([][]float64, n)
	in := make([]map[int]bool, n)
	for i := 0; i < n; i++ {
		nbr[i], dist[i] = naiveNeighbours(x, x.RawRowView(i), i, k)
		in[i] = map[int]bool{}
		for _, j := range nbr[i] {
			in[i][j] = true
		}
	}
	d2 := func(i, j int) float64 { return SquaredDistance(x.RawRowView(i), x.RawRowView(j)) }
	sig := make([]float64, n)
	for i := range sig {
		sig[i] = math.Sqrt(dist[i][LocalScaleNeighbor-1])
	}
	search := map[string]func() (*Neighbors, error){
		"exact":      func() (*Neighbors, error) { return Exact(context.Background(), x, k, nil) },
		"nn-descent": func() (*Neighbors, error) { return Approximate(context.Background(), x, k, &Descent{Seed: 1}) },
	}
	for name, run := range search {
		nb, err := run()
		require.NoError(t, err)
		g, err := NewGraph(nb, Or)
		require.NoError(t, err)
		for _, c := range []struct {
			kernel Kernel
			sigma  float64
			ref    func(i, j int) float64
		}{
			{Connectivity, 0, func(i, j int) float64 { return 1 }},
			{Gaussian, 0.7, func(i, j int) float64 { return math.Exp(-d2(i, j) / (2 * 0.7 * 0.7)) }},
			{Gaussian, 0, func(i, j int) float64 { return math.Exp(-d2(i, j) / (sig[i] * sig[j])) }},
		} {
			w, err := g.Weigh(c.kernel, c.sigma)
			require.NoError(t, err)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					want := 0.0
					if i != j && (in[i][j] || in[j][i]) {
						want = c.ref(i, j)
					}
					require.InDelta(t, want, w.W.Weight(i, j), weightTol, "%s %s σ=%g: W[%d,%d]", name, c.kernel, c.sigma, i, j)
				}
			}
		}
		// IMGP: A = D̃^{-1} Ã D̃^{-1} with self loops, σ the median K-th distance.
		w, err := g.Weigh(IMGP, 0)
		require.NoError(t, err)
		kth := make([]float64, n)
		for i := range kth {
			kth[i] = math.Sqrt(dist[i][k-1])
		}
		sort.Float64s(kth)
		require.Equal(t, kth[(n-1)/2], w.Sigma)
		at := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if i == j {
					at.Set(i, j, 1)
				} else if in[i][j] || in[j][i] {
					at.Set(i, j, math.Exp(-d2(i, j)/(2*w.Sigma*w.Sigma)))
				}
			}
		}
		dt := make([]float64, n)
		for i := range dt {
			dt[i] = mat.Sum(at.RowView(i))
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				require.InDelta(t, at.At(i, j)/(dt[i]*dt[j]), w.W.Weight(i, j), weightTol, "%s imgp: A[%d,%d]", name, i, j)
			}
		}
	}
}

// TestWeightedExtend checks the weights of new points to their K nearest
// nodes against the kernels evaluated directly.
func TestWeightedExtend(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n, dim, k := 50, 2, 9
	x := randomPoints(rng, n, dim, 0)
	q := randomPoints(rng, 7, dim, 0)
	nb, err := Exact(context.Background(), x, k, nil)
	require.NoError(t, err)
	g, err := NewGraph(nb, Or)
	require.NoError(t, err)
	qn, err := Query(context.Background(), x, q, k, nil)
	require.NoError(t, err)
	for _, c := range []struct {
		kernel Kernel
		sigma  float64
	}{{Connectivity, 0}, {Gaussian, 0.5}, {Gaussian, 0}, {IMGP, 0}} {
		w, err := g.Weigh(c.kernel, c.sigma)
		require.NoError(t, err)
		for r := 0; r < 7; r++ {
			idx, d2 := qn.Row(r)
			ref, refD2 := naiveNeighbours(x, q.RawRowView(r), -1, k)
			for p := range idx {
				require.Equal(t, ref[p], int(idx[p]))
				require.InDelta(t, refD2[p], d2[p], 1e-12)
			}
			got, err := w.Extend(idx, d2)
			require.NoError(t, err)
			var sum float64
			for p := range idx {
				sum += math.Exp(-refD2[p] / (2 * w.Sigma * w.Sigma))
			}
			for p, j := range ref {
				var want float64
				switch {
				case c.kernel == Connectivity:
					want = 1
				case c.kernel == Gaussian && c.sigma > 0:
					want = math.Exp(-refD2[p] / (2 * c.sigma * c.sigma))
				case c.kernel == Gaussian:
					sx := math.Sqrt(refD2[LocalScaleNeighbor-1])
					want = math.Exp(-refD2[p] / (sx * w.Scale[j]))
				default:
					want = math.Exp(-refD2[p]/(2*w.Sigma*w.Sigma)) / (sum * w.Scale[j])
				}
				require.InDelta(t, want, got[p], weightTol, "%s σ=%g point %d neighbour %d", c.kernel, c.sigma, r, j)
			}
		}
	}
}

func TestWeighRefusesUnderflow(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{0, 1, 100, 101})
	nb, err := Exact(context.Background(), x, 1, nil)
	require.NoError(t, err)
	g, err := NewGraph(nb, Or)
	require.NoError(t, err)
	_, err = g.Weigh(Gaussian, 1e-3)
	require.ErrorContains(t, err, "underflows")
	_, err = g.Weigh(Connectivity, 2)
	require.ErrorContains(t, err, "no bandwidth")
	_, err = g.Weigh(Gaussian, math.NaN())
	require.ErrorContains(t, err, "invalid")
}
