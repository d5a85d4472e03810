package krr

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

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

// ModelFile returns the fitted model as a modelfile container (kind
// RandomFeaturesKind): the hyperparameters, the feature map's W and b (so
// a model read back needs neither the seed's random stream nor a given
// FixedMap) and the weights w.
func (r *RandomFeatures) ModelFile() (*modelfile.File, error) {
	if r.w == nil {
		return nil, estimator.NotFitted("krr: RandomFeatures.MarshalBinary")
	}
	D, c := r.w.Dims()
	f := modelfile.New(RandomFeaturesKind, ModelVersion)
	if err := f.SetMetadata(rffMeta{Sigma: r.Sigma, D: r.D, Lambda: r.Lambda, Seed: r.Seed, FixedMap: r.FixedMap != nil,
		Features: r.d, Random: D, Outputs: c}); err != nil {
		return nil, err
	}
	f.PutFloat64s("map_w", mat.DenseCopyOf(r.fm.W).RawMatrix().Data)
	f.PutFloat64s("map_b", r.fm.B)
	f.PutFloat64s("weights", mat.DenseCopyOf(r.w).RawMatrix().Data)
	return f, nil
}

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same.
func (r *RandomFeatures) MarshalBinary() ([]byte, error) {
	f, err := r.ModelFile()
	if err != nil {
		return nil, err
	}
	return f.MarshalBinary()
}

// UnmarshalBinary replaces r by the model in data; on an error r is
// unchanged.
func (r *RandomFeatures) UnmarshalBinary(data []byte) error {
	f, err := readFile(data, RandomFeaturesKind)
	if err != nil {
		return err
	}
	return r.ReadModelFile(f)
}

// ReadModelFile replaces r by the model in f. A model fitted with a
// FixedMap reads back with FixedMap set to the stored map.
func (r *RandomFeatures) ReadModelFile(f *modelfile.File) error {
	if err := f.Expect(RandomFeaturesKind, ModelVersion); err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	var meta rffMeta
	if err := f.DecodeMetadata(&meta); err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	d, D, c := meta.Features, meta.Random, meta.Outputs
	if d < 1 || D < 1 || c < 1 || D > math.MaxInt/max(d, c) {
		return fmt.Errorf("krr: the model file declares %d random features of %d-dimensional points and %d outputs", D, d, c)
	}
	get := func(name string, want int) ([]float64, error) {
		v, err := f.Float64s(name)
		if err != nil {
			return nil, fmt.Errorf("krr: %w", err)
		}
		if len(v) != want {
			return nil, fmt.Errorf("krr: the model file's section %q has %d values, want %d", name, len(v), want)
		}
		return v, nil
	}
	w, err := get("map_w", d*D)
	if err != nil {
		return err
	}
	b, err := get("map_b", D)
	if err != nil {
		return err
	}
	wt, err := get("weights", D*c)
	if err != nil {
		return err
	}
	fm := &FourierMap{W: mat.NewDense(d, D, w), B: b}
	if err := fm.check(d); err != nil {
		return fmt.Errorf("krr: the model file's feature map: %w", err)
	}
	out := RandomFeatures{Sigma: meta.Sigma, D: meta.D, Lambda: meta.Lambda, Seed: meta.Seed, fm: fm, w: mat.NewDense(D, c, wt), d: d}
	if meta.FixedMap {
		out.FixedMap = fm
	}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("krr: the model file's hyperparameters: %w", err)
	}
	*r = out
	return nil
}

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (r RandomFeatures) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("krr: RandomFeatures: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (r *RandomFeatures) UnmarshalJSON([]byte) error {
	return fmt.Errorf("krr: RandomFeatures: %w", estimator.ErrJSON)
}
