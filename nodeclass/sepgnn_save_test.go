package nodeclass

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
)

// sepRefTol bounds the difference between SepGNN's probabilities and the
// dense reference's: the same arithmetic in other orders, a few hundred
// roundings of values of order one.
const sepRefTol = 1e-12

// sepDenseLayers runs SepGNN's equations with dense gonum products on the
// rows of x, taking neighbour means by the dense n_q×n_h matrix s from the
// rows of hs[l] (the representations the means are taken over, nil: the
// query's own, for the fitted graph), and returns every layer's H and the
// probabilities.
func sepDenseLayers(p *sepParams, sh sepShape, x *mat.Dense, s *mat.Dense, hs []*mat.Dense) ([]*mat.Dense, *mat.Dense) {
	r, _ := x.Dims()
	h := sh.h
	var a mat.Dense
	a.Mul(x, p.win)
	for i := range r {
		for j := range h {
			a.Set(i, j, math.Max(a.At(i, j)+p.bin[j], 0))
		}
	}
	layers := []*mat.Dense{&a}
	for l := range sh.layers {
		prev := layers[l]
		src := prev
		if hs != nil {
			src = hs[l]
		}
		var mean, u, t mat.Dense
		mean.Mul(s, src)
		u.Mul(prev, p.w[l].Slice(0, h, 0, h))
		t.Mul(&mean, p.w[l].Slice(h, 2*h, 0, h))
		u.Add(&u, &t)
		next := mat.NewDense(r, h, nil)
		for i := range r {
			row := make([]float64, h)
			m := 0.0
			for j := range h {
				row[j] = u.At(i, j) + p.b[l][j]
				m += row[j]
			}
			m /= float64(h)
			v := 0.0
			for _, z := range row {
				v += (z - m) * (z - m)
			}
			sd := math.Sqrt(v/float64(h) + sepLayerNormEps)
			for j, z := range row {
				next.Set(i, j, prev.At(i, j)+math.Max(p.gamma[l][j]*(z-m)/sd+p.beta[l][j], 0))
			}
		}
		layers = append(layers, next)
	}
	var z mat.Dense
	z.Mul(layers[sh.layers], p.wout)
	prob := mat.NewDense(r, sh.c, nil)
	for i := range r {
		top := math.Inf(-1)
		for j := range sh.c {
			top = math.Max(top, z.At(i, j)+p.bout[j])
		}
		sum := 0.0
		for j := range sh.c {
			sum += math.Exp(z.At(i, j) + p.bout[j] - top)
		}
		for j := range sh.c {
			prob.Set(i, j, math.Exp(z.At(i, j)+p.bout[j]-top)/sum)
		}
	}
	return layers, prob
}

// denseMean is D⁻¹A of g with self loops left out, as a dense matrix.
func denseMean(g *graph.CSR) *mat.Dense {
	n := g.Nodes()
	s := mat.NewDense(n, n, nil)
	for i := range n {
		cols, ws := g.Row(i)
		mass := 0.0
		for k, j := range cols {
			if int(j) != i {
				s.Set(i, int(j), ws[k])
				mass += ws[k]
			}
		}
		for j := range n {
			if mass > 0 {
				s.Set(i, j, s.At(i, j)/mass)
			}
		}
	}
	return s
}

// sepNewNodeQuery is four new nodes of a graph of n ≥ 12 nodes with d
// features: weighted edges, unweighted ones given twice to one node, none,
// and node 5's own edges and features (which must get node 5's fitted
// prediction).
func sepNewNodeQuery(g *graph.CSR, x *mat.Dense) (estimator.NewNodes, *mat.Dense) {
	_, d := x.Dims()
	cols, ws := g.Row(5)
	nn := estimator.NewNodes{Offsets: []int{0, 3, 5, 5}, Nodes: []int32{0, 7, 11, 3, 3}, Weights: []float64{1, 0.5, 2, 1, 1}}
	for k, j := range cols {
		nn.Nodes = append(nn.Nodes, j)
		nn.Weights = append(nn.Weights, ws[k])
	}
	nn.Offsets = append(nn.Offsets, len(nn.Nodes))
	q := mat.NewDense(4, d, nil)
	for i := range 3 {
		for j := range d {
			q.Set(i, j, math.Sin(float64(3*i+j+1)))
		}
	}
	q.SetRow(3, x.RawRowView(5))
	return nn, q
}

