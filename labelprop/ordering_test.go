package labelprop

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/sharedtest"
)

// orderingTol bounds |F_rcm − F_natural|: renumbering changes only the
// order of the sums inside each product and dot product, so the two solves
// differ by rounding (about 1e-16 per operation, amplified by a few dozen
// CG iterations), far below the solver tolerance 1e-6.
const orderingTol = 1e-10

// plainCGIterationSlack is the difference in iteration counts allowed to
// plain CG on the harmonic system at tightTol, where rounding decides the
// last iteration or two (as between Go and scipy, BENCHMARKS.md).
const plainCGIterationSlack = 2

// fitBoth fits the model that newModel returns in the natural numbering and
// renumbered by reverse Cuthill–McKee, and checks that the caller sees the
// same answer: scores and probabilities to orderingTol, the same labels,
// iteration counts per class and node counts.
func fitBoth(t *testing.T, what string, g *graph.CSR, nodes, classes []int, newModel func(Ordering) Classifier) {
	t.Helper()
	tol, slack := orderingTol, 0
	if strings.HasPrefix(what, "harmonic-plain") {
		tol, slack = denseTol, plainCGIterationSlack
	}
	nat, rcm := newModel(NaturalOrdering), newModel(ReverseCuthillMcKee)
	require.NoError(t, nat.FitIndexed(context.Background(), g, nodes, classes), what)
	require.NoError(t, rcm.FitIndexed(context.Background(), g, nodes, classes), what)
	assert.LessOrEqual(t, maxAbsDiff(nat.Scores(), rcm.Scores()), tol, "%s: scores", what)
	assert.LessOrEqual(t, probabilityDiff(nat, rcm), tol, "%s: probabilities", what)
	assert.Equal(t, nat.Labels(), rcm.Labels(), "%s: labels", what)
	ni, ri := nat.Details(), rcm.Details()
	assert.InDelta(t, ni.Iterations, ri.Iterations, float64(slack), "%s: iterations", what)
	require.Len(t, ri.ClassIterations, len(ni.ClassIterations), what)
	for k := range ni.ClassIterations {
		assert.InDelta(t, ni.ClassIterations[k], ri.ClassIterations[k], float64(slack), "%s: iterations of class %d", what, k)
	}
	assert.Equal(t, ni.Unreached, ri.Unreached, "%s: unreached", what)
	assert.Equal(t, ni.Isolated, ri.Isolated, "%s: isolated", what)
}

// tinyRowShare is the share of the largest row sum of scores below which
// probabilityDiff weighs a row's difference down by its sum.
const tinyRowShare = 1e-6

// probabilityDiff returns the largest row sum of |P_a − P_b| over the
// probabilities of two fits, each row's weighed by min(1, s_i/(tinyRowShare·
// max s)), s_i its sum of |scores| in a: a row of scores near zero (far from
// every label) has probabilities that are a ratio of tiny numbers, whose
// rounding is that of the largest scores (the deflated CG adds its
// closed-form component to every row), amplified by 1/s_i.
func probabilityDiff(a, b Classifier) float64 {
	pa, pb, f := a.Probabilities(), b.Probabilities(), a.Scores()
	n, c := pa.Dims()
	sums := make([]float64, n)
	top := 0.0
	for i := range sums {
		for _, v := range f.RawRowView(i)[:c] {
			sums[i] += math.Abs(v)
		}
		top = math.Max(top, sums[i])
	}
	worst := 0.0
	for i := 0; i < n; i++ {
		d := 0.0
		for j := 0; j < c; j++ {
			d += math.Abs(pa.At(i, j) - pb.At(i, j))
		}
		if top > 0 {
			d *= math.Min(1, sums[i]/(tinyRowShare*top))
		}
		worst = math.Max(worst, d)
	}
	return worst
}

