package krr

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/modelfile"
)

// The kinds of the kernel expansions in a modelfile container, and the
// newest layout version of each that this package reads and writes.
const (
	ExactKind    = "krr.Exact"
	NystromKind  = "krr.Nystrom"
	FalkonKind   = "krr.Falkon"
	ModelVersion = 1
)

// samplerJSON is a centre Sampler by type.
type samplerJSON struct {
	Type      string `json:"type"`
	Indices   []int  `json:"indices,omitempty"`
	Pilot     int    `json:"pilot,omitempty"`
	Precision int    `json:"precision,omitempty"`
}

func encodeCentres(c Centres) (centresJSON, error) {
	out := centresJSON{M: c.M, Seed: c.Seed}
	switch s := c.Sampler.(type) {
	case nil:
	case Uniform:
		out.Sampler = &samplerJSON{Type: "uniform"}
	case Fixed:
		out.Sampler = &samplerJSON{Type: "fixed", Indices: []int(s)}
	case Leverage:
		out.Sampler = &samplerJSON{Type: "leverage", Pilot: s.Pilot, Precision: int(s.Precision)}
	default:
		return out, fmt.Errorf("krr: MarshalBinary: centre sampler %T cannot be saved", s)
	}
	return out, nil
}

type centresJSON struct {
	M       int          `json:"m"`
	Seed    uint64       `json:"seed"`
	Sampler *samplerJSON `json:"sampler,omitempty"`
}

func (c centresJSON) decode() (Centres, error) {
	out := Centres{M: c.M, Seed: c.Seed}
	if c.Sampler == nil {
		return out, nil
	}
	switch c.Sampler.Type {
	case "uniform":
		out.Sampler = Uniform{}
	case "fixed":
		out.Sampler = Fixed(c.Sampler.Indices)
	case "leverage":
		out.Sampler = Leverage{Pilot: c.Sampler.Pilot, Precision: kernel.Precision(c.Sampler.Precision)}
	default:
		return out, fmt.Errorf("krr: the model file's centre sampler %q is not one this gssl knows", c.Sampler.Type)
	}
	return out, nil
}

// expansionMeta describes the fitted expansion; its arrays are sections.
type expansionMeta struct {
	Kernel    kernel.Spec `json:"kernel"`
	Precision int         `json:"precision"`
	BlockRows int         `json:"block_rows"`
	Centres   int         `json:"centres"`
	Features  int         `json:"features"`
	Outputs   int         `json:"outputs"`
}

func (e *expansion) put(f *modelfile.File) (expansionMeta, error) {
	kj, err := kernel.SpecOf(e.k)
	if err != nil {
		return expansionMeta{}, fmt.Errorf("krr: MarshalBinary: %w", err)
	}
	m, d := e.centres.Dims()
	_, c := e.alpha.Dims()
	f.PutFloat64s("centres", mat.DenseCopyOf(e.centres).RawMatrix().Data)
	f.PutFloat64s("alpha", mat.DenseCopyOf(e.alpha).RawMatrix().Data)
	return expansionMeta{Kernel: kj, Precision: int(e.prec), BlockRows: e.blockRows, Centres: m, Features: d, Outputs: c}, nil
}

