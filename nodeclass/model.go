package nodeclass

import (
	"context"
	"fmt"
	"math"

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

// expect checks the kind and that the layout is ModelVersion.
func expect(f *modelfile.File, kind string) error {
	if err := f.Expect(kind, ModelVersion); err != nil {
		return fmt.Errorf("nodeclass: %w", err)
	}
	if f.KindVersion < ModelVersion {
		return fmt.Errorf("nodeclass: %w: the %s model has layout version %d, written before new-node prediction; this gssl reads layout %d: fit and save the model again", modelfile.ErrVersion, kind, f.KindVersion, ModelVersion)
	}
	return nil
}

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
	return 0, fmt.Errorf("nodeclass: the model file's normalization %q is not one this gssl knows", s)
}

// modelFile stores a fitted linear model: the weights W (d×c, row-major;
// logits P(X̂W) + 1bᵀ on the normalised features X̂) in section "weights",
// the intercepts b in "intercepts", the fitted nodes' class probabilities
// (n×c) in "probabilities", the final L-BFGS gradient norm in "residual",
// the fitted nodes' weighted degrees (n) in "degrees" and the propagated
// logits in "propagated" (SGC: S̃^j X̂W for j = 0..K−1, K blocks of n×c one
// after the other; APPNP: ΠX̂W, n×c).
func (l *linear) modelFile(kind string, p linearParams) (*modelfile.File, error) {
	d, c := l.w.Dims()
	n, _ := l.probs.Dims()
	meta := linearMeta{Hyperparameters: p, Nodes: n, Features: d, Classes: c, Iterations: l.info.Iterations, Products: l.info.Products}
	switch f := l.f.(type) {
	case powerFilter:
		meta.Propagation = propagationMeta{Filter: "power", K: f.k}
	case pprFilter:
		meta.Propagation = propagationMeta{Filter: "ppr", A: f.a, Tol: f.set.Tol, MaxIter: f.set.MaxIter}
	default:
		return nil, fmt.Errorf("nodeclass: a %T propagation is not saved", l.f)
	}
	file := modelfile.New(kind, ModelVersion)
	if err := file.SetMetadata(meta); err != nil {
		return nil, err
	}
	file.PutFloat64s("weights", mat.DenseCopyOf(l.w).RawMatrix().Data)
	file.PutFloat64s("intercepts", l.b)
	file.PutFloat64s("probabilities", mat.DenseCopyOf(l.probs).RawMatrix().Data)
	file.PutFloat64s("residual", []float64{l.info.Residual})
	file.PutFloat64s("degrees", l.deg)
	prop := make([]float64, 0, len(l.prop)*n*c)
	for _, p := range l.prop {
		prop = append(prop, mat.DenseCopyOf(p).RawMatrix().Data...)
	}
	file.PutFloat64s("propagated", prop)
	return file, nil
}

func finite(name string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("nodeclass: the model file's %s[%d] = %v is not finite", name, i, x)
		}
	}
	return nil
}

// floats reads section name, which must hold exactly want values.
func floats(f *modelfile.File, name string, want int) ([]float64, error) {
	v, err := f.Float64s(name)
	if err != nil {
		return nil, fmt.Errorf("nodeclass: %w", err)
	}
	if len(v) != want {
		return nil, fmt.Errorf("nodeclass: the model file's section %s has %d values, its metadata declares %d", name, len(v), want)
	}
	return v, nil
}

