package modelfile

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// Codec declares how a model of type T is stored, so that the model's
// persistence is this declaration and its two functions rather than the
// same six methods written again for every model: File, Read, Marshal and
// Unmarshal do what every model's ModelFile, ReadModelFile, MarshalBinary
// and UnmarshalBinary did (check the model is fitted; write the metadata
// and sections; check kind and layout version; decode the metadata
// strictly; leave the model unchanged on an error), and the model's
// methods call them in one line each.
//
// M is the metadata's type: one JSON object, decoded with unknown fields
// refused. Put stores the fitted model's sections in f and returns its
// metadata; Get reads a model from the decoded metadata and f's sections
// into dst, a copy of the model being read into (so that settings the
// file does not hold, such as a progress callback, are kept). Get must
// validate every value as user input: a model file may come from anyone.
// Its errors are prefixed with the package's name.
type Codec[T, M any] struct {
	// Kind is the model's kind, "package.Type".
	Kind string
	// Version is the newest layout of the kind this build writes and reads.
	Version int
	// Oldest is the oldest layout Read accepts (0: every layout up to
	// Version); an older file is refused with ErrVersion and the advice to
	// fit and save the model again.
	Oldest int
	// Also lists other kinds Read accepts in the same layouts (a file
	// whose model T reads as well, e.g. a regression fitted on classes
	// read as a classifier).
	Also []string
	// Fitted reports whether m has been fitted; File refuses an unfitted
	// model with estimator.ErrNotFitted.
	Fitted func(m *T) bool
	Put    func(m *T, f *File) (M, error)
	Get    func(f *File, meta M, dst *T) error
	// Base, when set, makes T's file another model's with sections added
	// (a wrapper, such as a calibration around a classifier): File starts
	// from Base(m), that model's whole file, instead of a new file of
	// Kind, and keeps its metadata (Put's is dropped); Read then accepts
	// any kind, leaves the metadata to Get (M is struct{}) and returns
	// Get's errors as they are.
	Base func(m *T) (*File, error)
}

// pkg and name split Kind into "package" and "Type".
func (c Codec[T, M]) pkg() string {
	p, _, _ := strings.Cut(c.Kind, ".")
	return p
}

func (c Codec[T, M]) name() string {
	_, n, _ := strings.Cut(c.Kind, ".")
	return n
}

// File returns the fitted model m as a container of kind c.Kind.
func (c Codec[T, M]) File(m *T) (*File, error) {
	if !c.Fitted(m) {
		return nil, estimator.NotFitted(c.pkg() + ": " + c.name() + ".MarshalBinary")
	}
	f := New(c.Kind, c.Version)
	if c.Base != nil {
		var err error
		if f, err = c.Base(m); err != nil {
			return nil, err
		}
	}
	meta, err := c.Put(m, f)
	if err != nil {
		return nil, err
	}
	if c.Base != nil {
		return f, nil
	}
	if err := f.SetMetadata(meta); err != nil {
		return nil, err
	}
	return f, nil
}

// Marshal encodes the fitted model m.
func (c Codec[T, M]) Marshal(m *T) ([]byte, error) {
	f, err := c.File(m)
	if err != nil {
		return nil, err
	}
	return f.MarshalBinary()
}

// Read replaces *m by the model in f; on an error *m is unchanged.
func (c Codec[T, M]) Read(f *File, m *T) error {
	if c.Base != nil {
		var meta M
		tmp := *m
		if err := c.Get(f, meta, &tmp); err != nil {
			return err
		}
		*m = tmp
		return nil
	}
	kind := c.Kind
	if slices.Contains(c.Also, f.Kind) {
		kind = f.Kind
	}
	if err := f.Expect(kind, c.Version); err != nil {
		return fmt.Errorf("%s: %w", c.pkg(), err)
	}
	if f.KindVersion < c.Oldest {
		return fmt.Errorf("%s: %w: the %s model has layout version %d, and this gssl reads layouts %d to %d: fit and save the model again", c.pkg(), ErrVersion, kind, f.KindVersion, c.Oldest, c.Version)
	}
	var meta M
	if err := f.DecodeMetadata(&meta); err != nil {
		return fmt.Errorf("%s: %w", c.pkg(), err)
	}
	tmp := *m
	if err := c.Get(f, meta, &tmp); err != nil {
		if strings.HasPrefix(err.Error(), c.pkg()+": ") {
			return err // the error of a model read inside this one
		}
		return fmt.Errorf("%s: %w", c.pkg(), err)
	}
	*m = tmp
	return nil
}

// Unmarshal replaces *m by the model encoded in data; on an error *m is
// unchanged.
func (c Codec[T, M]) Unmarshal(data []byte, m *T) error {
	f, err := Unmarshal(data)
	if err != nil {
		return fmt.Errorf("%s: %w", c.pkg(), err)
	}
	return c.Read(f, m)
}

// PutDense adds the matrix a as a float64 section, row-major; its shape
// goes in the metadata.
func (f *File) PutDense(name string, a mat.Matrix) {
	f.PutFloat64s(name, mat.DenseCopyOf(a).RawMatrix().Data)
}

// PutInts adds a section of int64 values from ints.
func (f *File) PutInts(name string, v []int) {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	f.PutInt64s(name, out)
}

// Float64sLen returns the float64 section name, which must hold exactly n
// finite values.
func (f *File) Float64sLen(name string, n int) ([]float64, error) {
	v, err := f.Float64s(name)
	if err != nil {
		return nil, err
	}
	if len(v) != n {
		return nil, fmt.Errorf("the model file's section %q has %d values, want %d", name, len(v), n)
	}
	return v, nil
}

// Dense returns the float64 section name as a rows×cols matrix (sharing
// the section's values). The shape comes from the metadata and is checked
// like input: both sides ≥ 1 and the product representable, before the
// section's length is compared with it.
func (f *File) Dense(name string, rows, cols int) (*mat.Dense, error) {
	if rows < 1 || cols < 1 || rows > math.MaxInt/cols {
		return nil, fmt.Errorf("the model file declares a %d×%d matrix %q", rows, cols, name)
	}
	v, err := f.Float64sLen(name, rows*cols)
	if err != nil {
		return nil, err
	}
	return mat.NewDense(rows, cols, v), nil
}

// Indices returns the int64 section name as ints, each in [0, limit); an
// empty section is nil.
func (f *File) Indices(name string, limit int) ([]int, error) {
	v, err := f.Int64s(name)
	if err != nil {
		return nil, err
	}
	if len(v) == 0 {
		return nil, nil
	}
	out := make([]int, len(v))
	for i, x := range v {
		if x < 0 || x >= int64(limit) {
			return nil, fmt.Errorf("the model file's section %q: value %d (element %d) is outside [0, %d)", name, x, i, limit)
		}
		out[i] = int(x)
	}
	return out, nil
}

// PutNested adds the container g, encoded, as a bytes section: a model
// inside a model.
func (f *File) PutNested(name string, g *File) error {
	b, err := g.MarshalBinary()
	if err != nil {
		return err
	}
	f.PutBytes(name, b)
	return nil
}

// Nested returns the container that PutNested stored in section name,
// checked as Unmarshal checks a file.
func (f *File) Nested(name string) (*File, error) {
	b, err := f.Bytes(name)
	if err != nil {
		return nil, err
	}
	g, err := Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("section %q: %w", name, err)
	}
	return g, nil
}
