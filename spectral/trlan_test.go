package spectral

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
	"github.com/gssl/gssl/loaders"
)

// TestLaplacianEigsAutoAgreesWithBlock runs the automatic choice on a
// component above SingleVectorMinNodes (a random connected graph, simple
// spectrum; the single-vector path) against the block method, which the
// other tests check against mat.EigenSym (a dense reference at this size
// would need n² = 200 MB).
func TestLaplacianEigsAutoAgreesWithBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := SingleVectorMinNodes + 50
	g := randomGraph(rng, n, n)
	op, err := laplacian.New(g, laplacian.Symmetric, laplacian.Options{})
	require.NoError(t, err)
	for _, k := range []int{3, 12} {
		auto, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, k, Settings{Tol: solveTol})
		require.NoError(t, err)
		block, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, k, Settings{Tol: solveTol, Method: Block})
		require.NoError(t, err)
		require.InDeltaSlice(t, block.Values, auto.Values, valueTol)
		checkResiduals(t, op, auto, solveTol*2*1.01)
		checkOrthonormal(t, auto.Vectors, nil, orthoTol)
	}
}

func TestSingleVectorRepeatedEigenvalueInvariantSpace(t *testing.T) {
	// Three disjoint unit-weight cliques of 10, 12 and 15 nodes: S has the
	// eigenvalue 1 three times and −1/(c−1) for each clique, so the Krylov
	// space of one start vector is invariant after 4 steps. The breakdown
	// path must continue from fresh random directions and find all three
	// copies of 1 and then the largest of the rest.
	var e []graph.Edge
	off := 0
	for _, c := range []int{10, 12, 15} {
		for i := 0; i < c; i++ {
			for j := i + 1; j < c; j++ {
				e = append(e, graph.Edge{U: off + i, V: off + j, W: 1})
			}
		}
		off += c
	}
	g, err := graph.FromEdges(off, e, graph.Options{})
	require.NoError(t, err)
	op, err := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	require.NoError(t, err)
	ref := denseSpectrum(t, op)
	r, err := Eigs(context.Background(), op, 4, Largest, Settings{Tol: solveTol, Method: SingleVector, BasisSize: 20, Seed: 3})
	require.NoError(t, err)
	require.InDeltaSlice(t, ref[len(ref)-4:], r.Values, valueTol)
	checkResiduals(t, op, r, solveTol*1.01)
	checkOrthonormal(t, r.Vectors, nil, orthoTol)
}

func TestSingleVectorNotConvergedAndErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	g := randomGraph(rng, 700, 1400)
	op, _ := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	_, err := Eigs(context.Background(), op, 30, Largest, Settings{Tol: 1e-14, MaxRestarts: 1, BasisSize: 40, Method: SingleVector})
	var nc *NotConvergedError
	require.ErrorAs(t, err, &nc)
	require.Equal(t, 1, nc.Restarts)
	require.Less(t, len(nc.Converged.Values), 30)
	ref := denseSpectrum(t, op)
	for j, v := range nc.Converged.Values {
		require.LessOrEqual(t, nc.Converged.Residuals[j], 1e-12)
		d := math.Inf(1)
		for _, x := range ref {
			d = math.Min(d, math.Abs(x-v))
		}
		require.Less(t, d, valueTol)
	}
	_, err = Eigs(context.Background(), op, 3, Largest, Settings{Method: Method(9)})
	require.ErrorContains(t, err, "Method = Method(9) is invalid")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Eigs(ctx, op, 3, Largest, Settings{Method: SingleVector})
	require.ErrorIs(t, err, context.Canceled)
}

