package labelprop

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/krylov"
)

// float32ScoreTol is the agreement asked of Spreading.Float32 with the
// float64 solve: max |F32 − F64| / max |F64| per class. Both stop at a
// relative residual of at most DefaultTol32 = 1e-5 here; the float32 rounding
// of the iterates adds about 6·10^-8·(1+a)/(1−a) (1.2·10^-6 at a = 0.9).
const float32ScoreTol = 1e-5

// planetoidCases are Cora (testdata) and PubMed (shared data, skipped when
// absent).
func planetoidCases(t *testing.T) map[string]string {
	return map[string]string{"cora": filepath.Join("..", "testdata", "cora"), "pubmed": ""}
}

func planetoidDir(t *testing.T, name, dir string) string {
	if dir == "" {
		return sharedtest.Data(t, name)
	}
	return dir
}

// labelDiff returns the number of nodes whose labels differ (all of them
// when the lengths differ), for short failure messages.
func labelDiff(a, b []int) int {
	if len(a) != len(b) {
		return max(len(a), len(b))
	}
	d := 0
	for i := range a {
		if a[i] != b[i] {
			d++
		}
	}
	return d
}

// tieTol is the margin, relative to the largest score of the graph, below
// which two solves that both reach their tolerance may pick different
// classes: a relative residual Tol leaves an error of up to
// Tol·(1+a)/(1−a) relative to ‖F‖ (2·10^-4 at a = 0.99), in any entry.
const tieTol = 1e-5

// requireSameLabelsButTies asks a and b for the same label on every node
// whose two best scores in a tight reference solve (Tol 1e-11) differ by
// more than tieTol of the largest score.
func requireSameLabelsButTies(t *testing.T, ctx context.Context, g *graph.CSR, train, cls []int, a float64, x, y *Spreading, refs map[float64]*mat.Dense) {
	t.Helper()
	diff := labelDiff(x.Labels(), y.Labels())
	if diff == 0 {
		return
	}
	f := refs[a]
	if f == nil {
		ref := Spreading{Alpha: a, Classes: x.Classes, Tol: 1e-11}
		require.NoError(t, ref.FitIndexed(ctx, g, train, cls))
		f = ref.Scores()
		refs[a] = f
	}
	top := mat.Norm(f, math.Inf(1)) / float64(x.Classes) // ≤ the largest |F_ij|
	for i, l := range x.Labels() {
		if l == y.Labels()[i] {
			continue
		}
		row := f.RawRowView(i)
		require.LessOrEqual(t, math.Abs(row[l]-row[y.Labels()[i]]), tieTol*top, "a = %v node %d: labels %d and %d, scores %v", a, i, l, y.Labels()[i], row)
	}
	t.Logf("a = %v: %d labels differ, all near ties", a, diff)
}

// maxRelDiff returns max over classes of max_i |a_ij − b_ij| / max_i |b_ij|.
func maxRelDiff(a, b *Spreading) float64 {
	fa, fb := a.Scores(), b.Scores()
	n, c := fb.Dims()
	worst := 0.0
	for j := 0; j < c; j++ {
		d, top := 0.0, 0.0
		for i := 0; i < n; i++ {
			d = math.Max(d, math.Abs(fa.At(i, j)-fb.At(i, j)))
			top = math.Max(top, math.Abs(fb.At(i, j)))
		}
		if top > 0 {
			worst = math.Max(worst, d/top)
		}
	}
	return worst
}

