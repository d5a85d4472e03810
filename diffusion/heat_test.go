package diffusion

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
	"github.com/gssl/gssl/modelfile"
)

// tol bounds the difference from the dense reference: the truncated
// Chebyshev series is exact to rounding, and each of its terms adds a few
// ulps of the scores (at most 1).
const tol = 1e-12

// testGraph is a seeded random weighted graph of n nodes with a self loop
// and an isolated node, and every fourth node labelled with one of three
// classes.
func testGraph(t *testing.T, n int) (*graph.CSR, []int) {
	rng := rand.New(rand.NewPCG(28, 5))
	var e []graph.Edge
	for i := 0; i < n-1; i++ { // node n−1 stays isolated
		for j := i + 1; j < n-1; j++ {
			if rng.Float64() < 0.15 {
				e = append(e, graph.Edge{U: i, V: j, W: 0.5 + rng.Float64()})
			}
		}
	}
	e = append(e, graph.Edge{U: 3, V: 3, W: 2})
	g, err := graph.FromEdges(n, e, graph.Options{})
	require.NoError(t, err)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
		if i%4 == 0 {
			labels[i] = (i / 4) % 3
		}
	}
	return g, labels
}

// denseHeat is exp(−tL)·Y from the eigendecomposition of the dense
// normalised Laplacian, the reference.
func denseHeat(t *testing.T, g *graph.CSR, labels []int, time float64) *mat.Dense {
	w := g.Dense()
	n, _ := w.Dims()
	d := make([]float64, n)
	for i := range d {
		for j := 0; j < n; j++ {
			d[i] += w.At(i, j)
		}
	}
	l := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := 0.0
			if d[i] > 0 && d[j] > 0 {
				v = -w.At(i, j) / math.Sqrt(d[i]*d[j])
			}
			if i == j {
				v++
			}
			l.SetSym(i, j, v)
		}
	}
	var es mat.EigenSym
	require.True(t, es.Factorize(l, true))
	var v mat.Dense
	es.VectorsTo(&v)
	vals := es.Values(nil)
	e := mat.NewDiagDense(n, nil)
	for i, x := range vals {
		e.SetDiag(i, math.Exp(-time*x))
	}
	var k mat.Dense
	k.Product(&v, e, v.T())
	y := mat.NewDense(n, 3, nil)
	for i, c := range labels {
		if c >= 0 {
			y.Set(i, c, 1)
		}
	}
	var f mat.Dense
	f.Mul(&k, y)
	return &f
}

func TestHeatAgainstDense(t *testing.T) {
	g, labels := testGraph(t, 60)
	for _, time := range []float64{0.1, 1, DefaultTime, 40} {
		m := &HeatClassifier{Time: time}
		require.NoError(t, m.Fit(context.Background(), estimator.Nodes{Graph: g}, labels))
		got, err := m.Predict(context.Background(), estimator.FittedNodes)
		require.NoError(t, err)
		want := denseHeat(t, g, labels, time)
		assert.True(t, mat.EqualApprox(got, want, tol), "t = %v: max difference %v", time, maxDiff(got, want))
		assert.Less(t, m.Info().Iterations, int(time)+60, "t = %v: terms", time)
	}
}

func maxDiff(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1))
}

// TestHeatNewNodes: a new node's scores are the weighted mean of its
// neighbours' rows, computed here by brute force; no edges gives the mean
// row.
func TestHeatNewNodes(t *testing.T) {
	g, labels := testGraph(t, 30)
	m := &HeatClassifier{}
	require.NoError(t, m.Fit(context.Background(), estimator.Nodes{Graph: g}, labels))
	f, err := m.Predict(context.Background(), estimator.FittedNodes)
	require.NoError(t, err)
	nn := &estimator.NewNodes{Offsets: []int{0, 2, 2, 3}, Nodes: []int32{1, 7, 5}, Weights: []float64{2, 1, 0}}
	got, err := m.Predict(context.Background(), estimator.NodeQuery{New: nn})
	require.NoError(t, err)
	for c := 0; c < 3; c++ {
		assert.InDelta(t, (2*f.At(1, c)+f.At(7, c))/3, got.At(0, c), 1e-15)
		mean := mat.Sum(f.ColView(c)) / 30
		assert.InDelta(t, mean, got.At(1, c), 1e-15)
		assert.InDelta(t, mean, got.At(2, c), 1e-15)
	}
	_, err = m.Predict(context.Background(), estimator.NodeQuery{New: &estimator.NewNodes{Offsets: []int{0, 1}, Nodes: []int32{30}}})
	assert.ErrorContains(t, err, "out of range")
}

func TestHeatErrors(t *testing.T) {
	g, labels := testGraph(t, 20)
	x := estimator.Nodes{Graph: g}
	for _, m := range []*HeatClassifier{{Time: -1}, {Time: math.NaN()}, {Time: 2 * MaxTime}} {
		assert.ErrorContains(t, m.Fit(context.Background(), x, labels), "Time")
	}
	assert.ErrorContains(t, (&HeatClassifier{Classes: -2}).Validate(), "Classes")
	assert.ErrorContains(t, (&HeatClassifier{Classes: 2}).Fit(context.Background(), x, labels), "label 2 of node 8")
	assert.ErrorContains(t, (&HeatClassifier{}).Fit(context.Background(), x, labels[:5]), "5 labels for 20 nodes")
	none := make([]int, 20)
	for i := range none {
		none[i] = -1
	}
	assert.ErrorContains(t, (&HeatClassifier{}).Fit(context.Background(), x, none), "no node is labelled")
	_, err := (&HeatClassifier{}).Predict(context.Background(), estimator.FittedNodes)
	assert.True(t, errors.Is(err, estimator.ErrNotFitted))
}

// TestHeatFileIsInput: a model file whose declared shape or settings are
// wrong is an error naming them, and a good one predicts bitwise the same.
func TestHeatFileIsInput(t *testing.T) {
	g, labels := testGraph(t, 20)
	m := &HeatClassifier{Time: 2}
	require.NoError(t, m.Fit(context.Background(), estimator.Nodes{Graph: g}, labels))
	f, err := m.ModelFile()
	require.NoError(t, err)
	var back HeatClassifier
	require.NoError(t, back.ReadModelFile(f))
	a, _ := m.Predict(context.Background(), estimator.FittedNodes)
	b, _ := back.Predict(context.Background(), estimator.FittedNodes)
	assert.Equal(t, a.RawMatrix().Data, b.RawMatrix().Data)
	for _, meta := range []string{
		`{"time":2,"classes":0,"nodes":21,"columns":3,"terms":5}`,
		`{"time":-2,"classes":0,"nodes":20,"columns":3,"terms":5}`,
		`{"time":2,"classes":0,"nodes":4611686018427387904,"columns":4,"terms":5}`,
		`{"time":2,"classes":4,"nodes":20,"columns":3,"terms":5}`,
	} {
		f.Metadata = []byte(meta)
		err := back.ReadModelFile(f)
		assert.ErrorContains(t, err, "diffusion: the model file", meta)
	}
	_, err = modelfile.Unmarshal([]byte("GSSLMODL"))
	assert.Error(t, err)
}
