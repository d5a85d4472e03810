package loaders

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/modelfile"
)

// ParseError reports input that does not follow its format. Path is the file
// as the caller named it, Line the 1-based line of the problem (0 when it
// concerns the whole file, such as a missing line or a count mismatch) and Msg
// what was expected. Err holds an underlying read or decompression error, if
// any.
type ParseError struct {
	Path string
	Line int
	Msg  string
	Err  error
}

// Error formats the error as "loaders: path:line: message"; a Path of "-"
// is shown as "standard input".
func (e *ParseError) Error() string {
	loc := inputfile.Display(e.Path)
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	msg := e.Msg
	switch {
	case e.Err != nil && msg == "":
		msg = e.Err.Error()
	case e.Err != nil:
		msg += ": " + e.Err.Error()
	}
	return "loaders: " + loc + ": " + msg
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// maxLine bounds the length of one text line (a sparse feature row of a large
// vocabulary can be long; anything beyond this is not one of our formats).
const maxLine = 256 << 20

// gzipMagic are the first two bytes of every gzip member (RFC 1952 §2.3.1).
var gzipMagic = [2]byte{0x1f, 0x8b}

// decompress returns the content of r, gunzipped when it starts with the gzip
// magic bytes. A file with no content (after decompression) is an error.
func decompress(r io.Reader, path string) (*bufio.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, err := br.Peek(2); err == nil && magic[0] == gzipMagic[0] && magic[1] == gzipMagic[1] {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &ParseError{Path: path, Msg: "reading gzip header", Err: err}
		}
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	if _, err := br.Peek(1); err != nil {
		if err == io.EOF {
			return nil, &ParseError{Path: path, Msg: "empty file"}
		}
		return nil, &ParseError{Path: path, Err: err}
	}
	return br, nil
}

// lineReader walks the lines of a (possibly gzipped) text file, counting
// them from 1 for error messages.
type lineReader struct {
	path     string
	sc       *bufio.Scanner // yields blocks of whole lines (lineSplitter)
	splitter *lineSplitter
	line     int
	text     string
	broken   bool // the current line is the partial one before a read error
	// rest is what remains of the scanner's current block, and restBroken
	// whether the block came after a read error.
	rest       []byte
	restBroken bool
	closer     io.Closer
	// size is the byte size of the file read, when it is a regular file
	// (0 otherwise): a hint for the capacity of what is decoded from it,
	// never a bound (a gzipped file holds more).
	size int64
	// transient: text aliases the scanner's buffer (valid until the next
	// line, no allocation per line), for decoders that keep no part of a
	// line.
	transient bool
}

// newLineReader reads lines from r; path names it in errors. A file that
// is not text (a NUL byte in its first bytes, or the magic number of a gssl
// graph or model file or of a NumPy array) is refused naming what it is, a
// file whose lines end in CR alone (classic Mac OS) is read with its CRs as
// line ends, and a file of unknown length (a pipe, a device) is read up to
// streamCap bytes.
func newLineReader(r io.Reader, path string) (*lineReader, error) {
	lr := &lineReader{path: path}
	regular := false
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			lr.size, regular = st.Size(), true
		}
	}
	if _, isFile := r.(*os.File); isFile && !regular {
		r = &cappedReader{r: r, left: streamCap, path: path}
	}
	br, err := decompress(r, path)
	if err != nil {
		return nil, err
	}
	head, _ := br.Peek(sniffBytes)
	if err := notText(head, path); err != nil {
		return nil, err
	}
	var src io.Reader = br
	if crOnly(head) {
		src = crReader{br}
	}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	lr.splitter = &lineSplitter{}
	sc.Split(lr.splitter.split)
	lr.sc = sc
	return lr, nil
}

// sniffBytes is how much of a text file's start is looked at to tell
// binary content and CR-only line ends.
const sniffBytes = 4096

// streamCap bounds what is read from a file of unknown length (a named
// pipe, a character device such as /dev/zero): such a file cannot be read
// twice, so its rows are held, and an endless one must end in an error,
// not in exhausted memory. Save larger inputs to a regular file.
var streamCap int64 = 256 << 20