// TestRotateColMajorAgainstNaive checks the kernel rotation of a
// column-major basis against the naive triple loop.
func TestRotateColMajorAgainstNaive(t *testing.T) {
	// rotTol: dot products of length ≤ 50 of entries of size ≤ 1 in a
	// different summation order (FMA) agree to a few ulps times the length.
	const rotTol = 1e-13
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dims := range [][3]int{{1, 1, 1}, {7, 3, 5}, {101, 50, 17}, {1000, 13, 9}, {1000, 30, 30}, {9973, 31, 20}} {
		n, m, p := dims[0], dims[1], dims[2]
		v := make([]float64, n*m)
		s := make([]float64, m*p)
		for i := range v {
			v[i] = rng.Float64()*2 - 1
		}
		for i := range s {
			s[i] = rng.Float64()*2 - 1
		}
		dst := make([]float64, n*p)
		rotateColMajor(dst, v, n, m, s, p)
		want := mat.NewDense(n, p, nil)
		want.Mul(mat.NewDense(m, n, v).T(), mat.NewDense(m, p, s))
		for j := 0; j < p; j++ {
			for i := 0; i < n; i++ {
				require.InDelta(t, want.At(i, j), dst[j*n+i], rotTol, "n=%d m=%d p=%d (%d,%d) avx2=%v", n, m, p, i, j, gemm.HasAVX2)
			}
		}
		if p <= m {
			// In place (the restart's use): the same numbers, bitwise.
			in := append([]float64(nil), v...)
			rotateColMajor(in, in, n, m, s, p)
			require.Equal(t, dst, in[:n*p], "in place, n=%d m=%d p=%d", n, m, p)
		}
	}
}

func TestAutoMethod(t *testing.T) {
	for _, c := range []struct{ nnz, n, k, deg int }{
		{88648, 19717, 10, 4}, {88648, 19717, 50, 11}, {88648, 19717, 100, 12},
		{295048, 20000, 10, 1}, {295048, 20000, 50, 4}, {295048, 20000, 100, 8},
		{10138, 2485, 7, 4},    // Cora's largest component, gssl cluster --lcc
		{163788, 18333, 10, 1}, // Coauthor-CS, gssl eigs
		{163788, 18333, 15, 3}, // Coauthor-CS, gssl cluster (15 classes)
	} {
		require.Equal(t, c.deg, singleFilterDegree(c.nnz, c.n, singleVectorBasis(c.n, c.k, 0)), "nnz=%d n=%d k=%d", c.nnz, c.n, c.k)
	}
	// The rule of LaplacianEigs with Method Auto, on the two benchmark
	// graphs' shapes: PubMed (19 717 nodes, nnz/n 4.5), MNIST KNN (20 000,
	// 14.8), Cora's largest component (2 485), and a small component.
	require.Equal(t, Block, autoMethod(SingleVectorMinNodes-1))
	require.Equal(t, SingleVector, autoMethod(2485)) // Cora's largest component
	require.Equal(t, SingleVector, autoMethod(19717))
	require.Equal(t, SingleVector, autoMethod(20000))
}

// gridGraph returns the r×c grid graph with unit weights: the Laplacians of
// a square grid have many double eigenvalues (λ_i + λ_j = λ_j + λ_i).
func gridGraph(r, c int) *graph.CSR {
	var e []graph.Edge
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if i+1 < r {
				e = append(e, graph.Edge{U: i*c + j, V: (i+1)*c + j, W: 1})
			}
			if j+1 < c {
				e = append(e, graph.Edge{U: i*c + j, V: i*c + j + 1, W: 1})
			}
		}
	}
	g, err := graph.FromEdges(r*c, e, graph.Options{})
	if err != nil {
		panic(err)
	}
	return g
}

// cliquesGraph returns disjoint unit-weight cliques of the given sizes.
func cliquesGraph(sizes ...int) *graph.CSR {
	var e []graph.Edge
	off := 0
	for _, c := range sizes {
		for i := 0; i < c; i++ {
			for j := i + 1; j < c; j++ {
				e = append(e, graph.Edge{U: off + i, V: off + j, W: 1})
			}
		}
		off += c
	}
	g, err := graph.FromEdges(off, e, graph.Options{})
	if err != nil {
		panic(err)
	}
	return g
}

