package labelprop

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/krylov"
)

// blockCGAgreeTol bounds |F_fused − F_BlockCG| at the default tolerance
// 1e-6: both run the same CG recurrences and differ only by rounding (S
// applied as D^{-1/2}·W·D^{-1/2}p̃ instead of a precomputed S, sums in
// another order), which perturbs iterates by a few ulps per step, far below
// the 1e-6 the iterations stop at.
const blockCGAgreeTol = 1e-10

// unweightedProblem is a random 0/1 graph on n nodes (a random tree plus
// about 4n random edges, no self loops, two isolated nodes) with c classes
// and 5 labelled nodes per class, large enough for the parallel passes.
func unweightedProblem(rng *rand.Rand, n, c int) (*graph.CSR, []int, []int) {
	var edges []graph.Edge
	for i := 1; i < n-2; i++ {
		edges = append(edges, graph.Edge{U: i, V: rng.IntN(i), W: 1})
	}
	for k := 0; k < 4*n; k++ {
		if u, v := rng.IntN(n-2), rng.IntN(n-2); u != v {
			edges = append(edges, graph.Edge{U: u, V: v, W: 1})
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax})
	if err != nil {
		panic(err)
	}
	var nodes, classes []int
	for k, v := range rng.Perm(n - 2)[:5*c] {
		nodes, classes = append(nodes, v), append(classes, k%c)
	}
	return g, nodes, classes
}

// blockCGReference solves (I − aS)F = B by krylov.BlockCG on S built as a
// graph, the generic path the fused solver replaces.
func blockCGReference(t *testing.T, g *graph.CSR, a float64, b *mat.Dense, tol float64) (*mat.Dense, krylov.BlockResult) {
	sg, err := normalizedAdjacency(g)
	require.NoError(t, err)
	n, c := b.Dims()
	f := mat.NewDense(n, c, nil)
	res, err := krylov.BlockCG(context.Background(), newSpreadingOperator(sg, a), b, f, krylov.Settings{Tol: tol})
	require.NoError(t, err)
	return f, res
}

func oneHot(n, c int, a float64, nodes, classes []int) *mat.Dense {
	b := mat.NewDense(n, c, nil)
	for k, v := range nodes {
		b.Set(v, classes[k], 1-a)
	}
	return b
}

// TestSpreadingCGMatchesBlockCG checks the fused solver, without its
// deflation, against krylov.BlockCG: the same iteration count for every class, the same F to
// rounding, and bitwise the same answer on one goroutine and on several.
func TestSpreadingCGMatchesBlockCG(t *testing.T) {
	defer func(v bool) { spreadDeflate = v }(spreadDeflate)
	spreadDeflate = false // the plain recursion (TestSpreadingCGDeflation checks the deflated one)
	rng := rand.New(rand.NewPCG(9, 2))
	type instance struct {
		name           string
		g              *graph.CSR
		nodes, classes []int
		c              int
	}
	var cases []instance
	for trial := 0; trial < 3; trial++ {
		p := randomProblem(rng, 2+trial)
		cases = append(cases, instance{"weighted", p.g, p.nodes, p.classes, p.c})
	}
	g, nodes, classes := unweightedProblem(rng, 11000, 3)
	require.True(t, g.UnitWeights())
	require.Greater(t, g.NNZ()+3*g.Nodes(), spreadParallelWork, "the large case must exercise the parallel passes")
	cases = append(cases, instance{"unweighted", g, nodes, classes, 3})
	for _, in := range cases {
		n := in.g.Nodes()
		for _, a := range []float64{0.5, 0.9, 0.99} {
			b := oneHot(n, in.c, a, in.nodes, in.classes)
			want, wres := blockCGReference(t, in.g, a, b, DefaultTol)
			var first *mat.Dense
			for _, serial := range []bool{true, false} {
				f := mat.NewDense(n, in.c, nil)
				cg, err := newSpreadingCG(in.g, a, b, f, krylov.Settings{Tol: DefaultTol})
				require.NoError(t, err)
				cg.Serial = serial
				res, err := cg.run(context.Background())
				require.NoError(t, err)
				assert.Equal(t, wres.Iterations, res.Iterations, "%s n=%d a=%v serial=%v", in.name, n, a, serial)
				// the same products less the final true residual, which the
				// bound of resbound.go replaces
				assert.Equal(t, wres.Products-1, res.Products)
				assert.NotNil(t, cg.gap, "the solve ends by the bound")
				for j, r := range res.Residual {
					assert.LessOrEqual(t, r, DefaultTol, "column %d", j)
				}
				assert.Less(t, maxAbsDiff(f, want), blockCGAgreeTol, "%s n=%d a=%v serial=%v", in.name, n, a, serial)
				if first == nil {
					first = f
				} else {
					assert.True(t, mat.Equal(first, f), "%s: serial and parallel passes differ", in.name)
				}
			}
		}
	}
}