// TestFloat32MatchesFloat64 fits Cora and PubMed on the Planetoid split at
// a = 0.9 with float64 and float32 blocks, both to DefaultTol32, and asks
// for the same predicted labels on every node and scores within
// float32ScoreTol.
func TestFloat32MatchesFloat64(t *testing.T) {
	for name, dir := range planetoidCases(t) {
		t.Run(name, func(t *testing.T) {
			ds, cls := loadPlanetoid(t, planetoidDir(t, name, dir))
			ctx := context.Background()
			for _, a := range []float64{0.9, 0.99} {
				m64 := Spreading{Alpha: a, Classes: ds.Classes, Tol: DefaultTol32}
				require.NoError(t, m64.FitIndexed(ctx, ds.Graph, ds.Split.Train, cls))
				m32 := Spreading{Alpha: a, Classes: ds.Classes, Float32: true}
				require.NoError(t, m32.FitIndexed(ctx, ds.Graph, ds.Split.Train, cls))
				require.Zero(t, labelDiff(m64.Labels(), m32.Labels()), "a = %v: labels differ", a)
				require.LessOrEqual(t, maxRelDiff(&m32, &m64), float32ScoreTol, "a = %v", a)
				require.InDelta(t, m64.Info().Iterations, m32.Info().Iterations, 2, "a = %v", a)
				// And against the default float64 tolerance: the labels of
				// the tighter solve are those of the float32 one.
				ref := Spreading{Alpha: a, Classes: ds.Classes}
				require.NoError(t, ref.FitIndexed(ctx, ds.Graph, ds.Split.Train, cls))
				require.Zero(t, labelDiff(ref.Labels(), m32.Labels()), "a = %v: labels differ from Tol 1e-6", a)
			}
		})
	}
}

// stopLabelsAgreement is the share of test nodes on which the label rule
// must predict what the residual rule predicts: its risk (StopLabels) is a
// node near a tie; on Cora at a = 0.99 one test node of 1000 differs.
const stopLabelsAgreement = 0.995

// TestStopLabels checks the label rule on Cora and PubMed: no more
// iterations than the residual rule at every a and fewer in all, the labels
// of the residual rule on at least stopLabelsAgreement of the test nodes, a
// residual at most LabelTol, and bad settings refused.
func TestStopLabels(t *testing.T) {
	for name, dir := range planetoidCases(t) {
		t.Run(name, func(t *testing.T) {
			ds, cls := loadPlanetoid(t, planetoidDir(t, name, dir))
			ctx := context.Background()
			saved := 0
			for _, f32 := range []bool{false, true} {
				for _, a := range []float64{0.9, 0.99} {
					res := Spreading{Alpha: a, Classes: ds.Classes, Float32: f32}
					require.NoError(t, res.FitIndexed(ctx, ds.Graph, ds.Split.Train, cls))
					lab := Spreading{Alpha: a, Classes: ds.Classes, Float32: f32, Stop: StopLabels}
					require.NoError(t, lab.FitIndexed(ctx, ds.Graph, ds.Split.Train, cls))
					require.LessOrEqual(t, lab.Info().Iterations, res.Info().Iterations, "float32 %v a = %v", f32, a)
					saved += res.Info().Iterations - lab.Info().Iterations
					require.LessOrEqual(t, lab.Info().Residual, DefaultLabelTol)
					same := 0
					for _, v := range ds.Split.Test {
						if lab.Labels()[v] == res.Labels()[v] {
							same++
						}
					}
					require.GreaterOrEqual(t, float64(same), stopLabelsAgreement*float64(len(ds.Split.Test)), "float32 %v a = %v: test labels differ", f32, a)
					t.Logf("float32 %v a = %v: %d iterations (residual rule %d), %d test labels differ", f32, a, lab.Info().Iterations, res.Info().Iterations, len(ds.Split.Test)-same)
				}
			}
			require.Positive(t, saved)
		})
	}
	ds, cls := loadPlanetoid(t, filepath.Join("..", "testdata", "cora"))
	for _, m := range []Spreading{
		{Alpha: 0.9, Stop: StopLabels, Solver: CG},
		{Alpha: 0.9, Stop: StopRule(7)},
		{Alpha: 0.9, Stop: StopLabels, LabelPatience: -1},
		{Alpha: 0.9, Stop: StopLabels, LabelTol: 1},
		{Alpha: 0.9, Float32: true, Solver: FixedPoint},
	} {
		require.Error(t, m.FitIndexed(context.Background(), ds.Graph, ds.Split.Train, cls), "%+v", m)
	}
	for _, s := range []string{"residual", "labels"} {
		r, err := ParseStopRule(s)
		require.NoError(t, err)
		require.Equal(t, s, r.String())
	}
	_, err := ParseStopRule("argmax")
	require.ErrorContains(t, err, "residual or labels")
}

