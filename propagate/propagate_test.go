package propagate

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/loaders"
)

// tol is the agreement expected between the operator paths and the dense
// references: a few hundred rounding errors of O(1) entries.
const tol = 1e-10

// testGraph is a weighted random graph on n nodes with one isolated node
// (the last), so that both conventions of Symmetric and GCN are exercised.
func testGraph(t *testing.T, n int, seed uint64) *graph.CSR {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var edges []graph.Edge
	for u := 0; u < n-1; u++ {
		for v := u + 1; v < n-1; v++ {
			if rng.Float64() < 0.2 {
				edges = append(edges, graph.Edge{U: u, V: v, W: 0.5 + rng.Float64()})
			}
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{})
	require.NoError(t, err)
	return g
}

// testFeatures is a sparse n×d matrix with about a third of its entries
// set (an empty row included) and its dense copy.
func testFeatures(n, d int, seed uint64) (*loaders.Sparse, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 2))
	s := &loaders.Sparse{Rows: n, Cols: d, Indptr: make([]int, 1, n+1)}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if i != 3 && rng.Float64() < 0.3 {
				s.Indices = append(s.Indices, int32(j))
				s.Values = append(s.Values, rng.NormFloat64())
			}
		}
		s.Indptr = append(s.Indptr, len(s.Indices))
	}
	return s, s.Dense(nil)
}

// denseAdjacency is S_σ from the definition: (D + σI)^{-1/2}(W + σI)(D + σI)^{-1/2},
// zero rows where the degree is zero.
func denseAdjacency(g *graph.CSR, loop float64) *mat.Dense {
	w := g.Dense()
	n, _ := w.Dims()
	a := mat.NewDense(n, n, nil)
	deg := make([]float64, n)
	for i := 0; i < n; i++ {
		deg[i] = mat.Sum(w.RowView(i)) + loop
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := w.At(i, j)
			if i == j {
				v += loop
			}
			if v != 0 {
				a.Set(i, j, v/math.Sqrt(deg[i]*deg[j]))
			}
		}
	}
	return a
}

func TestAdjacencyAgainstDense(t *testing.T) {
	g := testGraph(t, 25, 1)
	xs, xd := testFeatures(25, 6, 3)
	for _, loop := range []float64{0, 1, 2.5} {
		a := NewAdjacency(g, loop)
		want := denseAdjacency(g, loop)
		require.True(t, mat.EqualApprox(want, a.Dense(), tol), "loop %v: Dense", loop)
		var ref, got mat.Dense
		ref.Mul(want, xd)
		got.ReuseAs(25, 6)
		a.MulBlockTo(&got, xd)
		require.True(t, mat.EqualApprox(&ref, &got, tol), "loop %v: MulBlockTo", loop)
		sp := mat.NewDense(25, 6, nil)
		a.MulSparseTo(sp, xs, 1)
		require.True(t, mat.EqualApprox(&ref, sp, tol), "loop %v: MulSparseTo", loop)
		v := make([]float64, 25)
		a.MulVecTo(v, mat.Col(nil, 2, xd))
		require.InDeltaSlice(t, mat.Col(nil, 2, &ref), v, tol)
	}
}

func TestPowerAgainstDense(t *testing.T) {
	ctx := context.Background()
	g := testGraph(t, 25, 2)
	xs, xd := testFeatures(25, 5, 4)
	a := GCN(g)
	s := denseAdjacency(g, 1)
	for k := 1; k <= 3; k++ {
		want := mat.DenseCopyOf(xd)
		for i := 0; i < k; i++ {
			want.Mul(s, mat.DenseCopyOf(want))
		}
		for name, f := range map[string]Features{"dense": {Dense: xd}, "sparse": {Sparse: xs}} {
			got, err := Power(ctx, a, f, k)
			require.NoError(t, err)
			require.True(t, mat.EqualApprox(want, got, tol), "%s K=%d", name, k)
			rows := []int{0, 7, 3, 24}
			gr, err := PowerRows(ctx, a, f, k, rows)
			require.NoError(t, err)
			for r, i := range rows {
				require.InDeltaSlice(t, want.RawRowView(i), gr.RawRowView(r), tol, "%s K=%d row %d", name, k, i)
			}
		}
	}
	_, err := Power(ctx, a, Features{Sparse: xs}, 0)
	require.Error(t, err)
	// More than twice as many features as rows: the products of E_R.
	xs, xd = testFeatures(25, 11, 4)
	checkPowerRowsSeries(t, a, s, xd, xs)
}

