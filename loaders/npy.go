// NumPy .npy and .npz arrays.
//
// The .npy format (NumPy Enhancement Proposal 1, "A Simple File Format for
// NumPy Arrays", and numpy.lib.format) is the magic "\x93NUMPY", a major and
// a minor version byte, the header length (uint16 little-endian in version
// 1.0, uint32 in 2.0), and an ASCII header holding a Python dict literal
//
//	{'descr': '<f8', 'fortran_order': False, 'shape': (2708, 1433), }
//
// ended by "\n", followed by the raw elements in C (row-major) or Fortran
// (column-major) order. A .npz file is a zip archive of .npy members, one per
// array, named "<name>.npy" (numpy.savez, savez_compressed).
//
// The elements are decoded by codeberg.org/sbinet/npyio. Its header parser
// trusts the input (a header length or shape from the file is allocated as
// given, and a header without its newline panics), so the header is parsed
// and checked here first: the declared shape times the element size must be
// exactly the bytes that follow the header (the file's size, or the zip
// member's, whose declared size is checked against its compressed size and
// against the bytes it really inflates to). npyio then reads the elements
// behind a canonical header written from the checked one. Element types: bool,
// signed and unsigned integers of 1, 2, 4 and 8 bytes, float32 and float64, in
// either byte order; structured, complex, float16, string and object arrays
// are refused with an error naming the type (a scalar byte or unicode
// string, such as the "format" member of a SciPy .npz, is read as text).

package loaders

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"codeberg.org/sbinet/npyio/npy"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/inputfile"
)

// npyMagic starts every .npy file.
var npyMagic = []byte("\x93NUMPY")

// zipMagic starts a zip archive such as a .npz file (a local file header).
var zipMagic = []byte("PK\x03\x04")

// maxNPYHeader bounds the header dict. NumPy itself refuses headers above
// 10000 bytes unless told otherwise (numpy.lib.format's max_header_size);
// the dicts of the element types read here are under 200 bytes.
const maxNPYHeader = 1 << 16

// npyArray is a decoded array in C order. Floating-point elements are in
// floats, integer and bool elements in ints; a scalar string is in str.
type npyArray struct {
	shape  []int
	dtype  string // as in the header, such as "<f8"
	kind   byte   // 'b', 'i', 'u', 'f', or 'S'/'U' for a string
	floats []float64
	ints   []int64
	str    string
}

// len returns the number of elements.
func (a *npyArray) len() int {
	if a.floats != nil {
		return len(a.floats)
	}
	return len(a.ints)
}

// npyHeader is the checked content of a header dict.
type npyHeader struct {
	descr   string // '<f8'
	order   binary.ByteOrder
	kind    byte
	size    int // bytes per element
	fortran bool
	shape   []int
	elems   int
}

