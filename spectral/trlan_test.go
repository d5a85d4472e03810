package spectral

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/laplacian"
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
	for _, dims := range [][3]int{{1, 1, 1}, {7, 3, 5}, {101, 50, 17}, {1000, 13, 9}} {
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
	}
}

func TestAutoMethod(t *testing.T) {
	// The rule of LaplacianEigs with Method Auto, on the two benchmark
	// graphs' shapes: PubMed (19 717 nodes, nnz/n 4.5), MNIST KNN (20 000,
	// 14.8), and a small component.
	require.Equal(t, Block, autoMethod(SingleVectorMinNodes-1, 15*SingleVectorMinNodes, 10))
	require.Equal(t, SingleVector, autoMethod(19717, 88648, 10))
	require.Equal(t, SingleVector, autoMethod(19717, 88648, 50))
	require.Equal(t, Block, autoMethod(19717, 88648, 100))
	require.Equal(t, SingleVector, autoMethod(20000, 295048, 100))
}
