package nodeclass

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/propagate"
)

// The kinds of the feature models in a modelfile container, and the layout
// version of each that this package reads and writes. Layout 2 added what
// new-node prediction needs (the fitted degrees, the propagated logits,
// Correct & Smooth's base model); a layout-1 file is refused with a message
// to fit and save again.
const (
	SGCKind           = "nodeclass.SGC"
	APPNPKind         = "nodeclass.APPNP"
	CorrectSmoothKind = "nodeclass.CorrectSmooth"
	ModelVersion      = 2
)

// linearParams are SGC's and APPNP's hyperparameters as a model file
// stores them (K for SGC; Alpha and the propagation settings for APPNP).
type linearParams struct {
	K             int     `json:"k,omitempty"`
	Alpha         float64 `json:"alpha,omitempty"`
	L2            float64 `json:"l2"`
	Normalization string  `json:"normalization"`
	Classes       int     `json:"classes"`
	MaxIter       int     `json:"max_iter"`
	PropTol       float64 `json:"propagation_tol,omitempty"`
	PropMaxIter   int     `json:"propagation_max_iter,omitempty"`
}

// propagation is the filter a fitted linear model predicts with, as
// Fit resolved it from the hyperparameters' defaults.
type propagationMeta struct {
	Filter  string  `json:"filter"` // "power" (S̃^K) or "ppr" ((1−a)(I − aS̃)^{-1})
	K       int     `json:"k,omitempty"`
	A       float64 `json:"a,omitempty"`
	Tol     float64 `json:"tol,omitempty"`
	MaxIter int     `json:"max_iter,omitempty"`
}

type linearMeta struct {
	Hyperparameters linearParams    `json:"hyperparameters"`
	Propagation     propagationMeta `json:"propagation"`
	Nodes           int             `json:"nodes"`
	Features        int             `json:"features"`
	Classes         int             `json:"classes"`
	Iterations      int             `json:"iterations"`
	Products        int             `json:"products"`
}

func parseNormalization(s string) (Normalization, error) {
	for _, n := range []Normalization{RowSum, NoNormalization} {
		if n.String() == s {
			return n, nil
		}
	}
	return 0, fmt.Errorf("the model file's normalization %q is not one this gssl knows", s)
}

// sgcCodec and appnpCodec store a fitted SGC or APPNP: hyperparameters,
// the propagation, the logistic regression's weights W (d×c, row-major;
// logits P(X̂W) + 1bᵀ on the normalised features X̂) in section "weights",
// the intercepts b in "intercepts", the fitted nodes' class probabilities
// (n×c; each row a distribution, checked on reading) in "probabilities",
// the final L-BFGS gradient norm in "residual",
// and what Predict needs for new nodes of the fitted graph: the fitted
// nodes' weighted degrees (n) in "degrees" and the propagated logits in
// "propagated" (SGC: S̃^j X̂W for j = 0..K−1, K blocks of n×c one after the
// other; APPNP: ΠX̂W, n×c); not the graph or the features.
var sgcCodec = modelfile.Codec[SGC, linearMeta]{Kind: SGCKind, Version: ModelVersion, Oldest: ModelVersion,
	Fitted: func(m *SGC) bool { return m.fit != nil },
	Put: func(m *SGC, f *modelfile.File) (linearMeta, error) {
		return m.fit.put(f, linearParams{K: m.K, L2: m.L2, Normalization: m.Normalization.String(), Classes: m.Classes, MaxIter: m.MaxIter})
	},
	Get: func(f *modelfile.File, meta linearMeta, dst *SGC) error {
		l, err := readLinear(f, meta)
		if err != nil {
			return err
		}
		p := meta.Hyperparameters
		out := SGC{K: p.K, L2: p.L2, Normalization: l.norm, Classes: p.Classes, MaxIter: p.MaxIter}
		if err := out.Validate(); err != nil || p.Alpha != 0 || p.PropTol != 0 || p.PropMaxIter != 0 {
			return fmt.Errorf("the model file's SGC hyperparameters %+v are invalid (%v)", p, err)
		}
		if pf, ok := l.f.(powerFilter); !ok || pf.k != out.k() {
			return fmt.Errorf("the model file's propagation does not match SGC K = %d", out.k())
		}
		out.fit = l
		*dst = out
		return nil
	},
}