// shapeString formats a shape as NumPy prints it: (3,) or (2, 4).
func shapeString(shape []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// npyError returns a ParseError for the array in path (entry names the
// member of a .npz, "" for a .npy file).
func npyError(path, entry, format string, args ...any) *ParseError {
	msg := fmt.Sprintf(format, args...)
	if entry != "" {
		msg = fmt.Sprintf("member %q: %s", entry, msg)
	}
	return &ParseError{Path: path, Msg: msg}
}

// npyWrap is npyError with an underlying error.
func npyWrap(path, entry string, err error, format string, args ...any) *ParseError {
	pe := npyError(path, entry, format, args...)
	pe.Err = err
	return pe
}

// decodeNPY reads one .npy stream of exactly size bytes from r.
func decodeNPY(r io.Reader, size int64, path, entry string) (arr *npyArray, err error) {
	return decodeNPYLimit(r, size, path, entry, 0)
}

// decodedBytesPerElement is what one element costs once decoded: an int64
// or a float64 (npyArray), whatever its size in the file.
const decodedBytesPerElement = 8

// decodeNPYLimit is decodeNPY refusing, before it allocates, an array
// whose decoded elements take more than limit bytes (0: no limit beyond
// the size of the stream).
func decodeNPYLimit(r io.Reader, size int64, path, entry string, limit int64) (*npyArray, error) {
	h, err := readNPYHeader(r, size, path, entry, limit)
	if err != nil {
		return nil, err
	}
	arr := &npyArray{shape: h.shape, dtype: h.descr, kind: h.kind}
	if h.elems == 0 {
		if h.kind == 'f' {
			arr.floats = []float64{}
		} else {
			arr.ints = []int64{}
		}
		return arr, nil
	}
	if err := decodeNPYElements(r, h, arr, path, entry); err != nil {
		return nil, err
	}
	return arr, nil
}

// readNPYHeader reads the header of a .npy stream of size bytes and checks
// it against the bytes that follow and against limit (see decodeNPYLimit).
func readNPYHeader(r io.Reader, size int64, path, entry string, limit int64) (*npyHeader, error) {
	fail := func(format string, args ...any) (*npyHeader, error) {
		return nil, npyError(path, entry, format, args...)
	}
	hlen, plen, err := readNPYPreamble(r, size, path, entry)
	if err != nil {
		return nil, err
	}
	if hlen > size-plen {
		return fail("header length %d at byte 8 exceeds the %d bytes that follow", hlen, size-plen)
	}
	if hlen > maxNPYHeader {
		return fail("header length %d at byte 8 exceeds %d bytes (NumPy's own limit is 10000)", hlen, maxNPYHeader)
	}
	raw := make([]byte, hlen)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, npyWrap(path, entry, err, "reading the header")
	}
	h, msg := parseNPYHeader(raw)
	if msg != "" {
		return fail("header at byte %d: %s", plen, msg)
	}
	dataBytes := size - plen - hlen
	if int64(h.elems) > dataBytes/int64(h.size) || int64(h.elems)*int64(h.size) != dataBytes {
		return fail("header declares shape %s of %s (%d elements of %d bytes), but %d bytes follow the header", shapeString(h.shape), h.descr, h.elems, h.size, dataBytes)
	}
	if limit > 0 && int64(h.elems) > limit/decodedBytesPerElement {
		return fail("array of shape %s (%d elements) takes %d bytes once decoded, more than the memory limit of %d bytes (--max-memory)", shapeString(h.shape), h.elems, int64(h.elems)*decodedBytesPerElement, limit)
	}
	return h, nil
}

// readNPYPreamble reads the magic, the version and the header length
// (hlen) of a .npy stream of size bytes; plen is the preamble's length.
func readNPYPreamble(r io.Reader, size int64, path, entry string) (hlen, plen int64, err error) {
	var pre [12]byte
	if size < 10 {
		return 0, 0, npyError(path, entry, "%d bytes: a .npy file starts with a header of at least 10 bytes", size)
	}
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return 0, 0, npyWrap(path, entry, err, "reading the header")
	}
	if !bytes.Equal(pre[:6], npyMagic) {
		return 0, 0, npyError(path, entry, `want the NumPy magic "\x93NUMPY" at byte 0, got %q`, pre[:6])
	}
	major, minor := pre[6], pre[7]
	switch major {
	case 1:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return 0, 0, npyWrap(path, entry, err, "reading the header")
		}
		return int64(binary.LittleEndian.Uint16(pre[8:10])), 10, nil
	case 2:
		if size < 12 {
			return 0, 0, npyError(path, entry, "%d bytes: a version 2 .npy file starts with 12 bytes", size)
		}
		if _, err := io.ReadFull(r, pre[8:12]); err != nil {
			return 0, 0, npyWrap(path, entry, err, "reading the header")
		}
		return int64(binary.LittleEndian.Uint32(pre[8:12])), 12, nil
	}
	return 0, 0, npyError(path, entry, "format version %d.%d is not supported: want 1.0 or 2.0 (version 3.0 is written only for structured arrays with non-ASCII field names)", major, minor)
}