// checkPowerRowsSeries checks the rows of S^k X for several k from one
// sequence of products, for features wider than twice the 5 rows: bitwise
// those of k products of E_R for each k
// alone (PowerRows before it shared the sequence), and those of the dense
// powers.
func checkPowerRowsSeries(t *testing.T, a *Adjacency, s, xd *mat.Dense, xs *loaders.Sparse) {
	ctx := context.Background()
	rows := []int{0, 7, 3, 24, 7}
	ks := []int{3, 0, 1, 3}
	for name, f := range map[string]Features{"dense": {Dense: xd}, "sparse": {Sparse: xs}} {
		got, err := PowerRowsSeries(ctx, a, f, ks, rows)
		require.NoError(t, err)
		require.Len(t, got, len(ks))
		for j, k := range ks {
			// The old PowerRows: k products of E_R, then the product with X.
			e, err := unitColumns(25, rows)
			require.NoError(t, err)
			p, err := powerBlock(ctx, a, e, k, nil)
			require.NoError(t, err)
			if blockRoute(a, f, rows) {
				require.Equal(t, f.TMul(p).RawMatrix().Data, got[j].RawMatrix().Data, "%s K=%d", name, k)
			}
			require.True(t, mat.EqualApprox(f.TMul(p), got[j], tol), "%s K=%d", name, k)
			want := mat.DenseCopyOf(xd)
			for i := 0; i < k; i++ {
				want.Mul(s, mat.DenseCopyOf(want))
			}
			for r, i := range rows {
				require.InDeltaSlice(t, want.RawRowView(i), got[j].RawRowView(r), tol, "%s K=%d row %d", name, k, i)
			}
		}
	}
	for _, bad := range [][]int{nil, {1, -1}} {
		_, err := PowerRowsSeries(ctx, a, Features{Sparse: xs}, bad, rows)
		require.Error(t, err, "ks %v", bad)
	}
	_, err := PowerRowsSeries(ctx, a, Features{Sparse: xs}, []int{1}, []int{25})
	require.Error(t, err)
}

func TestPPRAgainstDense(t *testing.T) {
	ctx := context.Background()
	g := testGraph(t, 30, 3)
	xs, xd := testFeatures(30, 4, 5)
	for _, loop := range []float64{0, 1} {
		s := NewAdjacency(g, loop)
		sd := denseAdjacency(g, loop)
		for _, a := range []float64{0.5, 0.9, 0.99} {
			want := densePPR(t, sd, xd, a)
			set := Settings{Tol: 1e-12}
			for name, f := range map[string]Features{"dense": {Dense: xd}, "sparse": {Sparse: xs}} {
				got, info, err := PPR(ctx, s, f, a, set)
				require.NoError(t, err)
				require.LessOrEqual(t, info.Residual, 1e-12)
				// the residual bound 1e-12 and cond(I − aS) ≤ (1+a)/(1−a) = 199
				require.True(t, mat.EqualApprox(want, got, 1e-9), "%s loop %v a %v", name, loop, a)
				rows := []int{29, 0, 11}
				gr, _, err := PPRRows(ctx, s, f, a, rows, set)
				require.NoError(t, err)
				for r, i := range rows {
					require.InDeltaSlice(t, want.RawRowView(i), gr.RawRowView(r), 1e-9)
				}
			}
		}
	}
}