var appnpCodec = modelfile.Codec[APPNP, linearMeta]{Kind: APPNPKind, Version: ModelVersion, Oldest: ModelVersion,
	Fitted: func(m *APPNP) bool { return m.fit != nil },
	Put: func(m *APPNP, f *modelfile.File) (linearMeta, error) {
		return m.fit.put(f, linearParams{Alpha: m.Alpha, L2: m.L2, Normalization: m.Normalization.String(), Classes: m.Classes,
			MaxIter: m.MaxIter, PropTol: m.Propagation.Tol, PropMaxIter: m.Propagation.MaxIter})
	},
	Get: func(f *modelfile.File, meta linearMeta, dst *APPNP) error {
		l, err := readLinear(f, meta)
		if err != nil {
			return err
		}
		p := meta.Hyperparameters
		out := APPNP{Alpha: p.Alpha, L2: p.L2, Normalization: l.norm, Classes: p.Classes, MaxIter: p.MaxIter,
			Propagation: propagate.Settings{Tol: p.PropTol, MaxIter: p.PropMaxIter}}
		if err := out.Validate(); err != nil || p.K != 0 {
			return fmt.Errorf("the model file's APPNP hyperparameters %+v are invalid (%v)", p, err)
		}
		want := pprFilter{orDefault(out.Alpha, DefaultAlpha), propagation(out.Propagation)}
		if pf, ok := l.f.(pprFilter); !ok || pf != want {
			return errors.New("the model file's propagation does not match APPNP's hyperparameters")
		}
		out.fit = l
		*dst = out
		return nil
	},
}

// put adds a fitted linear model's sections to f and returns its metadata
// with the hyperparameters p.
func (l *linear) put(f *modelfile.File, p linearParams) (linearMeta, error) {
	d, c := l.w.Dims()
	n, _ := l.probs.Dims()
	meta := linearMeta{Hyperparameters: p, Nodes: n, Features: d, Classes: c, Iterations: l.info.Iterations, Products: l.info.Products}
	switch flt := l.f.(type) {
	case powerFilter:
		meta.Propagation = propagationMeta{Filter: "power", K: flt.k}
	case pprFilter:
		meta.Propagation = propagationMeta{Filter: "ppr", A: flt.a, Tol: flt.set.Tol, MaxIter: flt.set.MaxIter}
	default:
		return meta, fmt.Errorf("nodeclass: a %T propagation is not saved", l.f)
	}
	f.PutDense("weights", l.w)
	f.PutFloat64s("intercepts", l.b)
	f.PutDense("probabilities", l.probs)
	f.PutFloat64s("residual", []float64{l.info.Residual})
	f.PutFloat64s("degrees", l.deg)
	prop := make([]float64, 0, len(l.prop)*n*c)
	for _, p := range l.prop {
		prop = append(prop, mat.DenseCopyOf(p).RawMatrix().Data...)
	}
	f.PutFloat64s("propagated", prop)
	return meta, nil
}

// readLinear reads what put wrote, checking every section against the
// sizes meta declares before anything is allocated for them.
func readLinear(f *modelfile.File, meta linearMeta) (*linear, error) {
	norm, err := parseNormalization(meta.Hyperparameters.Normalization)
	if err != nil {
		return nil, err
	}
	n, d, c := meta.Nodes, meta.Features, meta.Classes
	if n < 1 || d < 1 || c < 1 || meta.Iterations < 0 || meta.Products < 0 {
		return nil, fmt.Errorf("the model file declares %d nodes, %d features, %d classes, %d iterations and %d products; each count must be ≥ 1 (≥ 0 for the last two)", n, d, c, meta.Iterations, meta.Products)
	}
	w, err := f.Dense("weights", d, c)
	if err != nil {
		return nil, err
	}
	probs, err := f.Distributions("probabilities", n, c)
	if err != nil {
		return nil, err
	}
	b, err := f.Float64sLen("intercepts", c)
	if err != nil {
		return nil, err
	}
	res, err := f.Float64sLen("residual", 1)
	if err != nil {
		return nil, err
	}
	var flt filter
	switch pr := meta.Propagation; pr.Filter {
	case "power":
		if pr.K < 0 {
			return nil, fmt.Errorf("the model file's propagation K = %d is negative", pr.K)
		}
		flt = powerFilter{pr.K}
	case "ppr":
		if !(pr.A > 0 && pr.A < 1) || !(pr.Tol > 0 && pr.Tol < 1) || pr.MaxIter < 0 {
			return nil, fmt.Errorf("the model file's propagation a = %v, tol = %v, max_iter = %d: a and tol must be in (0, 1), max_iter ≥ 0", pr.A, pr.Tol, pr.MaxIter)
		}
		flt = pprFilter{a: pr.A, set: propagate.Settings{Tol: pr.Tol, MaxIter: pr.MaxIter}}
	default:
		return nil, fmt.Errorf("the model file's propagation filter %q is not power or ppr", pr.Filter)
	}
	deg, err := readDegrees(f, n)
	if err != nil {
		return nil, err
	}
	blocks := 1
	if pf, ok := flt.(powerFilter); ok {
		blocks = pf.k
	}
	prop, err := f.Float64s("propagated")
	if err != nil {
		return nil, err
	}
	// n·c is bounded by the section "probabilities", K by this check.
	if len(prop)%(n*c) != 0 || len(prop)/(n*c) != blocks {
		return nil, fmt.Errorf("the model file's section propagated has %d values, its propagation needs %d blocks of %d×%d", len(prop), blocks, n, c)
	}
	l := &linear{w: w, b: b, norm: norm, f: flt, probs: probs,
		info: estimator.Info{Iterations: meta.Iterations, Residual: res[0], Products: meta.Products},
		deg:  deg, t: invSqrtDegrees(deg, gcnLoop), prop: make([]*mat.Dense, blocks)}
	for j := range l.prop {
		l.prop[j] = mat.NewDense(n, c, prop[j*n*c:(j+1)*n*c:(j+1)*n*c])
	}
	return l, nil
}

