package nodeclass

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/logreg"
	"github.com/gssl/gssl/propagate"
	"github.com/gssl/gssl/spectral"
)

// planted is a small graph of c communities (dense inside, sparse across)
// with sparse features that are noisy indicators of the community, and
// labels on every fourth node.
func planted(t *testing.T, n, c, d int, seed uint64) (*graph.CSR, *loaders.Sparse, []int, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % c
	}
	var edges []graph.Edge
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			p := 0.02
			if truth[u] == truth[v] {
				p = 0.3
			}
			if rng.Float64() < p {
				edges = append(edges, graph.Edge{U: u, V: v, W: 1})
			}
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{})
	require.NoError(t, err)
	x := &loaders.Sparse{Rows: n, Cols: d, Indptr: []int{0}}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			p := 0.1
			if j%c == truth[i] {
				p = 0.4
			}
			if rng.Float64() < p {
				x.Indices = append(x.Indices, int32(j))
				x.Values = append(x.Values, 1)
			}
		}
		x.Indptr = append(x.Indptr, len(x.Indices))
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
		if i%4 == 0 {
			labels[i] = truth[i]
		}
	}
	return g, x, labels, truth
}

// denseGCN is S̃ from its definition.
func denseGCN(g *graph.CSR) *mat.Dense {
	a := g.Dense()
	n, _ := a.Dims()
	deg := make([]float64, n)
	for i := 0; i < n; i++ {
		a.Set(i, i, a.At(i, i)+1)
		deg[i] = mat.Sum(a.RowView(i))
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, a.At(i, j)/math.Sqrt(deg[i]*deg[j]))
		}
	}
	return a
}

// rowNormalised is X with rows divided by their sums, dense.
func rowNormalised(x *loaders.Sparse) *mat.Dense {
	d := x.Dense(nil)
	r, _ := d.Dims()
	for i := 0; i < r; i++ {
		row := d.RawRowView(i)
		s := 0.0
		for _, v := range row {
			s += math.Abs(v)
		}
		for j := range row {
			if s > 0 {
				row[j] /= s
			}
		}
	}
	return d
}

// TestLinearModelsAgainstDense checks SGC and APPNP against logistic
// regression fitted on the dense propagated features S̃^K X̂ and ΠX̂
// (Π by a dense solve), and their predictions against softmax(PX̂W + b).
func TestLinearModelsAgainstDense(t *testing.T) {
	ctx := context.Background()
	g, xs, labels, _ := planted(t, 60, 3, 12, 1)
	s := denseGCN(g)
	xh := rowNormalised(xs)
	n := g.Nodes()
	sgcP := mat.DenseCopyOf(xh)
	for k := 0; k < 2; k++ {
		sgcP.Mul(s, mat.DenseCopyOf(sgcP))
	}
	const a = 0.9
	m := mat.NewDense(n, n, nil)
	m.Scale(-a, s)
	for i := 0; i < n; i++ {
		m.Set(i, i, m.At(i, i)+1)
	}
	var pprP mat.Dense
	require.NoError(t, pprP.Solve(m, xh))
	pprP.Scale(1-a, &pprP)
	for _, tc := range []struct {
		name  string
		model interface {
			Base
			predictGraph(context.Context, *graph.CSR, Features) (*mat.Dense, error)
		}
		design *mat.Dense
	}{
		{"sgc", &SGC{K: 2, L2: 1e-3}, sgcP},
		{"appnp", &APPNP{Alpha: a, L2: 1e-3, Propagation: propagate.Settings{Tol: 1e-12}}, &pprP},
	} {
		for _, x := range []Features{{Sparse: xs}, {Dense: xs.Dense(nil)}} {
			require.NoError(t, tc.model.Fit(ctx, estimator.Nodes{Graph: g, Features: Matrix(x)}, labels), tc.name)
			got, err := tc.model.Predict(context.Background(), estimator.FittedNodes)
			require.NoError(t, err)
			// The models scale the design to a mean squared row norm of 1
			// over the labelled rows.
			var ss float64
			for i, l := range labels {
				if l >= 0 {
					ss += mat.Dot(tc.design.RowView(i), tc.design.RowView(i))
				}
			}
			var scaled mat.Dense
			scaled.Scale(1/math.Sqrt(ss/float64(countLabelled(labels))), tc.design)
			ref := logreg.Classifier{L2: 1e-3, GradTol: 1e-9}
			require.NoError(t, ref.Fit(ctx, &scaled, labels))
			want, err := ref.Probabilities(logreg.Dense{X: &scaled})
			require.NoError(t, err)
			// both fits stop at ‖∇J‖ ≈ 1e-6..1e-9 with curvature ≥ λ = 1e-3
			assert.True(t, mat.EqualApprox(want, got, 1e-3), tc.name)
			assert.Equal(t, estimator.Argmax(want), estimator.Argmax(got), tc.name)
			if in, ok := tc.model.(interface{ Info() estimator.Info }); ok {
				info := in.Info()
				assert.Positive(t, info.Iterations, tc.name)
				assert.Positive(t, info.Products, tc.name)
				assert.Less(t, info.Residual, 1e-4, tc.name)
			}
			again, err := tc.model.predictGraph(ctx, g, x)
			require.NoError(t, err)
			assert.True(t, mat.EqualApprox(got, again, 1e-12), "%s: PredictGraph on the fit graph", tc.name)
		}
	}
}