func readExpansion(f *modelfile.File, meta expansionMeta) (expansion, error) {
	k, err := meta.Kernel.Kernel()
	if err != nil {
		return expansion{}, fmt.Errorf("krr: the model file's kernel: %w", err)
	}
	m, d, c := meta.Centres, meta.Features, meta.Outputs
	if m < 1 || d < 1 || c < 1 || m > math.MaxInt/max(d, c) {
		return expansion{}, fmt.Errorf("krr: the model file declares %d centres of %d features and %d outputs", m, d, c)
	}
	if meta.BlockRows < 0 || (meta.Precision != int(kernel.Float64) && meta.Precision != int(kernel.Float32)) {
		return expansion{}, fmt.Errorf("krr: the model file's precision %d or block rows %d are invalid", meta.Precision, meta.BlockRows)
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
	centres, err := get("centres", m*d)
	if err != nil {
		return expansion{}, err
	}
	alpha, err := get("alpha", m*c)
	if err != nil {
		return expansion{}, err
	}
	return expansion{k: k, centres: mat.NewDense(m, d, centres), alpha: mat.NewDense(m, c, alpha), prec: kernel.Precision(meta.Precision), blockRows: meta.BlockRows}, nil
}

func readFile(data []byte, kind string) (*modelfile.File, error) {
	f, err := modelfile.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	if err := f.Expect(kind, ModelVersion); err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	return f, nil
}

// Features returns the dimension of the points of a fitted expansion, 0
// before Fit.
func (e *expansion) features() int {
	if e.alpha == nil {
		return 0
	}
	_, d := e.centres.Dims()
	return d
}

func (e *expansion) outputs() int {
	if e.alpha == nil {
		return 0
	}
	_, c := e.alpha.Dims()
	return c
}

type exactMeta struct {
	Lambda    float64       `json:"lambda"`
	Precision int           `json:"precision"`
	Expansion expansionMeta `json:"expansion"`
}

// Features returns the dimension of the training points, 0 before Fit.
func (e *Exact) Features() int { return e.fit.features() }

// Outputs returns the number of output columns, 0 before Fit.
func (e *Exact) Outputs() int { return e.fit.outputs() }

// ModelFile returns the fitted model as a modelfile container (kind
// ExactKind): λ, the kernel, the training points and α.
func (e *Exact) ModelFile() (*modelfile.File, error) {
	if e.fit.alpha == nil {
		return nil, estimator.NotFitted("krr: Exact.MarshalBinary")
	}
	f := modelfile.New(ExactKind, ModelVersion)
	em, err := e.fit.put(f)
	if err != nil {
		return nil, err
	}
	return f, f.SetMetadata(exactMeta{Lambda: e.Lambda, Precision: int(e.Precision), Expansion: em})
}

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same.
func (e *Exact) MarshalBinary() ([]byte, error) {
	f, err := e.ModelFile()
	if err != nil {
		return nil, err
	}
	return f.MarshalBinary()
}

// UnmarshalBinary replaces e by the model in data; on an error e is
// unchanged.
func (e *Exact) UnmarshalBinary(data []byte) error {
	f, err := readFile(data, ExactKind)
	if err != nil {
		return err
	}
	return e.ReadModelFile(f)
}

// ReadModelFile replaces e by the model in f.
func (e *Exact) ReadModelFile(f *modelfile.File) error {
	if err := f.Expect(ExactKind, ModelVersion); err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	var meta exactMeta
	if err := f.DecodeMetadata(&meta); err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	fit, err := readExpansion(f, meta.Expansion)
	if err != nil {
		return err
	}
	out := Exact{Kernel: fit.k, Lambda: meta.Lambda, Precision: kernel.Precision(meta.Precision), fit: fit}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("krr: the model file's hyperparameters: %w", err)
	}
	*e = out
	return nil
}

type nystromMeta struct {
	Lambda       float64       `json:"lambda"`
	Centres      centresJSON   `json:"centres"`
	Jitter       float64       `json:"jitter"`
	Precision    int           `json:"precision"`
	BlockRows    int           `json:"block_rows"`
	JitterUsed   float64       `json:"jitter_used"`
	JitterRaises int           `json:"jitter_raises"`
	Expansion    expansionMeta `json:"expansion"`
}

// Features returns the dimension of the training points, 0 before Fit.
func (s *Nystrom) Features() int { return s.fit.features() }

// Outputs returns the number of output columns, 0 before Fit.
func (s *Nystrom) Outputs() int { return s.fit.outputs() }

