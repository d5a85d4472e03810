package nodeclass

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/propagate"
)

// newNodeTol bounds the difference between PredictNodes and the dense
// reference: both evaluate the same closed form; the fitted PPR solves are
// run to a relative residual of tightPPR (κ(I − aS) ≤ 19 for a ≤ 0.9), so
// what remains is rounding.
const newNodeTol = 1e-12

// tightPPR is the propagation tolerance of the models compared with dense
// solves.
var tightPPR = propagate.Settings{Tol: 1e-14, MaxIter: 2000}

// newNodeProblem is a small weighted graph with one isolated fitted node,
// dense features, and four new nodes: two with weighted edges (one of them
// to the isolated node), one with a single edge, one without edges.
type newNodeProblem struct {
	g      *graph.CSR
	x      *mat.Dense // n×d
	labels []int
	nodes  estimator.NewNodes
	xNew   *mat.Dense // m×d
}

func makeNewNodeProblem(t *testing.T) newNodeProblem {
	t.Helper()
	const n, d, c = 30, 5, 3
	rng := rand.New(rand.NewPCG(19, 2))
	isolated := n - 1
	var edges []graph.Edge
	for u := 0; u < n-1; u++ {
		for v := u + 1; v < n-1; v++ {
			p := 0.05
			if u%c == v%c {
				p = 0.35
			}
			if rng.Float64() < p {
				edges = append(edges, graph.Edge{U: u, V: v, W: 0.25 + 2*rng.Float64()})
			}
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{})
	require.NoError(t, err)
	require.Zero(t, g.Degree(isolated))
	feat := func(r int, class func(int) int) *mat.Dense {
		x := mat.NewDense(r, d, nil)
		for i := 0; i < r; i++ {
			for j := 0; j < d; j++ {
				v := rng.Float64()
				if j%c == class(i) {
					v += 1.5
				}
				x.Set(i, j, v)
			}
		}
		return x
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
		if i%2 == 0 && i < n-1 {
			labels[i] = i % c
		}
	}
	nodes := estimator.NewNodes{
		Offsets: []int{0, 3, 6, 7, 7},
		Nodes:   []int32{0, 4, 7, 2, 5, int32(isolated), 10},
		Weights: []float64{0.5, 2, 1, 1.5, 0.75, 3, 2},
	}
	return newNodeProblem{g: g, x: feat(n, func(i int) int { return i % c }), labels: labels, nodes: nodes,
		xNew: feat(nodes.Len(), func(i int) int { return i % c })}
}

// augmented returns the frozen-known operator of the fitted graph and the
// new nodes, densely: the fitted rows are S_σ of the fitted graph (no
// columns for new nodes), and new node v's row has S_vu = w_vu/√(d̃_v d̃_u)
// and S_vv = σ/d̃_v, d̃ = σ + the weighted degree (a fitted node's in the
// fitted graph), zero where d̃ is zero.
func augmented(g *graph.CSR, nodes estimator.NewNodes, loop float64) *mat.Dense {
	n, m := g.Nodes(), nodes.Len()
	a := g.Dense()
	deg := make([]float64, n+m)
	for i := 0; i < n; i++ {
		deg[i] = loop + mat.Sum(a.RowView(i))
	}
	out := mat.NewDense(n+m, n+m, nil)
	scale := func(i, j int, w float64) float64 {
		if deg[i] == 0 || deg[j] == 0 {
			return 0
		}
		return w / math.Sqrt(deg[i]*deg[j])
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			w := a.At(i, j)
			if i == j {
				w += loop
			}
			out.Set(i, j, scale(i, j, w))
		}
	}
	for v := 0; v < m; v++ {
		lo, hi := nodes.Offsets[v], nodes.Offsets[v+1]
		deg[n+v] = loop
		for k := lo; k < hi; k++ {
			deg[n+v] += nodes.Weights[k]
		}
		for k := lo; k < hi; k++ {
			u := int(nodes.Nodes[k])
			out.Set(n+v, u, out.At(n+v, u)+scale(n+v, u, nodes.Weights[k]))
		}
		out.Set(n+v, n+v, scale(n+v, n+v, loop))
	}
	return out
}

// stack returns [a; b].
func stack(a, b *mat.Dense) *mat.Dense {
	out := &mat.Dense{}
	out.Stack(a, b)
	return out
}