func orderingModels(c int) map[string]func(Ordering) Classifier {
	return map[string]func(Ordering) Classifier{
		"spreading-cg": func(o Ordering) Classifier {
			return &Spreading{Alpha: 0.9, Classes: c, Ordering: o, ClassMassNormalization: true}
		},
		"spreading-fixed-point": func(o Ordering) Classifier {
			return &Spreading{Alpha: 0.9, Classes: c, Solver: FixedPoint, Ordering: o}
		},
		"harmonic-jacobi": func(o Ordering) Classifier { return &Harmonic{Classes: c, Ordering: o} },
		// Plain CG on the harmonic system runs hundreds of iterations on an
		// ill-conditioned L_uu, where rounding differences grow to the size
		// of the solver's error (2.7e-7 at tol 1e-6 on the 0/1 graph):
		// it is compared at tightTol, where both numberings are within
		// denseTol of the exact solution (fitBoth then asks only denseTol).
		"harmonic-plain": func(o Ordering) Classifier {
			return &Harmonic{Classes: c, Ordering: o, Preconditioner: NoPreconditioner, Tol: tightTol}
		},
	}
}

func TestOrderingMatchesNatural(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 5))
	for trial := 0; trial < 3; trial++ {
		// Weighted, several components, an isolated node, a self loop.
		p := randomProblem(rng, 3)
		for name, newModel := range orderingModels(p.c) {
			fitBoth(t, fmt.Sprintf("%s, random problem %d", name, trial), p.g, p.nodes, p.classes, newModel)
		}
	}
	// A 0/1 graph large enough for the parallel passes (nnz + n·c > 131 072).
	g, nodes, classes := unweightedProblem(rng, 10000, 4)
	require.Greater(t, g.NNZ()+4*g.Nodes(), spreadParallelWork)
	for name, newModel := range orderingModels(4) {
		fitBoth(t, name+", 0/1 graph of 10000 nodes", g, nodes, classes, newModel)
	}
}

func TestReorderedSpreadingMatchesDenseLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 5))
	p := randomProblem(rng, 3)
	for _, a := range []float64{0.5, 0.99} {
		want := denseSpreading(t, p, a)
		for _, solver := range []Solver{CG, FixedPoint, Chebyshev} {
			m := Spreading{Alpha: a, Solver: solver, Tol: tightTol, Ordering: ReverseCuthillMcKee}
			require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
			assert.LessOrEqual(t, maxAbsDiff(want, m.Scores()), denseTol, "a=%v %v", a, solver)
		}
	}
	h := Harmonic{Tol: tightTol, Ordering: ReverseCuthillMcKee}
	require.NoError(t, h.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
	assert.LessOrEqual(t, maxAbsDiff(denseHarmonic(t, p), h.Scores()), denseTol, "harmonic")
}

func TestPubMedOrderingKeepsIterations(t *testing.T) {
	ds, cls := loadPlanetoid(t, sharedtest.Data(t, "pubmed"))
	for _, a := range AlphaGrid() {
		for _, solver := range []Solver{CG, Chebyshev} {
			fitBoth(t, fmt.Sprintf("PubMed spreading %v a=%v", solver, a), ds.Graph, ds.Split.Train, cls, func(o Ordering) Classifier {
				return &Spreading{Alpha: a, Classes: ds.Classes, Ordering: o, Solver: solver}
			})
		}
	}
	fitBoth(t, "PubMed harmonic", ds.Graph, ds.Split.Train, cls, func(o Ordering) Classifier {
		return &Harmonic{Classes: ds.Classes, Ordering: o}
	})
}

func TestOrderingValidation(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	p := randomProblem(rng, 2)
	for _, m := range []Classifier{&Spreading{Alpha: 0.5, Ordering: 2}, &Harmonic{Ordering: -1}} {
		err := m.FitIndexed(context.Background(), p.g, p.nodes, p.classes)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "Ordering = ")
		assert.Contains(t, err.Error(), "is invalid")
	}
	for _, o := range []Ordering{NaturalOrdering, ReverseCuthillMcKee} {
		got, err := ParseOrdering(o.String())
		require.NoError(t, err)
		assert.Equal(t, o, got)
	}
	_, err := ParseOrdering("metis")
	assert.ErrorContains(t, err, `unknown ordering "metis"`)
}