// decodeNPYElements reads the h.elems elements that follow the header h
// into arr, in C order.
func decodeNPYElements(r io.Reader, h *npyHeader, arr *npyArray, path, entry string) (err error) {
	// npyio reads the elements behind a header it is sure to parse: the
	// checked one, written in NumPy's own form.
	canon := canonicalNPYHeader(h)
	rr, err := npy.NewReader(io.MultiReader(bytes.NewReader(canon), bufio.NewReaderSize(r, 64<<10)))
	if err != nil {
		return npyError(path, entry, "npyio: %v", err)
	}
	defer func() {
		if p := recover(); p != nil {
			err = npyError(path, entry, "npyio failed on %s %s: %v", h.descr, shapeString(h.shape), p)
		}
	}()
	if err := readElements(rr, h, arr); err != nil {
		return npyWrap(path, entry, err, "reading %d elements of %s", h.elems, h.descr)
	}
	if h.fortran && len(h.shape) > 1 {
		if arr.floats != nil {
			arr.floats = fortranToC(arr.floats, h.shape)
		} else {
			arr.ints = fortranToC(arr.ints, h.shape)
		}
	}
	return nil
}

// readElements decodes the elements with npyio into arr.
func readElements(rr *npy.Reader, h *npyHeader, arr *npyArray) error {
	n := h.elems
	switch h.kind {
	case 'S', 'U':
		return rr.Read(&arr.str)
	case 'f':
		if h.size == 8 {
			arr.floats = make([]float64, n)
			return rr.Read(&arr.floats)
		}
		v, err := readAs[float32](rr, n)
		arr.floats = convert(v, func(x float32) float64 { return float64(x) })
		return err
	case 'b':
		v, err := readAs[bool](rr, n)
		arr.ints = convert(v, func(x bool) int64 {
			if x {
				return 1
			}
			return 0
		})
		return err
	case 'i':
		var err error
		switch h.size {
		case 1:
			var v []int8
			v, err = readAs[int8](rr, n)
			arr.ints = convert(v, func(x int8) int64 { return int64(x) })
		case 2:
			var v []int16
			v, err = readAs[int16](rr, n)
			arr.ints = convert(v, func(x int16) int64 { return int64(x) })
		case 4:
			var v []int32
			v, err = readAs[int32](rr, n)
			arr.ints = convert(v, func(x int32) int64 { return int64(x) })
		case 8:
			arr.ints = make([]int64, n)
			err = rr.Read(&arr.ints)
		}
		return err
	case 'u':
		var err error
		switch h.size {
		case 1:
			var v []uint8
			v, err = readAs[uint8](rr, n)
			arr.ints = convert(v, func(x uint8) int64 { return int64(x) })
		case 2:
			var v []uint16
			v, err = readAs[uint16](rr, n)
			arr.ints = convert(v, func(x uint16) int64 { return int64(x) })
		case 4:
			var v []uint32
			v, err = readAs[uint32](rr, n)
			arr.ints = convert(v, func(x uint32) int64 { return int64(x) })
		case 8:
			var v []uint64
			v, err = readAs[uint64](rr, n)
			if err != nil {
				return err
			}
			for k, x := range v {
				if x > math.MaxInt64 {
					return fmt.Errorf("element %d = %d exceeds the int64 range", k, x)
				}
			}
			arr.ints = convert(v, func(x uint64) int64 { return int64(x) })
		}
		return err
	}
	return fmt.Errorf("element kind %q", h.kind)
}

func readAs[T any](rr *npy.Reader, n int) ([]T, error) {
	v := make([]T, n)
	err := rr.Read(&v)
	return v, err
}

