package modelfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"
)

// Magic opens every model file.
const Magic = "GSSLMODL"

// FormatVersion is the container layout this package writes and the newest
// it reads.
const FormatVersion = 1

// Limits of the container, checked when reading and writing.
const (
	MaxSections  = 256 // sections per file
	MaxNameLen   = 128 // bytes of a section name
	MaxKindLen   = 64  // bytes of a kind
	MaxWriterLen = 256 // bytes of the writer string
)

const (
	headerSize        = 44
	sectionHeaderSize = 24
	crcSize           = 4
	trailerSize       = 32
	// minSize is the smallest well-formed file: header, a kind of one byte,
	// "{}" as metadata, the block CRC and the trailer.
	minSize = headerSize + 1 + 2 + crcSize + trailerSize
)

// Type is the element type of a section.
type Type uint8

// The element types of sections.
const (
	Bytes    Type = 1
	Int32s   Type = 2
	Int64s   Type = 3
	Float64s Type = 4
	Strings  Type = 5
)

func (t Type) String() string {
	switch t {
	case Bytes:
		return "bytes"
	case Int32s:
		return "int32"
	case Int64s:
		return "int64"
	case Float64s:
		return "float64"
	case Strings:
		return "strings"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// size is the bytes per element of a numeric type (1 for bytes), 0 for
// strings.
func (t Type) size() int {
	switch t {
	case Bytes:
		return 1
	case Int32s:
		return 4
	case Int64s, Float64s:
		return 8
	}
	return 0
}

// Errors that reading reports, testable with errors.Is.
var (
	// ErrFormat: the bytes are not a well-formed model file (not one at all,
	// truncated, damaged, or inconsistent).
	ErrFormat = errors.New("modelfile: not a valid model file")
	// ErrVersion: the file was written in a format or kind layout version
	// that this build does not read (newer, or an older layout it refuses).
	ErrVersion = errors.New("modelfile: version this gssl does not read")
	// ErrKind: the file holds another kind of model than the one asked for.
	ErrKind = errors.New("modelfile: wrong model kind")
	// ErrSection: a section a model needs is missing or of the wrong type.
	ErrSection = errors.New("modelfile: missing or mistyped section")
)

// Error is an error found in a file's bytes: where, and what.
type Error struct {
	Offset  int64  // byte offset of the problem, −1 when not tied to one
	Section string // the section, "" for the header
	Msg     string
	Err     error // ErrFormat or ErrVersion
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("model file")
	if e.Section != "" {
		fmt.Fprintf(&b, ", section %q", e.Section)
	}
	if e.Offset >= 0 {
		fmt.Fprintf(&b, ", byte %d", e.Offset)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// section is one typed array. Exactly one of the slices is used.
type section struct {
	name string
	typ  Type
	b    []byte
	i32  []int32
	i64  []int64
	f64  []float64
	str  []string
}

func (s *section) len() int {
	switch s.typ {
	case Bytes:
		return len(s.b)
	case Int32s:
		return len(s.i32)
	case Int64s:
		return len(s.i64)
	case Float64s:
		return len(s.f64)
	}
	return len(s.str)
}

// File is a model file in memory: what identifies the model, its metadata
// and its sections. The zero value is not usable; use New or Unmarshal.
type File struct {
	// Kind names the model type, e.g. "labelprop.Spreading".
	Kind string
	// KindVersion is the version of the model's own layout, ≥ 1.
	KindVersion int
	// Writer is the gssl build that wrote the file (BuildVersion when it
	// was written by this package with Writer empty).
	Writer string
	// Metadata is one JSON object; "{}" when empty.
	Metadata json.RawMessage

	sections []section
	index    map[string]int
}

// New returns an empty file for a model of the given kind and kind version.
func New(kind string, kindVersion int) *File {
	return &File{Kind: kind, KindVersion: kindVersion, Metadata: json.RawMessage("{}"), index: map[string]int{}}
}

// SetMetadata stores v, encoded as JSON, as the metadata. v must encode to
// a JSON object.
func (f *File) SetMetadata(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("modelfile: encoding the metadata: %w", err)
	}
	if len(b) == 0 || b[0] != '{' {
		return fmt.Errorf("modelfile: the metadata must encode to a JSON object, not %.20s", b)
	}
	f.Metadata = b
	return nil
}

// DecodeMetadata decodes the metadata into v. Fields of the file that v does
// not have are an error (a file with more than this build understands is
// refused, not half read).
func (f *File) DecodeMetadata(v any) error {
	dec := json.NewDecoder(bytes.NewReader(f.Metadata))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &Error{Offset: -1, Msg: fmt.Sprintf("metadata of the %s model: %v", f.Kind, err), Err: ErrFormat}
	}
	return nil
}

// Expect checks that f holds a model of the given kind written with a kind
// version this build reads (1..maxVersion).
func (f *File) Expect(kind string, maxVersion int) error {
	if f.Kind != kind {
		return fmt.Errorf("%w: the file holds a %s model, not %s", ErrKind, f.Kind, kind)
	}
	if f.KindVersion > maxVersion {
		return fmt.Errorf("%w: the %s model has layout version %d, and this gssl (%s) reads up to %d: use a newer gssl", ErrVersion, kind, f.KindVersion, BuildVersion(), maxVersion)
	}
	return nil
}

func (f *File) put(s section) {
	if err := checkName(s.name); err != nil {
		panic("modelfile: " + err.Error())
	}
	if f.index == nil {
		f.index = map[string]int{}
	}
	if _, dup := f.index[s.name]; dup {
		panic(fmt.Sprintf("modelfile: section %q put twice", s.name))
	}
	f.index[s.name] = len(f.sections)
	f.sections = append(f.sections, s)
}

// PutBytes adds a section of bytes. Like every Put method it keeps v (the
// caller must not modify it before writing) and panics on an invalid or
// repeated name.
func (f *File) PutBytes(name string, v []byte) { f.put(section{name: name, typ: Bytes, b: v}) }

// PutInt32s adds a section of int32 values.
func (f *File) PutInt32s(name string, v []int32) { f.put(section{name: name, typ: Int32s, i32: v}) }

// PutInt64s adds a section of int64 values.
func (f *File) PutInt64s(name string, v []int64) { f.put(section{name: name, typ: Int64s, i64: v}) }

// PutFloat64s adds a section of float64 values.
func (f *File) PutFloat64s(name string, v []float64) {
	f.put(section{name: name, typ: Float64s, f64: v})
}

// PutStrings adds a section of strings (valid UTF-8, checked when writing).
func (f *File) PutStrings(name string, v []string) { f.put(section{name: name, typ: Strings, str: v}) }

// get returns the section name of type t.
func (f *File) get(name string, t Type) (*section, error) {
	i, ok := f.index[name]
	if !ok {
		return nil, fmt.Errorf("%w: the %s model has no section %q", ErrSection, f.Kind, name)
	}
	s := &f.sections[i]
	if s.typ != t {
		return nil, fmt.Errorf("%w: section %q of the %s model holds %s, not %s", ErrSection, name, f.Kind, s.typ, t)
	}
	return s, nil
}

// Has reports whether the file has a section called name.
func (f *File) Has(name string) bool { _, ok := f.index[name]; return ok }

// Bytes returns the bytes section name (shared, not copied).
func (f *File) Bytes(name string) ([]byte, error) {
	s, err := f.get(name, Bytes)
	if err != nil {
		return nil, err
	}
	return s.b, nil
}

// Int32s returns the int32 section name (shared, not copied).
func (f *File) Int32s(name string) ([]int32, error) {
	s, err := f.get(name, Int32s)
	if err != nil {
		return nil, err
	}
	return s.i32, nil
}

// Int64s returns the int64 section name (shared, not copied).
func (f *File) Int64s(name string) ([]int64, error) {
	s, err := f.get(name, Int64s)
	if err != nil {
		return nil, err
	}
	return s.i64, nil
}

// Float64s returns the float64 section name (shared, not copied). A NaN
// or an infinity in it is an error naming the section and the element: a
// model file is input like any other, and a non-finite score, weight or
// degree would make every prediction that touches it NaN (or the class
// prior) without a word. Sections that may hold them (a residual that was
// not computed, unknown targets) are read with Float64sNonFinite.
func (f *File) Float64s(name string) ([]float64, error) {
	v, err := f.Float64sNonFinite(name)
	if err != nil {
		return nil, err
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, &Error{Offset: -1, Section: name, Msg: fmt.Sprintf("element %d of %d is %v: the %s model's values must be finite (the file was written by another program, or damaged and its checksums recomputed)", i, len(v), x, f.Kind), Err: ErrFormat}
		}
	}
	return v, nil
}

// Float64sNonFinite returns the float64 section name (shared, not copied)
// as it is, NaN and infinities included.
func (f *File) Float64sNonFinite(name string) ([]float64, error) {
	s, err := f.get(name, Float64s)
	if err != nil {
		return nil, err
	}
	return s.f64, nil
}

// Strings returns the strings section name (shared, not copied).
func (f *File) Strings(name string) ([]string, error) {
	s, err := f.get(name, Strings)
	if err != nil {
		return nil, err
	}
	return s.str, nil
}

// SectionInfo describes a section.
type SectionInfo struct {
	Name string `json:"name"`
	Type Type   `json:"-"`
	Len  int    `json:"len"` // elements
}

// Sections lists the sections in file order.
func (f *File) Sections() []SectionInfo {
	out := make([]SectionInfo, len(f.sections))
	for i := range f.sections {
		s := &f.sections[i]
		out[i] = SectionInfo{Name: s.name, Type: s.typ, Len: s.len()}
	}
	return out
}

func checkName(name string) error {
	if len(name) == 0 || len(name) > MaxNameLen {
		return fmt.Errorf("section name %q must have 1 to %d bytes", name, MaxNameLen)
	}
	if !isIdent(name) {
		return fmt.Errorf("section name %q may hold only ASCII letters, digits, '.', '_' and '-'", name)
	}
	return nil
}

func checkKind(kind string) error {
	if len(kind) == 0 || len(kind) > MaxKindLen {
		return fmt.Errorf("kind %q must have 1 to %d bytes", kind, MaxKindLen)
	}
	if !isIdent(kind) {
		return fmt.Errorf("kind %q may hold only ASCII letters, digits, '.', '_' and '-'", kind)
	}
	return nil
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// BuildVersion describes the running gssl build from its build information:
// the module version (or "(devel)"), the VCS revision when known and the Go
// version, e.g. "gssl (devel) rev 12789a5 go1.26.8".
func BuildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "gssl (unknown build)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	s := "gssl " + v
	for _, kv := range bi.Settings {
		if kv.Key == "vcs.revision" && kv.Value != "" {
			rev := kv.Value
			if len(rev) > 12 {
				rev = rev[:12]
			}
			s += " rev " + rev
		}
		if kv.Key == "vcs.modified" && kv.Value == "true" {
			s += "+dirty"
		}
	}
	s += " " + bi.GoVersion
	if len(s) > MaxWriterLen {
		s = strings.ToValidUTF8(s[:MaxWriterLen], "")
	}
	return s
}