// ModelFile returns the fitted model as a modelfile container (kind
// NystromKind): the hyperparameters, the centres, α and which training
// rows the centres are.
func (s *Nystrom) ModelFile() (*modelfile.File, error) {
	if s.fit.alpha == nil {
		return nil, estimator.NotFitted("krr: Nystrom.MarshalBinary")
	}
	f := modelfile.New(NystromKind, ModelVersion)
	em, err := s.fit.put(f)
	if err != nil {
		return nil, err
	}
	cj, err := encodeCentres(s.Centres)
	if err != nil {
		return nil, err
	}
	f.PutInt64s("centre_indices", ints64(s.idx))
	f.PutInt64s("dropped_centres", ints64(s.dropped))
	return f, f.SetMetadata(nystromMeta{Lambda: s.Lambda, Centres: cj, Jitter: s.Jitter, Precision: int(s.Precision), BlockRows: s.BlockRows,
		JitterUsed: s.jitter, JitterRaises: s.raised, Expansion: em})
}

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same.
func (s *Nystrom) MarshalBinary() ([]byte, error) {
	f, err := s.ModelFile()
	if err != nil {
		return nil, err
	}
	return f.MarshalBinary()
}

// UnmarshalBinary replaces s by the model in data; on an error s is
// unchanged.
func (s *Nystrom) UnmarshalBinary(data []byte) error {
	f, err := readFile(data, NystromKind)
	if err != nil {
		return err
	}
	return s.ReadModelFile(f)
}

// ReadModelFile replaces s by the model in f.
func (s *Nystrom) ReadModelFile(f *modelfile.File) error {
	if err := f.Expect(NystromKind, ModelVersion); err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	var meta nystromMeta
	if err := f.DecodeMetadata(&meta); err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	fit, err := readExpansion(f, meta.Expansion)
	if err != nil {
		return err
	}
	c, err := meta.Centres.decode()
	if err != nil {
		return err
	}
	idx, dropped, err := centreIndices(f, meta.Expansion.Centres)
	if err != nil {
		return err
	}
	out := Nystrom{Kernel: fit.k, Lambda: meta.Lambda, Centres: c, Jitter: meta.Jitter, Precision: kernel.Precision(meta.Precision),
		BlockRows: meta.BlockRows, fit: fit, idx: idx, dropped: dropped, jitter: meta.JitterUsed, raised: meta.JitterRaises}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("krr: the model file's hyperparameters: %w", err)
	}
	*s = out
	return nil
}

type falkonMeta struct {
	Lambda     float64       `json:"lambda"`
	Centres    centresJSON   `json:"centres"`
	Iterations int           `json:"iterations"`
	Tol        float64       `json:"tol"`
	Jitter     float64       `json:"jitter"`
	Precision  int           `json:"precision"`
	BlockRows  int           `json:"block_rows"`
	Products   int           `json:"products"`
	Info       falkonInfo    `json:"info"`
	Expansion  expansionMeta `json:"expansion"`
}

type falkonInfo struct {
	Iterations   int     `json:"iterations"`
	Residual     float64 `json:"residual"`
	Jitter       float64 `json:"jitter"`
	JitterRaises int     `json:"jitter_raises"`
	Products     int     `json:"products"`
}

// Features returns the dimension of the training points, 0 before Fit.
func (f *Falkon) Features() int { return f.fit.features() }

// Outputs returns the number of output columns, 0 before Fit.
func (f *Falkon) Outputs() int { return f.fit.outputs() }

// ModelFile returns the fitted model as a modelfile container (kind
// FalkonKind): the hyperparameters, the centres, α and the fit's report.
func (f *Falkon) ModelFile() (*modelfile.File, error) {
	if f.fit.alpha == nil {
		return nil, estimator.NotFitted("krr: Falkon.MarshalBinary")
	}
	if math.IsNaN(f.info.Residual) || math.IsInf(f.info.Residual, 0) {
		return nil, fmt.Errorf("krr: Falkon.MarshalBinary: the fit's residual is %v", f.info.Residual)
	}
	mf := modelfile.New(FalkonKind, ModelVersion)
	em, err := f.fit.put(mf)
	if err != nil {
		return nil, err
	}
	cj, err := encodeCentres(f.Centres)
	if err != nil {
		return nil, err
	}
	mf.PutInt64s("centre_indices", ints64(f.info.Centres))
	mf.PutInt64s("dropped_centres", ints64(f.info.DroppedCentres))
	in := falkonInfo{Iterations: f.info.Iterations, Residual: f.info.Residual, Jitter: f.info.Jitter, JitterRaises: f.info.JitterRaises, Products: int(f.info.Products)}
	return mf, mf.SetMetadata(falkonMeta{Lambda: f.Lambda, Centres: cj, Iterations: f.Iterations, Tol: f.Tol, Jitter: f.Jitter,
		Precision: int(f.Precision), BlockRows: f.BlockRows, Products: int(f.Products), Info: in, Expansion: em})
}

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same. Progress is not stored.
func (f *Falkon) MarshalBinary() ([]byte, error) {
	mf, err := f.ModelFile()
	if err != nil {
		return nil, err
	}
	return mf.MarshalBinary()
}

