package nodeclass

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/mlp"
)

// sepGradTol bounds the relative error of the analytic gradient against
// central differences with step sepGradStep: the truncation error is
// O(step²) and the rounding error O(ε/step), both far below it unless a
// ReLU kink lies within a step of a parameter's value.
const (
	sepGradStep = 1e-6
	sepGradTol  = 1e-5
)

// TestSepGNNGradient checks the back-propagated gradient of the loss
// (cross-entropy plus weight decay, dropout masks fixed) against central
// differences, for dense and for sparse features.
func TestSepGNNGradient(t *testing.T) {
	g, x, truth := heterophilous(t, 12, 5)
	n, d := x.Dims()
	s := sepShape{d: d, h: 4, c: 3, layers: 2}
	rng := rand.New(rand.NewPCG(7, 8))
	p := newSepParams(s, nil)
	initSep(p, rng)
	for i := range p.flat { // move γ, β and the biases off their initial values
		p.flat[i] += 0.1 * rng.NormFloat64()
	}
	idx, y := gradIdx(truth)
	const lambda = 0.03
	op := newMeanOp(g)
	w := newSepWork(n, s)
	w.drawMasks(rand.NewPCG(7, 10), 0.3)
	for _, f := range []Features{{Dense: x}, {Sparse: denseToSparse(x)}} {
		gr := newSepParams(s, nil)
		sepForward(p, s, f, op, w)
		sepBackward(p, gr, s, f, op, w, idx, y, lambda)
		loss := func() float64 {
			sepForward(p, s, f, op, w)
			return sepLoss(p, w, idx, y, lambda)
		}
		checkGradient(t, fmt.Sprintf("sparse=%v", f.Sparse != nil), p.flat, gr.flat, loss)
	}
}

// gradIdx are the nodes the gradient tests take their loss over, with
// their classes in truth.
func gradIdx(truth []int) (idx, y []int) {
	idx = []int{0, 1, 2, 4, 7, 9}
	y = make([]int, len(idx))
	for k, i := range idx {
		y[k] = truth[i]
	}
	return idx, y
}

// checkGradient compares grad with central differences of loss in each
// entry of flat (step sepGradStep, tolerance sepGradTol relative to
// max(1, |difference|)).
func checkGradient(t *testing.T, what string, flat, grad []float64, loss func() float64) {
	t.Helper()
	for i := range flat {
		v := flat[i]
		flat[i] = v + sepGradStep
		up := loss()
		flat[i] = v - sepGradStep
		down := loss()
		flat[i] = v
		fd := (up - down) / (2 * sepGradStep)
		if math.Abs(fd-grad[i]) > sepGradTol*max(1, math.Abs(fd)) {
			t.Errorf("%s parameter %d: gradient %v, finite difference %v", what, i, grad[i], fd)
		}
	}
}