// TestCorrectSmoothClosedForms checks both steps against dense solves of
// their closed forms.
func TestCorrectSmoothClosedForms(t *testing.T) {
	ctx := context.Background()
	g, _, labels, _ := planted(t, 40, 3, 1, 2)
	n, c := g.Nodes(), 3
	rng := rand.New(rand.NewPCG(3, 3))
	z := mat.NewDense(n, c, nil)
	for i := 0; i < n; i++ {
		row := z.RawRowView(i)
		for j := range row {
			row[j] = rng.Float64()
		}
		logreg.Softmax(row)
	}
	s := propagate.Symmetric(g)
	sd := s.Dense()
	solve := func(alpha float64, b *mat.Dense) *mat.Dense {
		m := mat.NewDense(n, n, nil)
		m.Scale(-alpha, sd)
		for i := 0; i < n; i++ {
			m.Set(i, i, m.At(i, i)+1)
		}
		var x mat.Dense
		require.NoError(t, x.Solve(m, b))
		x.Scale(1-alpha, &x)
		return &x
	}
	e := mat.NewDense(n, c, nil)
	sigma, nl := 0.0, 0
	for i, l := range labels {
		if l < 0 {
			continue
		}
		for j := 0; j < c; j++ {
			v := -z.At(i, j)
			if j == l {
				v++
			}
			e.Set(i, j, v)
			sigma += math.Abs(v)
		}
		nl++
	}
	sigma /= float64(nl)
	const a1, a2 = 0.8, 0.7
	eh := solve(a1, e)
	set := propagate.Settings{Tol: 1e-13}
	// residual 1e-13 and cond(I − aS) ≤ 9: errors below 1e-11
	const tol = 1e-11
	for _, scale := range []float64{Autoscale, 2} {
		want := mat.DenseCopyOf(z)
		for i := 0; i < n; i++ {
			f := scale
			if scale == Autoscale {
				l1 := 0.0
				for _, v := range eh.RawRowView(i) {
					l1 += math.Abs(v)
				}
				f = sigma / l1
			}
			for j := 0; j < c; j++ {
				want.Set(i, j, want.At(i, j)+f*eh.At(i, j))
			}
		}
		got, err := Correct(ctx, s, z, labels, a1, scale, set)
		require.NoError(t, err)
		require.True(t, mat.EqualApprox(want, got, tol), "correct, scale %v", scale)
		gm := mat.DenseCopyOf(want)
		for i, l := range labels {
			if l >= 0 {
				for j := 0; j < c; j++ {
					gm.Set(i, j, 0)
				}
				gm.Set(i, l, 1)
			}
		}
		wantS := solve(a2, gm)
		gotS, err := Smooth(ctx, s, got, labels, a2, set)
		require.NoError(t, err)
		require.True(t, mat.EqualApprox(wantS, gotS, tol), "smooth, scale %v", scale)
		cs := CorrectSmooth{CorrectAlpha: a1, SmoothAlpha: a2, Scale: scale, Propagation: set}
		require.NoError(t, cs.FitScores(ctx, g, z, labels))
		sc, err := cs.Scores()
		require.NoError(t, err)
		require.True(t, mat.EqualApprox(wantS, sc, tol))
		p, err := cs.Predict(context.Background(), estimator.FittedNodes)
		require.NoError(t, err)
		assert.Equal(t, estimator.Argmax(sc), estimator.Argmax(p))
	}
}

