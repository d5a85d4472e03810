package graphkernels

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/svm"
)

// mustGraph builds an undirected unit-weight graph from an edge list.
func mustGraph(t testing.TB, n int, edges [][2]int) *graph.CSR {
	t.Helper()
	es := make([]graph.Edge, len(edges))
	for k, e := range edges {
		es[k] = graph.Edge{U: e[0], V: e[1], W: 1}
	}
	g, err := graph.FromEdges(n, es, graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop})
	require.NoError(t, err)
	return g
}

func cycle(t testing.TB, n int) *graph.CSR {
	var e [][2]int
	for i := 0; i < n; i++ {
		e = append(e, [2]int{i, (i + 1) % n})
	}
	return mustGraph(t, n, e)
}

func path(t testing.TB, n int) *graph.CSR {
	var e [][2]int
	for i := 0; i+1 < n; i++ {
		e = append(e, [2]int{i, i + 1})
	}
	return mustGraph(t, n, e)
}

func star(t testing.TB, leaves int) *graph.CSR {
	var e [][2]int
	for i := 1; i <= leaves; i++ {
		e = append(e, [2]int{0, i})
	}
	return mustGraph(t, leaves+1, e)
}

func twoTriangles(t testing.TB) *graph.CSR {
	return mustGraph(t, 6, [][2]int{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}})
}

// randomGraphs draws count random graphs of 1..maxN nodes, edge probability
// p, with labels in [0, labels).
func randomGraphs(t testing.TB, rng *rand.Rand, count, maxN int, p float64, labels int) []Graph {
	out := make([]Graph, count)
	for k := range out {
		n := 1 + rng.IntN(maxN)
		var e [][2]int
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < p {
					e = append(e, [2]int{i, j})
				}
			}
		}
		lab := make([]int, n)
		for i := range lab {
			lab[i] = rng.IntN(labels)
		}
		out[k] = Graph{Adj: mustGraph(t, n, e), Labels: lab}
	}
	return out
}

// psdTol is how far below zero the smallest eigenvalue of a Gram matrix of
// exact small integers (or of cosine-normalised ones) may fall through
// rounding in the eigensolver.
const psdTol = 1e-10

func minEigen(t testing.TB, k mat.Symmetric) float64 {
	t.Helper()
	var eig mat.EigenSym
	require.True(t, eig.Factorize(k, false))
	v := eig.Values(nil)
	return v[0]
}

// predictDecision returns the predicted classes and decision values of
// graphs (nil: the training graphs), from Decision and Votes.
func predictDecision(ctx context.Context, c *WLClassifier, graphs []Graph) ([]int, [][]float64, error) {
	dec, err := c.Decision(ctx, graphs)
	if err != nil {
		return nil, nil, err
	}
	if dec.IsEmpty() {
		return []int{}, [][]float64{}, nil
	}
	pred := estimator.Argmax(c.Votes(dec))
	r, _ := dec.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = append([]float64(nil), dec.RawRowView(i)...)
	}
	return pred, out, nil
}

// svcClasses is the predicted class of each row of cross: the most voted.
func svcClasses(s *svm.SVC, cross mat.Matrix) ([]int, error) {
	votes, err := s.Predict(context.Background(), cross)
	if err != nil {
		return nil, err
	}
	return estimator.Argmax(votes), nil
}
