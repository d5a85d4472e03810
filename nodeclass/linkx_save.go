package nodeclass

import (
	"fmt"
	"math"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// LINKXKind is LINKX's kind in a modelfile container, and LINKXVersion
// the layout this package reads and writes.
const (
	LINKXKind    = "nodeclass.LINKX"
	LINKXVersion = 1
)

// linkxParamsMeta are LINKX's hyperparameters as its model file stores
// them.
type linkxParamsMeta struct {
	Hidden       int     `json:"hidden"`
	Dropout      float64 `json:"dropout"`
	WeightDecay  float64 `json:"weight_decay"`
	LearningRate float64 `json:"learning_rate"`
	Epochs       int     `json:"epochs"`
	Patience     int     `json:"patience"`
	Stop         int     `json:"stop"`
	HoldOut      float64 `json:"hold_out"`
	Seed         uint64  `json:"seed"`
}

type linkxMeta struct {
	Hyperparameters linkxParamsMeta `json:"hyperparameters"`
	Nodes           int             `json:"nodes"`
	Features        int             `json:"features"`
	Hidden          int             `json:"hidden_units"`
	Classes         int             `json:"classes"`
	Iterations      int             `json:"iterations"`
}

// linkxCodec stores a fitted LINKX: the hyperparameters and the network's
// shape in the metadata; the parameters (the flat vector of linkxParams:
// W_A, b_A, W_X, b_X, W_c, b_c, W_1, b_1, W_o, b_o) in section
// "parameters", the fitted nodes' class probabilities (n×c) in
// "probabilities" and the kept epoch's validation loss in "residual"; not
// the graph or the features (a new node's row of A and its features come
// with the query).
var linkxCodec = modelfile.Codec[LINKX, linkxMeta]{Kind: LINKXKind, Version: LINKXVersion, Oldest: LINKXVersion,
	Fitted: func(m *LINKX) bool { return m.fit != nil },
	Put: func(m *LINKX, f *modelfile.File) (linkxMeta, error) {
		fit := m.fit
		meta := linkxMeta{Hyperparameters: linkxParamsMeta{Hidden: m.Hidden, Dropout: m.Dropout, WeightDecay: m.WeightDecay, LearningRate: m.LearningRate,
			Epochs: m.Epochs, Patience: m.Patience, Stop: int(m.Stop), HoldOut: m.HoldOut, Seed: m.Seed},
			Nodes: fit.s.n, Features: fit.s.d, Hidden: fit.s.h, Classes: fit.s.c, Iterations: fit.info.Iterations}
		f.PutFloat64s("parameters", fit.p.flat)
		f.PutDense("probabilities", fit.prob)
		f.PutFloat64s("residual", []float64{fit.info.Residual})
		return meta, nil
	},
	Get: readLINKX,
}

func readLINKX(f *modelfile.File, meta linkxMeta, dst *LINKX) error {
	hp := meta.Hyperparameters
	out := LINKX{Hidden: hp.Hidden, Dropout: hp.Dropout, WeightDecay: hp.WeightDecay, LearningRate: hp.LearningRate,
		Epochs: hp.Epochs, Patience: hp.Patience, Stop: StopRule(hp.Stop), HoldOut: hp.HoldOut, Seed: hp.Seed}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's hyperparameters: %w", err)
	}
	s := linkxShape{n: meta.Nodes, d: meta.Features, h: meta.Hidden, c: meta.Classes}
	for _, v := range []struct {
		name string
		v    int
	}{{"nodes", s.n}, {"features", s.d}, {"hidden_units", s.h}, {"classes", s.c}} {
		if v.v < 1 || v.v > maxNetDim {
			return fmt.Errorf("the model file declares %s = %d: it must be in [1, %d]", v.name, v.v, maxNetDim)
		}
	}
	if s.h != out.hidden() || s.c < 2 {
		return fmt.Errorf("the model file's network (%d hidden units, %d classes) does not match its hyperparameters (%d, ≥ 2)", s.h, s.c, out.hidden())
	}
	if meta.Iterations < 0 {
		return fmt.Errorf("the model file declares %d iterations", meta.Iterations)
	}
	flat, err := f.Float64s("parameters")
	if err != nil {
		return err
	}
	h := float64(s.h)
	if size := (float64(s.n)+float64(s.d)+3*h+float64(s.c)+4)*h + float64(s.c); size > math.MaxInt32*float64(1<<20) || len(flat) != s.size() {
		return fmt.Errorf("the model file's section parameters has %d values; a network of %d nodes, %d features, %d hidden units and %d classes has %.0f", len(flat), s.n, s.d, s.h, s.c, size)
	}
	prob, err := f.Distributions("probabilities", s.n, s.c)
	if err != nil {
		return err
	}
	res, err := f.Float64sLen("residual", 1)
	if err != nil {
		return err
	}
	out.fit = &linkxFit{s: s, p: newLINKXParams(s, flat), prob: prob, info: estimator.Info{Iterations: meta.Iterations, Residual: res[0]}}
	*dst = out
	return nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// LINKXKind; see linkxCodec).
func (m *LINKX) ModelFile() (*modelfile.File, error) { return linkxCodec.File(m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *LINKX) ReadModelFile(f *modelfile.File) error { return linkxCodec.Read(f, m) }

// MarshalBinary encodes the fitted model (kind LINKXKind).
func (m *LINKX) MarshalBinary() ([]byte, error) { return linkxCodec.Marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged.
func (m *LINKX) UnmarshalBinary(data []byte) error { return linkxCodec.Unmarshal(data, m) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (m LINKX) MarshalJSON() ([]byte, error) { return nil, jsonRefused("LINKX") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (m *LINKX) UnmarshalJSON([]byte) error { return jsonRefused("LINKX") }
