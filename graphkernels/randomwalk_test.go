package graphkernels

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// kroneckerKernel forms P(A ⊗ A')P explicitly and solves (I − λA×)x = P1
// with a dense LU: the reference the vec-trick CG must match.
func kroneckerKernel(t *testing.T, g, h Graph, lambda float64) float64 {
	a, b := g.Adj.Dense(), h.Adj.Dense()
	var kron mat.Dense
	kron.Kronecker(a, b)
	n, m := g.Adj.Nodes(), h.Adj.Nodes()
	N := n * m
	mask := make([]float64, N)
	for u := 0; u < n; u++ {
		for v := 0; v < m; v++ {
			if g.label(u) == h.label(v) {
				mask[u*m+v] = 1
			}
		}
	}
	sys := mat.NewDense(N, N, nil)
	for i := 0; i < N; i++ {
		for j := 0; j < N; j++ {
			v := -lambda * mask[i] * kron.At(i, j) * mask[j]
			if i == j {
				v++
			}
			sys.Set(i, j, v)
		}
	}
	x := mat.NewVecDense(N, nil)
	require.NoError(t, x.SolveVec(sys, mat.NewVecDense(N, mask)))
	return mat.Sum(x)
}

// rwTol: CG stops at relative residual 1e-10; the kernel value (a sum of
// n·n' entries) is then accurate to about that, relative.
const rwTol = 1e-8

func TestRandomWalkMatchesKroneckerSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	graphs := randomGraphs(t, rng, 10, 7, 0.4, 2)
	const lambda = 0.05
	rw := &RandomWalk{Lambda: lambda}
	k, err := FitGram(context.Background(), rw, graphs)
	require.NoError(t, err)
	for i := range graphs {
		for j := range graphs {
			want := kroneckerKernel(t, graphs[i], graphs[j], lambda)
			assert.InDelta(t, want, k.At(i, j), rwTol*want, "K[%d,%d]", i, j)
		}
	}
	// Transform against a separate set, with weights other than 1.
	test := randomGraphs(t, rng, 4, 6, 0.5, 3)
	cross, self, err := rw.Cross(context.Background(), test)
	require.NoError(t, err)
	for i := range test {
		want := kroneckerKernel(t, test[i], test[i], lambda)
		assert.InDelta(t, want, self[i], rwTol*want)
		for j := range graphs {
			want := kroneckerKernel(t, test[i], graphs[j], lambda)
			assert.InDelta(t, want, cross.At(i, j), rwTol*want+1e-300)
		}
	}
}

func TestRandomWalkDecayTooLarge(t *testing.T) {
	// A triangle has ρ(A) = 2, so ρ(A⊗A) = 4 and λ must stay below 1/4.
	tri := Graph{Adj: cycle(t, 3)}
	_, err := FitGram(context.Background(), (&RandomWalk{Lambda: 0.25}), []Graph{tri})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "training graphs 0 and 0")
	assert.Contains(t, err.Error(), "Lambda=0.25 is invalid: it must be below 1/ρ(A×) = 0.25")
	_, err = FitGram(context.Background(), (&RandomWalk{Lambda: 0.249}), []Graph{tri})
	require.NoError(t, err)

	// With labels, the filtered product can be smaller than the bound
	// ρ(A)ρ(A') = 4. A triangle labelled 0, 1, 1 against itself matches the
	// pairs 00, 11, 12, 21, 22; in A×, 00 is joined to the other four and
	// 11–22, 12–21, so ρ(A×) = (1 + √17)/2 ≈ 2.56: λ = 0.3 > 1/4 is valid and
	// λ = 0.4 > 1/2.56 is not.
	a := Graph{Adj: cycle(t, 3), Labels: []int{0, 1, 1}}
	b := Graph{Adj: cycle(t, 3), Labels: []int{0, 0, 1}}
	k, err := FitGram(context.Background(), (&RandomWalk{Lambda: 0.3}), []Graph{a, b})
	require.NoError(t, err)
	for i, g := range []Graph{a, b} {
		for j, h := range []Graph{a, b} {
			want := kroneckerKernel(t, g, h, 0.3)
			assert.InDelta(t, want, k.At(i, j), rwTol*want)
		}
	}
	_, err = FitGram(context.Background(), (&RandomWalk{Lambda: 0.4}), []Graph{a, b})
	require.ErrorContains(t, err, "training graphs 0 and 0: Lambda=0.4 is invalid: it must be below 1/ρ(A×) = 0.390388 (ρ(A×) = 2.56155)")

	// Transform checks new pairs too.
	small := &RandomWalk{Lambda: 0.2}
	_, err = FitGram(context.Background(), small, []Graph{{Adj: path(t, 2)}})
	require.NoError(t, err)
	_, _, err = small.Cross(context.Background(), []Graph{{Adj: star(t, 8)}})
	require.ErrorContains(t, err, "new graph 0 with itself")
}