// readDegrees reads the section "degrees": n finite weights ≥ 0.
func readDegrees(f *modelfile.File, n int) ([]float64, error) {
	deg, err := f.Float64sLen("degrees", n)
	if err != nil {
		return nil, err
	}
	for i, d := range deg {
		if !(d >= 0) {
			return nil, fmt.Errorf("the model file's degrees[%d] = %v must be finite and ≥ 0", i, d)
		}
	}
	return deg, nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// SGCKind; see sgcCodec), for a caller that adds its own sections before
// writing it.
func (m *SGC) ModelFile() (*modelfile.File, error) { return sgcCodec.File(m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *SGC) ReadModelFile(f *modelfile.File) error { return sgcCodec.Read(f, m) }

// MarshalBinary encodes the fitted model (kind SGCKind; see sgcCodec).
func (m *SGC) MarshalBinary() ([]byte, error) { return sgcCodec.Marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged.
func (m *SGC) UnmarshalBinary(data []byte) error { return sgcCodec.Unmarshal(data, m) }

// ModelFile returns the fitted model as a modelfile container (kind
// APPNPKind).
func (m *APPNP) ModelFile() (*modelfile.File, error) { return appnpCodec.File(m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *APPNP) ReadModelFile(f *modelfile.File) error { return appnpCodec.Read(f, m) }

// MarshalBinary encodes the fitted model (kind APPNPKind), as
// SGC.MarshalBinary.
func (m *APPNP) MarshalBinary() ([]byte, error) { return appnpCodec.Marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged.
func (m *APPNP) UnmarshalBinary(data []byte) error { return appnpCodec.Unmarshal(data, m) }

type csParams struct {
	Base         string  `json:"base"` // the base model's String()
	CorrectAlpha float64 `json:"correct_alpha"`
	SmoothAlpha  float64 `json:"smooth_alpha"`
	Scale        float64 `json:"scale"`
	PropTol      float64 `json:"propagation_tol"`
	PropMaxIter  int     `json:"propagation_max_iter"`
}

type csMeta struct {
	Hyperparameters csParams `json:"hyperparameters"`
	Nodes           int      `json:"nodes"`
	Classes         int      `json:"classes"`
	// BaseKind is the kind of the section "base", "" when the model has no
	// base that predicts new nodes (FitScores, or a Spreading or STKR base).
	BaseKind string `json:"base_kind,omitempty"`
}

// csCodec stores a fitted CorrectSmooth (kind CorrectSmoothKind): the
// hyperparameters and the base model's description in the metadata; the
// smoothed scores Ŷ (n×c) in section "scores", the propagated errors Ê
// (n×c) in "correction", the autoscale σ in "sigma", the fitted nodes'
// weighted degrees in "degrees", and, when the base predicts new nodes
// (SGC, APPNP), the base model's own container in "base" (nested). A model
// without that base is saved too; it answers for its fitted nodes only.
var csCodec = modelfile.Codec[CorrectSmooth, csMeta]{Kind: CorrectSmoothKind, Version: ModelVersion, Oldest: ModelVersion,
	Fitted: func(m *CorrectSmooth) bool { return m.probs != nil },
	Put: func(m *CorrectSmooth, f *modelfile.File) (csMeta, error) {
		n, c := m.probs.Dims()
		meta := csMeta{Hyperparameters: csParams{Base: m.baseName, CorrectAlpha: m.CorrectAlpha, SmoothAlpha: m.SmoothAlpha, Scale: m.Scale,
			PropTol: m.Propagation.Tol, PropMaxIter: m.Propagation.MaxIter}, Nodes: n, Classes: c}
		f.PutDense("scores", m.probs)
		f.PutDense("correction", m.corr)
		f.PutFloat64s("sigma", []float64{m.sigma})
		f.PutFloat64s("degrees", m.deg)
		if m.fitBase != nil {
			bf, err := m.fitBase.ModelFile()
			if err == nil {
				err = f.PutNested("base", bf)
			}
			if err != nil {
				return meta, fmt.Errorf("nodeclass: CorrectSmooth's base: %w", err)
			}
			meta.BaseKind = bf.Kind
		}
		return meta, nil
	},
	Get: readCorrectSmooth,
}

func readCorrectSmooth(f *modelfile.File, meta csMeta, dst *CorrectSmooth) error {
	p := meta.Hyperparameters
	out := CorrectSmooth{CorrectAlpha: p.CorrectAlpha, SmoothAlpha: p.SmoothAlpha, Scale: p.Scale,
		Propagation: propagate.Settings{Tol: p.PropTol, MaxIter: p.PropMaxIter}, baseName: p.Base}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's hyperparameters: %w", err)
	}
	n, c := meta.Nodes, meta.Classes
	var err error
	if out.probs, err = f.Dense("scores", n, c); err != nil {
		return err
	}
	if out.corr, err = f.Dense("correction", n, c); err != nil {
		return err
	}
	sigma, err := f.Float64sLen("sigma", 1)
	if err != nil {
		return err
	}
	if sigma[0] < 0 {
		return fmt.Errorf("the model file's sigma = %v is negative", sigma[0])
	}
	out.sigma = sigma[0]
	if out.deg, err = readDegrees(f, n); err != nil {
		return err
	}
	if meta.BaseKind != "" || f.Has("base") {
		b, err := readBase(f, meta.BaseKind, n, c)
		if err != nil {
			return err
		}
		out.Base, out.fitBase = b, b
	}
	out.t = invSqrtDegrees(out.deg, 0)
	*dst = out
	return nil
}

// readBase reads Correct & Smooth's base model from the section "base":
// an SGC or APPNP container of the same nodes and classes.
func readBase(f *modelfile.File, kind string, n, c int) (nodeBase, error) {
	bf, err := f.Nested("base")
	if err != nil {
		return nil, fmt.Errorf("the model file declares a %s base: %w", kind, err)
	}
	if bf.Kind != kind {
		return nil, fmt.Errorf("the model file's base is a %s model, its metadata declares %q", bf.Kind, kind)
	}
	var b nodeBase
	switch kind {
	case SGCKind:
		b = &SGC{}
	case APPNPKind:
		b = &APPNP{}
	default:
		return nil, fmt.Errorf("the model file's base kind %q is not %s or %s", kind, SGCKind, APPNPKind)
	}
	if err := b.ReadModelFile(bf); err != nil {
		return nil, fmt.Errorf("the model file's base: %w", err)
	}
	p, _ := b.Predict(context.Background(), estimator.FittedNodes)
	if r, k := p.Dims(); r != n || k != c {
		return nil, fmt.Errorf("the model file's base has %d nodes and %d classes, the model %d and %d", r, k, n, c)
	}
	return b, nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// CorrectSmoothKind; see csCodec).
func (m *CorrectSmooth) ModelFile() (*modelfile.File, error) { return csCodec.File(m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *CorrectSmooth) ReadModelFile(f *modelfile.File) error { return csCodec.Read(f, m) }

// MarshalBinary encodes the fitted model (kind CorrectSmoothKind), with its
// base model when that predicts new nodes.
func (m *CorrectSmooth) MarshalBinary() ([]byte, error) { return csCodec.Marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged. Base is the saved base model afterwards (nil when the file has
// none: Scores and Predict of the fitted nodes work, of new nodes not, and a new Fit
// uses the default base).
func (m *CorrectSmooth) UnmarshalBinary(data []byte) error { return csCodec.Unmarshal(data, m) }

// fileModel is a model saved in a modelfile container.
type fileModel interface {
	ModelFile() (*modelfile.File, error)
	ReadModelFile(f *modelfile.File) error
}

func jsonRefused(model string) error {
	return fmt.Errorf("nodeclass: %s: %w", model, estimator.ErrJSON)
}

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (m SGC) MarshalJSON() ([]byte, error) { return nil, jsonRefused("SGC") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (m *SGC) UnmarshalJSON([]byte) error { return jsonRefused("SGC") }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (m APPNP) MarshalJSON() ([]byte, error) { return nil, jsonRefused("APPNP") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (m *APPNP) UnmarshalJSON([]byte) error { return jsonRefused("APPNP") }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (m CorrectSmooth) MarshalJSON() ([]byte, error) { return nil, jsonRefused("CorrectSmooth") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (m *CorrectSmooth) UnmarshalJSON([]byte) error { return jsonRefused("CorrectSmooth") }