// TestUnweightedSpreadingMatchesDenseLU checks Fit on a 0/1 graph (the
// pattern-only product path) against a dense LU solve.
func TestUnweightedSpreadingMatchesDenseLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	g, nodes, classes := unweightedProblem(rng, 300, 4)
	require.True(t, g.UnitWeights())
	p := problem{g: g, nodes: nodes, classes: classes, c: 4}
	for _, a := range []float64{0.5, 0.99} {
		want := denseSpreading(t, p, a)
		m := Spreading{Alpha: a, Tol: tightTol, Solver: CG}
		require.NoError(t, m.FitIndexed(context.Background(), g, nodes, classes))
		assert.Less(t, maxAbsDiff(m.Scores(), want), denseTol, "a=%v", a)
		assert.Equal(t, 2, m.Details().Isolated)
	}
}

// TestSpreadingCGPanels checks the column panels of the CG blocks: every
// panel width gives bitwise the iterates, counts and residuals of one
// row-major block (each column's arithmetic and sums are the same), on a
// weighted graph and on a 0/1 graph large enough for the SELL kernels and
// the parallel passes, from a zero and from a nonzero initial guess; and
// the widths spreadPanels chooses.
func TestSpreadingCGPanels(t *testing.T) {
	defer func(v bool) { spreadGather32 = v }(spreadGather32)
	spreadGather32 = false // the float64 layouts compared bitwise; TestSpreadingCGGather32 checks the float32 gather copy
	rng := rand.New(rand.NewPCG(3, 11))
	p := randomProblem(rng, 5)
	g, nodes, classes := unweightedProblem(rng, 9000, 7)
	require.True(t, g.SlicedRows(0, graph.RowWindow, 3) || !g.UnitWeights(), "the 0/1 case should run the SELL kernels where the CPU has them")
	for _, in := range []problem{p, {g: g, nodes: nodes, classes: classes, c: 7}} {
		n := in.g.Nodes()
		b := denseRHS(oneHot(n, in.c, 0.9, in.nodes, in.classes))
		guess := mat.NewDense(n, in.c, nil)
		for i := 0; i < n; i += 7 {
			guess.Set(i, i%in.c, 0.01*float64(i%5))
		}
		for _, start := range []*mat.Dense{nil, guess} {
			solve := func(width int) (*mat.Dense, krylov.BlockResult) {
				f := mat.NewDense(n, in.c, nil)
				if start != nil {
					f.Copy(start)
				}
				cg, err := newCGPanels(in.g, 0.9, b, f, krylov.Settings{Tol: 1e-10}, nil, nil, width)
				require.NoError(t, err)
				if width > 0 {
					require.Len(t, cg.panels, (in.c+width-1)/width)
				}
				res, err := cg.run(context.Background())
				require.NoError(t, err)
				return f, res
			}
			want, wres := solve(in.c)
			for w := 1; w < in.c; w++ {
				f, res := solve(w)
				assert.True(t, mat.Equal(want, f), "c=%d width %d: F differs from the row-major block's", in.c, w)
				assert.Equal(t, wres, res, "c=%d width %d", in.c, w)
			}
		}
	}
	require.Equal(t, []panel{{0, 5}}, spreadPanels(spreadPanelsDefault/8, 5, 0), "panels are off by default")
	defer func(v int) { spreadPanelBytes = v }(spreadPanelBytes)
	spreadPanelBytes = spreadPanelsDefault
	mib := 1 << 20
	cases := []struct {
		n, c int
		want []panel
	}{
		{1000, 5, []panel{{0, 5}}}, // fits: one block
		{spreadPanelBytes / 8, 5, []panel{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}}},
		{spreadPanelBytes / 16, 5, []panel{{0, 2}, {2, 2}, {4, 1}}},
		{spreadPanelBytes / 24, 7, []panel{{0, 3}, {3, 2}, {5, 2}}},
		{spreadPanelBytes/8 + 1, 5, []panel{{0, 5}}},     // no column fits
		{spreadPanelBytes / (8 * 5), 5, []panel{{0, 5}}}, // the block fits
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, spreadPanels(tc.n, tc.c, 0), "n=%d c=%d (panel budget %d MiB)", tc.n, tc.c, spreadPanelBytes/mib)
	}
}

