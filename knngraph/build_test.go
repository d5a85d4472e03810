package knngraph

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// denseTol is the agreement required between the sparse construction and the
// dense reference: both evaluate the same exponentials and sums of at most
// n = 40 terms, so they differ by a few ulps.
const denseTol = 1e-13

// denseReference builds S_K, Ã, D̃ and A of IMGP eq. 7 densely from brute
// force neighbour lists.
func denseReference(x *mat.Dense, k int, alpha float64, mutual bool) (at, a *mat.Dense, dt []float64) {
	n, _ := x.Dims()
	knn := make([]map[int]bool, n)
	for i := 0; i < n; i++ {
		idx, _ := bruteForce(x, x.RawRowView(i), i, k)
		knn[i] = map[int]bool{}
		for _, j := range idx {
			knn[i][int(j)] = true
		}
	}
	at = mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s := knn[i][j] || knn[j][i]
			if mutual {
				s = knn[i][j] && knn[j][i]
			}
			if i == j {
				at.Set(i, j, 1)
			} else if s {
				d2 := SquaredDistance(x.RawRowView(i), x.RawRowView(j))
				at.Set(i, j, math.Exp(-d2/(4*alpha*alpha)))
			}
		}
	}
	dt = make([]float64, n)
	for i := range dt {
		dt[i] = mat.Sum(at.RowView(i))
	}
	a = mat.NewDense(n, n, nil)
	a.Apply(func(i, j int, v float64) float64 { return v / (dt[i] * dt[j]) }, at)
	return at, a, dt
}

func requireDenseEqual(t *testing.T, want, got *mat.Dense, tol float64, what string) {
	t.Helper()
	n, _ := want.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			require.InDelta(t, want.At(i, j), got.At(i, j), tol, "%s[%d,%d]", what, i, j)
		}
	}
}

func TestWeightsMatchDenseReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := randomPoints(rng, 40, 3, 0)
	const k = 4
	nb, err := Exact(context.Background(), x, k, nil)
	require.NoError(t, err)
	for _, rule := range []Rule{Or, Mutual} {
		g, err := NewGraph(nb, rule)
		require.NoError(t, err)
		alpha := g.DefaultAlpha()
		w, err := g.Weights(alpha)
		require.NoError(t, err)
		at, a, dt := denseReference(x, k, alpha, rule == Mutual)
		requireDenseEqual(t, at, w.Tilde.Dense(), denseTol, rule.String()+" Ã")
		requireDenseEqual(t, a, w.A.Dense(), denseTol, rule.String()+" A")
		require.InDeltaSlice(t, dt, w.DTilde, denseTol)
		for i := range dt {
			require.InDelta(t, mat.Sum(a.RowView(i)), w.D[i], denseTol)
		}
	}
}

// TestExtensionOnNodeReproducesRowOfA is ALGORITHMS.md §2's check: with the
// node's own graph row as its neighbourhood, the out-of-sample weights of a
// graph node equal its row of A, and D(x), D̃(x) equal D_ii, D̃_ii.
func TestExtensionOnNodeReproducesRowOfA(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := randomPoints(rng, 60, 4, 0)
	nb, err := Exact(context.Background(), x, 5, nil)
	require.NoError(t, err)
	g, err := NewGraph(nb, Or)
	require.NoError(t, err)
	w, err := g.Weights(0.8 * g.DefaultAlpha())
	require.NoError(t, err)
	for i := 0; i < 60; i++ {
		e, err := w.Extend(g.NodeNeighbourhood(i))
		require.NoError(t, err)
		cols, avals := w.A.Row(i)
		require.Equal(t, cols, e.Index)
		require.InDeltaSlice(t, avals, e.A, denseTol, "node %d", i)
		require.InDelta(t, w.DTilde[i], e.DTilde, denseTol)
		require.InDelta(t, w.D[i], e.D, denseTol)
	}
}

// TestExtensionOfNewPoints checks Query + Extend against the formulas of
// IMGP eq. 9–10 evaluated directly from brute-force neighbours.
func TestExtensionOfNewPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x := randomPoints(rng, 50, 3, 0)
	q := randomPoints(rng, 7, 3, 0)
	const k = 6
	nb, err := Exact(context.Background(), x, k, nil)
	require.NoError(t, err)
	g, err := NewGraph(nb, Or)
	require.NoError(t, err)
	alpha := g.DefaultAlpha()
	w, err := g.Weights(alpha)
	require.NoError(t, err)
	qn, err := Query(context.Background(), x, q, k, nil)
	require.NoError(t, err)
	ext, err := w.ExtendAll(qn)
	require.NoError(t, err)
	_, _, dt := denseReference(x, k, alpha, false)
	for i, e := range ext {
		idx, d2 := bruteForce(x, q.RawRowView(i), -1, k)
		require.Equal(t, idx, e.Index)
		var sumT, sumA, meanD float64
		for p := range idx {
			v := math.Exp(-d2[p] / (4 * alpha * alpha))
			require.InDelta(t, v, e.Tilde[p], denseTol)
			sumT += v
			meanD += math.Sqrt(d2[p]) / k
		}
		for p, j := range idx {
			av := e.Tilde[p] / (sumT * dt[j])
			require.InDelta(t, av, e.A[p], denseTol)
			sumA += av
		}
		require.InDelta(t, sumT, e.DTilde, denseTol)
		require.InDelta(t, sumA, e.D, denseTol)
		require.InDelta(t, meanD, e.MeanDistance, denseTol)
	}
}

// fdTol: central differences with step h = 1e-5·α have truncation error
// O(h²) ≈ 1e-10 relative and rounding error ≈ 1e-16/h ≈ 1e-11.
const fdTol = 1e-7

func TestAffinityDerivativeFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	x := randomPoints(rng, 30, 2, 0)
	nb, err := Exact(context.Background(), x, 3, nil)
	require.NoError(t, err)
	g, err := NewGraph(nb, Or)
	require.NoError(t, err)
	alpha := g.DefaultAlpha()
	h := 1e-5 * alpha
	dA, err := g.AffinityDerivative(alpha)
	require.NoError(t, err)
	ap, _ := g.Affinity(alpha + h)
	am, _ := g.Affinity(alpha - h)
	fd := mat.NewDense(30, 30, nil)
	fd.Sub(ap.Dense(), am.Dense())
	fd.Scale(1/(2*h), fd)
	requireDenseEqual(t, fd, dA.Dense(), fdTol, "∂Ã/∂α")
}

func TestDefaultBandwidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	x := randomPoints(rng, 41, 3, 0)
	nb, err := Exact(context.Background(), x, 5, nil)
	require.NoError(t, err)
	g, err := NewGraph(nb, Or)
	require.NoError(t, err)
	var kth []float64
	for i := 0; i < 41; i++ {
		_, d2 := bruteForce(x, x.RawRowView(i), i, 5)
		kth = append(kth, math.Sqrt(d2[4]))
	}
	sort.Float64s(kth)
	require.Equal(t, kth[20], g.MedianKth())
	require.InDelta(t, kth[20]/math.Sqrt2, g.DefaultAlpha(), 1e-15)
	// exp(−d²/(4α²)) with α = GaussianAlpha(σ) is exp(−d²/(2σ²)).
	sigma := 1.7
	a := GaussianAlpha(sigma)
	require.InDelta(t, math.Exp(-2.5/(2*sigma*sigma)), math.Exp(-2.5/(4*a*a)), 1e-15)
}

// TestDuplicatePoints: a duplicate is a neighbour at distance 0, stored as an
// explicit zero distance, whose weight is exp(0) = 1.
func TestDuplicatePoints(t *testing.T) {
	x, err := FromRows([][]float64{{0, 0}, {1, 0}, {0, 0}, {5, 5}, {0, 0}, {1, 0.5}})
	require.NoError(t, err)
	for _, search := range []func() (*Neighbors, error){
		func() (*Neighbors, error) { return Exact(context.Background(), x, 2, nil) },
		func() (*Neighbors, error) { return Approximate(context.Background(), x, 2, &Descent{Seed: 3}) },
	} {
		nb, err := search()
		require.NoError(t, err)
		idx, d2 := nb.Row(0)
		require.Equal(t, []int32{2, 4}, idx) // both duplicates, by index
		require.Equal(t, []float64{0, 0}, d2)
		g, err := NewGraph(nb, Or)
		require.NoError(t, err)
		require.True(t, g.Dist2.HasEdge(0, 2))
		require.Equal(t, 0.0, g.Dist2.Weight(0, 2))
		w, err := g.Weights(1)
		require.NoError(t, err)
		require.Equal(t, 1.0, w.Tilde.Weight(0, 2))
		require.Equal(t, 1.0, w.Tilde.Weight(3, 3)) // self loop
	}
	// Every point duplicated: the default bandwidth is still usable.
	y, _ := FromRows([][]float64{{1}, {1}, {1}})
	nb, err := Exact(context.Background(), y, 2, nil)
	require.NoError(t, err)
	g, err := NewGraph(nb, Or)
	require.NoError(t, err)
	require.Equal(t, 1.0, g.DefaultAlpha())
}

func TestApproximateDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	x := randomPoints(rng, 3000, 8, 0)
	run := func(procs int) *Neighbors {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		nb, err := Approximate(context.Background(), x, 7, &Descent{Seed: 42})
		require.NoError(t, err)
		return nb
	}
	a, b, c := run(2), run(2), run(1)
	require.Equal(t, a.Index, b.Index)
	require.Equal(t, a.Index, c.Index)
	require.Equal(t, a.Dist2, c.Dist2)
	exact, err := Exact(context.Background(), x, 7, nil)
	require.NoError(t, err)
	require.GreaterOrEqual(t, recall(a, exact), 0.95)
	// Rows are sorted by exact distance, ties by index.
	for i := 0; i < a.N; i++ {
		idx, d2 := a.Row(i)
		for p := 1; p < len(idx); p++ {
			require.True(t, less(d2[p-1], idx[p-1], d2[p], idx[p]))
		}
		for p, j := range idx {
			require.Equal(t, SquaredDistance(x.RawRowView(i), x.RawRowView(int(j))), d2[p])
		}
	}
}

// TestApproximateSmallAndDegenerate: with few points every list holds all
// other points, so NN-descent is exact; identical points do not break the
// random-projection trees.
func TestApproximateSmallAndDegenerate(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{2, 3, 7, 40} {
		x := randomPoints(newRand(uint64(n)), n, 3, 0)
		ap, err := Approximate(ctx, x, n-1, &Descent{Seed: 5})
		require.NoError(t, err)
		ex, err := Exact(ctx, x, n-1, nil)
		require.NoError(t, err)
		require.Equal(t, ex.Index, ap.Index, "n=%d", n)
		require.Equal(t, ex.Dist2, ap.Dist2, "n=%d", n)
	}
	same := mat.NewDense(200, 4, nil) // 200 copies of the origin
	ap, err := Approximate(ctx, same, 5, &Descent{Seed: 5, LeafSize: 8})
	require.NoError(t, err)
	for i := 0; i < 200; i++ {
		idx, d2 := ap.Row(i)
		require.Equal(t, []float64{0, 0, 0, 0, 0}, d2)
		require.NotContains(t, idx, int32(i))
	}
}
