package nodeclass

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/mlp"
	"github.com/gssl/gssl/propagate"
)

// TestAPPNPNetPropagation checks K steps of the propagation against the
// dense Π_K = Σ_{j<K} (1 − a) a^j S̃^j + a^K S̃^K formed from S̃'s dense
// matrix by gonum, on a weighted graph, for K = 1, 2 and 10.
func TestAPPNPNetPropagation(t *testing.T) {
	g, _, _ := heterophilous(t, 12, 5)
	g = reweighted(t, g)
	op := propagate.GCN(g)
	s := op.Dense()
	n := g.Nodes()
	rng := rand.New(rand.NewPCG(3, 4))
	h := mat.NewDense(n, 3, nil)
	for i := range n {
		for j := range 3 {
			h.Set(i, j, rng.NormFloat64())
		}
	}
	const a = 0.8
	for _, k := range []int{1, 2, 10} {
		pi, pow := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
		for i := range n {
			pow.Set(i, i, 1)
		}
		for j := 0; j < k; j++ {
			var term mat.Dense
			term.Scale((1-a)*math.Pow(a, float64(j)), pow)
			pi.Add(pi, &term)
			pow.Mul(pow, s)
		}
		var last mat.Dense
		last.Scale(math.Pow(a, float64(k)), pow)
		pi.Add(pi, &last)
		var want mat.Dense
		want.Mul(pi, h)
		got := mat.NewDense(n, 3, nil)
		pprSteps(op, got, h, mat.NewDense(n, 3, nil), a, k)
		require.True(t, mat.EqualApprox(got, &want, 1e-12), "K=%d: K steps differ from the dense Π_K", k)
	}
}

// appnpLoss is the mean cross-entropy of the nodes idx plus λ/2 times the
// squared weights after a forward pass of nt.
func appnpLoss(nt *appnpNet, idx, y []int, lambda float64) float64 {
	nt.forward(nil)
	loss := crossEntropy(nt.w.prob, idx, y)
	for _, v := range nt.p.weights() {
		for _, e := range v {
			loss += lambda / 2 * e * e
		}
	}
	return loss
}

// TestAPPNPNetGradient checks the back-propagated gradient (through Π_K
// by Π_K, dropout masks on the input and the hidden units fixed) against
// central differences, for dense and for sparse features, on a weighted
// graph.
func TestAPPNPNetGradient(t *testing.T) {
	g, x, truth := heterophilous(t, 12, 5)
	g = reweighted(t, g)
	_, d := x.Dims()
	s := appnpShape{d: d, h: 4, c: 3}
	rng := rand.New(rand.NewPCG(7, 9))
	p := newAPPNPParams(s, nil)
	initLinear(p.w1, p.b1, rng)
	initLinear(p.w2, p.b2, rng)
	for i := range p.flat { // move the biases off 0 and the units off their kinks' symmetry
		p.flat[i] += 0.1 * rng.NormFloat64()
	}
	idx, y := gradIdx(truth)
	const lambda = 0.03
	for _, f := range []Features{{Dense: x}, {Sparse: denseToSparse(x)}} {
		nt := newAPPNPNet(p, s, f, propagate.GCN(g), 0.7, 4)
		nt.drawMasks(rand.NewPCG(7, 10), 0.3)
		nt.forward(nil)
		nt.backward(idx, y, lambda)
		checkGradient(t, fmt.Sprintf("sparse=%v", f.Sparse != nil), p.flat, nt.g.flat, func() float64 { return appnpLoss(nt, idx, y, lambda) })
	}
}

// TestAPPNPNetInputDropout checks that the input mask drops stored
// entries with the drop rate and scales the kept ones by 1/(1 − q), and
// that clearing the masks restores X̂.
func TestAPPNPNetInputDropout(t *testing.T) {
	g, x, _ := heterophilous(t, 40, 5)
	f := Features{Sparse: denseToSparse(x)}
	nt := newAPPNPNet(newAPPNPParams(appnpShape{d: 6, h: 3, c: 2}, nil), appnpShape{d: 6, h: 3, c: 2}, f, propagate.GCN(g), 0.9, 2)
	nt.drawMasks(rand.NewPCG(1, 2), 0.5)
	kept := 0
	for k, v := range nt.w.x.Sparse.Values {
		switch nt.w.x.Sparse.Values[k] {
		case 0:
		case 2 * f.Sparse.Values[k]:
			kept++
		default:
			t.Fatalf("entry %d: %v is neither 0 nor twice %v", k, v, f.Sparse.Values[k])
		}
	}
	nnz := len(f.Sparse.Values)
	require.InDelta(t, 0.5, float64(kept)/float64(nnz), 4/math.Sqrt(float64(nnz)))
	nt.clearMasks()
	require.Same(t, f.Sparse, nt.w.x.Sparse)
}