// rowSum divides each row by its sum of absolute values.
func rowSum(x *mat.Dense) *mat.Dense {
	out := mat.DenseCopyOf(x)
	r, _ := out.Dims()
	for i := 0; i < r; i++ {
		row := out.RawRowView(i)
		var s float64
		for _, v := range row {
			s += math.Abs(v)
		}
		for j := range row {
			row[j] /= s
		}
	}
	return out
}

// pprDense returns (1 − a)(I − aM)^{-1}B by an LU solve.
func pprDense(t *testing.T, m *mat.Dense, b *mat.Dense, a float64) *mat.Dense {
	t.Helper()
	r, _ := m.Dims()
	sys := mat.NewDense(r, r, nil)
	sys.Scale(-a, m)
	for i := 0; i < r; i++ {
		sys.Set(i, i, 1+sys.At(i, i))
	}
	rhs := mat.DenseCopyOf(b)
	rhs.Scale(1-a, rhs)
	var out mat.Dense
	require.NoError(t, out.Solve(sys, rhs))
	return &out
}

// softmaxRows returns softmax(z + 1bᵀ) row by row.
func softmaxRows(z *mat.Dense, b []float64) *mat.Dense {
	out := mat.DenseCopyOf(z)
	r, _ := out.Dims()
	for i := 0; i < r; i++ {
		row := out.RawRowView(i)
		mx := math.Inf(-1)
		for j := range row {
			row[j] += b[j]
			mx = math.Max(mx, row[j])
		}
		var s float64
		for j := range row {
			row[j] = math.Exp(row[j] - mx)
			s += row[j]
		}
		for j := range row {
			row[j] /= s
		}
	}
	return out
}

// rowsFrom returns rows lo.. of m.
func rowsFrom(m *mat.Dense, lo int) *mat.Dense {
	r, c := m.Dims()
	return mat.DenseCopyOf(m.Slice(lo, r, 0, c))
}

func assertClose(t *testing.T, want, got *mat.Dense, tol float64, msg string) {
	t.Helper()
	wr, wc := want.Dims()
	gr, gc := got.Dims()
	require.Equal(t, []int{wr, wc}, []int{gr, gc}, msg)
	for i := 0; i < wr; i++ {
		assert.InDeltaSlice(t, want.RawRowView(i), got.RawRowView(i), tol, "%s: row %d", msg, i)
	}
}

// linearReference is SGC's or APPNP's frozen-known answer on the whole
// augmented graph: softmax(P_aug X̂_aug W + b), P_aug the K-th power of the
// augmented operator or its PPR by a dense solve.
func linearReference(t *testing.T, p newNodeProblem, l *linear) *mat.Dense {
	m := augmented(p.g, p.nodes, 1)
	h := &mat.Dense{}
	xa := stack(p.x, p.xNew)
	if l.norm == RowSum {
		xa = rowSum(xa)
	}
	h.Mul(xa, l.w)
	switch f := l.f.(type) {
	case powerFilter:
		for range f.k {
			var next mat.Dense
			next.Mul(m, h)
			h = &next
		}
	case pprFilter:
		h = pprDense(t, m, h, f.a)
	}
	return softmaxRows(h, l.b)
}

// TestLinearPredictNodesAgainstDense: SGC's and APPNP's PredictNodes equal
// the frozen-known closed form evaluated densely on the augmented graph
// (whose fitted rows also reproduce the fitted probabilities); a new node
// without edges gets softmax(x̂W + b).
func TestLinearPredictNodesAgainstDense(t *testing.T) {
	ctx := context.Background()
	p := makeNewNodeProblem(t)
	n := p.g.Nodes()
	for _, m := range []Base{
		&SGC{K: 2}, &SGC{K: 3, Normalization: NoNormalization}, &SGC{K: 1},
		&APPNP{Alpha: 0.9, Propagation: tightPPR}, &APPNP{Alpha: 0.5, Normalization: NoNormalization, Propagation: tightPPR},
	} {
		name := m.(interface{ String() string }).String()
		require.NoError(t, m.Fit(ctx, estimator.Nodes{Graph: p.g, Features: Matrix(Features{Dense: p.x})}, p.labels), name)
		var l *linear
		switch v := m.(type) {
		case *SGC:
			l = v.fit
		case *APPNP:
			l = v.fit
		}
		want := linearReference(t, p, l)
		fitted, err := m.Predict(context.Background(), estimator.FittedNodes)
		require.NoError(t, err)
		assertClose(t, mat.DenseCopyOf(want.Slice(0, n, 0, 3)), fitted, newNodeTol, name+": fitted rows")
		got, err := m.Predict(ctx, estimator.NodeQuery{New: ptrTo(p.nodes), Features: Matrix(Features{Dense: p.xNew})})
		require.NoError(t, err, name)
		assertClose(t, rowsFrom(want, n), got, newNodeTol, name)
		// The new node without edges: the logistic regression on its
		// own (normalised) features.
		last := mat.DenseCopyOf(p.xNew.Slice(3, 4, 0, 5))
		if l.norm == RowSum {
			last = rowSum(last)
		}
		var z mat.Dense
		z.Mul(last, l.w)
		assert.InDeltaSlice(t, softmaxRows(&z, l.b).RawRowView(0), got.RawRowView(3), newNodeTol, name)
	}
}