func TestChoose(t *testing.T) {
	ctx := context.Background()
	g, xs, labels, truth := planted(t, 90, 3, 12, 4)
	x := Features{Sparse: xs}
	var test []int
	for i, l := range labels {
		if l < 0 {
			test = append(test, i)
		}
	}
	cands := append(SGCGrid(&SGC{Classes: 3})[:3], CorrectSmoothGrid(&SGC{Classes: 3})[:4]...)
	// Cross-validation over the labelled nodes: the chosen model is refitted
	// on them all and its score is the best mean fold accuracy.
	sel, err := eval.ChooseNode(ctx, cands, estimator.Nodes{Graph: g, Features: Matrix(x)}, labels, nil, eval.CV{Folds: 3, Seed: 1})
	require.NoError(t, err)
	require.Len(t, sel.Scores, len(cands))
	best, _ := eval.FirstBest(sel.Scores)
	require.Equal(t, best, sel.Index)
	p, err := sel.Best.Predict(context.Background(), estimator.FittedNodes)
	require.NoError(t, err)
	acc, err := eval.Accuracy(estimator.Argmax(p), truth, test)
	require.NoError(t, err)
	assert.Greater(t, acc, 0.8, "planted communities with informative features")
	// With val nodes: the score is the val accuracy of a fit without them.
	var val []int
	for i, l := range labels {
		if l >= 0 && i%8 == 0 {
			val = append(val, i)
		}
	}
	sel, err = eval.ChooseNode(ctx, cands[:2], estimator.Nodes{Graph: g, Features: Matrix(x)}, labels, val, eval.CV{})
	require.NoError(t, err)
	hidden := append([]int(nil), labels...)
	for _, i := range val {
		hidden[i] = -1
	}
	m := &SGC{K: 1, L2: L2Grid()[0], Classes: 3}
	require.NoError(t, m.Fit(ctx, estimator.Nodes{Graph: g, Features: Matrix(x)}, hidden))
	pm, _ := m.Predict(context.Background(), estimator.FittedNodes)
	want, _ := eval.Accuracy(estimator.Argmax(pm), labels, val)
	assert.Equal(t, want, sel.Scores[0])
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	for _, m := range []Base{&SGC{}, &APPNP{}, &CorrectSmooth{}, &Spreading{}, &STKR{}} {
		_, err := m.Predict(context.Background(), estimator.FittedNodes)
		assert.True(t, errors.Is(err, ErrNotFitted), "%T", m)
		assert.True(t, errors.Is(err, estimator.ErrNotFitted), "%T", m)
	}
	_, err := (&SGC{}).predictGraph(ctx, nil, Features{})
	assert.True(t, errors.Is(err, ErrNotFitted))
	g, xs, labels, _ := planted(t, 12, 2, 4, 5)
	none := make([]int, len(labels))
	for i := range none {
		none[i] = -1
	}
	assert.ErrorContains(t, (&SGC{}).Fit(ctx, estimator.Nodes{Graph: g, Features: Matrix(Features{Sparse: xs})}, none), "no labelled")
	assert.ErrorContains(t, (&SGC{K: -1}).Fit(ctx, estimator.Nodes{Graph: g, Features: Matrix(Features{Sparse: xs})}, labels), "K=-1")
	assert.ErrorContains(t, (&APPNP{Alpha: 1}).Fit(ctx, estimator.Nodes{Graph: g, Features: Matrix(Features{Sparse: xs})}, labels), "open interval")
	assert.ErrorContains(t, (&CorrectSmooth{Scale: -1}).Fit(ctx, estimator.Nodes{Graph: g, Features: Matrix(Features{Sparse: xs})}, labels), "Scale")
	assert.ErrorContains(t, (&SGC{}).Fit(ctx, estimator.Nodes{Graph: g, Features: Matrix(Features{})}, labels), "exactly one")
}

// TestEvaluateTwoStages checks eval.EvaluateNodes against the two ChooseNode
// calls it stands for: the base on the val nodes, then Correct & Smooth's
// grid on that base.
func TestEvaluateTwoStages(t *testing.T) {
	ctx := context.Background()
	g, xs, _, truth := planted(t, 90, 3, 12, 6)
	x := Features{Sparse: xs}
	split, err := eval.PerClassSplit(truth, 5, 5, 3)
	require.NoError(t, err)
	require.Len(t, split.Train, 15)
	require.Len(t, split.Val, 15)
	require.Len(t, split.Test, 60)
	nodes := estimator.Nodes{Graph: g, Features: Matrix(x)}
	search := eval.NodeSearch{
		Grid:   func(c int) []Base { return SGCGrid(&SGC{Classes: c})[:4] },
		Refine: func(b Base) []Base { return CorrectSmoothGrid(b) },
	}
	out, err := eval.EvaluateNodes(ctx, search, nodes, truth, split, eval.CV{})
	require.NoError(t, err)
	known := make([]int, len(truth))
	for i := range known {
		known[i] = -1
	}
	for _, i := range append(append([]int(nil), split.Train...), split.Val...) {
		known[i] = truth[i]
	}
	base, err := eval.ChooseNode(ctx, SGCGrid(&SGC{Classes: 3})[:4], nodes, known, split.Val, eval.CV{})
	require.NoError(t, err)
	cs, err := eval.ChooseNode(ctx, CorrectSmoothGrid(base.Best), nodes, known, split.Val, eval.CV{})
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(base.Best), out.Base)
	assert.Equal(t, fmt.Sprint(cs.Best), out.Model)
	assert.Equal(t, cs.Scores[cs.Index], out.Val)
	p, _ := cs.Best.Predict(context.Background(), estimator.FittedNodes)
	want, _ := eval.Accuracy(estimator.Argmax(p), truth, split.Test)
	assert.Equal(t, want, out.Test)
	_, err = eval.PerClassSplit(truth, 20, 20, 0)
	assert.ErrorContains(t, err, "fewer than train+val")
}

