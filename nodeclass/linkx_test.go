package nodeclass

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/mlp"
)

// TestLINKXGradient checks the back-propagated gradient of the loss
// (cross-entropy plus weight decay, dropout masks fixed) against central
// differences, for dense and for sparse features, on a weighted graph.
func TestLINKXGradient(t *testing.T) {
	g, x, truth := heterophilous(t, 12, 5)
	g = reweighted(t, g)
	n, d := x.Dims()
	s := linkxShape{n: n, d: d, h: 4, c: 3}
	rng := rand.New(rand.NewPCG(7, 9))
	p := newLINKXParams(s, nil)
	initLINKX(p, rng)
	for i := range p.flat { // move the biases off 0 and the units off their kinks' symmetry
		p.flat[i] += 0.1 * rng.NormFloat64()
	}
	idx, y := gradIdx(truth)
	const lambda = 0.03
	w := newLINKXWork(n, s)
	w.drawMasks(rand.NewPCG(7, 10), 0.3)
	for _, f := range []Features{{Dense: x}, {Sparse: denseToSparse(x)}} {
		nt := &linkxNet{p: p, g: newLINKXParams(s, nil), s: s, x: f, a: g, w: w}
		nt.forward(nil)
		nt.backward(idx, y, lambda)
		loss := func() float64 {
			nt.forward(nil)
			return linkxLoss(p, w, idx, y, lambda)
		}
		checkGradient(t, fmt.Sprintf("sparse=%v", f.Sparse != nil), p.flat, nt.g.flat, loss)
	}
}

// reweighted is g with every edge's weight replaced by one in [0.5, 2]
// (the same both ways).
func reweighted(t *testing.T, g *graph.CSR) *graph.CSR {
	var edges []graph.Edge
	for i := range g.Nodes() {
		cols, _ := g.Row(i)
		for _, j := range cols {
			if int(j) > i {
				edges = append(edges, graph.Edge{U: i, V: int(j), W: 0.5 + 1.5*math.Abs(math.Sin(float64(7*i+int(j))))})
			}
		}
	}
	out, err := graph.FromEdges(g.Nodes(), edges, graph.Options{})
	require.NoError(t, err)
	return out
}

// linkxDense runs LINKX's equations with dense gonum products on the rows
// of x whose adjacency rows (over the fitted nodes) are a.
func linkxDense(p *linkxParams, s linkxShape, a, x *mat.Dense) *mat.Dense {
	r, _ := a.Dims()
	h := s.h
	bias := func(m *mat.Dense, b []float64) {
		for i := range r {
			for j := range b {
				m.Set(i, j, m.At(i, j)+b[j])
			}
		}
	}
	relu := func(m *mat.Dense) {
		m.Apply(func(_, _ int, v float64) float64 { return math.Max(v, 0) }, m)
	}
	var ha, hx, u, t, z1, out mat.Dense
	ha.Mul(a, p.wa)
	bias(&ha, p.ba)
	hx.Mul(x, p.wx)
	bias(&hx, p.bx)
	cat := mat.NewDense(r, 2*h, nil)
	cat.Slice(0, r, 0, h).(*mat.Dense).Copy(&ha)
	cat.Slice(0, r, h, 2*h).(*mat.Dense).Copy(&hx)
	u.Mul(cat, p.wc)
	bias(&u, p.bc)
	u.Add(&u, &ha)
	u.Add(&u, &hx)
	relu(&u)
	z1.Mul(&u, p.w1)
	bias(&z1, p.b1)
	relu(&z1)
	t.Mul(&z1, p.wo)
	bias(&t, p.bo)
	out.CloneFrom(&t)
	for i := range r {
		row := out.RawRowView(i)
		top := math.Inf(-1)
		for _, v := range row {
			top = math.Max(top, v)
		}
		sum := 0.0
		for j, v := range row {
			row[j] = math.Exp(v - top)
			sum += row[j]
		}
		for j := range row {
			row[j] /= sum
		}
	}
	return &out
}

// denseAdjacency is A of g as a dense matrix.
func denseAdjacency(g *graph.CSR) *mat.Dense {
	n := g.Nodes()
	a := mat.NewDense(n, n, nil)
	for i := range n {
		cols, ws := g.Row(i)
		for k, j := range cols {
			a.Set(i, int(j), ws[k])
		}
	}
	return a
}

// TestLINKXAgainstDense checks the fitted and new nodes' probabilities
// against the equations run with dense matrices: the fitted nodes with
// the dense A, new nodes with their edge weights as rows over the fitted
// nodes; and that a new node given a fitted node's edges and features
// gets its prediction.
func TestLINKXAgainstDense(t *testing.T) {
	ctx := context.Background()
	g, x, truth := sepHetero(t, 45, 3)
	g = reweighted(t, g)
	labels, val, valLabels, _ := sepSplit(truth)
	for _, f := range []Features{{Dense: x}, {Sparse: denseToSparse(x)}} {
		m := &LINKX{Hidden: 5, Epochs: 30, Seed: 4}
		require.NoError(t, m.FitValidated(ctx, estimator.Nodes{Graph: g, Features: Matrix(f)}, labels, val, valLabels))
		fit := m.fit
		prob := linkxDense(fit.p, fit.s, denseAdjacency(g), x)
		assertClose(t, prob, fit.prob, sepRefTol, "fitted nodes")

		nn, q := sepNewNodeQuery(g, x)
		aq := mat.NewDense(nn.Len(), g.Nodes(), nil)
		for i := range nn.Len() {
			nb, ws := nn.Row(i)
			for k, u := range nb {
				aq.Set(i, int(u), aq.At(i, int(u))+ws[k])
			}
		}
		var qm mat.Matrix = q
		if f.Sparse != nil {
			qm = denseToSparse(q)
		}
		got, err := m.Predict(ctx, estimator.NodeQuery{New: &nn, Features: qm})
		require.NoError(t, err)
		assertClose(t, linkxDense(fit.p, fit.s, aq, q), got, sepRefTol, "new nodes")
		assertClose(t, mat.DenseCopyOf(prob.Slice(5, 6, 0, fit.s.c)), rowsFrom(got, 3), sepRefTol, "node 5 given again as new")
	}
}