func convert[T, U any](v []T, f func(T) U) []U {
	out := make([]U, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}

// fortranToC reorders column-major elements of the given shape into row-major
// order.
func fortranToC[T any](v []T, shape []int) []T {
	out := make([]T, len(v))
	// cstride[d] is the row-major stride of dimension d.
	cstride := make([]int, len(shape))
	s := 1
	for d := len(shape) - 1; d >= 0; d-- {
		cstride[d] = s
		s *= shape[d]
	}
	idx := make([]int, len(shape))
	off := 0
	for _, x := range v {
		out[off] = x
		// Advance the multi-index with the first dimension fastest.
		for d := range idx {
			idx[d]++
			off += cstride[d]
			if idx[d] < shape[d] {
				break
			}
			off -= idx[d] * cstride[d]
			idx[d] = 0
		}
	}
	return out
}

// canonicalNPYHeader writes h as NumPy does: version 1.0 and the dict with
// its keys sorted, padded with spaces so that the data starts at a multiple
// of 64 bytes.
func canonicalNPYHeader(h *npyHeader) []byte {
	fortran := "False"
	if h.fortran {
		fortran = "True"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", h.descr, fortran, shapeString(h.shape))
	total := 10 + len(dict) + 1
	if pad := total % 64; pad != 0 {
		dict += strings.Repeat(" ", 64-pad)
	}
	dict += "\n"
	out := make([]byte, 10, 10+len(dict))
	copy(out, npyMagic)
	out[6], out[7] = 1, 0
	binary.LittleEndian.PutUint16(out[8:], uint16(len(dict)))
	return append(out, dict...)
}

// parseNPYHeader parses the header dict. It returns a message saying what
// was expected when the header is not one this package reads.
func parseNPYHeader(raw []byte) (*npyHeader, string) {
	if len(raw) == 0 || raw[len(raw)-1] != '\n' {
		return nil, `want a dict literal ended by "\n"`
	}
	for _, c := range raw {
		if c >= 0x80 || (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
			return nil, fmt.Sprintf("byte %#x: want ASCII text", c)
		}
	}
	p := &pyParser{s: string(raw)}
	fields, msg := p.dict()
	if msg != "" {
		return nil, msg
	}
	descr, ok := fields["descr"]
	if !ok || descr.kind != pyString {
		if ok && descr.kind == pyList {
			return nil, "structured arrays (a list of fields in 'descr') are not supported: want a plain numeric array"
		}
		return nil, "want key 'descr' with a type string such as '<f8'"
	}
	fo, ok := fields["fortran_order"]
	if !ok || fo.kind != pyBool {
		return nil, "want key 'fortran_order' with True or False"
	}
	sh, ok := fields["shape"]
	if !ok || sh.kind != pyTuple {
		return nil, "want key 'shape' with a tuple of sizes such as (3, 4)"
	}
	for k := range fields {
		if k != "descr" && k != "fortran_order" && k != "shape" {
			return nil, fmt.Sprintf("unknown key %q: want only 'descr', 'fortran_order' and 'shape'", k)
		}
	}
	h := &npyHeader{descr: descr.str, fortran: fo.b, shape: sh.ints}
	if msg := h.parseDescr(); msg != "" {
		return nil, msg
	}
	h.elems = 1
	for _, d := range h.shape {
		if d > math.MaxInt32 {
			return nil, fmt.Sprintf("shape %s: size %d exceeds %d", shapeString(h.shape), d, math.MaxInt32)
		}
		if d != 0 && h.elems > math.MaxInt64/d/8 {
			return nil, fmt.Sprintf("shape %s has too many elements", shapeString(h.shape))
		}
		h.elems *= d
	}
	if (h.kind == 'S' || h.kind == 'U') && len(h.shape) != 0 {
		return nil, fmt.Sprintf("string array %s of shape %s: only a scalar string is read", h.descr, shapeString(h.shape))
	}
	return h, ""
}

// parseDescr checks the type string: a byte order (<, >, | or =), a kind
// and a size in bytes.
func (h *npyHeader) parseDescr() string {
	d := h.descr
	if d == "" {
		return "empty 'descr'"
	}
	h.order = binary.LittleEndian
	switch d[0] {
	case '<', '|':
		d = d[1:]
	case '>':
		h.order = binary.BigEndian
		d = d[1:]
	case '=':
		d = d[1:]
	}
	if len(d) < 2 {
		return fmt.Sprintf("type %q: want a byte order, a kind and a size such as '<f8'", h.descr)
	}
	size, err := strconv.Atoi(d[1:])
	if err != nil || size <= 0 {
		return fmt.Sprintf("type %q: want a byte order, a kind and a size such as '<f8'", h.descr)
	}
	h.kind, h.size = d[0], size
	ok := false
	switch h.kind {
	case 'b':
		ok = size == 1
	case 'i', 'u':
		ok = size == 1 || size == 2 || size == 4 || size == 8
	case 'f':
		ok = size == 4 || size == 8
	case 'S':
		ok = size <= maxNPYHeader
	case 'U':
		ok = size <= maxNPYHeader
		h.size = 4 * size
	}
	if !ok {
		return fmt.Sprintf("element type %q is not supported: want bool, int8…int64, uint8…uint64, float32 or float64", h.descr)
	}
	// npyio writes the canonical header back with the order it understands.
	prefix := "<"
	if h.order == binary.BigEndian {
		prefix = ">"
	}
	if h.size == 1 || h.kind == 'S' {
		prefix = "|"
	}
	h.descr = prefix + d
	return ""
}

// pyValue is a Python literal of a .npy header dict.
type pyValue struct {
	kind pyKind
	str  string
	b    bool
	ints []int
}

type pyKind int

const (
	pyString pyKind = iota + 1
	pyBool
	pyTuple
	pyList
)

// pyParser reads the small subset of Python literals a .npy header uses.
type pyParser struct {
	s   string
	pos int
}

func (p *pyParser) space() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *pyParser) peek() byte {
	p.space()
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *pyParser) errf(format string, args ...any) string {
	return fmt.Sprintf("offset %d: ", p.pos) + fmt.Sprintf(format, args...)
}

func (p *pyParser) dict() (map[string]pyValue, string) {
	if p.peek() != '{' {
		return nil, p.errf("want '{' starting the header dict")
	}
	p.pos++
	out := make(map[string]pyValue)
	for {
		if p.peek() == '}' {
			p.pos++
			break
		}
		k, msg := p.value()
		if msg != "" {
			return nil, msg
		}
		if k.kind != pyString {
			return nil, p.errf("want a string key")
		}
		if p.peek() != ':' {
			return nil, p.errf("want ':' after key %q", k.str)
		}
		p.pos++
		v, msg := p.value()
		if msg != "" {
			return nil, msg
		}
		if _, dup := out[k.str]; dup {
			return nil, p.errf("key %q twice", k.str)
		}
		out[k.str] = v
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
		default:
			return nil, p.errf("want ',' or '}' after the value of %q", k.str)
		}
	}
	if p.peek() != 0 {
		return nil, p.errf("unexpected text after the dict")
	}
	return out, ""
}

