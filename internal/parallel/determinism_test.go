package parallel_test

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/labelprop"
)

// shifted is the SPD operator (D + I) − W of a graph, through one scaled
// product.
type shifted struct {
	g     *graph.CSR
	diag  []float64
	minus []float64
}

func (a shifted) Dim() int { return a.g.Nodes() }

func (a shifted) MulVecTo(dst, x []float64) {
	a.g.ScaledMulVecTo(dst, x, graph.Scaling{Diag: a.diag, Left: a.minus})
}

// bits returns the IEEE bits of v, so that require.Equal compares bitwise.
func bits(v []float64) []uint64 {
	out := make([]uint64, len(v))
	for i, x := range v {
		out[i] = math.Float64bits(x)
	}
	return out
}

// TestBitwiseEqualUnderGOMAXPROCS runs a vector and a block product, a CG
// solve and a label-spreading fit (Chebyshev and CG solvers) under
// GOMAXPROCS 1, 2 and 8: the results must be bitwise the same. The graph is
// large enough for every loop to be split (over 2^15 stored entries).
func TestBitwiseEqualUnderGOMAXPROCS(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	const n, m = 6000, 30000
	edges := make([]graph.Edge, m)
	for k := range edges {
		edges[k] = graph.Edge{U: rng.IntN(n), V: rng.IntN(n), W: 0.1 + rng.Float64()}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateSum, SelfLoops: graph.SelfLoopDrop})
	require.NoError(t, err)
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	xb := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < 3; j++ {
			xb.Set(i, j, rng.NormFloat64())
		}
	}
	op := shifted{g: g, diag: g.Degrees(), minus: make([]float64, n)}
	for i := range op.diag {
		op.diag[i]++
		op.minus[i] = -1
	}
	var nodes, classes []int
	for i := 0; i < n; i += 37 {
		nodes, classes = append(nodes, i), append(classes, i%3)
	}

	run := func() [][]uint64 {
		var out [][]uint64
		y := make([]float64, n)
		g.MulVecTo(y, x)
		out = append(out, bits(y))
		yb := mat.NewDense(n, 3, nil)
		g.ScaledMulBlockTo(yb, xb, graph.Scaling{Left: op.minus})
		out = append(out, bits(yb.RawMatrix().Data))
		sol := make([]float64, n)
		_, err := krylov.CG(context.Background(), op, x, sol, krylov.Settings{Tol: 1e-10})
		require.NoError(t, err)
		out = append(out, bits(sol))
		for _, s := range []labelprop.Solver{labelprop.Chebyshev, labelprop.CG} {
			sp := labelprop.Spreading{Alpha: 0.9, Solver: s}
			require.NoError(t, sp.FitIndexed(context.Background(), g, nodes, classes))
			out = append(out, bits(sp.Probabilities().RawMatrix().Data))
		}
		return out
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	want := run()
	for _, p := range []int{2, 8} {
		runtime.GOMAXPROCS(p)
		got := run()
		for k := range want {
			require.Equal(t, want[k], got[k], "GOMAXPROCS %d, result %d", p, k)
		}
	}
}