// TestSepGNNPredictNodesAgainstDense checks the fitted nodes' and new
// nodes' probabilities against the equations run with dense matrices: S
// of the fitted graph for the fitted nodes, and for new nodes the rows of
// their edge weights normalised to sum 1 applied to the fitted nodes'
// dense representations.
func TestSepGNNPredictNodesAgainstDense(t *testing.T) {
	ctx := context.Background()
	g, x, truth := sepHetero(t, 45, 3)
	labels, val, valLabels, _ := sepSplit(truth)
	for _, f := range []Features{{Dense: x}, {Sparse: denseToSparse(x)}} {
		m := &SepGNN{Hidden: 5, Layers: 2, Epochs: 30, Seed: 4}
		require.NoError(t, m.FitValidated(ctx, estimator.Nodes{Graph: g, Features: Matrix(f)}, labels, val, valLabels))
		fit := m.fit
		hs, prob := sepDenseLayers(fit.p, fit.s, x, denseMean(g), nil)
		assertClose(t, prob, fit.prob, sepRefTol, "fitted nodes")

		nn, q := sepNewNodeQuery(g, x)
		sq := mat.NewDense(nn.Len(), g.Nodes(), nil)
		for i := range nn.Len() {
			nb, ws := nn.Row(i)
			mass := 0.0
			for _, w := range ws {
				mass += w
			}
			for k, u := range nb {
				sq.Set(i, int(u), sq.At(i, int(u))+ws[k]/mass)
			}
		}
		_, want := sepDenseLayers(fit.p, fit.s, q, sq, hs)
		var qm mat.Matrix = q
		if f.Sparse != nil {
			qm = denseToSparse(q)
		}
		got, err := m.Predict(ctx, estimator.NodeQuery{New: &nn, Features: qm})
		require.NoError(t, err)
		assertClose(t, want, got, sepRefTol, "new nodes")
		assertClose(t, mat.DenseCopyOf(prob.Slice(5, 6, 0, fit.s.c)), rowsFrom(got, 3), sepRefTol, "node 5 given again as new")
	}
}

// TestSepGNNSaveLoad: a model read back from its bytes predicts the fitted
// and new nodes bitwise as the fitted one, keeps its hyperparameters, and a
// file whose shape disagrees with its sections is refused.
func TestSepGNNSaveLoad(t *testing.T) {
	ctx := context.Background()
	g, x, truth := sepHetero(t, 45, 5)
	labels, val, valLabels, _ := sepSplit(truth)
	m := &SepGNN{Hidden: 6, Layers: 2, Epochs: 20, Dropout: 0.3, Seed: 9}
	require.NoError(t, m.FitValidated(ctx, estimator.Nodes{Graph: g, Features: x}, labels, val, valLabels))
	data, err := m.MarshalBinary()
	require.NoError(t, err)
	var back SepGNN
	require.NoError(t, back.UnmarshalBinary(data))
	require.Equal(t, m.String(), back.String())
	require.Equal(t, m.Info(), back.Info())
	require.Equal(t, m.Features(), back.Features())
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
	var meta sepMeta
	require.NoError(t, f.DecodeMetadata(&meta))
	meta.Layers = 1
	require.NoError(t, f.SetMetadata(meta))
	err = back.ReadModelFile(f)
	require.ErrorContains(t, err, "does not match its hyperparameters")

	var unfitted SepGNN
	_, err = unfitted.MarshalBinary()
	require.ErrorIs(t, err, estimator.ErrNotFitted)
}

// TestSepGNNPredictBadQuery: queries the model cannot answer are errors
// that say why.
func TestSepGNNPredictBadQuery(t *testing.T) {
	ctx := context.Background()
	g, x, truth := sepHetero(t, 30, 2)
	labels, val, valLabels, _ := sepSplit(truth)
	m := &SepGNN{Hidden: 3, Epochs: 3}
	require.NoError(t, m.FitValidated(ctx, estimator.Nodes{Graph: g, Features: x}, labels, val, valLabels))
	nn := estimator.NewNodes{Offsets: []int{0, 1}, Nodes: []int32{30}}
	_, err := m.Predict(ctx, estimator.NodeQuery{New: &nn, Features: mat.NewDense(1, 3, nil)})
	require.ErrorContains(t, err, "out of range")
	nn.Nodes[0] = 2
	_, err = m.Predict(ctx, estimator.NodeQuery{New: &nn})
	require.ErrorContains(t, err, "need their features")
	_, err = m.Predict(ctx, estimator.NodeQuery{New: &nn, Features: mat.NewDense(1, 4, nil)})
	require.ErrorContains(t, err, "fitted on 3 features")
	_, err = m.Predict(ctx, estimator.NodeQuery{Features: x})
	require.ErrorContains(t, err, "no new nodes")
}