func (p *pyParser) value() (pyValue, string) {
	switch c := p.peek(); {
	case c == '\'' || c == '"':
		p.pos++
		end := strings.IndexByte(p.s[p.pos:], c)
		if end < 0 {
			return pyValue{}, p.errf("unterminated string")
		}
		s := p.s[p.pos : p.pos+end]
		if strings.IndexByte(s, '\\') >= 0 {
			return pyValue{}, p.errf("escapes in strings are not supported")
		}
		p.pos += end + 1
		return pyValue{kind: pyString, str: s}, ""
	case strings.HasPrefix(p.s[p.pos:], "True"):
		p.pos += 4
		return pyValue{kind: pyBool, b: true}, ""
	case strings.HasPrefix(p.s[p.pos:], "False"):
		p.pos += 5
		return pyValue{kind: pyBool}, ""
	case c == '[':
		// A list of fields (a structured dtype): skipped, balanced, to be
		// refused by name.
		depth := 0
		for p.pos < len(p.s) {
			switch q := p.s[p.pos]; q {
			case '[', '(':
				depth++
			case ']', ')':
				depth--
			case '\'', '"':
				end := strings.IndexByte(p.s[p.pos+1:], q)
				if end < 0 {
					return pyValue{}, p.errf("unterminated string")
				}
				p.pos += end + 1
			}
			p.pos++
			if depth == 0 {
				return pyValue{kind: pyList}, ""
			}
		}
		return pyValue{}, p.errf("unterminated list")
	case c == '(':
		p.pos++
		v := pyValue{kind: pyTuple, ints: []int{}}
		for {
			if p.peek() == ')' {
				p.pos++
				return v, ""
			}
			if len(v.ints) >= 32 {
				return pyValue{}, p.errf("more than 32 dimensions (NumPy's limit)")
			}
			start := p.pos
			for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
				p.pos++
			}
			d, err := strconv.ParseInt(p.s[start:p.pos], 10, 64)
			if err != nil {
				return pyValue{}, p.errf("want a non-negative size in the shape, got %q", p.s[start:min(p.pos+1, len(p.s))])
			}
			if d > math.MaxInt32 {
				return pyValue{}, p.errf("shape size %d exceeds %d", d, math.MaxInt32)
			}
			v.ints = append(v.ints, int(d))
			switch p.peek() {
			case ',':
				p.pos++
			case ')':
			default:
				return pyValue{}, p.errf("want ',' or ')' in the shape")
			}
		}
	}
	return pyValue{}, p.errf("want a string, True, False or a tuple")
}

