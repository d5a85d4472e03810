package stkr

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
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

// modelProblem is a random connected graph of two communities with a few
// labels per class, and new nodes with edges into it.
func modelProblem(t *testing.T, seed uint64) (*graph.CSR, []int, estimator.NewNodes) {
	rng := rand.New(rand.NewPCG(seed, 3))
	n := 40
	var edges []graph.Edge
	for i := 1; i < n; i++ {
		edges = append(edges, graph.Edge{U: i, V: rng.IntN(i), W: 0.5 + rng.Float64()})
	}
	for k := 0; k < 60; k++ {
		u, v := rng.IntN(n), rng.IntN(n)
		if u != v && (u < n/2) == (v < n/2) {
			edges = append(edges, graph.Edge{U: u, V: v, W: 0.5 + rng.Float64()})
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateSum})
	require.NoError(t, err)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
	}
	for _, i := range []int{0, 3, 7, 11} {
		labels[i] = 0
	}
	for _, i := range []int{25, 30, 33} {
		labels[i] = 1
	}
	nn := estimator.NewNodes{Offsets: []int{0}}
	for i := 0; i < 8; i++ {
		for k := rng.IntN(4); k > 0; k-- {
			nn.Nodes = append(nn.Nodes, int32(rng.IntN(n)))
			nn.Weights = append(nn.Weights, 0.1+rng.Float64())
		}
		nn.Offsets = append(nn.Offsets, len(nn.Nodes))
	}
	return g, labels, nn
}

func bitsEqual(t *testing.T, what string, want, got []float64) {
	t.Helper()
	require.Len(t, got, len(want), what)
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
			t.Fatalf("%s[%d]: %v after the round trip, %v before", what, i, got[i], want[i])
		}
	}
}

func TestRegressorRoundTrip(t *testing.T) {
	g, labels, nn := modelProblem(t, 1)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	for _, r := range []*Classifier{
		{Regressor: Regressor{Transform: Power(4), Beta: 0.1}},
		{Regressor: Regressor{Transform: KRR(), Beta: 1, Solver: SolverRichardson, Iterations: 8}},
		{Regressor: Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 0.01}},
		{Regressor: Regressor{Transform: TopD{D: 4}, Beta: 0.1, Eigen: DenseEigen{}}},
	} {
		require.NoError(t, r.FitKernel(context.Background(), k, labels), "%s", r.Transform)
		assert.Equal(t, 2, r.FittedClasses())
		assert.Equal(t, []float64{4.0 / 7, 3.0 / 7}, r.Prior())
		b, err := r.MarshalBinary()
		require.NoError(t, err)
		got := &Classifier{}
		require.NoError(t, got.UnmarshalBinary(b))
		bitsEqual(t, "Predict", mustPredict(t, r).RawMatrix().Data, mustPredict(t, got).RawMatrix().Data)
		want, err := r.NewNodeScores(context.Background(), nn)
		require.NoError(t, err)
		pred, err := got.NewNodeScores(context.Background(), nn)
		require.NoError(t, err)
		bitsEqual(t, "PredictNodes", want.RawMatrix().Data, pred.RawMatrix().Data)
		bitsEqual(t, "Vectors", mustVectors(t, &r.Regressor).RawMatrix().Data, mustVectors(t, &got.Regressor).RawMatrix().Data)
		if mustAlpha(t, &r.Regressor) != nil {
			bitsEqual(t, "Alpha", mustAlpha(t, &r.Regressor).RawMatrix().Data, mustAlpha(t, &got.Regressor).RawMatrix().Data)
		} else {
			assert.Nil(t, mustAlpha(t, &got.Regressor))
		}
		assert.Equal(t, r.Stats(), got.Stats())
		assert.Equal(t, r.Info(), got.Info())
		if st := r.Stats(); len(st.Iterations) > 0 {
			assert.Equal(t, max(st.Iterations[0], st.Iterations[1]), r.Info().Iterations)
			assert.Equal(t, st.MatVecs, r.Info().Products)
		}
		assert.Equal(t, r.Transform, got.Transform)
		assert.Equal(t, []any{r.Beta, r.Solver, r.Tol, r.MaxIter, r.Restart, r.Iterations, r.FittedClasses(), r.Prior()},
			[]any{got.Beta, got.Solver, got.Tol, got.MaxIter, got.Restart, got.Iterations, got.FittedClasses(), got.Prior()})
		// Classes 0 (1 + the largest label) reads back as the count it meant.
		assert.Equal(t, 2, got.Classes)
		// Class probabilities by Normalize's rule, row by row.
		probs, labelsOut, _ := Normalize(mustPredict(t, r), labels)
		for i := 0; i < probs.RawMatrix().Rows; i++ {
			p, _ := got.ClassProbabilities(mustPredict(t, got).RawRowView(i))
			bitsEqual(t, "ClassProbabilities", probs.RawRowView(i), p)
			_ = labelsOut
		}
		b2, err := got.MarshalBinary()
		require.NoError(t, err)
		assert.True(t, bytes.Equal(b, b2), "a model read back encodes to the same bytes")

		// The kernel rows of PredictNodes are GraphKernel.Row's.
		nb, w := nn.Row(2)
		idx := make([]int, len(nb))
		for i, v := range nb {
			idx[i] = int(v)
		}
		row, err := k.Row(idx, w)
		require.NoError(t, err)
		one := make([]float64, 2)
		require.NoError(t, r.PredictRow(one, row))
		bitsEqual(t, "PredictRow", one, want.RawRowView(2))

		var buf bytes.Buffer
		require.NoError(t, gob.NewEncoder(&buf).Encode(r))
		viaGob := &Classifier{}
		require.NoError(t, gob.NewDecoder(&buf).Decode(viaGob))
		bitsEqual(t, "gob Predict", mustPredict(t, r).RawMatrix().Data, mustPredict(t, viaGob).RawMatrix().Data)
		_, err = json.Marshal(r)
		assert.ErrorIs(t, err, estimator.ErrJSON)
	}
}

