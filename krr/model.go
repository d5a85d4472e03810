package krr

import (
	"fmt"
	"math"

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
	f.PutDense("centres", e.centres)
	f.PutDense("alpha", e.alpha)
	return expansionMeta{Kernel: kj, Precision: int(e.prec), BlockRows: e.blockRows, Centres: m, Features: d, Outputs: c}, nil
}

func readExpansion(f *modelfile.File, meta expansionMeta) (expansion, error) {
	k, err := meta.Kernel.Kernel()
	if err != nil {
		return expansion{}, fmt.Errorf("the model file's kernel: %w", err)
	}
	if meta.BlockRows < 0 || (meta.Precision != int(kernel.Float64) && meta.Precision != int(kernel.Float32)) {
		return expansion{}, fmt.Errorf("the model file's precision %d or block rows %d are invalid", meta.Precision, meta.BlockRows)
	}
	centres, err := f.Dense("centres", meta.Centres, meta.Features)
	if err != nil {
		return expansion{}, err
	}
	alpha, err := f.Dense("alpha", meta.Centres, meta.Outputs)
	if err != nil {
		return expansion{}, err
	}
	return expansion{k: k, centres: centres, alpha: alpha, prec: kernel.Precision(meta.Precision), blockRows: meta.BlockRows}, nil
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

func (e *expansion) fitted() bool { return e.alpha != nil }

type exactMeta struct {
	Lambda    float64       `json:"lambda"`
	Precision int           `json:"precision"`
	Expansion expansionMeta `json:"expansion"`
}

// exactCodec stores an Exact: λ, the kernel, the training points (the
// expansion's centres) and α.
var exactCodec = modelfile.Codec[Exact, exactMeta]{Kind: ExactKind, Version: ModelVersion,
	Fitted: func(e *Exact) bool { return e.fit.fitted() },
	Put: func(e *Exact, f *modelfile.File) (exactMeta, error) {
		em, err := e.fit.put(f)
		return exactMeta{Lambda: e.Lambda, Precision: int(e.Precision), Expansion: em}, err
	},
	Get: func(f *modelfile.File, meta exactMeta, dst *Exact) error {
		fit, err := readExpansion(f, meta.Expansion)
		if err != nil {
			return err
		}
		*dst = Exact{Kernel: fit.k, Lambda: meta.Lambda, Precision: kernel.Precision(meta.Precision), fit: fit}
		return validFile(dst)
	},
}

// validFile checks the hyperparameters a model file gave m.
func validFile(m interface{ Validate() error }) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("the model file's hyperparameters: %w", err)
	}
	return nil
}

// Features returns the dimension of the training points, 0 before Fit.
func (e *Exact) Features() int { return e.fit.features() }

// Outputs returns the number of output columns, 0 before Fit.
func (e *Exact) Outputs() int { return e.fit.outputs() }

// ModelFile returns the fitted model as a modelfile container (kind
// ExactKind).
func (e *Exact) ModelFile() (*modelfile.File, error) { return exactCodec.File(e) }

// ReadModelFile replaces e by the model in f; on an error e is unchanged.
func (e *Exact) ReadModelFile(f *modelfile.File) error { return exactCodec.Read(f, e) }

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same.
func (e *Exact) MarshalBinary() ([]byte, error) { return exactCodec.Marshal(e) }

// UnmarshalBinary replaces e by the model in data; on an error e is
// unchanged.
func (e *Exact) UnmarshalBinary(data []byte) error { return exactCodec.Unmarshal(data, e) }

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

// nystromCodec stores a Nystrom: the hyperparameters, the centres, α and
// which training rows the centres are.
var nystromCodec = modelfile.Codec[Nystrom, nystromMeta]{Kind: NystromKind, Version: ModelVersion,
	Fitted: func(s *Nystrom) bool { return s.fit.fitted() },
	Put: func(s *Nystrom, f *modelfile.File) (nystromMeta, error) {
		em, err := s.fit.put(f)
		if err != nil {
			return nystromMeta{}, err
		}
		cj, err := encodeCentres(s.Centres)
		f.PutInts("centre_indices", s.idx)
		f.PutInts("dropped_centres", s.dropped)
		return nystromMeta{Lambda: s.Lambda, Centres: cj, Jitter: s.Jitter, Precision: int(s.Precision), BlockRows: s.BlockRows,
			JitterUsed: s.jitter, JitterRaises: s.raised, Expansion: em}, err
	},
	Get: func(f *modelfile.File, meta nystromMeta, dst *Nystrom) error {
		fit, c, idx, dropped, err := readCentred(f, meta.Expansion, meta.Centres)
		if err != nil {
			return err
		}
		*dst = Nystrom{Kernel: fit.k, Lambda: meta.Lambda, Centres: c, Jitter: meta.Jitter, Precision: kernel.Precision(meta.Precision),
			BlockRows: meta.BlockRows, fit: fit, idx: idx, dropped: dropped, jitter: meta.JitterUsed, raised: meta.JitterRaises}
		return validFile(dst)
	},
}

