package nodeclass

import (
	"fmt"

	"github.com/gssl/gssl/mlp"
	"github.com/gssl/gssl/modelfile"
)

// ChannelMLPKind is ChannelMLP's kind in a modelfile container, and
// ChannelMLPVersion the layout this package reads and writes.
const (
	ChannelMLPKind    = "nodeclass.ChannelMLP"
	ChannelMLPVersion = 1
)

// channelParamsMeta are ChannelMLP's hyperparameters as its model file
// stores them: Rank and the perceptron's fields.
type channelParamsMeta struct {
	Rank         int     `json:"rank"`
	Hidden       int     `json:"hidden"`
	Dropout      float64 `json:"dropout"`
	WeightDecay  float64 `json:"weight_decay"`
	LearningRate float64 `json:"learning_rate"`
	Epochs       int     `json:"epochs"`
	Patience     int     `json:"patience"`
	HoldOut      float64 `json:"hold_out"`
	Seed         uint64  `json:"seed"`
}

type channelMeta struct {
	Hyperparameters channelParamsMeta `json:"hyperparameters"`
	Nodes           int               `json:"nodes"`
	Classes         int               `json:"classes"`
	Iterations      int               `json:"iterations"`
}

// channelCodec stores a fitted ChannelMLP: the hyperparameters and the
// fitted nodes' and classes' numbers in the metadata; what Predict
// returns, the fitted nodes' class probabilities (n×c), in section
// "probabilities", and the kept epoch's validation loss in "residual".
// Not the perceptron's weights, the graph or the features: the model
// predicts its fitted nodes only (a new node's channels need the graph
// refitted), and so does the model read back.
var channelCodec = modelfile.Codec[ChannelMLP, channelMeta]{Kind: ChannelMLPKind, Version: ChannelMLPVersion, Oldest: ChannelMLPVersion,
	Fitted: func(m *ChannelMLP) bool { return m.fit != nil },
	Put: func(m *ChannelMLP, f *modelfile.File) (channelMeta, error) {
		fit := m.fit
		n, c := fit.prob.Dims()
		p := m.MLP
		meta := channelMeta{Hyperparameters: channelParamsMeta{Rank: m.Rank, Hidden: p.Hidden, Dropout: p.Dropout, WeightDecay: p.WeightDecay,
			LearningRate: p.LearningRate, Epochs: p.Epochs, Patience: p.Patience, HoldOut: p.HoldOut, Seed: p.Seed},
			Nodes: n, Classes: c, Iterations: fit.info.Iterations}
		putFittedProbabilities(f, fit.prob, fit.info)
		return meta, nil
	},
	Get: readChannelMLP,
}

func readChannelMLP(f *modelfile.File, meta channelMeta, dst *ChannelMLP) error {
	hp := meta.Hyperparameters
	out := ChannelMLP{Rank: hp.Rank, MLP: mlp.Classifier{Hidden: hp.Hidden, Dropout: hp.Dropout, WeightDecay: hp.WeightDecay,
		LearningRate: hp.LearningRate, Epochs: hp.Epochs, Patience: hp.Patience, HoldOut: hp.HoldOut, Seed: hp.Seed}}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's hyperparameters: %w", err)
	}
	prob, info, err := readFittedProbabilities(f, meta.Nodes, meta.Classes, meta.Iterations)
	if err != nil {
		return err
	}
	out.fit = &channelFit{prob: prob, info: info}
	*dst = out
	return nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// ChannelMLPKind; see channelCodec).
func (m *ChannelMLP) ModelFile() (*modelfile.File, error) { return channelCodec.File(m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *ChannelMLP) ReadModelFile(f *modelfile.File) error { return channelCodec.Read(f, m) }

// MarshalBinary encodes the fitted model (kind ChannelMLPKind).
func (m *ChannelMLP) MarshalBinary() ([]byte, error) { return channelCodec.Marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged.
func (m *ChannelMLP) UnmarshalBinary(data []byte) error { return channelCodec.Unmarshal(data, m) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (m ChannelMLP) MarshalJSON() ([]byte, error) { return nil, jsonRefused("ChannelMLP") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (m *ChannelMLP) UnmarshalJSON([]byte) error { return jsonRefused("ChannelMLP") }

// Kind returns ChannelMLPKind.
func (m *ChannelMLP) Kind() string { return ChannelMLPKind }

// Features returns 0: the channel perceptron predicts no new nodes (their
// channels need the graph refitted), so it takes no new node's features.
func (m *ChannelMLP) Features() int { return 0 }