// readLinear reads what modelFile wrote.
func readLinear(f *modelfile.File, kind string) (*linear, linearParams, error) {
	if err := expect(f, kind); err != nil {
		return nil, linearParams{}, err
	}
	var meta linearMeta
	if err := f.DecodeMetadata(&meta); err != nil {
		return nil, linearParams{}, fmt.Errorf("nodeclass: %w", err)
	}
	p := meta.Hyperparameters
	norm, err := parseNormalization(p.Normalization)
	if err != nil {
		return nil, p, err
	}
	n, d, c := meta.Nodes, meta.Features, meta.Classes
	// The sizes are checked against the sections before anything is
	// allocated for them.
	if n < 1 || d < 1 || c < 1 || meta.Iterations < 0 || meta.Products < 0 {
		return nil, p, fmt.Errorf("nodeclass: the model file declares %d nodes, %d features, %d classes, %d iterations and %d products; each count must be ≥ 1 (≥ 0 for the last two)", n, d, c, meta.Iterations, meta.Products)
	}
	w, err := f.Float64s("weights")
	if err != nil {
		return nil, p, fmt.Errorf("nodeclass: %w", err)
	}
	probs, err := f.Float64s("probabilities")
	if err != nil {
		return nil, p, fmt.Errorf("nodeclass: %w", err)
	}
	if len(w)/d != c || len(w)%d != 0 || len(probs)/n != c || len(probs)%n != 0 {
		return nil, p, fmt.Errorf("nodeclass: the model file has %d weights and %d probabilities for %d features, %d nodes and %d classes", len(w), len(probs), d, n, c)
	}
	b, err := floats(f, "intercepts", c)
	if err != nil {
		return nil, p, err
	}
	res, err := floats(f, "residual", 1)
	if err != nil {
		return nil, p, err
	}
	for name, v := range map[string][]float64{"weights": w, "intercepts": b, "probabilities": probs} {
		if err := finite(name, v); err != nil {
			return nil, p, err
		}
	}
	var flt filter
	switch pr := meta.Propagation; pr.Filter {
	case "power":
		if pr.K < 0 {
			return nil, p, fmt.Errorf("nodeclass: the model file's propagation K = %d is negative", pr.K)
		}
		flt = powerFilter{pr.K}
	case "ppr":
		if !(pr.A > 0 && pr.A < 1) || !(pr.Tol > 0 && pr.Tol < 1) || pr.MaxIter < 0 {
			return nil, p, fmt.Errorf("nodeclass: the model file's propagation a = %v, tol = %v, max_iter = %d: a and tol must be in (0, 1), max_iter ≥ 0", pr.A, pr.Tol, pr.MaxIter)
		}
		flt = pprFilter{a: pr.A, set: propagate.Settings{Tol: pr.Tol, MaxIter: pr.MaxIter}}
	default:
		return nil, p, fmt.Errorf("nodeclass: the model file's propagation filter %q is not power or ppr", pr.Filter)
	}
	deg, err := readDegrees(f, n)
	if err != nil {
		return nil, p, err
	}
	blocks := 1
	if pf, ok := flt.(powerFilter); ok {
		blocks = pf.k
	}
	prop, err := f.Float64s("propagated")
	if err != nil {
		return nil, p, fmt.Errorf("nodeclass: %w", err)
	}
	// n·c = len(probs) is bounded by the file, K by the check below.
	if len(prop)%(n*c) != 0 || len(prop)/(n*c) != blocks {
		return nil, p, fmt.Errorf("nodeclass: the model file's section propagated has %d values, its propagation needs %d blocks of %d×%d", len(prop), blocks, n, c)
	}
	if err := finite("propagated", prop); err != nil {
		return nil, p, err
	}
	l := &linear{w: mat.NewDense(d, c, w), b: b, norm: norm, f: flt, probs: mat.NewDense(n, c, probs),
		info: estimator.Info{Iterations: meta.Iterations, Residual: res[0], Products: meta.Products},
		deg:  deg, t: invSqrtDegrees(deg, gcnLoop), prop: make([]*mat.Dense, blocks)}
	for j := range l.prop {
		l.prop[j] = mat.NewDense(n, c, prop[j*n*c:(j+1)*n*c:(j+1)*n*c])
	}
	return l, p, nil
}