// cappedReader reads at most left bytes of a file of unknown length, then
// fails naming the cap.
type cappedReader struct {
	r    io.Reader
	left int64
	path string
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, fmt.Errorf("more than %d bytes from %s, which is not a regular file (a pipe or a device, of unknown length): save the data to a file", streamCap, c.path)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// notText refuses content that is not a text table, naming what it is
// when its magic number says so.
func notText(head []byte, path string) error {
	switch {
	case len(head) == 0:
		return nil
	case bytes.HasPrefix(head, []byte(graphfile.Magic)):
		return &ParseError{Path: path, Msg: "this is a gssl graph file (.gsg), not a text table: give it as the graph (--edges), which reads it directly"}
	case bytes.HasPrefix(head, []byte(modelfile.Magic)):
		return &ParseError{Path: path, Msg: "this is a gssl model file (.gssl), not a text table: give it to gssl predict or gssl serve (--model)"}
	case bytes.HasPrefix(head, npyMagic):
		return &ParseError{Path: path, Msg: "this is a NumPy .npy array, not a text table"}
	case bytes.HasPrefix(head, zipMagic):
		return &ParseError{Path: path, Msg: "this is a zip archive (such as a NumPy .npz), not a text table"}
	}
	if k := bytes.IndexByte(head, 0); k >= 0 {
		return &ParseError{Path: path, Line: 1 + bytes.Count(head[:k], []byte{'\n'}), Msg: fmt.Sprintf("binary data (a NUL byte at byte %d), not a text table", k)}
	}
	return nil
}

// crOnly reports whether the start of a file ends its lines with CR alone:
// no LF in it, and a CR before its last byte (a CRLF file whose first line
// fills head may end it with the CR of its first CRLF).
func crOnly(head []byte) bool {
	k := bytes.IndexByte(head, '\r')
	return bytes.IndexByte(head, '\n') < 0 && k >= 0 && k < len(head)-1
}

// crReader turns every CR into LF, for files whose lines end in CR alone.
type crReader struct{ r io.Reader }

func (c crReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}

// openLines opens path for reading lines.
func openLines(path string) (*lineReader, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	lr, err := newLineReader(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	lr.closer = f
	return lr, nil
}

func (r *lineReader) close() {
	if r.closer != nil {
		r.closer.Close()
	}
}

// next advances to the next line; it returns false at the end of the input
// or on a read error (see err). The lines are those of bufio.ScanLines (a
// final line without a newline counts, a '\r' before the newline is
// dropped), cut here from the scanner's blocks: a token per line cost more
// than the parse of a short line.
func (r *lineReader) next() bool {
	if len(r.rest) == 0 {
		if !r.sc.Scan() {
			return false
		}
		r.rest = r.sc.Bytes()
		// A block delivered after a read error ends in the broken last line;
		// as with a token per line, each of its lines is marked.
		r.restBroken = r.sc.Err() != nil
	}
	b := r.rest
	if k := bytes.IndexByte(b, '\n'); k >= 0 {
		b, r.rest = b[:k], b[k+1:]
	} else {
		r.rest = nil
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	r.line++
	if r.transient {
		r.text = unsafe.String(unsafe.SliceData(b), len(b))
	} else {
		r.text = string(b)
	}
	r.broken = r.restBroken
	return true
}

// lineSplitter's split is a bufio.SplitFunc that returns the buffered
// data up to its last newline, or all of it at the end of the input: a
// block of whole lines for lineReader.next to cut. It remembers how much of
// the buffer it has searched without finding a newline, so that a long line
// arriving in many small reads (a gzip stream hands over 32 KiB at a time)
// is searched once, not once per read: linear, not quadratic, in its length.
type lineSplitter struct {
	searched int   // data[:searched] holds no newline
	scanned  int64 // bytes searched in all, for the tests
}

func (s *lineSplitter) split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	from := min(s.searched, len(data))
	s.scanned += int64(len(data) - from)
	if i := bytes.LastIndexByte(data[from:], '\n'); i >= 0 {
		s.searched = 0
		return from + i + 1, data[:from+i+1], nil
	}
	if atEOF && len(data) > 0 {
		s.searched = 0
		return len(data), data, nil
	}
	s.searched = len(data)
	return 0, nil, nil
}

// err returns the read error that stopped next, if any, as a ParseError
// naming the line being read. A truncated gzip stream ends here.
func (r *lineReader) err() error {
	err := r.sc.Err()
	if err == nil {
		return nil
	}
	line := r.line + 1
	if r.broken {
		line = r.line
	}
	switch {
	case errors.Is(err, bufio.ErrTooLong):
		return &ParseError{Path: r.path, Line: line, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &ParseError{Path: r.path, Line: line, Msg: "truncated input", Err: err}
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum):
		return &ParseError{Path: r.path, Line: line, Msg: "corrupt or truncated gzip stream", Err: err}
	}
	return &ParseError{Path: r.path, Line: line, Err: err}
}

// errorf returns a ParseError at the current line, or the read error when
// the input broke off there: a truncated gzip stream hands over its partial
// last line before it reports the truncation, and that line's parse error
// would hide the real cause.
func (r *lineReader) errorf(format string, args ...any) error {
	if err := r.err(); err != nil {
		return err
	}
	return &ParseError{Path: r.path, Line: r.line, Msg: fmt.Sprintf(format, args...)}
}

// fileErrorf returns a ParseError about the whole file.
func (r *lineReader) fileErrorf(format string, args ...any) error {
	return &ParseError{Path: r.path, Msg: fmt.Sprintf(format, args...)}
}

// decodeLines reads one value per line, parsed by parse: lines starting
// with comments are skipped (none when comments is ""), blank lines may
// only end the file, and a file without values is an error saying none.
// capHint sizes the result.
func decodeLines[T any](lr *lineReader, comments string, capHint int, none string, parse func(s string) (T, error)) ([]T, error) {
	out := make([]T, 0, capHint)
	err := lr.eachLine(comments, blankTrailing, func(s string) error {
		v, err := parse(s)
		if err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, lr.fileErrorf("%s", none)
	}
	return out, nil
}

// readFile opens path and hands its lines to parse.
func readFile[T any](path string, parse func(*lineReader) (T, error)) (T, error) {
	lr, err := openLines(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer lr.close()
	return parse(lr)
}

// blankLineMsg is the error of a blank line followed by more data in a
// format whose line i describes item i.
const blankLineMsg = "blank line before more data: line i of this file describes item i, so a blank line would shift the rest"

// blankRule says what a blank line means in a format.
type blankRule int

const (
	// blankSkip ignores blank lines anywhere (formats whose lines carry no
	// position: edge lists, splits, Matrix Market, point clouds).
	blankSkip blankRule = iota
	// blankTrailing allows blank lines only at the end of the file: in
	// formats where line i describes item i, a blank line in the middle
	// would silently shift every later item.
	blankTrailing
)

// eachLine calls fn with the trimmed text of every data line, skipping lines
// whose first non-space character is in comments, then reports read errors.
// An error returned by fn that is not a ParseError is placed at the line.
func (r *lineReader) eachLine(comments string, blank blankRule, fn func(s string) error) error {
	blankAt := 0
	for r.next() {
		s := strings.TrimSpace(r.text)
		if s == "" {
			if blank == blankTrailing && blankAt == 0 {
				blankAt = r.line
			}
			continue
		}
		if strings.IndexByte(comments, s[0]) >= 0 {
			continue
		}
		if blankAt != 0 {
			return &ParseError{Path: r.path, Line: blankAt, Msg: blankLineMsg}
		}
		if err := fn(s); err != nil {
			if rerr := r.err(); rerr != nil {
				return rerr // see errorf
			}
			var pe *ParseError
			if errors.As(err, &pe) {
				return err
			}
			return &ParseError{Path: r.path, Line: r.line, Msg: err.Error()}
		}
	}
	return r.err()
}

// splitFields splits a data line on commas when it holds any, else on runs of
// white space, trimming each field. Empty comma-separated fields are kept so
// that the caller reports them.
func splitFields(s string) []string {
	if strings.IndexByte(s, ',') < 0 {
		return strings.Fields(s)
	}
	f := strings.Split(s, ",")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}

// parseIndex parses a non-negative integer id (base 10) that fits in int32,
// what names it ("node id", "column"). It returns a message on failure.
func parseIndex(s, what string) (int, error) {
	if v, ok := smallDecimal(s); ok {
		return v, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%s %s is too large", what, s)
	case err != nil:
		return 0, fmt.Errorf("%s %q is not an integer", what, s)
	case v < 0:
		return 0, fmt.Errorf("%s %d is negative", what, v)
	case v >= math.MaxInt32:
		return 0, fmt.Errorf("%s %d is too large (at most %d)", what, v, math.MaxInt32-1)
	}
	return int(v), nil
}

// smallDecimal parses s when it is 1 to 9 ASCII digits, as strconv.ParseInt
// would (leading zeros included), without its generality: most ids and
// labels in a file are such.
func smallDecimal(s string) (int, bool) {
	if len(s) == 0 || len(s) > 9 {
		return 0, false
	}
	v := 0
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + int(d)
	}
	return v, true
}

// parseInt parses a base-10 integer value (labels, classes).
func parseInt(s, what string) (int, error) {
	if v, ok := smallDecimal(s); ok {
		return v, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%s %s is out of range", what, s)
	case err != nil:
		return 0, fmt.Errorf("%s %q is not an integer", what, s)
	case v < math.MinInt32 || v > math.MaxInt32:
		return 0, fmt.Errorf("%s %d is out of range [%d, %d]", what, v, math.MinInt32, math.MaxInt32)
	}
	return int(v), nil
}

// parseFinite parses a finite float64.
func parseFinite(s, what string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s %q is not a number", what, s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s %s is not finite", what, s)
	}
	if v == 0 && nonzeroMantissa(s) {
		// 1e-400 parses as 0 without an error: a value the file says is
		// non-zero would silently become 0 (an edge weight would vanish
		// from the degrees).
		return 0, fmt.Errorf("%s %s is not representable as a float64: it underflows to 0 (the smallest positive value is %g); write 0 for a zero", what, s, math.SmallestNonzeroFloat64)
	}
	return v, nil
}

// nonzeroMantissa reports whether the number s (already accepted by
// strconv.ParseFloat) has a non-zero digit before its exponent.
func nonzeroMantissa(s string) bool {
	s = strings.TrimLeft(s, "+-")
	hex := len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
	if hex {
		s = s[2:]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '1' && c <= '9':
			return true
		case hex && (c == 'p' || c == 'P'):
			return false
		case hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')):
			return true
		case !hex && (c == 'e' || c == 'E'):
			return false
		}
	}
	return false
}

// parseWeight parses an edge weight: finite and non-negative.
func parseWeight(s string) (float64, error) {
	w, err := parseFinite(s, "weight")
	if err != nil {
		return 0, err
	}
	if w < 0 {
		return 0, fmt.Errorf("weight %s is negative; weights must be ≥ 0", s)
	}
	return w, nil
}