// csReference is Correct & Smooth's frozen-known answer on the augmented
// graph, densely: the base's reference probabilities on every row, the
// residuals of the labelled fitted rows propagated by a dense solve, the
// correction (autoscaled or not), the labelled rows reset, the smoothing
// by a dense solve.
func csReference(t *testing.T, p newNodeProblem, cs *CorrectSmooth, base *linear) *mat.Dense {
	n := p.g.Nodes()
	z := linearReference(t, p, base)
	r, c := z.Dims()
	s := augmented(p.g, p.nodes, 0)
	e := mat.NewDense(r, c, nil)
	var sigma float64
	labelled := 0
	for i, l := range p.labels {
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
		labelled++
	}
	sigma /= float64(labelled)
	a1, a2 := orDefault(cs.CorrectAlpha, DefaultCorrectAlpha), orDefault(cs.SmoothAlpha, DefaultSmoothAlpha)
	eh := pprDense(t, s, e, a1)
	g := mat.DenseCopyOf(z)
	for i := 0; i < r; i++ {
		f := cs.Scale
		if f == Autoscale {
			l1 := 0.0
			for j := 0; j < c; j++ {
				l1 += math.Abs(eh.At(i, j))
			}
			if l1 == 0 {
				continue
			}
			f = sigma / l1
		}
		for j := 0; j < c; j++ {
			g.Set(i, j, g.At(i, j)+f*eh.At(i, j))
		}
	}
	for i := 0; i < n; i++ {
		if l := p.labels[i]; l >= 0 {
			for j := 0; j < c; j++ {
				g.Set(i, j, 0)
			}
			g.Set(i, l, 1)
		}
	}
	return pprDense(t, s, g, a2)
}

// TestCorrectSmoothPredictNodesAgainstDense: Correct & Smooth's new-node
// scores equal the dense frozen-known closed form, with an autoscaled and a
// fixed correction, on SGC and APPNP bases; a new node without edges keeps
// its base prediction (scores (1 − α₂)·Z_v).
func TestCorrectSmoothPredictNodesAgainstDense(t *testing.T) {
	ctx := context.Background()
	p := makeNewNodeProblem(t)
	n := p.g.Nodes()
	for _, cs := range []*CorrectSmooth{
		{Base: &SGC{K: 2}, Propagation: tightPPR},
		{Base: &APPNP{Alpha: 0.8, Propagation: tightPPR}, CorrectAlpha: 0.6, SmoothAlpha: 0.7, Scale: 0.8, Propagation: tightPPR},
	} {
		name := cs.String()
		require.NoError(t, cs.Fit(ctx, estimator.Nodes{Graph: p.g, Features: Matrix(Features{Dense: p.x})}, p.labels), name)
		var base *linear
		switch b := cs.fitBase.(type) {
		case *SGC:
			base = b.fit
		case *APPNP:
			base = b.fit
		}
		want := csReference(t, p, cs, base)
		fitted, err := cs.Scores()
		require.NoError(t, err)
		assertClose(t, mat.DenseCopyOf(want.Slice(0, n, 0, 3)), fitted, newNodeTol, name+": fitted rows")
		got, err := cs.predictNodeScores(ctx, estimator.NodeQuery{New: ptrTo(p.nodes), Features: Matrix(Features{Dense: p.xNew})})
		require.NoError(t, err, name)
		assertClose(t, rowsFrom(want, n), got, newNodeTol, name)
		probs, err := cs.Predict(ctx, estimator.NodeQuery{New: ptrTo(p.nodes), Features: Matrix(Features{Dense: p.xNew})})
		require.NoError(t, err)
		toProbabilities(got)
		assert.Equal(t, got.RawMatrix().Data, probs.RawMatrix().Data, name)
		bp, err := cs.fitBase.Predict(ctx, estimator.NodeQuery{New: ptrTo(p.nodes), Features: Matrix(Features{Dense: p.xNew})})
		require.NoError(t, err)
		assert.InDeltaSlice(t, bp.RawRowView(3), probs.RawRowView(3), newNodeTol, "%s: the node without edges", name)
	}
}