// readDegrees reads the section "degrees": n finite weights ≥ 0.
func readDegrees(f *modelfile.File, n int) ([]float64, error) {
	deg, err := floats(f, "degrees", n)
	if err != nil {
		return nil, err
	}
	for i, d := range deg {
		if !(d >= 0) || math.IsInf(d, 0) {
			return nil, fmt.Errorf("nodeclass: the model file's degrees[%d] = %v must be finite and ≥ 0", i, d)
		}
	}
	return deg, nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// SGCKind), for a caller that adds its own sections before writing it.
func (m *SGC) ModelFile() (*modelfile.File, error) {
	if m.fit == nil {
		return nil, estimator.NotFitted("nodeclass: SGC.MarshalBinary")
	}
	return m.fit.modelFile(SGCKind, linearParams{K: m.K, L2: m.L2, Normalization: m.Normalization.String(), Classes: m.Classes, MaxIter: m.MaxIter})
}

// MarshalBinary encodes the fitted model (kind SGCKind): hyperparameters,
// the propagation, the logistic regression's weights and intercepts, the
// fitted nodes' probabilities and what Predict needs for new nodes of the fitted
// graph (degrees and propagated logits, n×c each); not the graph or the
// features.
func (m *SGC) MarshalBinary() ([]byte, error) { return marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged.
func (m *SGC) UnmarshalBinary(data []byte) error { return unmarshal(data, m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *SGC) ReadModelFile(f *modelfile.File) error {
	l, p, err := readLinear(f, SGCKind)
	if err != nil {
		return err
	}
	out := SGC{K: p.K, L2: p.L2, Normalization: l.norm, Classes: p.Classes, MaxIter: p.MaxIter}
	if err := out.Validate(); err != nil || p.Alpha != 0 || p.PropTol != 0 || p.PropMaxIter != 0 {
		return fmt.Errorf("nodeclass: the model file's SGC hyperparameters %+v are invalid (%v)", p, err)
	}
	if pf, ok := l.f.(powerFilter); !ok || pf.k != out.k() {
		return fmt.Errorf("nodeclass: the model file's propagation does not match SGC K = %d", out.k())
	}
	out.fit = l
	*m = out
	return nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// APPNPKind).
func (m *APPNP) ModelFile() (*modelfile.File, error) {
	if m.fit == nil {
		return nil, estimator.NotFitted("nodeclass: APPNP.MarshalBinary")
	}
	return m.fit.modelFile(APPNPKind, linearParams{Alpha: m.Alpha, L2: m.L2, Normalization: m.Normalization.String(), Classes: m.Classes, MaxIter: m.MaxIter,
		PropTol: m.Propagation.Tol, PropMaxIter: m.Propagation.MaxIter})
}

// MarshalBinary encodes the fitted model (kind APPNPKind), as
// SGC.MarshalBinary.
func (m *APPNP) MarshalBinary() ([]byte, error) { return marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged.
func (m *APPNP) UnmarshalBinary(data []byte) error { return unmarshal(data, m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *APPNP) ReadModelFile(f *modelfile.File) error {
	l, p, err := readLinear(f, APPNPKind)
	if err != nil {
		return err
	}
	out := APPNP{Alpha: p.Alpha, L2: p.L2, Normalization: l.norm, Classes: p.Classes, MaxIter: p.MaxIter,
		Propagation: propagate.Settings{Tol: p.PropTol, MaxIter: p.PropMaxIter}}
	if err := out.Validate(); err != nil || p.K != 0 {
		return fmt.Errorf("nodeclass: the model file's APPNP hyperparameters %+v are invalid (%v)", p, err)
	}
	want := pprFilter{orDefault(out.Alpha, DefaultAlpha), propagation(out.Propagation)}
	if pf, ok := l.f.(pprFilter); !ok || pf != want {
		return fmt.Errorf("nodeclass: the model file's propagation does not match APPNP's hyperparameters")
	}
	out.fit = l
	*m = out
	return nil
}

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

// ModelFile returns the fitted model as a modelfile container (kind
// CorrectSmoothKind): the hyperparameters and the base model's description
// in the metadata; the smoothed scores Ŷ (n×c) in section "scores", the
// propagated errors Ê (n×c) in "correction", the autoscale σ in "sigma",
// the fitted nodes' weighted degrees in "degrees", and, when the base
// predicts new nodes (SGC, APPNP), the base model's own container in
// "base" (bytes). A model without that base is saved too; it answers for
// its fitted nodes only.
func (m *CorrectSmooth) ModelFile() (*modelfile.File, error) {
	if m.probs == nil {
		return nil, estimator.NotFitted("nodeclass: CorrectSmooth.MarshalBinary")
	}
	n, c := m.probs.Dims()
	p := csParams{Base: m.baseName, CorrectAlpha: m.CorrectAlpha, SmoothAlpha: m.SmoothAlpha, Scale: m.Scale, PropTol: m.Propagation.Tol, PropMaxIter: m.Propagation.MaxIter}
	meta := csMeta{Hyperparameters: p, Nodes: n, Classes: c}
	var base []byte
	if m.fitBase != nil {
		bf, err := m.fitBase.ModelFile()
		if err != nil {
			return nil, fmt.Errorf("nodeclass: CorrectSmooth's base: %w", err)
		}
		if base, err = bf.MarshalBinary(); err != nil {
			return nil, fmt.Errorf("nodeclass: CorrectSmooth's base: %w", err)
		}
		meta.BaseKind = bf.Kind
	}
	f := modelfile.New(CorrectSmoothKind, ModelVersion)
	if err := f.SetMetadata(meta); err != nil {
		return nil, err
	}
	f.PutFloat64s("scores", mat.DenseCopyOf(m.probs).RawMatrix().Data)
	f.PutFloat64s("correction", mat.DenseCopyOf(m.corr).RawMatrix().Data)
	f.PutFloat64s("sigma", []float64{m.sigma})
	f.PutFloat64s("degrees", m.deg)
	if base != nil {
		f.PutBytes("base", base)
	}
	return f, nil
}

// MarshalBinary encodes the fitted model (kind CorrectSmoothKind), with its
// base model when that predicts new nodes.
func (m *CorrectSmooth) MarshalBinary() ([]byte, error) { return marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged. Base is the saved base model afterwards (nil when the file has
// none: Scores and Predict of the fitted nodes work, of new nodes not, and a new Fit
// uses the default base).
func (m *CorrectSmooth) UnmarshalBinary(data []byte) error { return unmarshal(data, m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *CorrectSmooth) ReadModelFile(f *modelfile.File) error {
	if err := expect(f, CorrectSmoothKind); err != nil {
		return err
	}
	var meta csMeta
	if err := f.DecodeMetadata(&meta); err != nil {
		return fmt.Errorf("nodeclass: %w", err)
	}
	p := meta.Hyperparameters
	out := CorrectSmooth{CorrectAlpha: p.CorrectAlpha, SmoothAlpha: p.SmoothAlpha, Scale: p.Scale,
		Propagation: propagate.Settings{Tol: p.PropTol, MaxIter: p.PropMaxIter}, baseName: p.Base}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("nodeclass: the model file's hyperparameters: %w", err)
	}
	n, c := meta.Nodes, meta.Classes
	if n < 1 || c < 1 {
		return fmt.Errorf("nodeclass: the model file declares %d nodes and %d classes; both must be ≥ 1", n, c)
	}
	s, err := f.Float64s("scores")
	if err != nil {
		return fmt.Errorf("nodeclass: %w", err)
	}
	if len(s)%n != 0 || len(s)/n != c {
		return fmt.Errorf("nodeclass: the model file has %d scores for %d nodes and %d classes", len(s), n, c)
	}
	corr, err := floats(f, "correction", n*c) // n·c = len(s)
	if err != nil {
		return err
	}
	sigma, err := floats(f, "sigma", 1)
	if err != nil {
		return err
	}
	for name, v := range map[string][]float64{"scores": s, "correction": corr, "sigma": sigma} {
		if err := finite(name, v); err != nil {
			return err
		}
	}
	if sigma[0] < 0 {
		return fmt.Errorf("nodeclass: the model file's sigma = %v is negative", sigma[0])
	}
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
	out.probs, out.corr, out.sigma = mat.NewDense(n, c, s), mat.NewDense(n, c, corr), sigma[0]
	out.t = invSqrtDegrees(out.deg, 0)
	*m = out
	return nil
}

// readBase reads Correct & Smooth's base model from the section "base":
// an SGC or APPNP container of the same nodes and classes.
func readBase(f *modelfile.File, kind string, n, c int) (nodeBase, error) {
	data, err := f.Bytes("base")
	if err != nil {
		return nil, fmt.Errorf("nodeclass: the model file declares a %s base: %w", kind, err)
	}
	bf, err := modelfile.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("nodeclass: the model file's base: %w", err)
	}
	if bf.Kind != kind {
		return nil, fmt.Errorf("nodeclass: the model file's base is a %s model, its metadata declares %q", bf.Kind, kind)
	}
	var b nodeBase
	switch kind {
	case SGCKind:
		b = &SGC{}
	case APPNPKind:
		b = &APPNP{}
	default:
		return nil, fmt.Errorf("nodeclass: the model file's base kind %q is not %s or %s", kind, SGCKind, APPNPKind)
	}
	if err := b.ReadModelFile(bf); err != nil {
		return nil, fmt.Errorf("nodeclass: the model file's base: %w", err)
	}
	p, _ := b.Predict(context.Background(), estimator.FittedNodes)
	if r, k := p.Dims(); r != n || k != c {
		return nil, fmt.Errorf("nodeclass: the model file's base has %d nodes and %d classes, the model %d and %d", r, k, n, c)
	}
	return b, nil
}

type fileModel interface {
	ModelFile() (*modelfile.File, error)
	ReadModelFile(f *modelfile.File) error
}

func marshal(m fileModel) ([]byte, error) {
	f, err := m.ModelFile()
	if err != nil {
		return nil, err
	}
	return f.MarshalBinary()
}

func unmarshal(data []byte, m fileModel) error {
	f, err := modelfile.Unmarshal(data)
	if err != nil {
		return fmt.Errorf("nodeclass: %w", err)
	}
	return m.ReadModelFile(f)
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