// TestSpreadingCGSegments checks that the product by column segments
// gives the one-pass product's solve bit for bit (F and every counter), on
// a 0/1 graph (SELL kernels where the CPU has them) and a weighted one,
// from zero and from a guess, and the segment counts spreadSegments
// chooses.
func TestSpreadingCGSegments(t *testing.T) {
	defer func(v bool) { spreadGather32 = v }(spreadGather32)
	spreadGather32 = false // the float64 layouts compared bitwise; TestSpreadingCGGather32 checks the float32 gather copy
	rng := rand.New(rand.NewPCG(5, 13))
	p := randomProblem(rng, 5)
	g, nodes, classes := unweightedProblem(rng, 9000, 7)
	defer func(bytes, most int) { spreadSegmentBytes, spreadMaxSegments = bytes, most }(spreadSegmentBytes, spreadMaxSegments)
	for _, in := range []problem{p, {g: g, nodes: nodes, classes: classes, c: 7}} {
		n := in.g.Nodes()
		b := denseRHS(oneHot(n, in.c, 0.9, in.nodes, in.classes))
		guess := mat.NewDense(n, in.c, nil)
		for i := 0; i < n; i += 7 {
			guess.Set(i, i%in.c, 0.01*float64(i%5))
		}
		for _, start := range []*mat.Dense{nil, guess} {
			solve := func(k int) (*mat.Dense, krylov.BlockResult) {
				spreadSegmentBytes, spreadMaxSegments = 0, 64
				if k > 1 {
					spreadSegmentBytes = (8*n*in.c + k - 1) / k
				}
				f := mat.NewDense(n, in.c, nil)
				if start != nil {
					f.Copy(start)
				}
				cg, err := newCGRHS(in.g, 0.9, b, f, krylov.Settings{Tol: 1e-10})
				require.NoError(t, err)
				if k > 1 {
					require.NotNil(t, cg.seg)
					require.Equal(t, k, cg.seg.Len())
				} else {
					require.Nil(t, cg.seg)
				}
				res, err := cg.run(context.Background())
				require.NoError(t, err)
				return f, res
			}
			want, wres := solve(1)
			for _, k := range []int{2, 3, 5} {
				f, res := solve(k)
				assert.True(t, mat.Equal(want, f), "c=%d, %d segments: F differs from the one-pass product's", in.c, k)
				assert.Equal(t, wres, res, "c=%d, %d segments", in.c, k)
			}
		}
	}
	spreadSegmentBytes, spreadMaxSegments = 8<<20, 8
	for _, tc := range []struct{ n, c, want int }{
		{1000, 5, 1},        // fits
		{1 << 20, 1, 1},     // 8 MiB: fits
		{1<<20 + 1, 1, 2},   // just above
		{1_000_000, 5, 5},   // the 10 M-edge graph: 40 MB
		{10_000_000, 10, 1}, // the 100 M-edge graph: 96 segments, too many
		{1 << 20, 9, 1},     // 9 segments
		{1 << 20, 8, 8},     // 8
	} {
		assert.Equal(t, tc.want, spreadSegments(tc.n, tc.c), "n=%d c=%d", tc.n, tc.c)
	}
}