// coraTrainVal returns Cora's Planetoid training labels (−1 elsewhere) and
// its validation nodes with their classes.
func coraTrainVal(t *testing.T) (*loaders.NodeDataset, []int, []int, []int) {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	require.NoError(t, err)
	require.NotNil(t, ds.Split)
	labels := make([]int, len(ds.Labels))
	for i := range labels {
		labels[i] = -1
	}
	for _, i := range ds.Split.Train {
		labels[i] = ds.Labels[i]
	}
	yv := make([]int, len(ds.Split.Val))
	for k, i := range ds.Split.Val {
		yv[k] = ds.Labels[i]
	}
	return ds, labels, ds.Split.Val, yv
}

// TestAPPNPNetCora checks the defaults (the epoch of least validation
// loss kept) on Cora's Planetoid split, where Klicpera et al. report
// 83.3 % and PyG's APPNP 83.1–83.8 %: seed 0 reaches 83.4 %, seeds 0–9
// range over 83.2–84.7 % (mean 83.7 %). The bound 0.825 is below every one
// of those seeds and above the linear APPNP's 81.1 %; a fit without the
// propagation's step in the gradient falls below it. A refit on one worker is
// bitwise the same.
func TestAPPNPNetCora(t *testing.T) {
	if testing.Short() {
		t.Skip("Cora fit: about 2 s")
	}
	ds, labels, val, yv := coraTrainVal(t)
	ctx := context.Background()
	nodes := estimator.Nodes{Graph: ds.Graph, Features: Matrix(Features{Sparse: ds.Features})}
	m := &APPNPNet{}
	require.NoError(t, m.FitValidated(ctx, nodes, labels, val, yv))
	p, err := m.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	acc, err := eval.Accuracy(estimator.Argmax(p), ds.Labels, ds.Split.Test)
	require.NoError(t, err)
	require.GreaterOrEqual(t, acc, 0.825)
	require.Equal(t, DefaultAPPNPEpochs, m.Info().Iterations)

	procs := runtime.GOMAXPROCS(1)
	again := m.Clone()
	err = again.FitValidated(ctx, nodes, labels, val, yv)
	runtime.GOMAXPROCS(procs)
	require.NoError(t, err)
	q, _ := again.Predict(ctx, estimator.FittedNodes)
	require.True(t, mat.Equal(p, q), "a refit with the same seed on one worker differs")
}

// TestAPPNPNetBadInput: invalid hyperparameters, inputs and queries are
// errors, not panics; Fit holds out part of the labelled nodes.
func TestAPPNPNetBadInput(t *testing.T) {
	ctx := context.Background()
	g, x, truth := heterophilous(t, 30, 5)
	nodes := estimator.Nodes{Graph: g, Features: x}
	for _, m := range []*APPNPNet{{Hidden: -1}, {Steps: -1}, {Alpha: 1}, {Alpha: -0.1}, {Dropout: 1}, {WeightDecay: math.Inf(1)},
		{LearningRate: math.NaN()}, {Epochs: -1}, {Stop: 7}, {HoldOut: 1}, {Normalization: 9}} {
		require.Error(t, m.Validate(), "%+v", m)
		require.Error(t, m.Fit(ctx, nodes, truth), "%+v", m)
	}
	m := &APPNPNet{Epochs: 5}
	_, err := m.Predict(ctx, estimator.FittedNodes)
	require.ErrorIs(t, err, estimator.ErrNotFitted)
	require.Error(t, m.Fit(ctx, nodes, truth[:3]))
	require.Error(t, m.FitValidated(ctx, estimator.Nodes{Graph: g}, truth, []int{0}, []int{1}))
	require.Error(t, m.FitValidated(ctx, nodes, truth, []int{len(truth)}, []int{0}))
	require.NoError(t, m.Fit(ctx, nodes, truth))
	require.Equal(t, 5, m.Info().Iterations)
	_, err = m.Predict(ctx, estimator.NodeQuery{Features: x})
	require.Error(t, err)
	p, err := m.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	r, c := p.Dims()
	require.Equal(t, []int{g.Nodes(), 3}, []int{r, c})
	require.Error(t, (&APPNPNet{Dropout: mlp.Off, Epochs: 2}).FitValidated(ctx, nodes, truth, nil, nil))
}
