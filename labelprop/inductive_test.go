package labelprop

import (
	"context"
	"fmt"
	"github.com/gssl/gssl/estimator"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// inductiveTol bounds the difference between PredictNewNode and the same
// formula evaluated on dense-LU scores: the fitted scores carry the solver
// error (tightTol relative residual, conditioning ≤ 1e4).
const inductiveTol = 1e-8

// TestPredictNewNodeReproducesUnlabelledNodes: a node that was unlabelled at fit
// time satisfies F_i = a Σ_j S_ij F_j (spreading, Y_i = 0) and
// F_i = Σ_j W_ij F_j / d_i (harmonic), so predicting it from its own edges
// must give back its fitted scores.
func TestPredictNewNodeReproducesUnlabelledNodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	p := randomProblem(rng, 3)
	lab := p.labelled()
	for _, m := range []Classifier{&Spreading{Alpha: 0.9, Tol: tightTol}, &Harmonic{Tol: tightTol, ClassMassNormalization: true}} {
		require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
		f, probs := m.Scores(), m.Probabilities()
		checked := 0
		for i := 0; i < p.g.Nodes(); i++ {
			if _, ok := lab[i]; ok {
				continue
			}
			cols, ws := p.g.Row(i)
			nodes := make([]int, len(cols))
			for k, c := range cols {
				nodes[k] = int(c)
			}
			pred, err := predictNew(m, nodes, ws)
			require.NoError(t, err)
			assert.InDeltaSlice(t, f.RawRowView(i), pred.Scores, inductiveTol, "node %d", i)
			assert.InDeltaSlice(t, probs.RawRowView(i), pred.Probabilities, inductiveTol, "node %d", i)
			assert.Equal(t, m.Labels()[i], pred.Label)
			checked++
		}
		assert.Greater(t, checked, 20)
	}
}

// TestPredictNewNodeHeldOutNode removes a node from the graph, fits without it,
// predicts it from its edges, and compares with the formula evaluated by
// hand on dense-LU scores of the reduced graph.
func TestPredictNewNodeHeldOutNode(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	p := randomProblem(rng, 3)
	lab := p.labelled()
	// The held-out node: unlabelled, in the first block, at least 3 edges.
	v := -1
	for i := 0; i < p.g.Nodes(); i++ {
		if _, ok := lab[i]; !ok && p.g.RowLen(i) >= 3 && !p.g.HasEdge(i, i) && i < 20 {
			v = i
			break
		}
	}
	require.GreaterOrEqual(t, v, 0)
	var keep []int
	for i := 0; i < p.g.Nodes(); i++ {
		if i != v {
			keep = append(keep, i)
		}
	}
	sub, err := p.g.Induced(keep)
	require.NoError(t, err)
	q := problem{g: sub.CSR, c: p.c}
	for k, u := range p.nodes {
		l, ok := sub.Local(u)
		require.True(t, ok)
		q.nodes = append(q.nodes, l)
		q.classes = append(q.classes, p.classes[k])
	}
	for _, u := range p.unreached {
		l, _ := sub.Local(u)
		q.unreached = append(q.unreached, l)
	}
	// v's edges in the reduced numbering.
	cols, ws := p.g.Row(v)
	var nbrs []int
	for _, c := range cols {
		l, ok := sub.Local(int(c))
		require.True(t, ok)
		nbrs = append(nbrs, l)
	}
	var dx float64
	for _, w := range ws {
		dx += w
	}

	const a = 0.9
	fs := denseSpreading(t, q, a)
	fh := denseHarmonic(t, q)
	wantSpread := make([]float64, p.c)
	wantHarm := make([]float64, p.c)
	for k, j := range nbrs {
		dj := mat.Sum(sub.Dense().RowView(j))
		for c := 0; c < p.c; c++ {
			wantSpread[c] += a * ws[k] / math.Sqrt(dx*dj) * fs.At(j, c)
			wantHarm[c] += ws[k] * fh.At(j, c) / dx
		}
	}
	normalise := func(f []float64) []float64 {
		var s float64
		for _, x := range f {
			s += x
		}
		out := make([]float64, len(f))
		for i, x := range f {
			out[i] = x / s
		}
		return out
	}

	sp := Spreading{Alpha: a, Tol: tightTol}
	require.NoError(t, sp.FitIndexed(context.Background(), q.g, q.nodes, q.classes))
	got, err := predictNew(&sp, nbrs, ws)
	require.NoError(t, err)
	assert.InDeltaSlice(t, wantSpread, got.Scores, inductiveTol)
	assert.InDeltaSlice(t, normalise(wantSpread), got.Probabilities, inductiveTol)
	assert.Equal(t, argmax(wantSpread), got.Label)
	assert.True(t, got.Reached)

	hm := Harmonic{Tol: tightTol}
	require.NoError(t, hm.FitIndexed(context.Background(), q.g, q.nodes, q.classes))
	got, err = predictNew(&hm, nbrs, ws)
	require.NoError(t, err)
	assert.InDeltaSlice(t, wantHarm, got.Scores, inductiveTol)
	assert.InDeltaSlice(t, normalise(wantHarm), got.Probabilities, inductiveTol)

	// With class-mass normalisation the scales come from the fitted scores.
	hc := Harmonic{Tol: tightTol, ClassMassNormalization: true}
	require.NoError(t, hc.FitIndexed(context.Background(), q.g, q.nodes, q.classes))
	got, err = predictNew(&hc, nbrs, ws)
	require.NoError(t, err)
	scaled := make([]float64, p.c)
	prior := q.prior()
	qlab := q.labelled()
	for c := range scaled {
		var mass float64
		for i := 0; i < q.g.Nodes(); i++ {
			if _, ok := qlab[i]; !ok {
				mass += fh.At(i, c)
			}
		}
		scaled[c] = wantHarm[c] * prior[c] / mass
	}
	assert.InDeltaSlice(t, normalise(scaled), got.Probabilities, inductiveTol)
}

func TestPredictNewNodeEdgeCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	p := randomProblem(rng, 3)
	for _, m := range []Classifier{&Spreading{Alpha: 0.9}, &Harmonic{}} {
		require.NoError(t, m.FitIndexed(context.Background(), p.g, p.nodes, p.classes))
		// No edge, or edges only into a component without labels: the prior.
		for _, nodes := range [][]int{nil, {p.unreached[0], p.isolated}} {
			got, err := predictNew(m, nodes, nil)
			require.NoError(t, err)
			assert.False(t, got.Reached)
			assert.InDeltaSlice(t, p.prior(), got.Probabilities, 1e-15)
		}
		_, err := predictNew(m, []int{0, p.g.Nodes()}, nil)
		assert.ErrorContains(t, err, fmt.Sprintf("new node 0, edge 1: fitted node %d is out of range", p.g.Nodes()))
		_, err = predictNew(m, []int{0, 1}, []float64{1, -2})
		assert.ErrorContains(t, err, "new node 0, edge 1: weight -2 must be finite and ≥ 0")
		_, err = predictNew(m, []int{0, 1}, []float64{1, math.NaN()})
		assert.ErrorContains(t, err, "weight NaN")
		_, err = predictNew(m, []int{0, 1}, []float64{1})
		assert.ErrorContains(t, err, "1 weights for 2 edges")
	}
	_, err := predictNew(&Harmonic{}, nil, nil)
	assert.ErrorIs(t, err, ErrNotFitted)
}

// predictNew predicts one new node with edges to nodes (weights nil: 1
// each) through NewNodeDetails.
func predictNew(m interface {
	NewNodeDetails(context.Context, estimator.NewNodes) ([]Prediction, error)
}, nodes []int, weights []float64) (Prediction, error) {
	nn := estimator.NewNodes{Offsets: []int{0, len(nodes)}, Weights: weights}
	for _, v := range nodes {
		nn.Nodes = append(nn.Nodes, int32(v))
	}
	p, err := m.NewNodeDetails(context.Background(), nn)
	if err != nil {
		return Prediction{}, err
	}
	return p[0], nil
}