// TestSpreadingCGSupport checks that the products which skip p̃'s zero rows
// (the first iterations from a few labels: pushed from the support or
// pulled over the rows), and those which compute only the rows near its
// support (nearProduct), leave the solve bitwise the same (F and every
// counter) as full products, with and without column segments, from zero
// and from a guess, and that they ran.
func TestSpreadingCGSupport(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 17))
	p := randomProblem(rng, 5)
	g, nodes, classes := unweightedProblem(rng, 20000, 5)
	defer func(share, near, bytes, push int) {
		spreadSupportShare, spreadNearShare, spreadSegmentBytes, spreadPushShare = share, near, bytes, push
	}(spreadSupportShare, spreadNearShare, spreadSegmentBytes, spreadPushShare)
	for _, in := range []problem{p, {g: g, nodes: nodes[:6], classes: classes[:6], c: 5}} {
		n := in.g.Nodes()
		b := denseRHS(oneHot(n, in.c, 0.9, in.nodes, in.classes))
		guess := mat.NewDense(n, in.c, nil)
		for i := 0; i < n; i += 7 {
			guess.Set(i, i%in.c, 0.01*float64(i%5))
		}
		for _, start := range []*mat.Dense{nil, guess} {
			for _, segBytes := range []int{0, (8*n*in.c + 2) / 3} {
				solve := func(share, near int) (*mat.Dense, krylov.BlockResult, *spreadingCG) {
					spreadSupportShare, spreadNearShare, spreadSegmentBytes = share, near, segBytes
					f := mat.NewDense(n, in.c, nil)
					if start != nil {
						f.Copy(start)
					}
					cg, err := newCGRHS(in.g, 0.9, b, f, krylov.Settings{Tol: 1e-10})
					require.NoError(t, err)
					res, err := cg.run(context.Background())
					require.NoError(t, err)
					return f, res, cg
				}
				want, wres, full := solve(0, 0)
				require.Zero(t, full.supportProducts+full.nearProducts)
				what := fmt.Sprintf("n=%d, segments %d B, guess %v", n, segBytes, start != nil)
				for _, tc := range []struct{ near, push int }{{0, 0}, {0, 1}, {8, 0}, {8, 1}} {
					near := tc.near
					spreadPushShare = tc.push // 0: pull over the rows; 1: push from the support
					f, res, cg := solve(4, near)
					assert.True(t, mat.Equal(want, f), "%s, near share %d, push share %d: F differs from the full products'", what, near, tc.push)
					assert.Equal(t, wres, res, "%s, near share %d, push share %d", what, near, tc.push)
					if start == nil && n == 20000 {
						assert.GreaterOrEqual(t, cg.supportProducts+cg.nearProducts, 2, "few seeds on a large sparse graph: the first products skip zero rows")
						assert.Equal(t, tc.push == 1, cg.pushProducts > 0, "push share %d", tc.push)
						if near > 0 {
							assert.GreaterOrEqual(t, cg.nearProducts, 1, "the first products compute the rows near the seeds only")
						} else {
							assert.Zero(t, cg.nearProducts)
						}
					}
				}
			}
		}
	}
}

