package protocol

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/stkr"
)

// The helpers of package stkr's tests that the protocol's tests use.

func mustPredict(t testing.TB, r interface{ Scores() (*mat.Dense, error) }) *mat.Dense {
	t.Helper()
	f, err := r.Scores()
	require.NoError(t, err)
	return f
}

// cls is r as a Classifier (the protocols choose among classifiers).
func cls(r *stkr.Regressor) *stkr.Classifier { return &stkr.Classifier{Regressor: *r} }

func relDiff(a, b mat.Matrix) float64 {
	r, c := b.Dims()
	var num, den float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			num = math.Max(num, math.Abs(a.At(i, j)-b.At(i, j)))
			den = math.Max(den, math.Abs(b.At(i, j)))
		}
	}
	return num / den
}

// smallProblem is a 60-node graph with one isolated node, 12 labelled
// nodes (including the isolated one) and 3 one-hot classes.
func smallProblem(t testing.TB) (*graph.CSR, []int, *mat.Dense) {
	g := randomGraph(t, 60, 90, true, 1)
	train := []int{0, 3, 7, 12, 18, 22, 30, 35, 41, 47, 53, 59}
	y := mat.NewDense(len(train), 3, nil)
	for p := range train {
		y.Set(p, p%3, 1)
	}
	return g, train, y
}

func randomGraph(t testing.TB, n, extra int, isolated bool, seed uint64) *graph.CSR {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	ring := n
	if isolated {
		ring = n - 1
	}
	var edges []graph.Edge
	for i := 0; i < ring; i++ {
		edges = append(edges, graph.Edge{U: i, V: (i + 1) % ring, W: 0.5 + rng.Float64()})
	}
	for k := 0; k < extra; k++ {
		u, v := rng.IntN(ring), rng.IntN(ring)
		if u != v {
			edges = append(edges, graph.Edge{U: u, V: v, W: 0.5 + rng.Float64()})
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateSum})
	require.NoError(t, err)
	return g
}

// closedFormTol and testTol are package stkr's test tolerances: the
// agreement required between the iterative estimators and the dense closed
// forms, relative to the largest prediction, and the solver tolerance of
// the comparisons (tight enough that the solve error stays well under it).
const (
	closedFormTol = 1e-8
	testTol       = 1e-13
)

// denseS builds S = D^{-1/2} W D^{-1/2} entry by entry from the graph's
// weights (zero row for an isolated node): independent of laplacian.
func denseS(g *graph.CSR) *mat.SymDense {
	n := g.Nodes()
	d := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d[i] += g.Weight(i, j)
		}
	}
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if w := g.Weight(i, j); w != 0 {
				s.SetSym(i, j, w/math.Sqrt(d[i]*d[j]))
			}
		}
	}
	return s
}

// denseGs returns G_s = N·V s(Λ) Vᵀ from a dense eigendecomposition of S.
func denseGs(t testing.TB, s *mat.SymDense, f func(float64) float64) *mat.Dense {
	t.Helper()
	n := s.SymmetricDim()
	var es mat.EigenSym
	require.True(t, es.Factorize(s, true))
	var v mat.Dense
	es.VectorsTo(&v)
	lam := es.Values(nil)
	vs := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			vs.Set(i, k, v.At(i, k)*f(lam[k]))
		}
	}
	var g mat.Dense
	g.Mul(vs, v.T())
	g.Scale(float64(n), &g)
	return &g
}

// denseSTKR solves eq. 7 densely: α = (G_s[n,n] + nβI)^{-1} y and
// F = G_s[:, train] α.
func denseSTKR(t testing.TB, gs *mat.Dense, train []int, y *mat.Dense, beta float64) (alpha, f *mat.Dense) {
	t.Helper()
	n := len(train)
	N, _ := gs.Dims()
	a := mat.NewDense(n, n, nil)
	gcols := mat.NewDense(N, n, nil)
	for p, i := range train {
		for q, j := range train {
			a.Set(p, q, gs.At(i, j))
		}
		a.Set(p, p, a.At(p, p)+float64(n)*beta)
		for r := 0; r < N; r++ {
			gcols.Set(r, p, gs.At(r, i))
		}
	}
	alpha = new(mat.Dense)
	require.NoError(t, alpha.Solve(a, y))
	f = new(mat.Dense)
	f.Mul(gcols, alpha)
	return alpha, f
}