// UnmarshalBinary replaces f by the model in data (Progress is kept); on
// an error f is unchanged.
func (f *Falkon) UnmarshalBinary(data []byte) error {
	mf, err := readFile(data, FalkonKind)
	if err != nil {
		return err
	}
	return f.ReadModelFile(mf)
}

// ReadModelFile replaces f by the model in mf.
func (f *Falkon) ReadModelFile(mf *modelfile.File) error {
	if err := mf.Expect(FalkonKind, ModelVersion); err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	var meta falkonMeta
	if err := mf.DecodeMetadata(&meta); err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	fit, err := readExpansion(mf, meta.Expansion)
	if err != nil {
		return err
	}
	c, err := meta.Centres.decode()
	if err != nil {
		return err
	}
	idx, dropped, err := centreIndices(mf, meta.Expansion.Centres)
	if err != nil {
		return err
	}
	out := Falkon{Kernel: fit.k, Lambda: meta.Lambda, Centres: c, Iterations: meta.Iterations, Tol: meta.Tol, Jitter: meta.Jitter,
		Precision: kernel.Precision(meta.Precision), BlockRows: meta.BlockRows, Products: Products(meta.Products), Progress: f.Progress, fit: fit,
		info: FalkonInfo{Centres: idx, DroppedCentres: dropped, Iterations: meta.Info.Iterations, Residual: meta.Info.Residual,
			Jitter: meta.Info.Jitter, JitterRaises: meta.Info.JitterRaises, Products: Products(meta.Info.Products)}}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("krr: the model file's hyperparameters: %w", err)
	}
	*f = out
	return nil
}

func ints64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// centreIndices reads the training rows of the centres (as many as there
// are centres) and the dropped ones.
func centreIndices(f *modelfile.File, m int) (idx, dropped []int, err error) {
	a, err := f.Int64s("centre_indices")
	if err != nil {
		return nil, nil, fmt.Errorf("krr: %w", err)
	}
	b, err := f.Int64s("dropped_centres")
	if err != nil {
		return nil, nil, fmt.Errorf("krr: %w", err)
	}
	if len(a) != m {
		return nil, nil, fmt.Errorf("krr: the model file has %d centre indices for %d centres", len(a), m)
	}
	conv := func(v []int64) ([]int, error) {
		if len(v) == 0 {
			return nil, nil // as a fit leaves an empty list
		}
		out := make([]int, len(v))
		for i, x := range v {
			if x < 0 || x > math.MaxInt32 {
				return nil, fmt.Errorf("krr: the model file's centre index %d is out of range", x)
			}
			out[i] = int(x)
		}
		return out, nil
	}
	if idx, err = conv(a); err != nil {
		return nil, nil, err
	}
	if dropped, err = conv(b); err != nil {
		return nil, nil, err
	}
	return idx, dropped, nil
}

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (e Exact) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("krr: Exact: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (e *Exact) UnmarshalJSON([]byte) error { return fmt.Errorf("krr: Exact: %w", estimator.ErrJSON) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (s Nystrom) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("krr: Nystrom: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (s *Nystrom) UnmarshalJSON([]byte) error {
	return fmt.Errorf("krr: Nystrom: %w", estimator.ErrJSON)
}

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (f Falkon) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("krr: Falkon: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (f *Falkon) UnmarshalJSON([]byte) error { return fmt.Errorf("krr: Falkon: %w", estimator.ErrJSON) }