// TestSpreadingCGDeflation checks the deflated CG (deflate.go) against
// independent references: a dense LU solve at a tight tolerance; at the
// default tolerance the true relative residual of the assembled F on the
// original system, recomputed with krylov's generic operator (S built as a
// graph), within the tolerance for every class, and no more iterations
// than the plain recursion; F exactly zero on the components without a
// label (the isolated node, the unlabelled block) as the plain solve's;
// bitwise the same F on one goroutine and on several, from zero and from a
// guess; and a solve of a right-hand side along e, done at its first
// residual by the closed form alone.
func TestSpreadingCGDeflation(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	var cases []problem
	for trial := 0; trial < 3; trial++ {
		cases = append(cases, randomProblem(rng, 2+trial))
	}
	g, nodes, classes := unweightedProblem(rng, 9000, 4)
	cases = append(cases, problem{g: g, nodes: nodes, classes: classes, c: 4, isolated: -1})
	solve := func(in problem, a, tol float64, deflate, serial bool, guess *mat.Dense) (*mat.Dense, krylov.BlockResult) {
		defer func(v bool) { spreadDeflate = v }(spreadDeflate)
		spreadDeflate = deflate
		n := in.g.Nodes()
		f := mat.NewDense(n, in.c, nil)
		if guess != nil {
			f.Copy(guess)
		}
		cg, err := newSpreadingCG(in.g, a, oneHot(n, in.c, a, in.nodes, in.classes), f, krylov.Settings{Tol: tol})
		require.NoError(t, err)
		require.Equal(t, deflate, cg.defl != nil)
		cg.Serial = serial
		res, err := cg.run(context.Background())
		require.NoError(t, err)
		return f, res
	}
	for _, in := range cases {
		n := in.g.Nodes()
		for _, a := range []float64{0.5, 0.9, 0.99} {
			what := fmt.Sprintf("n=%d c=%d a=%v", n, in.c, a)
			if n < 200 {
				f, _ := solve(in, a, tightTol, true, true, nil)
				assert.Less(t, maxAbsDiff(f, denseSpreading(t, in, a)), denseTol, "%s: against LU", what)
			}
			plainF, plain := solve(in, a, DefaultTol, false, true, nil)
			f, res := solve(in, a, DefaultTol, true, true, nil)
			b := oneHot(n, in.c, a, in.nodes, in.classes)
			for j, rel := range trueRelResiduals(t, in.g, a, b, f) {
				assert.LessOrEqual(t, rel, DefaultTol, "%s: class %d: true residual", what, j)
				// the reported residual is the bound of resbound.go, which
				// ends these cold solves
				assert.LessOrEqual(t, rel, res.Residual[j], "%s: class %d: reported residual", what, j)
				assert.InDelta(t, rel, res.Residual[j], 1e-8, "%s: class %d: reported residual", what, j)
				assert.LessOrEqual(t, res.Iterations[j], plain.Iterations[j], "%s: class %d: iterations", what, j)
			}
			assert.Less(t, maxAbsDiff(f, plainF), 1e-4, "%s: against the plain solve", what)
			for i := 0; i < n; i++ {
				if zero := plainF.RawRowView(i); !slices.ContainsFunc(zero, func(v float64) bool { return v != 0 }) {
					assert.Equal(t, zero, f.RawRowView(i), "%s: node %d, unreached", what, i)
				}
			}
			guess := mat.NewDense(n, in.c, nil)
			for i := 0; i < n; i += 5 {
				guess.Set(i, i%in.c, 0.03*float64(i%7))
			}
			for _, start := range []*mat.Dense{nil, guess} {
				one, _ := solve(in, a, DefaultTol, true, true, start)
				par, _ := solve(in, a, DefaultTol, true, false, start)
				assert.True(t, mat.Equal(one, par), "%s: serial and parallel passes differ", what)
			}
		}
	}
	// A cycle, every node labelled: B = (1 − a)·1 lies along e = 1/√n, and
	// F = 1 is the closed form, without an iteration.
	var edges []graph.Edge
	for i := 0; i < 50; i++ {
		edges = append(edges, graph.Edge{U: i, V: (i + 1) % 50, W: 1})
	}
	cyc, err := graph.FromEdges(50, edges, graph.Options{})
	require.NoError(t, err)
	b := mat.NewDense(50, 1, nil)
	for i := 0; i < 50; i++ {
		b.Set(i, 0, 0.5)
	}
	f := mat.NewDense(50, 1, nil)
	cg, err := newSpreadingCG(cyc, 0.5, b, f, krylov.Settings{Tol: DefaultTol})
	require.NoError(t, err)
	res, err := cg.run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []int{0}, res.Iterations)
	assert.Zero(t, res.Products)
	for i := 0; i < 50; i++ {
		assert.InDelta(t, 1, f.At(i, 0), 1e-14, "node %d", i)
	}
}