// readNPYFile decodes the .npy file at path.
func readNPYFile(path string) (*npyArray, error) { return readNPYFileLimit(path, 0) }

// readNPYFileLimit decodes the .npy file at path, refusing an array whose
// decoded elements pass limit bytes (0: no limit).
func readNPYFileLimit(path string, limit int64) (*npyArray, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, &ParseError{Path: path, Msg: "not a regular file (a pipe or a device): a .npy array is read from a file of known size"}
	}
	return decodeNPYLimit(f, st.Size(), path, "", limit)
}

// matrix returns a ≥2-D array as a rows × (product of the other sizes)
// matrix with finite values.
func (a *npyArray) matrix(path, entry string) (*mat.Dense, error) {
	if err := a.numeric(path, entry); err != nil {
		return nil, err
	}
	if len(a.shape) < 2 {
		return nil, npyError(path, entry, "a %d-D array of shape %s: a matrix needs 2 dimensions (rows × columns)", len(a.shape), shapeString(a.shape))
	}
	rows, cols := a.shape[0], 1
	for _, d := range a.shape[1:] {
		cols *= d
	}
	if rows == 0 || cols == 0 {
		return nil, npyError(path, entry, "array of shape %s has no elements", shapeString(a.shape))
	}
	data := a.floatValues()
	for k, v := range data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, npyError(path, entry, "element [%d, %d] = %v is not finite", k/cols, k%cols, v)
		}
	}
	return mat.NewDense(rows, cols, data), nil
}

// numeric reports a string array as an error.
func (a *npyArray) numeric(path, entry string) error {
	if a.kind == 'S' || a.kind == 'U' {
		return npyError(path, entry, "a string (%s), want a numeric array", a.dtype)
	}
	return nil
}

// floatValues returns the elements as float64 (integers above 2⁵³ round).
func (a *npyArray) floatValues() []float64 {
	if a.floats != nil {
		return a.floats
	}
	return convert(a.ints, func(x int64) float64 { return float64(x) })
}

// vectorShape checks that a is 1-D, or 2-D with one column, and not empty.
func (a *npyArray) vectorShape(path, entry string) error {
	if err := a.numeric(path, entry); err != nil {
		return err
	}
	if len(a.shape) != 1 && (len(a.shape) != 2 || a.shape[1] != 1) {
		return npyError(path, entry, "array of shape %s: want a 1-D array (one value per node)", shapeString(a.shape))
	}
	if a.len() == 0 {
		return npyError(path, entry, "empty array")
	}
	return nil
}

// vector returns a 1-D array as float64 values; NaN (unknown) is kept,
// ±Inf is an error.
func (a *npyArray) vector(path, entry string) ([]float64, error) {
	if err := a.vectorShape(path, entry); err != nil {
		return nil, err
	}
	out := a.floatValues()
	for k, v := range out {
		if math.IsInf(v, 0) {
			return nil, npyError(path, entry, "element %d = %v is not finite", k, v)
		}
	}
	return out, nil
}

