package krr

import (
	"fmt"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// RandomFeaturesKind is the kind of a fitted RandomFeatures in a modelfile
// container (layout ModelVersion).
const RandomFeaturesKind = "krr.RandomFeatures"

type rffMeta struct {
	Sigma    float64 `json:"sigma"`
	D        int     `json:"d"`
	Lambda   float64 `json:"lambda"`
	Seed     uint64  `json:"seed"`
	FixedMap bool    `json:"fixed_map"` // the map was given, not drawn from Seed
	Features int     `json:"features"`  // the points' dimension d
	Random   int     `json:"random"`    // the map's number of features D
	Outputs  int     `json:"outputs"`
}

// Features returns the dimension of the training points, 0 before Fit.
func (r *RandomFeatures) Features() int {
	if r.w == nil {
		return 0
	}
	return r.d
}

// Outputs returns the number of output columns, 0 before Fit.
func (r *RandomFeatures) Outputs() int {
	if r.w == nil {
		return 0
	}
	_, c := r.w.Dims()
	return c
}

// rffCodec stores a RandomFeatures: the hyperparameters, the feature
// map's W and b (so a model read back needs neither the seed's random
// stream nor a given FixedMap) and the weights w. A model fitted with a
// FixedMap reads back with FixedMap set to the stored map.
var rffCodec = modelfile.Codec[RandomFeatures, rffMeta]{Kind: RandomFeaturesKind, Version: ModelVersion,
	Fitted: func(r *RandomFeatures) bool { return r.w != nil },
	Put: func(r *RandomFeatures, f *modelfile.File) (rffMeta, error) {
		D, c := r.w.Dims()
		f.PutDense("map_w", r.fm.W)
		f.PutFloat64s("map_b", r.fm.B)
		f.PutDense("weights", r.w)
		return rffMeta{Sigma: r.Sigma, D: r.D, Lambda: r.Lambda, Seed: r.Seed, FixedMap: r.FixedMap != nil,
			Features: r.d, Random: D, Outputs: c}, nil
	},
	Get: func(f *modelfile.File, meta rffMeta, dst *RandomFeatures) error {
		w, err := f.Dense("map_w", meta.Features, meta.Random)
		if err != nil {
			return err
		}
		b, err := f.Float64sLen("map_b", meta.Random)
		if err != nil {
			return err
		}
		wt, err := f.Dense("weights", meta.Random, meta.Outputs)
		if err != nil {
			return err
		}
		fm := &FourierMap{W: w, B: b}
		if err := fm.check(meta.Features); err != nil {
			return fmt.Errorf("the model file's feature map: %w", err)
		}
		*dst = RandomFeatures{Sigma: meta.Sigma, D: meta.D, Lambda: meta.Lambda, Seed: meta.Seed, fm: fm, w: wt, d: meta.Features}
		if meta.FixedMap {
			dst.FixedMap = fm
		}
		return validFile(dst)
	},
}

// ModelFile returns the fitted model as a modelfile container (kind
// RandomFeaturesKind).
func (r *RandomFeatures) ModelFile() (*modelfile.File, error) { return rffCodec.File(r) }

// ReadModelFile replaces r by the model in f; on an error r is unchanged.
func (r *RandomFeatures) ReadModelFile(f *modelfile.File) error { return rffCodec.Read(f, r) }

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same.
func (r *RandomFeatures) MarshalBinary() ([]byte, error) { return rffCodec.Marshal(r) }

// UnmarshalBinary replaces r by the model in data; on an error r is
// unchanged.
func (r *RandomFeatures) UnmarshalBinary(data []byte) error { return rffCodec.Unmarshal(data, r) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (r RandomFeatures) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("krr: RandomFeatures: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (r *RandomFeatures) UnmarshalJSON([]byte) error {
	return fmt.Errorf("krr: RandomFeatures: %w", estimator.ErrJSON)
}