// readCentred reads the expansion, the centre sampler, the training rows
// of the centres (one per centre) and the dropped ones.
func readCentred(f *modelfile.File, em expansionMeta, cj centresJSON) (fit expansion, c Centres, idx, dropped []int, err error) {
	if fit, err = readExpansion(f, em); err != nil {
		return
	}
	if c, err = cj.decode(); err != nil {
		return
	}
	if idx, err = f.Indices("centre_indices", math.MaxInt32+1); err != nil {
		return
	}
	if len(idx) != em.Centres {
		err = fmt.Errorf("the model file has %d centre indices for %d centres", len(idx), em.Centres)
		return
	}
	dropped, err = f.Indices("dropped_centres", math.MaxInt32+1)
	return
}

// Features returns the dimension of the training points, 0 before Fit.
func (s *Nystrom) Features() int { return s.fit.features() }

// Outputs returns the number of output columns, 0 before Fit.
func (s *Nystrom) Outputs() int { return s.fit.outputs() }

// ModelFile returns the fitted model as a modelfile container (kind
// NystromKind).
func (s *Nystrom) ModelFile() (*modelfile.File, error) { return nystromCodec.File(s) }

// ReadModelFile replaces s by the model in f; on an error s is unchanged.
func (s *Nystrom) ReadModelFile(f *modelfile.File) error { return nystromCodec.Read(f, s) }

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same.
func (s *Nystrom) MarshalBinary() ([]byte, error) { return nystromCodec.Marshal(s) }

// UnmarshalBinary replaces s by the model in data; on an error s is
// unchanged.
func (s *Nystrom) UnmarshalBinary(data []byte) error { return nystromCodec.Unmarshal(data, s) }

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

// falkonCodec stores a Falkon: the hyperparameters, the centres, α and the
// fit's report. Progress is not stored; a model read keeps its own.
var falkonCodec = modelfile.Codec[Falkon, falkonMeta]{Kind: FalkonKind, Version: ModelVersion,
	Fitted: func(f *Falkon) bool { return f.fit.fitted() },
	Put: func(f *Falkon, mf *modelfile.File) (falkonMeta, error) {
		if math.IsNaN(f.info.Residual) || math.IsInf(f.info.Residual, 0) {
			return falkonMeta{}, fmt.Errorf("krr: Falkon.MarshalBinary: the fit's residual is %v", f.info.Residual)
		}
		em, err := f.fit.put(mf)
		if err != nil {
			return falkonMeta{}, err
		}
		cj, err := encodeCentres(f.Centres)
		mf.PutInts("centre_indices", f.info.Centres)
		mf.PutInts("dropped_centres", f.info.DroppedCentres)
		in := falkonInfo{Iterations: f.info.Iterations, Residual: f.info.Residual, Jitter: f.info.Jitter, JitterRaises: f.info.JitterRaises, Products: int(f.info.Products)}
		return falkonMeta{Lambda: f.Lambda, Centres: cj, Iterations: f.Iterations, Tol: f.Tol, Jitter: f.Jitter,
			Precision: int(f.Precision), BlockRows: f.BlockRows, Products: int(f.Products), Info: in, Expansion: em}, err
	},
	Get: func(mf *modelfile.File, meta falkonMeta, dst *Falkon) error {
		fit, c, idx, dropped, err := readCentred(mf, meta.Expansion, meta.Centres)
		if err != nil {
			return err
		}
		*dst = Falkon{Kernel: fit.k, Lambda: meta.Lambda, Centres: c, Iterations: meta.Iterations, Tol: meta.Tol, Jitter: meta.Jitter,
			Precision: kernel.Precision(meta.Precision), BlockRows: meta.BlockRows, Products: Products(meta.Products), Progress: dst.Progress, fit: fit,
			info: FalkonInfo{Centres: idx, DroppedCentres: dropped, Iterations: meta.Info.Iterations, Residual: meta.Info.Residual,
				Jitter: meta.Info.Jitter, JitterRaises: meta.Info.JitterRaises, Products: Products(meta.Info.Products)}}
		return validFile(dst)
	},
}

// Features returns the dimension of the training points, 0 before Fit.
func (f *Falkon) Features() int { return f.fit.features() }

// Outputs returns the number of output columns, 0 before Fit.
func (f *Falkon) Outputs() int { return f.fit.outputs() }

// ModelFile returns the fitted model as a modelfile container (kind
// FalkonKind).
func (f *Falkon) ModelFile() (*modelfile.File, error) { return falkonCodec.File(f) }

// ReadModelFile replaces f by the model in mf (Progress is kept); on an
// error f is unchanged.
func (f *Falkon) ReadModelFile(mf *modelfile.File) error { return falkonCodec.Read(mf, f) }

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same. Progress is not stored.
func (f *Falkon) MarshalBinary() ([]byte, error) { return falkonCodec.Marshal(f) }

// UnmarshalBinary replaces f by the model in data (Progress is kept); on
// an error f is unchanged.
func (f *Falkon) UnmarshalBinary(data []byte) error { return falkonCodec.Unmarshal(data, f) }

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