// densePPR returns (1−a)(I − aS)^{-1}X by a dense LU solve.
func densePPR(t *testing.T, sd, x *mat.Dense, a float64) *mat.Dense {
	n, _ := sd.Dims()
	m := mat.NewDense(n, n, nil)
	m.Scale(-a, sd)
	for i := 0; i < n; i++ {
		m.Set(i, i, m.At(i, i)+1)
	}
	var want mat.Dense
	require.NoError(t, want.Solve(m, x))
	want.Scale(1-a, &want)
	return &want
}

func TestPPRErrors(t *testing.T) {
	ctx := context.Background()
	g := testGraph(t, 10, 4)
	_, xd := testFeatures(10, 2, 1)
	s := GCN(g)
	for _, a := range []float64{0, 1, -0.1, 1.5} {
		_, _, err := PPR(ctx, s, Features{Dense: xd}, a, Settings{})
		require.ErrorContains(t, err, "open interval")
	}
	_, _, err := PPR(ctx, s, Features{Dense: xd}, 0.99, Settings{MaxIter: 2})
	require.ErrorContains(t, err, "did not converge")
	_, _, err = PPR(ctx, s, Features{}, 0.5, Settings{})
	require.Error(t, err)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _, err = PPR(cctx, s, Features{Dense: xd}, 0.9, Settings{})
	require.ErrorIs(t, err, context.Canceled)
}

// TestPowerRowsMoreRowsThanFeatures: with more rows than features the rows
// of S^k X come from products of X (powerRowsOfX): bitwise the rows of
// Power's S^k X, within tol of the products of E_R (the path of fewer
// rows) and of the dense powers, for dense and sparse features, repeated
// rows and k = 0.
func TestPowerRowsMoreRowsThanFeatures(t *testing.T) {
	ctx := context.Background()
	g := testGraph(t, 25, 2)
	xs, _ := testFeatures(25, 3, 7)
	a := GCN(g)
	rows := []int{0, 7, 3, 24, 7, 12}
	checkPowerRowsOfX(t, g, 3, rows)
	// Wider than the graph kernels' unrolled rows (16 columns), on unit
	// weights (the product through the prescaled rows) and on weights.
	wide := make([]int, 40)
	for k := range wide {
		wide[k] = (7 * k) % 25
	}
	checkPowerRowsOfX(t, g, 21, wide)
	checkPowerRowsOfX(t, unitWeights(t, g), 21, wide)
	_, err := PowerRowsSeries(ctx, a, Features{Sparse: xs}, []int{1}, []int{0, 1, 2, 25})
	require.Error(t, err, "a row outside the graph")
}

// checkPowerRowsOfX checks PowerRowsSeries on more rows than features
// (products of X: d features of testFeatures on g) against dense powers of
// S̃, the products of E_R, and bitwise against Power and PowerRows.
func checkPowerRowsOfX(t *testing.T, g *graph.CSR, d int, rows []int) {
	t.Helper()
	ctx := context.Background()
	n := g.Nodes()
	xs, xd := testFeatures(n, d, 7)
	a := GCN(g)
	s := denseAdjacency(g, 1)
	ks := []int{2, 0, 3, 1}
	for name, f := range map[string]Features{"dense": {Dense: xd}, "sparse": {Sparse: xs}} {
		got, err := PowerRowsSeries(ctx, a, f, ks, rows)
		require.NoError(t, err)
		for j, k := range ks {
			want := mat.DenseCopyOf(xd)
			for i := 0; i < k; i++ {
				want.Mul(s, mat.DenseCopyOf(want))
			}
			e, err := unitColumns(n, rows)
			require.NoError(t, err)
			p, err := powerBlock(ctx, a, e, k, nil)
			require.NoError(t, err)
			viaE := f.TMul(p)
			for r, i := range rows {
				require.InDeltaSlice(t, want.RawRowView(i), got[j].RawRowView(r), tol, "%s K=%d row %d", name, k, i)
				require.InDeltaSlice(t, viaE.RawRowView(r), got[j].RawRowView(r), tol, "%s K=%d row %d", name, k, i)
			}
			if k == 0 {
				continue
			}
			pw, err := Power(ctx, a, f, k)
			require.NoError(t, err)
			for r, i := range rows {
				if blockRoute(a, f, rows) {
					require.Equal(t, pw.RawRowView(i), got[j].RawRowView(r), "%s K=%d row %d: Power's", name, k, i)
				}
				require.InDeltaSlice(t, pw.RawRowView(i), got[j].RawRowView(r), tol, "%s K=%d row %d: Power's", name, k, i)
			}
			one, err := PowerRows(ctx, a, f, k, rows)
			require.NoError(t, err)
			require.Equal(t, got[j].RawMatrix().Data, one.RawMatrix().Data, "%s K=%d: PowerRows alone", name, k)
		}
	}
}

