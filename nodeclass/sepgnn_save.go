package nodeclass

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// SepGNNKind is SepGNN's kind in a modelfile container, and
// SepGNNVersion the layout this package reads and writes.
const (
	SepGNNKind    = "nodeclass.SepGNN"
	SepGNNVersion = 1
)

// sepParamsMeta are SepGNN's hyperparameters as its model file stores them.
type sepParamsMeta struct {
	Hidden       int     `json:"hidden"`
	Layers       int     `json:"layers"`
	Dropout      float64 `json:"dropout"`
	WeightDecay  float64 `json:"weight_decay"`
	LearningRate float64 `json:"learning_rate"`
	Epochs       int     `json:"epochs"`
	Patience     int     `json:"patience"`
	Stop         int     `json:"stop"`
	HoldOut      float64 `json:"hold_out"`
	Seed         uint64  `json:"seed"`
}

type sepMeta struct {
	Hyperparameters sepParamsMeta `json:"hyperparameters"`
	Nodes           int           `json:"nodes"`
	Features        int           `json:"features"`
	Hidden          int           `json:"hidden_units"`
	Classes         int           `json:"classes"`
	Layers          int           `json:"layers"`
	Iterations      int           `json:"iterations"`
}

// sepCodec stores a fitted SepGNN: the hyperparameters and the network's
// shape in the metadata; the parameters (the flat vector of sepParams:
// W_in, b_in, then W_l, b_l, γ_l, β_l per layer, then W_out, b_out) in
// section "parameters", the fitted nodes' class probabilities (n×c) in
// "probabilities", their representations H_0 … H_{L−1} (L blocks of n×h,
// one after the other) in "hidden", which new nodes' neighbour means need,
// and the kept epoch's validation loss in "residual"; not the graph or the
// features.
var sepCodec = modelfile.Codec[SepGNN, sepMeta]{Kind: SepGNNKind, Version: SepGNNVersion, Oldest: SepGNNVersion,
	Fitted: func(m *SepGNN) bool { return m.fit != nil },
	Put: func(m *SepGNN, f *modelfile.File) (sepMeta, error) {
		fit := m.fit
		n, _ := fit.prob.Dims()
		meta := sepMeta{Hyperparameters: sepParamsMeta{Hidden: m.Hidden, Layers: m.Layers, Dropout: m.Dropout, WeightDecay: m.WeightDecay,
			LearningRate: m.LearningRate, Epochs: m.Epochs, Patience: m.Patience, Stop: int(m.Stop), HoldOut: m.HoldOut, Seed: m.Seed},
			Nodes: n, Features: fit.s.d, Hidden: fit.s.h, Classes: fit.s.c, Layers: fit.s.layers, Iterations: fit.info.Iterations}
		f.PutFloat64s("parameters", fit.p.flat)
		f.PutDense("probabilities", fit.prob)
		hidden := make([]float64, 0, fit.s.layers*n*fit.s.h)
		for _, h := range fit.hidden {
			hidden = append(hidden, h.RawMatrix().Data...)
		}
		f.PutFloat64s("hidden", hidden)
		f.PutFloat64s("residual", []float64{fit.info.Residual})
		return meta, nil
	},
	Get: readSepGNN,
}

// maxNetDim bounds each of a saved network's declared sizes, so that the
// products of sizes below cannot overflow an int before the sections'
// lengths are compared with them.
const maxNetDim = 1 << 28

func readSepGNN(f *modelfile.File, meta sepMeta, dst *SepGNN) error {
	hp := meta.Hyperparameters
	out := SepGNN{Hidden: hp.Hidden, Layers: hp.Layers, Dropout: hp.Dropout, WeightDecay: hp.WeightDecay, LearningRate: hp.LearningRate,
		Epochs: hp.Epochs, Patience: hp.Patience, Stop: StopRule(hp.Stop), HoldOut: hp.HoldOut, Seed: hp.Seed}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's hyperparameters: %w", err)
	}
	n, s := meta.Nodes, sepShape{d: meta.Features, h: meta.Hidden, c: meta.Classes, layers: meta.Layers}
	for _, v := range []struct {
		name string
		v    int
	}{{"nodes", n}, {"features", s.d}, {"hidden_units", s.h}, {"classes", s.c}, {"layers", s.layers}} {
		if v.v < 1 || v.v > maxNetDim {
			return fmt.Errorf("the model file declares %s = %d: it must be in [1, %d]", v.name, v.v, maxNetDim)
		}
	}
	if s.h != out.hidden() || s.layers != out.layers() || s.c < 2 {
		return fmt.Errorf("the model file's network (%d hidden units, %d layers, %d classes) does not match its hyperparameters (%d, %d, ≥ 2)", s.h, s.layers, s.c, out.hidden(), out.layers())
	}
	if meta.Iterations < 0 {
		return fmt.Errorf("the model file declares %d iterations", meta.Iterations)
	}
	flat, err := f.Float64s("parameters")
	if err != nil {
		return err
	}
	if want, ok := sepSize(s); !ok || len(flat) != want {
		return fmt.Errorf("the model file's section parameters has %d values; a network of %d features, %d hidden units, %d layers and %d classes has %d", len(flat), s.d, s.h, s.layers, s.c, want)
	}
	prob, err := f.Distributions("probabilities", n, s.c)
	if err != nil {
		return err
	}
	hidden, err := f.Float64s("hidden")
	if err != nil {
		return err
	}
	if len(hidden)%s.layers != 0 || len(hidden)/s.layers != n*s.h {
		return fmt.Errorf("the model file's section hidden has %d values, its network needs %d blocks of %d×%d", len(hidden), s.layers, n, s.h)
	}
	res, err := f.Float64sLen("residual", 1)
	if err != nil {
		return err
	}
	fit := &sepFit{prob: prob, s: s, p: newSepParams(s, flat), info: estimator.Info{Iterations: meta.Iterations, Residual: res[0]}}
	block := n * s.h
	for l := range s.layers {
		fit.hidden = append(fit.hidden, mat.NewDense(n, s.h, hidden[l*block:(l+1)*block:(l+1)*block]))
	}
	out.fit = fit
	*dst = out
	return nil
}

// sepSize returns s.size(), or false when it would overflow.
func sepSize(s sepShape) (int, bool) {
	h := float64(s.h)
	size := float64(s.d)*h + h + float64(s.layers)*(2*h*h+3*h) + h*float64(s.c) + float64(s.c)
	if size > math.MaxInt32*float64(1<<20) {
		return 0, false
	}
	return s.size(), true
}

// ModelFile returns the fitted model as a modelfile container (kind
// SepGNNKind; see sepCodec).
func (m *SepGNN) ModelFile() (*modelfile.File, error) { return sepCodec.File(m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *SepGNN) ReadModelFile(f *modelfile.File) error { return sepCodec.Read(f, m) }

// MarshalBinary encodes the fitted model (kind SepGNNKind).
func (m *SepGNN) MarshalBinary() ([]byte, error) { return sepCodec.Marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged.
func (m *SepGNN) UnmarshalBinary(data []byte) error { return sepCodec.Unmarshal(data, m) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (m SepGNN) MarshalJSON() ([]byte, error) { return nil, jsonRefused("SepGNN") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (m *SepGNN) UnmarshalJSON([]byte) error { return jsonRefused("SepGNN") }

// Kind returns SepGNNKind.
func (m *SepGNN) Kind() string { return SepGNNKind }