func TestRegressorFitTargets(t *testing.T) {
	g, labels, nn := modelProblem(t, 2)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	y := make([]float64, len(labels))
	var train []int
	var ty []float64
	for i, l := range labels {
		y[i] = math.NaN()
		if l >= 0 {
			y[i] = float64(2*l) - 1
			train, ty = append(train, i), append(ty, y[i])
		}
	}
	a, b := &Regressor{Transform: Power(2), Beta: 0.1}, &Regressor{Transform: Power(2), Beta: 0.1}
	require.NoError(t, a.FitKernel(context.Background(), k, y))
	require.NoError(t, b.FitIndexed(context.Background(), k, train, mat.NewDense(len(train), 1, ty)))
	assert.Equal(t, mustPredict(t, a).RawMatrix().Data, mustPredict(t, b).RawMatrix().Data)
	assert.Equal(t, 0, a.FittedClasses())
	p, err := a.NewNodeScores(context.Background(), nn)
	require.NoError(t, err)
	r, c := p.Dims()
	assert.Equal(t, []int{8, 1}, []int{r, c})
	y[0] = math.Inf(1)
	assert.ErrorContains(t, a.FitKernel(context.Background(), k, y), "targets[0] = +Inf is not finite")
	assert.ErrorContains(t, a.FitKernel(context.Background(), k, y[1:]), "targets for a kernel on")
}

func TestRegressorModelErrors(t *testing.T) {
	r := &Classifier{Regressor: Regressor{Transform: Power(2), Beta: 0.1}}
	_, err := r.MarshalBinary()
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	_, err = r.NewNodeScores(context.Background(), estimator.NewNodes{Offsets: []int{0}})
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	assert.ErrorIs(t, r.PredictRow(make([]float64, 1), KernelRow{}), estimator.ErrNotFitted)

	g, labels, _ := modelProblem(t, 3)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	labels[5] = -3
	assert.ErrorContains(t, r.FitKernel(context.Background(), k, labels), "labels[5] = -3 is invalid")
	labels[5] = 1000
	assert.ErrorContains(t, r.FitKernel(context.Background(), k, labels), "at most half the classes may have no labelled node")
	labels[5] = 2
	r.Classes = 2
	assert.ErrorContains(t, r.FitKernel(context.Background(), k, labels), "labels[5] = 2 is invalid: Classes = 2")
	r.Classes = -1
	assert.ErrorContains(t, r.FitKernel(context.Background(), k, labels), "Classes=-1 is invalid")
	labels[5] = -1
	r.Classes = 2
	require.NoError(t, r.FitKernel(context.Background(), k, labels))
	b, err := r.MarshalBinary()
	require.NoError(t, err)
	keep := &Classifier{Regressor: Regressor{Beta: 7}}
	for i := range b {
		d := bytes.Clone(b)
		d[i] ^= 0x21
		require.Error(t, keep.UnmarshalBinary(d), "byte %d", i)
	}
	assert.Equal(t, 7.0, keep.Beta)
	f, err := modelfile.Unmarshal(b)
	require.NoError(t, err)
	f.Kind = "labelprop.Spreading"
	nb, _ := f.MarshalBinary()
	assert.ErrorIs(t, keep.UnmarshalBinary(nb), modelfile.ErrKind)

	// A model on an operator kernel cannot be saved or predict new nodes.
	op := &Classifier{Regressor: Regressor{Transform: Power(2), Beta: 0.1}}
	require.NoError(t, op.FitKernel(context.Background(), OperatorKernel{M: k, Bound: 1}, labels))
	_, err = op.MarshalBinary()
	assert.ErrorContains(t, err, "new nodes need the graph kernel")
}

// TestRegressorFitAbsentClass checks that Fit is FitIndexed on the one-hot
// targets, and that Classes keeps a column for a class without a labelled
// node: its targets are zero, so are its scores, and its prior is 0.
func TestRegressorFitAbsentClass(t *testing.T) {
	g, labels, _ := modelProblem(t, 4)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	a := &Classifier{Regressor: Regressor{Transform: Power(2), Beta: 0.1}, Classes: 3}
	require.NoError(t, a.FitKernel(context.Background(), k, labels))
	var train []int
	var onehot []float64
	for i, l := range labels {
		if l >= 0 {
			train = append(train, i)
			row := make([]float64, 3)
			row[l] = 1
			onehot = append(onehot, row...)
		}
	}
	b := &Regressor{Transform: Power(2), Beta: 0.1}
	require.NoError(t, b.FitIndexed(context.Background(), k, train, mat.NewDense(len(train), 3, onehot)))
	pa, pb := mustPredict(t, a), mustPredict(t, b)
	bitsEqual(t, "Fit vs FitIndexed", pb.RawMatrix().Data, pa.RawMatrix().Data)
	assert.Equal(t, 3, a.FittedClasses())
	assert.Equal(t, 0, b.FittedClasses())
	assert.Equal(t, []float64{4.0 / 7, 3.0 / 7, 0}, a.Prior())
	n, _ := pa.Dims()
	for i := 0; i < n; i++ {
		assert.Zero(t, pa.At(i, 2), "node %d", i)
	}
	data, err := a.MarshalBinary()
	require.NoError(t, err)
	got := &Classifier{}
	require.NoError(t, got.UnmarshalBinary(data))
	assert.Equal(t, 3, got.Classes)
	assert.Equal(t, 3, got.FittedClasses())
}
