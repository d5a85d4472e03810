package spectral

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// plantedGraph returns a connected planted-partition graph: n nodes in
// classes of equal size, each node with about deg random neighbours, a
// fraction mixing of them outside its class (weights in [0.5, 1.5) when
// weighted), plus a ring through all nodes so that it is connected. Its
// L_sym has classes−1 eigenvalues near 1 − (1 − mixing·classes/(classes−1))
// and a gap to the bulk: the spectrum Chebyshev-filtered subspace
// iteration is for.
func plantedGraph(rng *rand.Rand, n, classes, deg int, mixing float64, weighted bool) *graph.CSR {
	w := func() float64 {
		if weighted {
			return 0.5 + rng.Float64()
		}
		return 1
	}
	var e []graph.Edge
	for i := 0; i < n; i++ {
		e = append(e, graph.Edge{U: i, V: (i + 1) % n, W: w()})
		for t := 0; t < deg/2; t++ {
			var j int
			if rng.Float64() < mixing {
				j = rng.IntN(n)
			} else {
				j = i%classes + classes*rng.IntN(n/classes)
			}
			if j != i {
				e = append(e, graph.Edge{U: i, V: j, W: w()})
			}
		}
	}
	g, err := graph.FromEdges(n, e, graph.Options{Duplicates: graph.DuplicateMax})
	if err != nil {
		panic(err)
	}
	return g
}

// TestSubspaceAgainstDense runs Method Subspace on planted-partition graphs
// (unit and random weights, both Laplacians it serves) and checks the pairs
// against mat.EigenSym's spectrum, the residuals recomputed here, and
// orthonormality; the subspace iteration itself must not have handed over.
func TestSubspaceAgainstDense(t *testing.T) {
	for _, tc := range []struct {
		n, classes, k int
		weighted      bool
		kind          laplacian.Kind
	}{
		{1200, 6, 6, false, laplacian.Symmetric},
		{1500, 10, 10, true, laplacian.Symmetric},
		{1200, 8, 12, false, laplacian.Symmetric},
		{1000, 5, 5, true, laplacian.RandomWalk},
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.k)))
		g := plantedGraph(rng, tc.n, tc.classes, 20, 0.3, tc.weighted)
		dg, err := laplacian.NewDegrees(g, laplacian.Options{})
		require.NoError(t, err)
		c, err := Settings{Tol: solveTol}.resolve(tc.n, tc.k)
		require.NoError(t, err)
		_, _, err = newSubspace(context.Background(), g, dg.InvSqrtD, tc.k-1, c).run()
		require.NoError(t, err, "handed over on %+v", tc)

		res, err := LaplacianEigs(context.Background(), g, tc.kind, laplacian.Options{}, tc.k, Settings{Tol: solveTol, Method: Subspace})
		require.NoError(t, err)
		sym, err := laplacian.New(g, laplacian.Symmetric, laplacian.Options{})
		require.NoError(t, err)
		want := denseSpectrum(t, sym)[:tc.k]
		require.InDeltaSlice(t, want, res.Values, valueTol)
		if tc.kind == laplacian.Symmetric {
			checkResiduals(t, sym, res, solveTol*1.01)
			checkOrthonormal(t, res.Vectors, nil, orthoTol)
		} else {
			require.LessOrEqual(t, res.MaxResidual(), solveTol*1.01)
			checkOrthonormal(t, res.Vectors, dg.D, orthoTol)
		}
		checkSigns(t, res.Vectors)
	}
}

// TestSubspaceAgreesWithSingleVector compares the subspace iteration with
// the single-vector method (the Auto path it replaces at scale) on a graph
// too large for a dense reference: eigenvalues, and the spans of the
// eigenvectors of the class eigenvalues (a near-degenerate cluster, so the
// vectors themselves may rotate within it): the singular values of
// V_singleᵀ·V_subspace must all be 1.
func TestSubspaceAgreesWithSingleVector(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := plantedGraph(rng, 20000, 10, 20, 0.3, false)
	k := 10
	sub, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, k, Settings{Tol: solveTol, Method: Subspace})
	require.NoError(t, err)
	single, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, k, Settings{Tol: solveTol, Method: SingleVector})
	require.NoError(t, err)
	require.InDeltaSlice(t, single.Values, sub.Values, valueTol)
	require.LessOrEqual(t, sub.MaxResidual(), solveTol*1.01)
	var prod mat.Dense
	prod.Mul(single.Vectors.T(), sub.Vectors)
	var svd mat.SVD
	require.True(t, svd.Factorize(&prod, mat.SVDNone))
	for _, s := range svd.Values(nil) {
		require.InDelta(t, 1, s, 1e-8)
	}
}

