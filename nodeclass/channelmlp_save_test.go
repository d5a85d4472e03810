package nodeclass

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/mlp"
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
	checkFittedOnlyReadBack(t, m, &back, 90)

	checkTampered(t, m, &back, (*ChannelMLP).ReadModelFile, map[string]func(meta *channelMeta){
		"probabilities":   func(meta *channelMeta) { meta.Classes++ },
		"nodes = ":        func(meta *channelMeta) { meta.Nodes = 1 << 40 },
		`"probabilities"`: func(meta *channelMeta) { meta.Nodes, meta.Classes = maxNetDim, maxNetDim },
		"Rank":            func(meta *channelMeta) { meta.Hyperparameters.Rank = -1 },
		"iterations":      func(meta *channelMeta) { meta.Iterations = -1 },
	})
	checkShortFile(t, ChannelMLPKind, ChannelMLPVersion, channelMeta{Nodes: 90, Classes: 3}, back.ReadModelFile)

	var unfitted ChannelMLP
	_, err = unfitted.MarshalBinary()
	require.ErrorIs(t, err, estimator.ErrNotFitted)
	_, err = (&ChannelMLP{}).MarshalJSON()
	require.ErrorIs(t, err, estimator.ErrJSON)
}