// TestLINKXLearnsHeterophily checks that on a graph whose classes show in
// whom a node links to (sepHetero) LINKX beats a perceptron on the ego
// features by a wide margin, that a fit is bitwise repeatable under its
// seed with one worker or two, and that Fit holds out nodes itself.
func TestLINKXLearnsHeterophily(t *testing.T) {
	ctx := context.Background()
	g, x, truth := sepHetero(t, 600, 2)
	labels, val, valLabels, test := sepSplit(truth)
	train, ytr := labelled(labels)
	ego := &mlp.Classifier{Hidden: 16, Seed: 4}
	require.NoError(t, ego.FitValidated(ctx, rowsOf(x, train), ytr, rowsOf(x, val), valLabels))
	pe, err := ego.Predict(ctx, rowsOf(x, test))
	require.NoError(t, err)
	egoRight := 0
	for k, c := range estimator.Argmax(pe) {
		if c == truth[test[k]] {
			egoRight++
		}
	}
	accEgo := float64(egoRight) / float64(len(test))
	m := &LINKX{Hidden: 16, Seed: 3}
	if _, err := m.Predict(ctx, estimator.FittedNodes); !errors.Is(err, estimator.ErrNotFitted) {
		t.Fatalf("predict before fit: %v", err)
	}
	nodes := estimator.Nodes{Graph: g, Features: x}
	require.NoError(t, m.FitValidated(ctx, nodes, labels, val, valLabels))
	p, err := m.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	pred := estimator.Argmax(p)
	right := 0
	for _, i := range test {
		if pred[i] == truth[i] {
			right++
		}
	}
	acc := float64(right) / float64(len(test))
	if acc < 0.6 || acc < accEgo+0.1 {
		t.Errorf("test accuracy %v, of a perceptron on the ego features %v: want ≥ 0.6 and 0.1 above", acc, accEgo)
	}
	if m.Info().Iterations < 1 || !(m.Info().Residual < math.Log(3)) {
		t.Errorf("Info %+v: want epochs ≥ 1 and a validation loss below chance's log 3", m.Info())
	}
	procs := runtime.GOMAXPROCS(1)
	again := m.Clone()
	err = again.FitValidated(ctx, nodes, labels, val, valLabels)
	runtime.GOMAXPROCS(procs)
	require.NoError(t, err)
	q, _ := again.Predict(ctx, estimator.FittedNodes)
	require.True(t, mat.Equal(p, q), "a refit with the same seed on one worker differs")

	held := m.Clone()
	require.NoError(t, held.Fit(ctx, nodes, labels))
	require.GreaterOrEqual(t, held.Info().Iterations, 1)
}

// TestLINKXSaveLoad: a model read back from its bytes predicts the fitted
// and new nodes bitwise as the fitted one; a file whose shape disagrees
// with its sections is refused; bad queries and inputs are errors naming
// what is wrong.
func TestLINKXSaveLoad(t *testing.T) {
	ctx := context.Background()
	g, x, truth := sepHetero(t, 45, 5)
	labels, val, valLabels, _ := sepSplit(truth)
	m := &LINKX{Hidden: 6, Epochs: 20, Dropout: 0.3, Seed: 9}
	require.NoError(t, m.FitValidated(ctx, estimator.Nodes{Graph: g, Features: x}, labels, val, valLabels))
	data, err := m.MarshalBinary()
	require.NoError(t, err)
	var back LINKX
	require.NoError(t, back.UnmarshalBinary(data))
	require.Equal(t, m.String(), back.String())
	require.Equal(t, m.Info(), back.Info())
	nn, q := sepNewNodeQuery(g, x)
	for _, query := range []estimator.NodeQuery{estimator.FittedNodes, {New: &nn, Features: q}} {
		a, err := m.Predict(ctx, query)
		require.NoError(t, err)
		b, err := back.Predict(ctx, query)
		require.NoError(t, err)
		require.Equal(t, a.RawMatrix().Data, b.RawMatrix().Data)
	}
	f, err := m.ModelFile()
	require.NoError(t, err)
	var meta linkxMeta
	require.NoError(t, f.DecodeMetadata(&meta))
	meta.Nodes++
	require.NoError(t, f.SetMetadata(meta))
	require.ErrorContains(t, back.ReadModelFile(f), "section parameters has")

	bad := estimator.NewNodes{Offsets: []int{0, 1}, Nodes: []int32{45}}
	_, err = m.Predict(ctx, estimator.NodeQuery{New: &bad, Features: mat.NewDense(1, 3, nil)})
	require.ErrorContains(t, err, "out of range")
	_, err = m.Predict(ctx, estimator.NodeQuery{New: &nn, Features: mat.NewDense(4, 2, nil)})
	require.ErrorContains(t, err, "fitted on 3 features")

	xb := mat.DenseCopyOf(x)
	xb.Set(4, 1, math.NaN())
	err = (&LINKX{}).FitValidated(ctx, estimator.Nodes{Graph: g, Features: xb}, labels, val, valLabels)
	require.ErrorContains(t, err, "LINKX: feature (node 4, column 1) is NaN")
	err = (&LINKX{Dropout: 1}).FitValidated(ctx, estimator.Nodes{Graph: g, Features: x}, labels, val, valLabels)
	require.ErrorContains(t, err, "Dropout=1 is invalid")
}