// weaklyJoined returns g plus an edge of weight w between node 0 and nodes
// 17 and 29 (different cliques of cliquesGraph(10, 12, 15)).
func weaklyJoined(g *graph.CSR, w float64) *graph.CSR {
	var e []graph.Edge
	for u := 0; u < g.Nodes(); u++ {
		cols, vals := g.Row(u)
		for i, v := range cols {
			if int32(u) < v {
				e = append(e, graph.Edge{U: u, V: int(v), W: vals[i]})
			}
		}
	}
	e = append(e, graph.Edge{U: 0, V: 17, W: w}, graph.Edge{U: 0, V: 29, W: w}, graph.Edge{U: 11, V: 30, W: w})
	h, err := graph.FromEdges(g.Nodes(), e, graph.Options{})
	if err != nil {
		panic(err)
	}
	return h
}

// TestSingleVectorDelayedReorthogonalisation checks the one-pass (delayed)
// CGS2 of trlan.extend directly, independently of convergence: after a
// Lanczos cycle from a random vector and after a thick restart, the m+1
// basis vectors must be orthonormal, H (stored as its upper triangle) must
// equal the dense V_mᵀ·A·V_m, and the Lanczos relation
// A·V_m = V_m·H + β·v_m·e_mᵀ must hold — the coefficients of every column are
// assembled from the small matrices of the next step, so a wrong correction
// shows here even when the Ritz values happen to converge. (Of the three
// corrections only H·a is visible at this tolerance: the other two are
// β'·a ≈ ε·‖A·v‖ by construction — a is large only where β' is small.)
func TestSingleVectorDelayedReorthogonalisation(t *testing.T) {
	// basisOrthoTol bounds |VᵀV − I| entries: two classical Gram–Schmidt
	// sweeps leave O(ε·√n) per entry (ε = 2.2e-16, n ≤ 600).
	const basisOrthoTol = 1e-13
	// relationTol bounds the entries of H − VᵀAV and the columns of the
	// Lanczos relation's residual, relative to ‖A‖ ≤ 1 (S has spectrum in
	// [−1, 1]): a few rounding errors of n-term sums.
	const relationTol = 1e-12
	rng := rand.New(rand.NewPCG(21, 22))
	cases := []struct {
		name string
		g    *graph.CSR
		k, m int
	}{
		{"random", randomGraph(rng, 600, 900), 10, 40},
		// Double eigenvalues of S.
		{"grid", gridGraph(20, 20), 12, 60},
		// The Krylov space of one vector is invariant after 4 steps:
		// the breakdown path runs several times per cycle.
		{"cliques", cliquesGraph(10, 12, 15), 4, 20},
		// Nearly invariant: the cliques joined by edges of weight 1e-7,
		// so some steps cancel ~7 digits of A·v_j and the second sweep
		// (the delayed correction) is large, ~1e-9.
		{"weak cliques", weaklyJoined(cliquesGraph(10, 12, 15), 1e-7), 4, 20},
	}
	for _, tc := range cases {
		op, err := laplacian.New(tc.g, laplacian.NormalizedAdjacency, laplacian.Options{})
		require.NoError(t, err)
		n := op.Dim()
		a := linop.ToDense(op)
		c, err := Settings{Tol: solveTol}.resolve(n, tc.k)
		require.NoError(t, err)
		tr := newTrlan(context.Background(), op, tc.k, Largest, c, tc.m)
		m := tr.m
		tr.randomUnit(0)
		j0 := 0
		for cycle := 0; cycle < 5; cycle++ {
			beta, err := tr.extend(j0)
			require.NoError(t, err)
			v := mat.NewDense(m+1, n, tr.v[:(m+1)*n]) // rows: basis vectors
			var g mat.Dense
			g.Mul(v, v.T())
			for i := 0; i <= m; i++ {
				for j := 0; j <= m; j++ {
					want := 0.0
					if i == j {
						want = 1
					}
					require.InDelta(t, want, g.At(i, j), basisOrthoTol, "%s cycle %d: (VᵀV)[%d][%d]", tc.name, cycle, i, j)
				}
			}
			vm := v.Slice(0, m, 0, n)
			var av, vav mat.Dense
			av.Mul(a, vm.T()) // n×m: A·V_m
			vav.Mul(vm, &av)  // m×m: V_mᵀ·A·V_m
			hs := mat.NewDense(m, m, nil)
			for i := 0; i < m; i++ {
				for j := i; j < m; j++ {
					require.InDelta(t, vav.At(i, j), tr.h[i*m+j], relationTol, "%s cycle %d: H[%d][%d]", tc.name, cycle, i, j)
					hs.Set(i, j, tr.h[i*m+j])
					hs.Set(j, i, tr.h[i*m+j])
				}
			}
			var rel mat.Dense
			rel.Mul(vm.T(), hs)
			rel.Sub(&av, &rel)
			for r := 0; r < n; r++ {
				rel.Set(r, m-1, rel.At(r, m-1)-beta*v.At(m, r))
			}
			for j := 0; j < m; j++ {
				require.Less(t, mat.Norm(rel.ColView(j), 2), relationTol, "%s cycle %d: Lanczos relation, column %d", tc.name, cycle, j)
			}
			// Thick restart as run does it: keep the k+2 largest Ritz
			// vectors.
			theta, y, err := eigSym(tr.h, m, m)
			require.NoError(t, err)
			sel := make([]int, tc.k+2)
			for i := range sel {
				sel[i] = m - 1 - i
			}
			j0 = tr.restart(theta, y, sel)
		}
	}
}

