package spectral

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
)

// TestComponentEigenmapAgainstDense: a random connected graph of 120
// nodes, shuffled among a 5-node path and isolated nodes. The component
// found is the big one (checked by a breadth-first search here), and its
// coordinates are the D-orthonormal eigenvectors of L_un f = λ D f from a
// dense eigendecomposition of the component's L_sym.
func TestComponentEigenmapAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	const big, total = 120, 130
	perm := rng.Perm(total)
	inner := randomGraph(rng, big, 240)
	var edges []graph.Edge
	for i := 0; i < big; i++ {
		cols, ws := inner.Row(i)
		for k, j := range cols {
			if i < int(j) {
				edges = append(edges, graph.Edge{U: perm[i], V: perm[j], W: ws[k]})
			}
		}
	}
	for i := big; i+1 < big+5; i++ {
		edges = append(edges, graph.Edge{U: perm[i], V: perm[i+1], W: 1})
	}
	g, err := graph.FromEdges(total, edges, graph.Options{})
	require.NoError(t, err)

	coords, nodes, err := ComponentEigenmap(context.Background(), g, &LaplacianEigenmap{Dim: 2, Eigen: Settings{Tol: solveTol, Seed: 3}})
	require.NoError(t, err)
	// Breadth-first search from a node of the big part.
	seen := map[int]bool{perm[0]: true}
	queue := []int{perm[0]}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		cols, _ := g.Row(u)
		for _, v := range cols {
			if !seen[int(v)] {
				seen[int(v)] = true
				queue = append(queue, int(v))
			}
		}
	}
	require.Len(t, nodes, big)
	for k := 1; k < big; k++ {
		require.Less(t, nodes[k-1], nodes[k])
	}
	for _, p := range nodes {
		require.True(t, seen[p], "node %d is not in the component", p)
	}

	sub, err := g.Induced(nodes)
	require.NoError(t, err)
	sym, _ := laplacian.New(sub.CSR, laplacian.Symmetric, laplacian.Options{})
	d := sym.Dense()
	s := mat.NewSymDense(big, nil)
	for i := 0; i < big; i++ {
		for j := i; j < big; j++ {
			s.SetSym(i, j, (d.At(i, j)+d.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	require.True(t, es.Factorize(s, true))
	var v mat.Dense
	es.VectorsTo(&v)
	deg := sub.CSR.Degrees()
	want := mat.NewDense(big, 2, nil)
	for l := 0; l < 2; l++ {
		for i := 0; i < big; i++ {
			want.Set(i, l, v.At(i, l+1)/math.Sqrt(deg[i]))
		}
	}
	fixSigns(want)
	require.True(t, mat.EqualApprox(want, coords, 1e-8))

	// Too small a component, and bad settings.
	tiny, err := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}}, graph.Options{})
	require.NoError(t, err)
	_, _, err = ComponentEigenmap(context.Background(), tiny, &LaplacianEigenmap{Dim: 2})
	require.True(t, errors.Is(err, ErrComponentTooSmall), "%v", err)
	_, _, err = ComponentEigenmap(context.Background(), g, &LaplacianEigenmap{Dim: -1})
	require.ErrorContains(t, err, "Dim = -1 is invalid")
	_, _, err = ComponentEigenmap(context.Background(), nil, &LaplacianEigenmap{})
	require.ErrorContains(t, err, "graph is nil")
}