// TestSubspaceCorrectedPasses checks the float32 passes in correction form
// (filterCorrected) against the float64 passes of filter (single) on the
// same graph and start: the same
// eigenvalues to 1e-12, residuals within the tolerance, and spans that
// agree (singular values of V_corrᵀ·V_64 all 1).
func TestSubspaceCorrectedPasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	g := plantedGraph(rng, 6000, 10, 20, 0.3, true)
	dg, err := laplacian.NewDegrees(g, laplacian.Options{})
	require.NoError(t, err)
	k := 9
	c, err := Settings{Tol: solveTol}.resolve(g.Nodes(), k+1)
	require.NoError(t, err)
	run := func(single bool) ([]float64, *mat.Dense, int) {
		sp := newSubspace(context.Background(), g, dg.InvSqrtD, k, c)
		sp.single = single
		theta, v, err := sp.run()
		require.NoError(t, err)
		return theta, mat.DenseCopyOf(v.Slice(0, g.Nodes(), 0, k)), sp.matvecs
	}
	th64, v64, mv64 := run(true)
	thc, vc, mvc := run(false)
	require.InDeltaSlice(t, th64, thc, 1e-12)
	require.Less(t, mvc, mv64, "the corrected passes save one product per pass")
	s, err := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	require.NoError(t, err)
	for _, v := range []*mat.Dense{v64, vc} {
		av := mat.NewDense(g.Nodes(), k, nil)
		linop.MulBlock(s, av, v)
		for j, r := range residualNorms(av, v, thc) {
			require.LessOrEqual(t, r, solveTol*1.01, "column %d", j)
		}
	}
	var prod mat.Dense
	prod.Mul(v64.T(), vc)
	var svd mat.SVD
	require.True(t, svd.Factorize(&prod, mat.SVDNone))
	for _, sv := range svd.Values(nil) {
		require.InDelta(t, 1, sv, 1e-9)
	}
}

// TestSubspaceHandsOver checks the hand-over on a spectrum without a gap
// after the wanted pairs (a grid: its smallest eigenvalues are clustered,
// so the filter's predicted work exceeds subspaceBudget): the subspace
// iteration gives up, and LaplacianEigs with Method Subspace still returns
// the dense solver's eigenvalues through the Lanczos method.
func TestSubspaceHandsOver(t *testing.T) {
	g := gridGraph(50, 50)
	k := 8
	dg, err := laplacian.NewDegrees(g, laplacian.Options{})
	require.NoError(t, err)
	c, err := Settings{Tol: solveTol}.resolve(g.Nodes(), k)
	require.NoError(t, err)
	_, _, err = newSubspace(context.Background(), g, dg.InvSqrtD, k-1, c).run()
	require.ErrorIs(t, err, errSubspaceHandOver)
	res, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, k, Settings{Tol: solveTol, Method: Subspace})
	require.NoError(t, err)
	sym, err := laplacian.New(g, laplacian.Symmetric, laplacian.Options{})
	require.NoError(t, err)
	require.InDeltaSlice(t, denseSpectrum(t, sym)[:k], res.Values, valueTol)
	checkResiduals(t, sym, res, solveTol*1.01)
}

// TestSubspaceDeterministic checks that the result is bitwise the same on
// 1 and 3 workers and for the same seed, and differs for another seed.
func TestSubspaceDeterministic(t *testing.T) {
	defer func(c parallel.Config) { require.NoError(t, parallel.Configure(c)) }(parallel.Current())
	rng := rand.New(rand.NewPCG(5, 6))
	g := plantedGraph(rng, 20000, 6, 16, 0.3, true)
	run := func(workers int, seed uint64) *Result {
		require.NoError(t, parallel.Configure(parallel.Config{Workers: workers}))
		r, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, 6, Settings{Seed: seed, Method: Subspace})
		require.NoError(t, err)
		return r
	}
	a, b, c := run(1, 7), run(3, 7), run(3, 8)
	require.Equal(t, a.Values, b.Values)
	require.True(t, mat.Equal(a.Vectors, b.Vectors))
	require.Equal(t, a.MatVecs, b.MatVecs)
	require.False(t, mat.Equal(a.Vectors, c.Vectors))
	require.InDeltaSlice(t, a.Values, c.Values, valueTol)
}

// TestSubspaceChoice checks useSubspace: Method Subspace, or Auto on
// components of at least SubspaceMinNodes nodes; normalised Laplacians only.
func TestSubspaceChoice(t *testing.T) {
	big := 10_000_000
	require.True(t, useSubspace(Auto, laplacian.Symmetric, big, 10, true))
	require.True(t, useSubspace(Auto, laplacian.Symmetric, SubspaceMinNodes, 10, true))
	require.False(t, useSubspace(Auto, laplacian.Symmetric, SubspaceMinNodes-1, 10, true))
	require.False(t, useSubspace(Auto, laplacian.Unnormalized, big, 10, true))
	require.False(t, useSubspace(Block, laplacian.Symmetric, big, 10, true))
	require.True(t, useSubspace(Subspace, laplacian.RandomWalk, big, 10, true))
	require.True(t, useSubspace(Subspace, laplacian.Symmetric, 100, 10, true))
	require.False(t, useSubspace(Subspace, laplacian.Unnormalized, big, 10, true))
	require.False(t, useSubspace(Subspace, laplacian.Symmetric, big, 1, true))
	require.False(t, useSubspace(Subspace, laplacian.Symmetric, big, 10, false))
	require.False(t, useSubspace(Subspace, laplacian.Symmetric, big, subspaceMaxWidth, true))
	require.False(t, useSubspace(SingleVector, laplacian.Symmetric, big, 10, true))
	m, err := ParseMethod("subspace")
	require.NoError(t, err)
	require.Equal(t, Subspace, m)
	require.Equal(t, "subspace", m.String())
}