// labels returns a 1-D array as int labels in the int32 range; a NaN in a
// floating-point array (pandas' missing value) is −1, unlabelled.
func (a *npyArray) labels(path, entry string) ([]int, error) {
	if err := a.vectorShape(path, entry); err != nil {
		return nil, err
	}
	out := make([]int, a.len())
	if a.floats != nil {
		for k, v := range a.floats {
			switch {
			case math.IsNaN(v):
				out[k] = -1
			case v != math.Trunc(v) || v < math.MinInt32 || v > math.MaxInt32:
				return nil, npyError(path, entry, "element %d = %v is not an integer label in [%d, %d]", k, v, math.MinInt32, math.MaxInt32)
			default:
				out[k] = int(v)
			}
		}
		return out, nil
	}
	for k, v := range a.ints {
		if v < math.MinInt32 || v > math.MaxInt32 {
			return nil, npyError(path, entry, "element %d = %d is out of the label range [%d, %d]", k, v, math.MinInt32, math.MaxInt32)
		}
		out[k] = int(v)
	}
	return out, nil
}

// ReadNPY reads a .npy file holding a numeric array of two or more
// dimensions as a dense matrix: one row per index of the first dimension,
// the other dimensions flattened in C order into the columns (an (n, 28, 28)
// image array gives n rows of 784). Integer and bool elements are converted
// to float64; every value must be finite.
func ReadNPY(path string) (*mat.Dense, error) {
	a, err := readNPYFile(path)
	if err != nil {
		return nil, err
	}
	return a.matrix(path, "")
}

// ReadNPYVector reads a .npy file holding a 1-D numeric array (or an (n, 1)
// column), such as regression targets, as float64 values. NaN is kept (it
// marks an unknown target); ±Inf is an error.
func ReadNPYVector(path string) ([]float64, error) {
	a, err := readNPYFile(path)
	if err != nil {
		return nil, err
	}
	return a.vector(path, "")
}

// ReadNPYLabels reads a .npy file holding a 1-D array of integer class
// labels (any integer or bool type, or a floating-point array of whole
// numbers) in the int32 range. A NaN, as pandas writes a missing value, is
// read as −1, unlabelled.
func ReadNPYLabels(path string) ([]int, error) {
	a, err := readNPYFile(path)
	if err != nil {
		return nil, err
	}
	return a.labels(path, "")
}

// npzFile is an open .npz archive.
type npzFile struct {
	path string
	f    *os.File
	zr   *zip.Reader
	size int64
	// limit bounds the decoded bytes of one array (0: the declared sizes
	// alone bound them).
	limit int64
}

// deflateMaxRatio bounds how far deflate can expand its input (its longest
// match, 258 bytes, costs at least two bits: about 1032:1). A zip member
// declaring more than this times its compressed size is corrupt or hostile.
const deflateMaxRatio = 1032

func openNPZ(path string) (*npzFile, error) { return openNPZLimit(path, 0) }

// openNPZLimit opens a .npz archive whose arrays may take at most limit
// bytes each once decoded (0: no limit beyond their declared sizes).
func openNPZLimit(path string, limit int64) (*npzFile, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("loaders: %w", err)
	}
	z, err := newNPZ(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	z.f, z.limit = f, limit
	return z, nil
}

func newNPZ(r io.ReaderAt, size int64, path string) (*npzFile, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, &ParseError{Path: path, Msg: "reading the zip archive of a .npz file", Err: err}
	}
	return &npzFile{path: path, zr: zr, size: size}, nil
}

func (z *npzFile) close() {
	if z.f != nil {
		z.f.Close()
	}
}

// names returns the array names (member names without ".npy"), in archive
// order.
func (z *npzFile) names() []string {
	out := make([]string, 0, len(z.zr.File))
	for _, f := range z.zr.File {
		out = append(out, strings.TrimSuffix(f.Name, ".npy"))
	}
	return out
}

// member returns the member holding array name ("x" or "x.npy"), nil when
// there is none.
func (z *npzFile) member(name string) *zip.File {
	for _, f := range z.zr.File {
		if f.Name == name || f.Name == name+".npy" {
			return f
		}
	}
	return nil
}

// has reports whether the archive holds array name.
func (z *npzFile) has(name string) bool { return z.member(name) != nil }