// TestSepGNNMeanOp checks S and Sᵀ against the dense D⁻¹A with self loops
// left out.
func TestSepGNNMeanOp(t *testing.T) {
	edges := []graph.Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 2, W: 1}, {U: 2, V: 2, W: 5}, {U: 0, V: 2, W: 0.5}, {U: 3, V: 1, W: 1}}
	g, err := graph.FromEdges(5, edges, graph.Options{Duplicates: graph.DuplicateMax})
	require.NoError(t, err)
	a := g.Dense()
	n, _ := a.Dims()
	sd := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		a.Set(i, i, 0)
		mass := mat.Sum(a.RowView(i))
		for j := 0; j < n; j++ {
			if mass > 0 {
				sd.Set(i, j, a.At(i, j)/mass)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	src := mat.NewDense(n, 3, nil)
	for i := range src.RawMatrix().Data {
		src.RawMatrix().Data[i] = rng.NormFloat64()
	}
	op := newMeanOp(g)
	got := mat.NewDense(n, 3, nil)
	var want mat.Dense
	op.mul(got, src)
	want.Mul(sd, src)
	require.True(t, mat.EqualApprox(got, &want, 1e-14), "S src:\n%v\nwant\n%v", mat.Formatted(got), mat.Formatted(&want))
	op.mulT(got, src)
	want.Mul(sd.T(), src)
	require.True(t, mat.EqualApprox(got, &want, 1e-14), "Sᵀ src:\n%v\nwant\n%v", mat.Formatted(got), mat.Formatted(&want))
}

// sepSplit labels 40 % of the nodes, validates on 20 % and tests on the
// rest.
func sepSplit(truth []int) (labels, val, valLabels, test []int) {
	labels = make([]int, len(truth))
	for i := range labels {
		labels[i] = -1
		switch i % 10 {
		case 0, 1, 2, 3:
			labels[i] = truth[i]
		case 4, 5:
			val, valLabels = append(val, i), append(valLabels, truth[i])
		default:
			test = append(test, i)
		}
	}
	return labels, val, valLabels, test
}

// TestSepGNNLearnsHeterophily checks that on a graph whose classes show in
// the neighbours' features far more than in a node's own (sepHetero), the
// network beats a perceptron on the ego features by a wide margin (chance
// is 1/3), that a fit is bitwise repeatable under its seed
// and with one or two workers, and that sparse features give the dense
// features' answer.
func TestSepGNNLearnsHeterophily(t *testing.T) {
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
	m := &SepGNN{Hidden: 16, Layers: 2, Dropout: 0.2, Seed: 3}
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
	if acc < 0.65 || acc < accEgo+0.15 {
		t.Errorf("test accuracy %v, of a perceptron on the ego features %v: want ≥ 0.65 and 0.15 above", acc, accEgo)
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

	sparse := m.Clone()
	require.NoError(t, sparse.FitValidated(ctx, estimator.Nodes{Graph: g, Features: denseToSparse(x)}, labels, val, valLabels))
	ps, _ := sparse.Predict(ctx, estimator.FittedNodes)
	if ps := estimator.Argmax(ps); !equalInts(ps, pred) && disagree(ps, pred) > len(pred)/50 {
		t.Errorf("sparse features change %d of %d predictions", disagree(ps, pred), len(pred))
	}

	held := m.Clone()
	require.NoError(t, held.Fit(ctx, nodes, labels))
	if held.Info().Iterations < 1 {
		t.Errorf("Fit with a hold-out ran %d epochs", held.Info().Iterations)
	}
}

func equalInts(a, b []int) bool {
	return disagree(a, b) == 0
}

func disagree(a, b []int) int {
	k := 0
	for i := range a {
		if a[i] != b[i] {
			k++
		}
	}
	return k
}

// TestSepGNNBadInput checks that broken inputs give errors naming what is
// wrong, and no fit.
func TestSepGNNBadInput(t *testing.T) {
	ctx := context.Background()
	g, x, truth := heterophilous(t, 30, 1)
	labels, val, valLabels, _ := sepSplit(truth)
	nan := mat.DenseCopyOf(x)
	nan.Set(4, 2, math.NaN())
	sp := denseToSparse(x)
	sp.Values[7] = math.Inf(1)
	short := append([]int(nil), labels[:29]...)
	neg := append([]int(nil), labels...)
	neg[3] = -2
	none := make([]int, 30)
	for i := range none {
		none[i] = -1
	}
	cases := []struct {
		name      string
		nodes     estimator.Nodes
		labels    []int
		val, valy []int
		want      string
	}{
		{"no graph", estimator.Nodes{Features: x}, labels, val, valLabels, "no graph"},
		{"no features", estimator.Nodes{Graph: g}, labels, val, valLabels, "needs node features"},
		{"feature rows", estimator.Nodes{Graph: g, Features: x.Slice(0, 20, 0, 6)}, labels, val, valLabels, "20 feature rows"},
		{"NaN feature", estimator.Nodes{Graph: g, Features: nan}, labels, val, valLabels, "node 4, column 2"},
		{"Inf sparse feature", estimator.Nodes{Graph: g, Features: sp}, labels, val, valLabels, "+Inf"},
		{"label count", estimator.Nodes{Graph: g, Features: x}, short, val, valLabels, "29 labels"},
		{"label below −1", estimator.Nodes{Graph: g, Features: x}, neg, val, valLabels, "node 3 has label -2"},
		{"no labelled node", estimator.Nodes{Graph: g, Features: x}, none, val, valLabels, "no labelled node"},
		{"validation node", estimator.Nodes{Graph: g, Features: x}, labels, []int{4, 30}, []int{1, 1}, "node 30"},
		{"validation labels", estimator.Nodes{Graph: g, Features: x}, labels, val, valLabels[1:], "validation labels"},
		{"no validation", estimator.Nodes{Graph: g, Features: x}, labels, nil, nil, "no validation node"},
	}
	for _, c := range cases {
		m := &SepGNN{Hidden: 4, Epochs: 3}
		err := m.FitValidated(ctx, c.nodes, c.labels, c.val, c.valy)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		if _, err := m.Predict(ctx, estimator.FittedNodes); !errors.Is(err, estimator.ErrNotFitted) {
			t.Errorf("%s: a failed fit left a model that predicts", c.name)
		}
	}
	for field, m := range map[string]*SepGNN{
		"Hidden": {Hidden: -1}, "Layers": {Layers: -2}, "Dropout": {Dropout: 1}, "WeightDecay": {WeightDecay: math.NaN()},
		"LearningRate": {LearningRate: math.Inf(1)}, "Epochs": {Epochs: -1}, "Patience": {Patience: -1}, "HoldOut": {HoldOut: 1}, "Stop": {Stop: 7},
	} {
		if err := m.Validate(); err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: Validate gives %v, want an error naming the field", field, err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	m := &SepGNN{Hidden: 4}
	if err := m.FitValidated(cancelled, estimator.Nodes{Graph: g, Features: x}, labels, val, valLabels); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled fit gives %v", err)
	}
	if err := (&SepGNN{HoldOut: 0.01}).Fit(ctx, estimator.Nodes{Graph: g, Features: x}, labels); err == nil || !strings.Contains(err.Error(), "HoldOut") {
		t.Errorf("a hold-out of no node gives %v", err)
	}
}

// sepHetero is a 3-class graph whose edges join class k to class k+1 mod
// 3 (five drawn from each node), with one-hot class features under
// Gaussian noise of standard deviation 2: a single node's features say
// little about its class, the mean of its neighbours' much more.
func sepHetero(t *testing.T, n int, seed uint64) (*graph.CSR, *mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	truth := make([]int, n)
	byClass := make([][]int, 3)
	for i := range truth {
		truth[i] = i % 3
		byClass[i%3] = append(byClass[i%3], i)
	}
	var edges []graph.Edge
	for i, k := range truth {
		next := byClass[(k+1)%3]
		for e := 0; e < 5; e++ {
			edges = append(edges, graph.Edge{U: i, V: next[rng.IntN(len(next))], W: 1})
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop})
	require.NoError(t, err)
	x := mat.NewDense(n, 3, nil)
	for i, k := range truth {
		for j := 0; j < 3; j++ {
			x.Set(i, j, 2*rng.NormFloat64())
		}
		x.Set(i, k, x.At(i, k)+1)
	}
	return g, x, truth
}