// TestWarmStartAcrossAlpha fits the grid in increasing order, each a warm
// started from the previous a's model, and asks for the labels of the cold
// fits and fewer iterations in all; both solvers, and with renumbering.
func TestWarmStartAcrossAlpha(t *testing.T) {
	for name, dir := range planetoidCases(t) {
		t.Run(name, func(t *testing.T) {
			ds, cls := loadPlanetoid(t, planetoidDir(t, name, dir))
			ctx := context.Background()
			refs := map[float64]*mat.Dense{}
			bases := []Spreading{{}, {Solver: CG}, {Ordering: ReverseCuthillMcKee}, {Float32: true}}
			if name == "pubmed" {
				bases = bases[:1] // the other paths are covered on Cora
			}
			for _, base := range bases {
				var prev *Spreading
				cold, warm := 0, 0
				for _, a := range AlphaGrid() {
					c := base
					c.Alpha, c.Classes = a, ds.Classes
					require.NoError(t, c.FitIndexed(ctx, ds.Graph, ds.Split.Train, cls))
					w := base
					w.Alpha, w.Classes, w.WarmStart = a, ds.Classes, prev
					require.NoError(t, w.FitIndexed(ctx, ds.Graph, ds.Split.Train, cls))
					requireSameLabelsButTies(t, ctx, ds.Graph, ds.Split.Train, cls, a, &c, &w, refs)
					require.LessOrEqual(t, w.Info().Residual, DefaultTol32)
					cold += c.Info().Iterations
					warm += w.Info().Iterations
					prev = &w
				}
				t.Logf("%v float32 %v ordering %v: %d iterations warm, %d cold", base.Solver, base.Float32, base.Ordering, warm, cold)
				require.Less(t, warm, cold, "%v float32 %v", base.Solver, base.Float32)
			}
		})
	}
	ds, cls := loadPlanetoid(t, filepath.Join("..", "testdata", "cora"))
	unfitted := &Spreading{Alpha: 0.5}
	m := Spreading{Alpha: 0.9, WarmStart: unfitted}
	require.ErrorIs(t, m.FitIndexed(context.Background(), ds.Graph, ds.Split.Train, cls), ErrNotFitted)
}

// TestChebyshev32InPlaceBitwise checks the float32 solver that keeps both
// blocks in X's storage against the one with blocks of its own (X a strided
// view), bit for bit, from a zero and a nonzero start, stopping after odd and
// even iteration counts (z_k in either half of X's storage).
func TestChebyshev32InPlaceBitwise(t *testing.T) {
	ds, cls := loadPlanetoid(t, filepath.Join("..", "testdata", "cora"))
	s, err := newSeeds(ds.Graph, ds.Split.Train, cls, ds.Classes, IsolatedSeedError)
	require.NoError(t, err)
	n, c := ds.Graph.Nodes(), ds.Classes
	const a = 0.9
	rhs := seedRHS(s, 1-a)
	for _, warm := range []bool{false, true} {
		for _, iters := range []int{3, 4, 0} {
			start := func(x *mat.Dense) {
				if warm {
					for i := 0; i < n; i++ {
						x.Set(i, i%c, 0.25)
					}
				}
			}
			own := mat.NewDense(n, c, nil)
			start(own)
			ch, err := newChebyshev32(ds.Graph, a, rhs, own, krylov.Settings{MaxIter: iters})
			require.NoError(t, err)
			require.True(t, ch.inX)
			res1, err1 := ch.run(context.Background())
			wide := mat.NewDense(n, c+3, nil)
			view := wide.Slice(0, n, 1, c+1).(*mat.Dense)
			start(view)
			ch2, err := newChebyshev32(ds.Graph, a, rhs, view, krylov.Settings{MaxIter: iters})
			require.NoError(t, err)
			require.False(t, ch2.inX)
			res2, err2 := ch2.run(context.Background())
			require.Equal(t, err1 == nil, err2 == nil)
			require.Equal(t, res1, res2)
			require.True(t, bitwiseEqual(own, mat.DenseCopyOf(view)), "warm %v iterations %d", warm, iters)
		}
	}
}