// unitWeights returns g with every edge weight 1.
func unitWeights(t *testing.T, g *graph.CSR) *graph.CSR {
	t.Helper()
	var edges []graph.Edge
	for u := 0; u < g.Nodes(); u++ {
		cols, _ := g.Row(u)
		for _, v := range cols {
			if int(v) > u {
				edges = append(edges, graph.Edge{U: u, V: int(v), W: 1})
			}
		}
	}
	h, err := graph.FromEdges(g.Nodes(), edges, graph.Options{})
	require.NoError(t, err)
	return h
}

// blockRoute reports whether PowerRowsSeries takes the rows of f from
// block products (bitwise those of Power or of the products of E_R), not
// from the walks of powerRowsSparse.
func blockRoute(a *Adjacency, f Features, rows []int) bool {
	return f.Sparse == nil || !sparseRowsCheaper(a, f.Sparse, len(rows))
}

// TestPowerRowsSparseWalk: the rows of S^k X from the walks of
// powerRowsSparse (any sparse X) match the dense powers of S_σ (GCN's and,
// with an isolated node and no self loops, the symmetric one; weighted and
// unit weights), the k = 0 rows are X's bitwise, and each k's rows are
// bitwise the same asked alone, in a series, and on one worker or four.
func TestPowerRowsSparseWalk(t *testing.T) {
	ctx := context.Background()
	g := testGraph(t, 40, 3)
	xs, xd := testFeatures(40, 9, 5)
	rows := []int{0, 39, 7, 3, 7, 21}
	ks := []int{3, 0, 1, 2}
	for name, a := range map[string]*Adjacency{"gcn": GCN(g), "symmetric": Symmetric(g), "unit": GCN(unitWeights(t, g))} {
		s := denseAdjacency(a.Graph(), a.Loop())
		got, err := powerRowsSparse(ctx, a, xs, ks, rows)
		require.NoError(t, err)
		for j, k := range ks {
			want := mat.DenseCopyOf(xd)
			for i := 0; i < k; i++ {
				want.Mul(s, mat.DenseCopyOf(want))
			}
			for r, i := range rows {
				require.InDeltaSlice(t, want.RawRowView(i), got[j].RawRowView(r), tol, "%s K=%d row %d", name, k, i)
				if k == 0 {
					require.Equal(t, xd.RawRowView(i), got[j].RawRowView(r), "%s: X's row %d", name, i)
				}
			}
			one, err := powerRowsSparse(ctx, a, xs, []int{k}, rows)
			require.NoError(t, err)
			require.Equal(t, got[j].RawMatrix().Data, one[0].RawMatrix().Data, "%s K=%d alone", name, k)
		}
		for _, workers := range []int{1, 4} {
			prev := parallel.Current()
			require.NoError(t, parallel.Configure(parallel.Config{Workers: workers}))
			again, err := powerRowsSparse(ctx, a, xs, ks, rows)
			require.NoError(t, parallel.Configure(prev))
			require.NoError(t, err)
			for j := range ks {
				require.Equal(t, got[j].RawMatrix().Data, again[j].RawMatrix().Data, "%s: %d workers", name, workers)
			}
		}
	}
	_, err := powerRowsSparse(ctx, GCN(g), xs, ks, []int{0, 40})
	require.ErrorContains(t, err, "outside")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = powerRowsSparse(cctx, GCN(g), xs, ks, rows)
	require.ErrorIs(t, err, context.Canceled)
}