func countLabelled(labels []int) int {
	k := 0
	for _, l := range labels {
		if l >= 0 {
			k++
		}
	}
	return k
}

func TestWithEmbedding(t *testing.T) {
	ctx := context.Background()
	g, xs, _, _ := planted(t, 40, 2, 6, 8)
	for _, x := range []Features{{Sparse: xs}, {Dense: xs.Dense(nil)}} {
		got, err := WithEmbedding(ctx, g, x, RowSum, 3, 0.5)
		require.NoError(t, err)
		n, d := got.Dims()
		require.Equal(t, 40, n)
		require.Equal(t, 9, d)
		dense := got.Rows(allRows(40))
		xh := rowNormalised(xs)
		em := mat.DenseCopyOf(dense.Slice(0, 40, 6, 9))
		assert.True(t, mat.EqualApprox(xh, dense.Slice(0, 40, 0, 6), 1e-15))
		// the embedding block has w² times the squared norm of X̂
		assert.InDelta(t, 0.25*math.Pow(mat.Norm(xh, 2), 2), math.Pow(mat.Norm(em, 2), 2), 1e-9)
		// and is the eigenmap up to that one factor
		ref := spectral.LaplacianEigenmap{Dim: 3, Isolated: laplacian.IsolatedZero}
		require.NoError(t, ref.Fit(ctx, estimator.Nodes{Graph: g}))
		c := em.At(0, 0) / ref.Coordinates().At(0, 0)
		var scaled mat.Dense
		scaled.Scale(c, ref.Coordinates())
		assert.True(t, mat.EqualApprox(&scaled, em, 1e-12))
	}
	_, err := WithEmbedding(ctx, g, Features{Sparse: xs}, RowSum, 0, 1)
	assert.Error(t, err)
}

func allRows(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

// TestPredictGraphInductive fits SGC and APPNP on a subgraph and predicts
// the nodes left out from their features and edges in the whole graph.
func TestPredictGraphInductive(t *testing.T) {
	ctx := context.Background()
	g, xs, labels, truth := planted(t, 120, 3, 12, 9)
	seen := make([]int, 0, 90)
	for i := 0; i < 90; i++ {
		seen = append(seen, i)
	}
	sub, err := g.Induced(seen)
	require.NoError(t, err)
	subLabels := make([]int, len(seen))
	for k, i := range sub.Original {
		subLabels[k] = labels[i]
	}
	subX := xs.Dense(sub.Original)
	var unseen []int
	for i := 90; i < 120; i++ {
		unseen = append(unseen, i)
	}
	for _, m := range []interface {
		Base
		predictGraph(context.Context, *graph.CSR, Features) (*mat.Dense, error)
	}{&SGC{}, &APPNP{}} {
		require.NoError(t, m.Fit(ctx, estimator.Nodes{Graph: sub.CSR, Features: Matrix(Features{Dense: subX})}, subLabels))
		p, err := m.predictGraph(ctx, g, Features{Sparse: xs})
		require.NoError(t, err)
		r, c := p.Dims()
		require.Equal(t, []int{120, 3}, []int{r, c})
		acc, err := eval.Accuracy(estimator.Argmax(p), truth, unseen)
		require.NoError(t, err)
		assert.Greater(t, acc, 0.8, "%v on the new nodes", m)
		_, err = m.predictGraph(ctx, g, Features{Dense: mat.NewDense(120, 5, nil)})
		assert.ErrorContains(t, err, "columns")
	}
}

func TestToProbabilities(t *testing.T) {
	s := mat.NewDense(3, 3, []float64{2, -1, 2, -3, -1, -2, 0.5, 0.25, 0.25})
	toProbabilities(s)
	assert.Equal(t, []float64{0.5, 0, 0.5, 0, 1, 0, 0.5, 0.25, 0.25}, s.RawMatrix().Data)
}
