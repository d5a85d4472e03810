package stkr

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// lanczosValueTol: spectral's default residual target is 1e-10 (‖S‖ = 1),
// and a symmetric eigenvalue is within its residual of the exact one.
const lanczosValueTol = 1e-9

// lanczosPredTol: predictions depend on the eigenvectors only through the
// spanned subspace, whose error is residual/gap; the test graphs keep the
// gap at the cut above minCutGap, so 1e-10/1e-3 = 1e-7, with room for the
// ridge solve's amplification.
const lanczosPredTol = 1e-6

// minCutGap is the smallest gap μ_d − μ_{d+1} at which the subspace of the
// top d eigenvectors is well determined (checked on the dense spectrum).
const minCutGap = 1e-3

// componentGraph joins random connected pieces of the given sizes (a ring
// plus extra chords each; a piece of size 1 is an isolated node): a graph
// with one eigenvalue 1 of S per non-trivial piece, like Cora's 78.
func componentGraph(t testing.TB, sizes []int, seed uint64) *graph.CSR {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	var edges []graph.Edge
	off := 0
	for _, s := range sizes {
		for i := 0; i < s && s > 1; i++ {
			if s == 2 && i == 1 {
				break
			}
			edges = append(edges, graph.Edge{U: off + i, V: off + (i+1)%s, W: 0.5 + rng.Float64()})
		}
		for k := 0; k < s/2 && s > 3; k++ {
			u, v := rng.IntN(s), rng.IntN(s)
			if u != v {
				edges = append(edges, graph.Edge{U: off + u, V: off + v, W: 0.5 + rng.Float64()})
			}
		}
		off += s
	}
	g, err := graph.FromEdges(off, edges, graph.Options{Duplicates: graph.DuplicateSum})
	require.NoError(t, err)
	return g
}

// denseTop returns the eigenvalues of the dense S in descending order.
func denseTop(t testing.TB, g *graph.CSR) []float64 {
	var es mat.EigenSym
	require.True(t, es.Factorize(denseS(g), false))
	v := es.Values(nil)
	for i, j := 0, len(v)-1; i < j; i, j = i+1, j-1 {
		v[i], v[j] = v[j], v[i]
	}
	return v
}

// TestLanczosEigenMatchesDenseEigen: the default kernel-PCA eigensolver
// (spectral, per component for a graph kernel; block Lanczos for an
// operator kernel) gives the eigenvalues of the explicit dense solver and
// the same kernel-PCA predictions, transductive and from kernel rows, on
// graphs large enough that the Krylov path runs (components above
// spectral's dense cut-off of 160 nodes), one of them with four components
// of size > 1 and an isolated node (μ = 1 four times, μ = 0 once).
func TestLanczosEigenMatchesDenseEigen(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		g      *graph.CSR
		d      int
		opKern bool
	}{
		{"graph kernel, components", componentGraph(t, []int{400, 250, 170, 2, 1, 3}, 5), 24, false},
		{"graph kernel, connected", componentGraph(t, []int{700}, 6), 40, false},
		{"operator kernel", componentGraph(t, []int{600}, 7), 16, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gk, err := NewGraphKernel(c.g)
			require.NoError(t, err)
			var k BaseKernel = gk
			if c.opKern {
				k = OperatorKernel{M: gk, Bound: 1}
			}
			want := denseTop(t, c.g)
			require.Greater(t, want[c.d-1]-want[c.d], minCutGap, "the test graph must separate the top d")

			vals, vecs, err := LanczosEigen{}.Largest(ctx, k, c.d)
			require.NoError(t, err)
			for i := range vals {
				assert.InDelta(t, want[i], vals[i], lanczosValueTol, "μ_%d against EigenSym of the dense S", i+1)
			}
			var vtv mat.Dense
			vtv.Mul(vecs.T(), vecs)
			for i := 0; i < c.d; i++ {
				for j := 0; j < c.d; j++ {
					assert.InDelta(t, b2f(i == j), vtv.At(i, j), lanczosValueTol, "orthonormal vectors (%d, %d)", i, j)
				}
			}

			rng := rand.New(rand.NewPCG(uint64(c.d), 3))
			N := c.g.Nodes()
			train := rng.Perm(N)[:30]
			y := mat.NewDense(len(train), 3, nil)
			for p := range train {
				y.Set(p, p%3, 1)
			}
			lan := &Regressor{Transform: TopD{D: c.d}, Beta: 0.05}
			fitOrFail(t, lan, k, train, y)
			den := &Regressor{Transform: TopD{D: c.d}, Beta: 0.05, Eigen: DenseEigen{}}
			fitOrFail(t, den, k, train, y)
			fd := mustPredict(t, den)
			assert.Less(t, relDiff(mustPredict(t, lan), fd), lanczosPredTol, "transductive predictions")
			assert.Less(t, relDiff(mustVectors(t, lan), mustVectors(t, den)), lanczosPredTol, "stored vectors (inductive predictor)")
			assert.Positive(t, lan.Stats().MatVecs, "the eigensolver's products are counted")
			t.Logf("max rel. diff: predictions %.2e, vectors %.2e; %d products", relDiff(mustPredict(t, lan), fd), relDiff(mustVectors(t, lan), mustVectors(t, den)), lan.Stats().MatVecs)
		})
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestLanczosEigenManyComponents: on a graph with more components than the
// block size, the per-component path finds μ = 1 as often as there are
// components (single-vector Lanczos would miss copies).
func TestLanczosEigenManyComponents(t *testing.T) {
	sizes := []int{}
	for i := 0; i < 30; i++ {
		sizes = append(sizes, 5+i%7)
	}
	sizes = append(sizes, 300)
	g := componentGraph(t, sizes, 8)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	vals, _, err := LanczosEigen{}.Largest(context.Background(), k, 40)
	require.NoError(t, err)
	ones := 0
	for _, v := range vals {
		if math.Abs(v-1) < lanczosValueTol {
			ones++
		}
	}
	assert.Equal(t, 31, ones)
	want := denseTop(t, g)
	for i := range vals {
		assert.InDelta(t, want[i], vals[i], lanczosValueTol, "μ_%d", i+1)
	}
}