// TestSingleVectorRepeatedEigenvaluesAgainstDense runs the single-vector
// method on a 20×20 grid, whose S has double eigenvalues, against
// mat.EigenSym: the second copies appear through rounding, and the run must
// find every copy among the wanted pairs, with orthonormal vectors.
func TestSingleVectorRepeatedEigenvaluesAgainstDense(t *testing.T) {
	op, err := laplacian.New(gridGraph(20, 20), laplacian.NormalizedAdjacency, laplacian.Options{})
	require.NoError(t, err)
	ref := denseSpectrum(t, op)
	for _, which := range []Which{Largest, Smallest} {
		r, err := Eigs(context.Background(), op, 12, which, Settings{Tol: solveTol, Method: SingleVector, Seed: 5})
		require.NoError(t, err)
		want := ref[len(ref)-12:]
		if which == Smallest {
			want = ref[:12]
		}
		require.InDeltaSlice(t, want, r.Values, valueTol, "which=%v", which)
		checkResiduals(t, op, r, solveTol*1.01)
		checkOrthonormal(t, r.Vectors, nil, orthoTol)
	}
}

// TestSerialRowsBitwise: on Cora's largest component (2 485 nodes, below
// serialRows, the filtered single-vector path gssl cluster --lcc takes),
// LaplacianEigs gives bitwise the same pairs with its row chunks run one
// after the other on the caller (the default) as in parallel (serialRows
// 0), under GOMAXPROCS 1, 2 and 8.
func TestSerialRowsBitwise(t *testing.T) {
	ds, err := loaders.LoadNodeDataset(sharedtest.Data(t, "cora"))
	require.NoError(t, err)
	sub, err := ds.Graph.LargestComponent()
	require.NoError(t, err)
	g := sub.CSR
	require.Less(t, g.Nodes(), serialRows, "the default must take the serial path")
	require.Equal(t, SingleVector, autoMethod(g.Nodes()))
	defer func(s int) { serialRows = s }(serialRows)
	def := serialRows
	run := func(procs, serial int) *Result {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		serialRows = serial
		r, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, ds.Classes, Settings{Tol: DefaultClusteringTol})
		require.NoError(t, err)
		return r
	}
	want := run(2, 0)
	for _, c := range []struct{ procs, serial int }{{8, 0}, {1, def}, {2, def}, {8, def}} {
		got := run(c.procs, c.serial)
		require.Equal(t, want.Values, got.Values, "%+v", c)
		require.Equal(t, want.Vectors.RawMatrix().Data, got.Vectors.RawMatrix().Data, "%+v", c)
		require.Equal(t, want.MatVecs, got.MatVecs, "%+v", c)
	}
}
