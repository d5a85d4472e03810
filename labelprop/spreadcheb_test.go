package labelprop

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/krylov"
)

// trueResidualTol bounds the difference between the relative residual the
// Chebyshev solver reports and the one recomputed densely from its answer:
// both are the same quantity evaluated with different rounding (sums in
// another order, S applied as D^{-1/2}WD^{-1/2} instead of formed), a few
// ulps of ‖b‖ per entry, far below the 1e-6 being checked.
const trueResidualTol = 1e-12

// denseRelResidual returns ‖b_j − (I − aS)x_j‖/‖b_j‖ per column, with S
// built densely from W (zero rows and columns for isolated nodes).
func denseRelResidual(g *graph.CSR, a float64, b, x *mat.Dense) []float64 {
	w := g.Dense()
	n, c := b.Dims()
	isq := make([]float64, n)
	for i := range isq {
		if d := mat.Sum(w.RowView(i)); d > 0 {
			isq[i] = 1 / math.Sqrt(d)
		}
	}
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := -a * isq[i] * w.At(i, j) * isq[j]
			if i == j {
				v++
			}
			m.Set(i, j, v)
		}
	}
	var r mat.Dense
	r.Mul(m, x)
	r.Sub(b, &r)
	out := make([]float64, c)
	for j := range out {
		out[j] = mat.Norm(r.ColView(j), 2) / mat.Norm(b.ColView(j), 2)
	}
	return out
}

// TestSpreadingChebyshevMatchesDenseLU checks the Chebyshev path of Fit
// against mat.LU on weighted graphs with three components, a self loop and
// an isolated node, on a 0/1 graph with isolated nodes (the pattern-only
// gather), and with an isolated labelled node kept as a seed.
func TestSpreadingChebyshevMatchesDenseLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	var probs []problem
	for trial := 0; trial < 3; trial++ {
		probs = append(probs, randomProblem(rng, 2+trial))
	}
	probs = append(probs, randomProblem(rng, 7))        // the unrolled rows for 7 classes
	g, nodes, classes := unweightedProblem(rng, 300, 3) // c = 3: the unrolled rows
	probs = append(probs, problem{g: g, nodes: nodes, classes: classes, c: 3})
	for k, p := range probs {
		for _, a := range []float64{0.5, 0.9, 0.99} {
			want := denseSpreading(t, p, a)
			m := Spreading{Alpha: a, Solver: Chebyshev, Tol: tightTol}
			require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
			assert.Less(t, maxAbsDiff(m.Scores(), want), denseTol, "problem %d a=%v", k, a)
		}
	}
	// An isolated labelled node kept as a seed: its row of F is its own
	// (1 − a)·y, the rest as if it were absent.
	p := probs[0]
	p.nodes = append(append([]int(nil), p.nodes...), p.isolated)
	p.classes = append(append([]int(nil), p.classes...), 1)
	want := denseSpreading(t, p, 0.9)
	m := Spreading{Alpha: 0.9, Solver: Chebyshev, Tol: tightTol, IsolatedSeeds: IsolatedSeedKeep}
	require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
	assert.Less(t, maxAbsDiff(m.Scores(), want), denseTol)
	assert.InDelta(t, 0.1, m.Scores().At(p.isolated, 1), denseTol)
}