// trueRelResiduals returns ‖b_j − (I − aS)f_j‖/‖b_j‖ per column, with S
// built as a graph (normalizedAdjacency) and the generic operator.
func trueRelResiduals(t *testing.T, g *graph.CSR, a float64, b, f *mat.Dense) []float64 {
	sg, err := normalizedAdjacency(g)
	require.NoError(t, err)
	n, c := b.Dims()
	r := mat.NewDense(n, c, nil)
	newSpreadingOperator(sg, a).MulBlockTo(r, f)
	r.Sub(b, r)
	out := make([]float64, c)
	for j := range out {
		out[j] = mat.Norm(r.ColView(j), 2) / mat.Norm(b.ColView(j), 2)
	}
	return out
}

// splitProductTol bounds the relative difference between the product of
// p̃ through its float32 part and remainder (splitProduct) and the float64
// product: h + l equals p̃ to about 2^-48 relative, and the sums add a few
// float64 roundings.
const splitProductTol = 1e-13

// weightedProblem is unweightedProblem with weights in [0.2, 1.2).
func weightedProblem(rng *rand.Rand, n, c int) (*graph.CSR, []int, []int) {
	g, nodes, classes := unweightedProblem(rng, n, c)
	var edges []graph.Edge
	for i := range n {
		cols, _ := g.Row(i)
		for _, j := range cols {
			if int(j) > i {
				edges = append(edges, graph.Edge{U: i, V: int(j), W: 0.2 + rng.Float64()})
			}
		}
	}
	w, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax})
	if err != nil {
		panic(err)
	}
	return w, nodes, classes
}

// TestSpreadingCGGather32 checks the float32 gather copy of the search
// directions against the float64 solve, where the rounding of the
// directions matters most (a up to 0.99, 5, 8 and 16 classes (strides 8 and 16), weighted and 0/1
// graphs): every column's true residual, formed by the generic float64
// operator, meets the tolerance; the labels are the float64 solve's; the
// iterations at most one more; p̃ holds float32 values, equal to p32; and
// the answer is bitwise the same on one goroutine and on several.
func TestSpreadingCGGather32(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 32))
	for _, c := range []int{5, 8, 16} {
		for _, weighted := range []bool{false, true} {
			g, nodes, classes := unweightedProblem(rng, 9000, c)
			if weighted {
				g, nodes, classes = weightedProblem(rng, 9000, c)
			}
			require.Greater(t, g.NNZ()+c*g.Nodes(), spreadParallelWork, "the passes must run in parallel")
			for _, a := range []float64{0.5, 0.9, 0.99} {
				b := oneHot(g.Nodes(), c, a, nodes, classes)
				want, wres := solveGather32(t, g, a, b, false, false)
				var first *mat.Dense
				for _, serial := range []bool{true, false} {
					f, res := solveGather32(t, g, a, b, true, serial)
					for j, r := range trueRelResiduals(t, g, a, b, f) {
						assert.LessOrEqual(t, r, DefaultTol, "c=%d weighted=%v a=%v column %d", c, weighted, a, j)
					}
					assert.Equal(t, argmaxRows(want), argmaxRows(f), "c=%d weighted=%v a=%v: labels", c, weighted, a)
					for j, it := range res.Iterations {
						assert.LessOrEqual(t, it, wres.Iterations[j]+1, "c=%d weighted=%v a=%v column %d", c, weighted, a, j)
					}
					if first == nil {
						first = f
					} else {
						assert.True(t, mat.Equal(first, f), "c=%d weighted=%v a=%v: serial and parallel differ", c, weighted, a)
					}
				}
			}
		}
	}
}

// solveGather32 runs the spreading CG with the float32 gather copy on or
// off and, when on, checks that the solve used it and that after every
// iteration p̃ is equal to its float32 copy.
func solveGather32(t *testing.T, g *graph.CSR, a float64, b *mat.Dense, on, serial bool) (*mat.Dense, krylov.BlockResult) {
	defer func(v bool) { spreadGather32 = v }(spreadGather32)
	spreadGather32 = on
	n, c := b.Dims()
	f := mat.NewDense(n, c, nil)
	var cg *spreadingCG
	checked := 0
	check := func(int, float64) {
		if !on {
			return
		}
		checked++
		require.True(t, cg.p32ok, "after a Step")
		for i := range n {
			for j := range c {
				if v := float64(cg.p32[i*cg.p32w+j]); v != cg.p[i*c+j] {
					t.Fatalf("p̃[%d,%d] = %v is not its float32 copy %v", i, j, cg.p[i*c+j], v)
				}
			}
		}
	}
	cg, err := newSpreadingCG(g, a, b, f, krylov.Settings{Tol: DefaultTol, Progress: check})
	require.NoError(t, err)
	cg.Serial = serial
	res, err := cg.run(context.Background())
	require.NoError(t, err)
	require.Equal(t, on, cg.p32 != nil)
	require.Equal(t, on, checked > 0)
	return f, res
}

