package nodeclass

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/mlp"
	"github.com/gssl/gssl/modelfile"
)

// TestChannelMLPSaveLoad: a ChannelMLP read back from its bytes predicts
// its fitted nodes bitwise as the fitted one, keeps its hyperparameters
// and Info, refuses new nodes with the fitted model's error, and a file
// whose metadata disagrees with its sections is refused.
func TestChannelMLPSaveLoad(t *testing.T) {
	ctx := context.Background()
	g, x, truth := heterophilous(t, 90, 3)
	labels, val, valLabels, _ := sepSplit(truth)
	m := &ChannelMLP{Rank: 4, MLP: mlp.Classifier{Hidden: 8, Epochs: 30, Patience: 7, Dropout: 0.3, WeightDecay: 1e-3, LearningRate: 0.02, HoldOut: 0.3, Seed: 5}}
	require.NoError(t, m.FitValidated(ctx, estimator.Nodes{Graph: g, Features: x}, labels, val, valLabels))
	data, err := m.MarshalBinary()
	require.NoError(t, err)
	var back ChannelMLP
	require.NoError(t, back.UnmarshalBinary(data))
	require.Equal(t, m.Clone(), back.Clone(), "the hyperparameters")
	require.Equal(t, m.String(), back.String())
	require.Equal(t, m.Info(), back.Info())
	require.NotZero(t, back.Info().Iterations)
	a, err := m.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	b, err := back.Predict(ctx, estimator.FittedNodes)
	require.NoError(t, err)
	require.Equal(t, a.RawMatrix().Rows, 90)
	require.Equal(t, a.RawMatrix().Data, b.RawMatrix().Data)

	nn := estimator.NewNodes{Offsets: []int{0, 1}, Nodes: []int32{2}}
	for _, q := range []estimator.NodeQuery{{New: &nn}, {New: &nn, Features: mat.NewDense(1, 6, nil)}} {
		_, want := m.Predict(ctx, q)
		require.ErrorContains(t, want, "fitted nodes only")
		_, got := back.Predict(ctx, q)
		require.EqualError(t, got, want.Error())
	}

	// A file changed as another writer could: each change is refused and
	// leaves the model as it was.
	for what, change := range map[string]func(meta *channelMeta){
		"classes":    func(meta *channelMeta) { meta.Classes++ },
		"nodes":      func(meta *channelMeta) { meta.Nodes = 1 << 40 },
		"huge shape": func(meta *channelMeta) { meta.Nodes, meta.Classes = maxNetDim, maxNetDim },
		"rank":       func(meta *channelMeta) { meta.Hyperparameters.Rank = -1 },
		"iterations": func(meta *channelMeta) { meta.Iterations = -1 },
	} {
		f, err := m.ModelFile()
		require.NoError(t, err)
		var meta channelMeta
		require.NoError(t, f.DecodeMetadata(&meta))
		change(&meta)
		require.NoError(t, f.SetMetadata(meta))
		kept := back
		require.Error(t, back.ReadModelFile(f), what)
		require.Equal(t, kept, back, what)
	}
	short := modelfile.New(ChannelMLPKind, ChannelMLPVersion)
	require.NoError(t, short.SetMetadata(channelMeta{Nodes: 90, Classes: 3}))
	short.PutFloat64s("probabilities", make([]float64, 90*3-1))
	short.PutFloat64s("residual", []float64{0})
	require.ErrorContains(t, back.ReadModelFile(short), "probabilities")

	var unfitted ChannelMLP
	_, err = unfitted.MarshalBinary()
	require.ErrorIs(t, err, estimator.ErrNotFitted)
	_, err = (&ChannelMLP{}).MarshalJSON()
	require.ErrorIs(t, err, estimator.ErrJSON)
}