// TestSpreadingChebyshevIterations checks, against quantities computed
// independently: the iteration count is within the Chebyshev bound
// T_k(1/a) ≥ 1/tol; the reported relative residual of every class is at
// most Tol and equals the one recomputed densely from the answer; the
// answer is within the residual bound of CG's at the default tolerance
// (both stop at relative residual 1e-6, so each is within
// tol‖b‖/(1 − a) of F* in 2-norm); and one goroutine and several give
// bitwise the same answer.
func TestSpreadingChebyshevIterations(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 2))
	type instance struct {
		name           string
		g              *graph.CSR
		nodes, classes []int
		c              int
	}
	var cases []instance
	for trial := 0; trial < 2; trial++ {
		p := randomProblem(rng, 2+2*trial) // c = 2 and 4: graph's kernels and the flat loop
		cases = append(cases, instance{"weighted", p.g, p.nodes, p.classes, p.c})
	}
	g, nodes, classes := unweightedProblem(rng, 11000, 3)
	require.Greater(t, g.NNZ()+3*g.Nodes(), spreadParallelWork, "the large case must exercise the parallel passes")
	cases = append(cases, instance{"unweighted", g, nodes, classes, 3})
	g5, nodes5, classes5 := unweightedProblem(rng, 9000, 5)
	cases = append(cases, instance{"unweighted c=5", g5, nodes5, classes5, 5})
	p7 := randomProblem(rng, 7) // the unrolled rows for 7 classes, weighted
	cases = append(cases, instance{"weighted c=7", p7.g, p7.nodes, p7.classes, 7})
	g7, nodes7, classes7 := unweightedProblem(rng, 9000, 7)
	cases = append(cases, instance{"unweighted c=7", g7, nodes7, classes7, 7})
	// Large weighted graphs: the SELL kernels' weighted gathers.
	cases = append(cases, instance{"weighted n=9000 c=3", reweighted(t, g), nodes, classes, 3},
		instance{"weighted n=9000 c=7", reweighted(t, g7), nodes7, classes7, 7})
	for _, in := range cases {
		n := in.g.Nodes()
		for _, a := range []float64{0.5, 0.9, 0.99} {
			b := oneHot(n, in.c, a, in.nodes, in.classes)
			want, _ := blockCGReference(t, in.g, a, b, DefaultTol)
			bound := chebyshevBound(a, DefaultTol)
			var first *mat.Dense
			for _, serial := range []bool{true, false} {
				f := mat.NewDense(n, in.c, nil)
				ch, err := newSpreadingChebyshev(in.g, a, b, f, krylov.Settings{})
				require.NoError(t, err)
				ch.serial = serial
				res, err := ch.run(context.Background())
				require.NoError(t, err)
				for j, it := range res.Iterations {
					assert.LessOrEqual(t, it, bound, "%s a=%v class %d", in.name, a, j)
					assert.Greater(t, it, 0)
				}
				assert.Equal(t, slicesMax(res.Iterations), res.Products, "one product per iteration from x_0 = 0")
				if n < 1000 {
					dense := denseRelResidual(in.g, a, b, f)
					for j, r := range res.Residual {
						assert.LessOrEqual(t, r, DefaultTol, "column %d", j)
						assert.InDelta(t, dense[j], r, trueResidualTol, "%s a=%v column %d", in.name, a, j)
					}
				}
				var d mat.Dense
				d.Sub(f, want)
				for j := 0; j < in.c; j++ {
					limit := 2 * DefaultTol * mat.Norm(b.ColView(j), 2) / (1 - a)
					assert.LessOrEqual(t, mat.Norm(d.ColView(j), 2), limit, "%s a=%v class %d: Chebyshev against CG", in.name, a, j)
				}
				if first == nil {
					first = f
				} else {
					assert.True(t, bitwiseEqual(first, f), "%s a=%v: serial and parallel passes differ", in.name, a)
				}
			}
		}
	}
}