// argmaxRows returns each row's argmax.
func argmaxRows(f *mat.Dense) []int {
	n, _ := f.Dims()
	out := make([]int, n)
	for i := range out {
		out[i] = argmax(f.RawRowView(i))
	}
	return out
}

// TestGather32Product checks the products through p32 against the float64
// product (the SELL or CSR kernels of graph, p32 off): bitwise, with the
// same pᵀq sums, for a rounded p̃ (gather32Product); to splitProductTol for
// one that is not rounded (splitProduct, the true residual's).
func TestGather32Product(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 32))
	for _, c := range []int{5, 6, 8, 9, 10, 16} {
		g, nodes, classes := weightedProblem(rng, 9000, c)
		b := oneHot(g.Nodes(), c, 0.9, nodes, classes)
		cg, err := newSpreadingCG(g, 0.9, b, mat.NewDense(g.Nodes(), c, nil), krylov.Settings{})
		require.NoError(t, err)
		require.NotNil(t, cg.p32)
		cg.suppOK = false // the full products
		for e := range cg.p {
			cg.p[e] = rng.NormFloat64()
		}
		p32 := cg.p32
		product := func(gather bool) ([]float64, []float64) {
			cg.p32 = nil
			if gather {
				cg.p32 = p32
			}
			pap := cg.product(make([]float64, c))
			return append([]float64(nil), cg.q...), pap
		}
		cg.round32(0, g.Nodes())
		cg.p32ok = true
		q32, pap32 := product(true)
		q64, pap64 := product(false)
		assert.Equal(t, q64, q32, "c=%d: gathered product of the rounded p̃", c)
		assert.Equal(t, pap64, pap32, "c=%d: pᵀq", c)

		for e := range cg.p {
			cg.p[e] = rng.NormFloat64()
		}
		cg.p32ok = false
		cg.p32 = p32
		cg.product(nil)
		q32 = append([]float64(nil), cg.q...)
		q64, _ = product(false)
		scale := 0.0
		for _, v := range q64 {
			scale = max(scale, math.Abs(v))
		}
		for e, v := range q64 {
			require.InDelta(t, v, q32[e], splitProductTol*scale, "c=%d: split product, entry %d", c, e)
		}
	}
}

// TestSpreadingCGKnownZeroGuess: a solve told that its initial guess is
// zero (a cold fit's fresh F), which takes R = B without reading X, gives
// bitwise the F and the counters of the solve that finds X zero by
// reading it, whole and in batches of classes.
func TestSpreadingCGKnownZeroGuess(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 3))
	g, nodes, classes := unweightedProblem(rng, 3000, 5)
	n, c := g.Nodes(), 5
	b := denseRHS(oneHot(n, c, 0.5, nodes, classes))
	for _, width := range []int{c, 2} {
		var fs [2]*mat.Dense
		var infos [2]Details
		for k, zero := range []bool{false, true} {
			fs[k] = mat.NewDense(n, c, nil)
			var err error
			infos[k], err = spreadCGBatches(context.Background(), g, 0.5, b, fs[k], krylov.Settings{Tol: DefaultTol}, width, zero, nil)
			require.NoError(t, err)
		}
		require.Equal(t, fs[0].RawMatrix().Data, fs[1].RawMatrix().Data, "width %d: F", width)
		require.Equal(t, infos[0], infos[1], "width %d: counters", width)
		require.Positive(t, infos[1].Products, "width %d", width)
	}
}
