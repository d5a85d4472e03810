package nodeclass

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// APPNPNetKind is APPNPNet's kind in a modelfile container, and
// APPNPNetVersion the layout this package reads and writes.
const (
	APPNPNetKind    = "nodeclass.APPNPNet"
	APPNPNetVersion = 1
)

// appnpNetParamsMeta are APPNPNet's hyperparameters as its model file
// stores them.
type appnpNetParamsMeta struct {
	Hidden        int     `json:"hidden"`
	Steps         int     `json:"steps"`
	Alpha         float64 `json:"alpha"`
	Dropout       float64 `json:"dropout"`
	WeightDecay   float64 `json:"weight_decay"`
	LearningRate  float64 `json:"learning_rate"`
	Epochs        int     `json:"epochs"`
	Patience      int     `json:"patience"`
	Stop          int     `json:"stop"`
	HoldOut       float64 `json:"hold_out"`
	Normalization int     `json:"normalization"`
	Seed          uint64  `json:"seed"`
}

type appnpNetMeta struct {
	Hyperparameters appnpNetParamsMeta `json:"hyperparameters"`
	Nodes           int                `json:"nodes"`
	Classes         int                `json:"classes"`
	Iterations      int                `json:"iterations"`
}

// appnpNetCodec stores a fitted APPNPNet as channelCodec stores a
// ChannelMLP: the hyperparameters and the fitted nodes' and classes'
// numbers in the metadata; what Predict returns, the fitted nodes' class
// probabilities (n×c), in section "probabilities", and the kept epoch's
// validation loss in "residual". Not the perceptron's weights, the graph
// or the features: the model predicts its fitted nodes only (K steps of
// the propagation have no rule for a node alone), and so does the model
// read back.
var appnpNetCodec = modelfile.Codec[APPNPNet, appnpNetMeta]{Kind: APPNPNetKind, Version: APPNPNetVersion, Oldest: APPNPNetVersion,
	Fitted: func(m *APPNPNet) bool { return m.fit != nil },
	Put: func(m *APPNPNet, f *modelfile.File) (appnpNetMeta, error) {
		fit := m.fit
		n, c := fit.prob.Dims()
		meta := appnpNetMeta{Hyperparameters: appnpNetParamsMeta{Hidden: m.Hidden, Steps: m.Steps, Alpha: m.Alpha, Dropout: m.Dropout,
			WeightDecay: m.WeightDecay, LearningRate: m.LearningRate, Epochs: m.Epochs, Patience: m.Patience, Stop: int(m.Stop),
			HoldOut: m.HoldOut, Normalization: int(m.Normalization), Seed: m.Seed},
			Nodes: n, Classes: c, Iterations: fit.info.Iterations}
		putFittedProbabilities(f, fit.prob, fit.info)
		return meta, nil
	},
	Get: readAPPNPNet,
}

func readAPPNPNet(f *modelfile.File, meta appnpNetMeta, dst *APPNPNet) error {
	hp := meta.Hyperparameters
	out := APPNPNet{Hidden: hp.Hidden, Steps: hp.Steps, Alpha: hp.Alpha, Dropout: hp.Dropout, WeightDecay: hp.WeightDecay,
		LearningRate: hp.LearningRate, Epochs: hp.Epochs, Patience: hp.Patience, Stop: StopRule(hp.Stop), HoldOut: hp.HoldOut,
		Normalization: Normalization(hp.Normalization), Seed: hp.Seed}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's hyperparameters: %w", err)
	}
	prob, info, err := readFittedProbabilities(f, meta.Nodes, meta.Classes, meta.Iterations)
	if err != nil {
		return err
	}
	out.fit = &appnpNetFit{prob: prob, info: info}
	*dst = out
	return nil
}

// putFittedProbabilities writes what a model that predicts its fitted
// nodes only keeps: their class probabilities in section "probabilities"
// and the fit's residual in "residual".
func putFittedProbabilities(f *modelfile.File, prob *mat.Dense, info estimator.Info) {
	f.PutDense("probabilities", prob)
	f.PutFloat64s("residual", []float64{info.Residual})
}

// readFittedProbabilities reads back what putFittedProbabilities wrote,
// the metadata declaring nodes, classes and iterations: each number is
// checked, and the section's length compared with nodes × classes, before
// anything is allocated.
func readFittedProbabilities(f *modelfile.File, nodes, classes, iterations int) (*mat.Dense, estimator.Info, error) {
	for _, v := range []struct {
		name string
		v    int
	}{{"nodes", nodes}, {"classes", classes}} {
		if v.v < 1 || v.v > maxNetDim {
			return nil, estimator.Info{}, fmt.Errorf("the model file declares %s = %d: it must be in [1, %d]", v.name, v.v, maxNetDim)
		}
	}
	if iterations < 0 {
		return nil, estimator.Info{}, fmt.Errorf("the model file declares %d iterations", iterations)
	}
	prob, err := f.Distributions("probabilities", nodes, classes)
	if err != nil {
		return nil, estimator.Info{}, err
	}
	res, err := f.Float64sLen("residual", 1)
	if err != nil {
		return nil, estimator.Info{}, err
	}
	return prob, estimator.Info{Iterations: iterations, Residual: res[0]}, nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// APPNPNetKind; see appnpNetCodec).
func (m *APPNPNet) ModelFile() (*modelfile.File, error) { return appnpNetCodec.File(m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *APPNPNet) ReadModelFile(f *modelfile.File) error { return appnpNetCodec.Read(f, m) }

// MarshalBinary encodes the fitted model (kind APPNPNetKind).
func (m *APPNPNet) MarshalBinary() ([]byte, error) { return appnpNetCodec.Marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged.
func (m *APPNPNet) UnmarshalBinary(data []byte) error { return appnpNetCodec.Unmarshal(data, m) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (m APPNPNet) MarshalJSON() ([]byte, error) { return nil, jsonRefused("APPNPNet") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (m *APPNPNet) UnmarshalJSON([]byte) error { return jsonRefused("APPNPNet") }

// Kind returns APPNPNetKind.
func (m *APPNPNet) Kind() string { return APPNPNetKind }

// Features returns 0: APPNPNet predicts no new nodes, so it takes no new
// node's features.
func (m *APPNPNet) Features() int { return 0 }