// bitwiseEqual reports whether a and b hold the same bits in every entry.
func bitwiseEqual(a, b *mat.Dense) bool {
	ar, ac := a.Dims()
	if br, bc := b.Dims(); ar != br || ac != bc {
		return false
	}
	for i := 0; i < ar; i++ {
		for j := 0; j < ac; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// reweighted returns g with the weight of edge {u, v} set to
// 1 + ((u+v) mod 7)/4: the same pattern, weights that differ between edges.
func reweighted(t *testing.T, g *graph.CSR) *graph.CSR {
	t.Helper()
	var edges []graph.Edge
	g.ForEachEdge(func(u, v int, _ float64) {
		edges = append(edges, graph.Edge{U: u, V: v, W: 1 + float64((u+v)%7)/4})
	})
	w, err := graph.FromEdges(g.Nodes(), edges, graph.Options{})
	require.NoError(t, err)
	require.False(t, w.UnitWeights())
	return w
}

func slicesMax(v []int) int {
	m := v[0]
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// TestSpreadingChebyshevStartAndCap checks a nonzero initial guess (the
// exact answer converges at once; an inexact one converges to the same F)
// and the iteration cap: a NotConvergedError whose residual is that of the
// iterate left in F (recomputed densely).
func TestSpreadingChebyshevStartAndCap(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3))
	p := randomProblem(rng, 3)
	n, a := p.g.Nodes(), 0.95
	b := oneHot(n, p.c, a, p.nodes, p.classes)
	want := denseSpreading(t, p, a)

	f := mat.DenseCopyOf(want)
	ch, err := newSpreadingChebyshev(p.g, a, b, f, krylov.Settings{})
	require.NoError(t, err)
	res, err := ch.run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []int{0, 0, 0}, res.Iterations, "the exact answer as the start needs no iteration")
	assert.Equal(t, 1, res.Products)

	f = mat.DenseCopyOf(want)
	f.Scale(0.5, f)
	ch, err = newSpreadingChebyshev(p.g, a, b, f, krylov.Settings{Tol: tightTol})
	require.NoError(t, err)
	_, err = ch.run(context.Background())
	require.NoError(t, err)
	assert.Less(t, maxAbsDiff(f, want), denseTol)

	f = mat.NewDense(n, p.c, nil)
	ch, err = newSpreadingChebyshev(p.g, a, b, f, krylov.Settings{MaxIter: 4})
	require.NoError(t, err)
	res, err = ch.run(context.Background())
	var nc *krylov.NotConvergedError
	require.ErrorAs(t, err, &nc)
	assert.Equal(t, 4, nc.Iterations)
	dense := denseRelResidual(p.g, a, b, f)
	for j := range dense {
		assert.InDelta(t, dense[j], res.Residual[j], trueResidualTol, "column %d: the reported residual is that of the iterate kept", j)
	}
	assert.InDelta(t, slicesMaxF(dense), nc.Residual, trueResidualTol)
}

func slicesMaxF(v []float64) float64 {
	m := v[0]
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

// TestSpreadingChebyshevBadInput checks the errors of the solver's own
// checks (Fit validates a and the labels before).
func TestSpreadingChebyshevBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 4))
	p := randomProblem(rng, 2)
	n := p.g.Nodes()
	b := mat.NewDense(n, 2, nil)
	_, err := newSpreadingChebyshev(p.g, 0.5, b, mat.NewDense(n+1, 2, nil), krylov.Settings{})
	assert.ErrorContains(t, err, "X is")
	_, err = newSpreadingChebyshev(p.g, 0.5, mat.NewDense(n, 3, nil), mat.NewDense(n, 2, nil), krylov.Settings{})
	assert.ErrorContains(t, err, "B is")
	for _, a := range []float64{0, 1, -1, math.NaN()} {
		_, err = newSpreadingChebyshev(p.g, a, b, mat.NewDense(n, 2, nil), krylov.Settings{})
		assert.ErrorContains(t, err, "it must be inside the open interval (0, 1)", "a=%v", a)
	}
	m := Spreading{Alpha: 1, Solver: Chebyshev}
	assert.ErrorContains(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes), "Alpha = 1 is invalid")
	// A zero right-hand side column (a class with no label, reachable only
	// through the solver's own entry point) has the zero solution.
	f := mat.NewDense(n, 2, nil)
	f.Set(0, 1, 3)
	b.Set(p.nodes[0], 0, 0.5)
	ch, err := newSpreadingChebyshev(p.g, 0.5, b, f, krylov.Settings{})
	require.NoError(t, err)
	res, err := ch.run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 0.0, mat.Norm(f.ColView(1), math.Inf(1)))
	assert.Equal(t, 0.0, res.Residual[1])
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ch, err = newSpreadingChebyshev(p.g, 0.5, b, mat.NewDense(n, 2, nil), krylov.Settings{})
	require.NoError(t, err)
	_, err = ch.run(ctx)
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
}