// TestPredictNodesReproducesFittedNodes: a new node with the edges and
// features of a fitted node (unlabelled, for C&S) is predicted as the
// model predicted that node, since the fitted values satisfy the same
// equations.
func TestPredictNodesReproducesFittedNodes(t *testing.T) {
	ctx := context.Background()
	p := makeNewNodeProblem(t)
	var nodes estimator.NewNodes
	nodes.Offsets = []int{0}
	var rows []int
	for i := 0; i < p.g.Nodes(); i++ {
		if p.labels[i] >= 0 || p.g.RowLen(i) == 0 {
			continue
		}
		cols, ws := p.g.Row(i)
		nodes.Nodes = append(nodes.Nodes, cols...)
		nodes.Weights = append(nodes.Weights, ws...)
		nodes.Offsets = append(nodes.Offsets, len(nodes.Nodes))
		rows = append(rows, i)
	}
	require.Greater(t, len(rows), 10)
	x := Features{Dense: mat.DenseCopyOf(Features{Dense: p.x}.Rows(rows))}
	// The fitted values satisfy the PPR equations to the solver's
	// residual only.
	const tol = 1e-10
	for _, m := range []Base{&SGC{K: 3}, &APPNP{Propagation: tightPPR}, &CorrectSmooth{Propagation: tightPPR}} {
		require.NoError(t, m.Fit(ctx, estimator.Nodes{Graph: p.g, Features: Matrix(Features{Dense: p.x})}, p.labels))
		got, err := m.Predict(ctx, estimator.NodeQuery{New: ptrTo(nodes), Features: Matrix(x)})
		require.NoError(t, err)
		fitted, err := m.Predict(context.Background(), estimator.FittedNodes)
		require.NoError(t, err)
		for k, i := range rows {
			assert.InDeltaSlice(t, fitted.RawRowView(i), got.RawRowView(k), tol, "%v: node %d", m, i)
		}
	}
}