// array decodes array name. An empty name picks the only array of the
// archive.
func (z *npzFile) array(name string) (*npyArray, error) {
	names := z.names()
	if name == "" {
		if len(names) != 1 {
			return nil, &ParseError{Path: z.path, Msg: fmt.Sprintf("%d arrays (%s): name the one to read", len(names), strings.Join(names, ", "))}
		}
		name = names[0]
	}
	f := z.member(name)
	if f == nil {
		return nil, &ParseError{Path: z.path, Msg: fmt.Sprintf("no array %q: the archive holds %s", name, strings.Join(names, ", "))}
	}
	entry := f.Name
	declared := f.UncompressedSize64
	switch f.Method {
	case zip.Store:
		if declared != f.CompressedSize64 {
			return nil, npyError(z.path, entry, "stored member declares %d bytes but holds %d", declared, f.CompressedSize64)
		}
	case zip.Deflate:
		if declared/deflateMaxRatio > f.CompressedSize64+1 {
			return nil, npyError(z.path, entry, "declares %d bytes from %d compressed bytes, more than deflate can produce", declared, f.CompressedSize64)
		}
	default:
		return nil, npyError(z.path, entry, "compression method %d is not supported: want stored or deflate", f.Method)
	}
	if f.CompressedSize64 > uint64(z.size) {
		return nil, npyError(z.path, entry, "compressed size %d exceeds the %d bytes of the archive", f.CompressedSize64, z.size)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, npyWrap(z.path, entry, err, "opening")
	}
	defer rc.Close()
	// The member is decoded as it inflates, never held whole: the header's
	// shape must account for exactly the declared bytes and pass the
	// limit before the elements are allocated, so memory follows the
	// declared shape and the limit, and a member that inflates to more or
	// fewer bytes than it declares (or fails its CRC) is an error.
	arr, err := decodeNPYLimit(io.LimitReader(rc, int64(declared)), int64(declared), z.path, entry, z.limit)
	if err != nil {
		return nil, err
	}
	var one [1]byte
	switch n, err := io.ReadFull(rc, one[:]); {
	case n > 0:
		return nil, npyError(z.path, entry, "inflates to more than the %d bytes it declares", declared)
	case err != io.EOF:
		return nil, npyWrap(z.path, entry, err, "inflating")
	}
	return arr, nil
}

// readNPZArray opens path and decodes one array.
func readNPZArray(path, name string) (*npyArray, string, error) {
	z, err := openNPZ(path)
	if err != nil {
		return nil, "", err
	}
	defer z.close()
	a, err := z.array(name)
	if err != nil {
		return nil, "", err
	}
	if name == "" {
		name = z.names()[0]
	}
	entry := name
	if m := z.member(name); m != nil {
		entry = m.Name
	}
	return a, entry, nil
}

// NPZNames lists the arrays of a .npz file (numpy.savez names them "arr_0",
// "arr_1", … unless given keywords), in archive order.
func NPZNames(path string) ([]string, error) {
	z, err := openNPZ(path)
	if err != nil {
		return nil, err
	}
	defer z.close()
	return slices.Clone(z.names()), nil
}

// ReadNPZ reads array name of a .npz file (name "" when it holds only one)
// as a dense matrix, as ReadNPY does.
func ReadNPZ(path, name string) (*mat.Dense, error) {
	a, entry, err := readNPZArray(path, name)
	if err != nil {
		return nil, err
	}
	return a.matrix(path, entry)
}

// ReadNPZVector reads array name of a .npz file as a vector, as
// ReadNPYVector does.
func ReadNPZVector(path, name string) ([]float64, error) {
	a, entry, err := readNPZArray(path, name)
	if err != nil {
		return nil, err
	}
	return a.vector(path, entry)
}

// ReadNPZLabels reads array name of a .npz file as labels, as
// ReadNPYLabels does.
func ReadNPZLabels(path, name string) ([]int, error) {
	a, entry, err := readNPZArray(path, name)
	if err != nil {
		return nil, err
	}
	return a.labels(path, entry)
}