// TestPredictNodesRoundTripAndErrors: after MarshalBinary/UnmarshalBinary
// PredictNodes is bitwise equal (sparse features too, and unit weights);
// misuse is an error naming it; a layout-1 file is refused.
func TestPredictNodesRoundTripAndErrors(t *testing.T) {
	ctx := context.Background()
	p := makeNewNodeProblem(t)
	unit := estimator.NewNodes{Offsets: p.nodes.Offsets, Nodes: p.nodes.Nodes}
	sparseNew := denseToSparse(p.xNew)
	for _, tc := range []struct{ m, fresh savedModel }{
		{&SGC{K: 2}, &SGC{}},
		{&APPNP{Alpha: 0.7}, &APPNP{}},
		{&CorrectSmooth{Base: &APPNP{}}, &CorrectSmooth{}},
		{&CorrectSmooth{}, &CorrectSmooth{}},
	} {
		type np = Base
		name := tc.m.(interface{ String() string }).String()
		_, err := tc.fresh.(np).Predict(ctx, estimator.NodeQuery{New: ptrTo(p.nodes), Features: Matrix(Features{Dense: p.xNew})})
		assert.True(t, errors.Is(err, estimator.ErrNotFitted), name)
		require.NoError(t, tc.m.Fit(ctx, estimator.Nodes{Graph: p.g, Features: Matrix(Features{Dense: p.x})}, p.labels), name)
		b, err := tc.m.MarshalBinary()
		require.NoError(t, err, name)
		require.NoError(t, tc.fresh.UnmarshalBinary(b), name)
		for _, nodes := range []estimator.NewNodes{p.nodes, unit} {
			want, err := tc.m.(np).Predict(ctx, estimator.NodeQuery{New: ptrTo(nodes), Features: Matrix(Features{Dense: p.xNew})})
			require.NoError(t, err, name)
			got, err := tc.fresh.(np).Predict(ctx, estimator.NodeQuery{New: ptrTo(nodes), Features: Matrix(Features{Dense: p.xNew})})
			require.NoError(t, err, name)
			assert.Equal(t, want.RawMatrix().Data, got.RawMatrix().Data, name)
			sp, err := tc.fresh.(np).Predict(ctx, estimator.NodeQuery{New: ptrTo(nodes), Features: Matrix(Features{Sparse: sparseNew})})
			require.NoError(t, err, name)
			assertClose(t, want, sp, 1e-15, name+": sparse features")
		}
		pred := tc.fresh.(np)
		bad := estimator.NewNodes{Offsets: []int{0, 1, 2}, Nodes: []int32{3, int32(p.g.Nodes())}}
		_, err = pred.Predict(ctx, estimator.NodeQuery{New: ptrTo(bad), Features: Matrix(Features{Dense: mat.NewDense(2, 5, nil)})})
		assert.ErrorContains(t, err, "new node 1", name)
		assert.ErrorContains(t, err, "edges must go to fitted nodes", name)
		_, err = pred.Predict(ctx, estimator.NodeQuery{New: ptrTo(p.nodes), Features: Matrix(Features{Dense: mat.NewDense(4, 4, nil)})})
		assert.ErrorContains(t, err, "fitted on 5 features", name)
		nan := mat.DenseCopyOf(p.xNew)
		nan.Set(2, 1, math.NaN())
		_, err = pred.Predict(ctx, estimator.NodeQuery{New: ptrTo(p.nodes), Features: Matrix(Features{Dense: nan})})
		assert.ErrorContains(t, err, "new node 2: feature 1", name)
		// A layout-1 file is refused with a message.
		f, err := tc.m.ModelFile()
		require.NoError(t, err)
		f.KindVersion = 1
		old, err := f.MarshalBinary()
		require.NoError(t, err)
		err = tc.fresh.UnmarshalBinary(old)
		assert.ErrorIs(t, err, modelfile.ErrVersion, name)
		assert.ErrorContains(t, err, "fit and save the model again", name)
	}
	// Without a base that predicts new nodes, C&S says why, and still
	// saves its fitted nodes.
	for _, cs := range []*CorrectSmooth{{Base: &Spreading{}}, {}} {
		if cs.Base != nil {
			require.NoError(t, cs.Fit(ctx, estimator.Nodes{Graph: p.g, Features: Matrix(Features{Dense: p.x})}, p.labels))
		} else {
			z := mat.NewDense(p.g.Nodes(), 3, nil)
			for i := 0; i < p.g.Nodes(); i++ {
				z.Set(i, i%3, 1)
			}
			require.NoError(t, cs.FitScores(ctx, p.g, z, p.labels))
		}
		_, err := cs.Predict(ctx, estimator.NodeQuery{New: ptrTo(p.nodes), Features: Matrix(Features{Dense: p.xNew})})
		assert.ErrorContains(t, err, "fitted nodes only")
		b, err := cs.MarshalBinary()
		require.NoError(t, err)
		var back CorrectSmooth
		require.NoError(t, back.UnmarshalBinary(b))
		assert.Zero(t, back.Features())
		_, err = back.Predict(ctx, estimator.NodeQuery{New: ptrTo(p.nodes), Features: Matrix(Features{Dense: p.xNew})})
		assert.ErrorContains(t, err, "fitted nodes only")
	}
}

// denseToSparse is x in CSR form (its zeros dropped).
func denseToSparse(x *mat.Dense) *loaders.Sparse {
	r, c := x.Dims()
	s := &loaders.Sparse{Rows: r, Cols: c, Indptr: []int{0}}
	for i := 0; i < r; i++ {
		for j, v := range x.RawRowView(i) {
			if v != 0 {
				s.Indices = append(s.Indices, int32(j))
				s.Values = append(s.Values, v)
			}
		}
		s.Indptr = append(s.Indptr, len(s.Indices))
	}
	return s
}
