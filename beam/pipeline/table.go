package pipeline

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/gssl/gssl/loaders"
)

// The table rules below are those of the core's loaders (ReadEdgeTable and
// the "id,label" reader), which are unexported there: the same delimiter
// detection, header recognition, quoting, column names and messages, and
// errors of the same type (*loaders.ParseError, "loaders: path:line: …"), so
// that a file is accepted or refused alike by gssl and gssl-beam. The
// reader runs inside a DoFn, one file per call, so that every error can
// name its line.

// maxLine bounds the length of one text line, as in the core.
const maxLine = 256 << 20

// lineReader walks the lines of a (possibly gzipped) text stream, counting
// them from 1 for error messages.
type lineReader struct {
	path   string
	sc     *bufio.Scanner
	line   int
	text   string
	broken bool // the current line is the partial one before a read error
}

func newLineReader(r io.Reader, path string) (*lineReader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &loaders.ParseError{Path: path, Msg: "reading gzip header", Err: err}
		}
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	if _, err := br.Peek(1); err != nil {
		if err == io.EOF {
			return nil, &loaders.ParseError{Path: path, Msg: "empty file"}
		}
		return nil, &loaders.ParseError{Path: path, Err: err}
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &lineReader{path: path, sc: sc}, nil
}

func (r *lineReader) next() bool {
	if !r.sc.Scan() {
		return false
	}
	r.line++
	r.text = r.sc.Text()
	// A token delivered after a read error is the broken last line.
	r.broken = r.sc.Err() != nil
	return true
}

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
		return &loaders.ParseError{Path: r.path, Line: line, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &loaders.ParseError{Path: r.path, Line: line, Msg: "truncated input", Err: err}
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, gzip.ErrChecksum):
		return &loaders.ParseError{Path: r.path, Line: line, Msg: "corrupt or truncated gzip stream", Err: err}
	}
	return &loaders.ParseError{Path: r.path, Line: line, Err: err}
}

// errorf returns a ParseError at the current line, or the read error when
// the input broke off there (a truncated gzip stream hands over its partial
// last line before it reports the truncation).
func (r *lineReader) errorf(format string, args ...any) error {
	if err := r.err(); err != nil {
		return err
	}
	return &loaders.ParseError{Path: r.path, Line: r.line, Msg: fmt.Sprintf(format, args...)}
}

func (r *lineReader) fileErrorf(format string, args ...any) error {
	return &loaders.ParseError{Path: r.path, Msg: fmt.Sprintf(format, args...)}
}

// headerNames are the column names recognised as a header line.
var headerNames = map[string]bool{
	"": true, "unnamed: 0": true, "index": true,
	"source": true, "target": true, "src": true, "dst": true, "from": true, "to": true,
	"u": true, "v": true, "i": true, "j": true, "row": true, "col": true, "column": true,
	"head": true, "tail": true, "node1": true, "node2": true, "node_1": true, "node_2": true,
	"source_id": true, "target_id": true, "src_id": true, "dst_id": true, "from_id": true, "to_id": true,
	"weight": true, "weights": true, "w": true, "value": true, "values": true,
	"id": true, "node": true, "node_id": true, "nodeid": true, "name": true, "key": true,
	"label": true, "labels": true, "class": true, "y": true, "category": true,
	"x": true,
}

// table reads the rows of a delimited text file.
type table struct {
	lr       *lineReader
	opt      loaders.TableOptions
	comments string
	delim    byte
	header   []string
	started  bool
	pending  []string
	pendLine int
	blanks   []int // blank lines after the first data line (at most a few kept)
}

func newTable(lr *lineReader, opt loaders.TableOptions, comments string) *table {
	return &table{lr: lr, opt: opt, comments: comments, delim: opt.Delimiter}
}

func (t *table) nextData() (string, bool) {
	for t.lr.next() {
		s := t.lr.text
		if t.lr.line == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		s = strings.TrimSpace(s)
		if s == "" {
			if t.started && len(t.blanks) < 16 {
				t.blanks = append(t.blanks, t.lr.line)
			}
			continue
		}
		if strings.IndexByte(t.comments, s[0]) >= 0 {
			continue
		}
		return s, true
	}
	return "", false
}

func detectDelimiter(s string) byte {
	if i := strings.IndexByte(s, '{'); i >= 0 {
		s = s[:i]
	}
	for _, d := range []byte{'\t', ',', ';', '|'} {
		if strings.IndexByte(s, d) >= 0 {
			return d
		}
	}
	return ' '
}

func (t *table) split(s string) ([]string, error) {
	if t.delim == ' ' {
		var f []string
		for len(s) > 0 {
			s = strings.TrimLeft(s, " \t")
			if s == "" {
				break
			}
			if s[0] == '{' {
				f = append(f, s)
				break
			}
			if s[0] == '"' {
				v, rest, err := unquote(s)
				if err != nil {
					return nil, err
				}
				f = append(f, v)
				s = rest
				continue
			}
			k := strings.IndexAny(s, " \t")
			if k < 0 {
				k = len(s)
			}
			f = append(f, s[:k])
			s = s[k:]
		}
		return f, nil
	}
	var f []string
	for {
		s = strings.TrimLeft(s, " ")
		if len(s) > 0 && s[0] == '"' {
			v, rest, err := unquote(s)
			if err != nil {
				return nil, err
			}
			rest = strings.TrimLeft(rest, " ")
			if rest != "" && rest[0] != t.delim {
				return nil, fmt.Errorf("text after a closing quote: %q", rest)
			}
			f = append(f, v)
			if rest == "" {
				return f, nil
			}
			s = rest[1:]
			continue
		}
		if t.delim == ',' && len(s) > 0 && s[0] == '{' {
			return append(f, strings.TrimSpace(s)), nil
		}
		k := strings.IndexByte(s, t.delim)
		if k < 0 {
			return append(f, strings.TrimSpace(s)), nil
		}
		f = append(f, strings.TrimSpace(s[:k]))
		s = s[k+1:]
	}
}

func unquote(s string) (string, string, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '"' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '"' {
			b.WriteByte('"')
			i++
			continue
		}
		return b.String(), s[i+1:], nil
	}
	return "", "", fmt.Errorf("unclosed quote in %q", s)
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || strings.Contains(err.Error(), "range")
}

func looksLikeHeader(f []string) bool {
	for _, x := range f {
		if !headerNames[strings.ToLower(x)] {
			return false
		}
	}
	return true
}

func textAboveNumbers(a, b []string) bool {
	found := false
	for k := range a {
		if isNumber(a[k]) {
			return false
		}
		if isNumber(b[k]) {
			found = true
		}
	}
	return found
}

// row returns the fields of the next data row and its line.
func (t *table) row() (f []string, line int, ok bool, err error) {
	if t.pending != nil {
		f, line = t.pending, t.pendLine
		t.pending = nil
		return f, line, true, nil
	}
	s, ok := t.nextData()
	if !ok {
		return nil, 0, false, t.lr.err()
	}
	if t.delim == 0 {
		t.delim = detectDelimiter(s)
	}
	if f, err = t.split(s); err != nil {
		return nil, t.lr.line, false, t.lr.errorf("%v", err)
	}
	if t.started {
		return f, t.lr.line, true, nil
	}
	t.started = true
	switch t.opt.Header {
	case loaders.HeaderYes:
		t.header = f
		return t.row()
	case loaders.HeaderNo:
		return f, t.lr.line, true, nil
	}
	if looksLikeHeader(f) {
		t.header = f
		return t.row()
	}
	first, firstLine := f, t.lr.line
	s2, ok := t.nextData()
	if !ok {
		if err := t.lr.err(); err != nil {
			return nil, 0, false, err
		}
		return first, firstLine, true, nil
	}
	f2, err := t.split(s2)
	if err != nil {
		return nil, t.lr.line, false, t.lr.errorf("%v", err)
	}
	if len(f2) == len(first) && textAboveNumbers(first, f2) {
		t.header = first
		return f2, t.lr.line, true, nil
	}
	t.pending, t.pendLine = f2, t.lr.line
	return first, firstLine, true, nil
}

func (t *table) column(spec, flag string) (int, error) {
	if spec == "" {
		return -1, nil
	}
	if k, err := strconv.Atoi(spec); err == nil {
		if k < 1 {
			return 0, t.lr.fileErrorf("%s column %d is invalid: positions start at 1", flag, k)
		}
		return k - 1, nil
	}
	for k, name := range t.header {
		if strings.EqualFold(name, spec) {
			return k, nil
		}
	}
	if t.header == nil {
		return 0, t.lr.fileErrorf("%s column %q: the file has no header line to find it by name (give a position, or --header yes)", flag, spec)
	}
	return 0, t.lr.fileErrorf("%s column %q is not in the header %q", flag, spec, strings.Join(t.header, string(t.delim)))
}

func (t *table) headerIndex(names ...string) int {
	for k, h := range t.header {
		for _, n := range names {
			if strings.EqualFold(h, n) {
				return k
			}
		}
	}
	return -1
}

var (
	sourceNames = []string{"source", "src", "from", "u", "i", "row", "head", "node1", "node_1", "source_id", "src_id", "from_id"}
	targetNames = []string{"target", "dst", "to", "v", "j", "col", "column", "tail", "node2", "node_2", "target_id", "dst_id", "to_id"}
	weightNames = []string{"weight", "weights", "w", "value", "values"}
	idNames     = []string{"id", "node", "node_id", "nodeid", "name", "key", "index", "paper", "user"}
	labelNames  = []string{"label", "labels", "class", "y", "category", "target"}
)

// EdgeOptions say how an edge table is read: the core's
// loaders.EdgeTableOptions.
type EdgeOptions = loaders.EdgeTableOptions

// decodeEdges reads the edge table of lr, calling emit for every edge with
// its line.
func decodeEdges(lr *lineReader, opt EdgeOptions, emit func(src, dst string, w float64, line int)) error {
	t := newTable(lr, opt.Table, "#%")
	var (
		src, dst, wcol = -1, -1, -1
		dict           bool
		width          int
		widthLine      int
		edges          int
	)
	noWeight := strings.EqualFold(opt.Weight, "none")
	for {
		f, line, ok, err := t.row()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if width == 0 {
			width, widthLine = len(f), line
			if t.header != nil && len(t.header) != width {
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("row has %d fields but the header names %d columns (%q)", width, len(t.header), strings.Join(t.header, string(t.delim)))}
			}
			if src, dst, wcol, dict, err = edgeColumns(t, opt, f, noWeight); err != nil {
				return err
			}
			for _, c := range []int{src, dst, wcol} {
				if c >= width {
					return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("column %d is named but the rows have %d fields", c+1, width)}
				}
			}
		} else if len(f) != width {
			// networkx's write_edgelist(data=["weight"]) writes the weight
			// only for the edges that have one: without a header, rows of
			// "u v" and "u v w" may mix, a missing weight being 1.
			mixed := t.header == nil && opt.Weight == "" && !noWeight && src < 2 && dst < 2 && min(width, len(f)) == 2 && max(width, len(f)) == 3
			if !mixed {
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("want %d fields like line %d, got %d", width, widthLine, len(f))}
			}
			if wcol < 0 {
				wcol = 2
				dict = strings.HasPrefix(f[2], "{")
			}
		}
		for _, c := range [2]int{src, dst} {
			if f[c] == "" {
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("empty node id in column %d", c+1)}
			}
		}
		w := 1.0
		if wcol >= 0 {
			switch {
			case wcol >= len(f): // a "u v" row among "u v w" rows: weight 1
			case dict:
				w, err = dictWeight(f[wcol])
			default:
				w, err = parseWeight(f[wcol])
			}
			if err != nil {
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: err.Error()}
			}
		}
		emit(f[src], f[dst], w, line)
		edges++
	}
	if edges == 0 {
		return lr.fileErrorf("no edges: the file has no data lines")
	}
	return nil
}

func edgeColumns(t *table, opt EdgeOptions, f []string, noWeight bool) (src, dst, w int, dict bool, err error) {
	first := 0
	if len(t.header) > 0 && (t.header[0] == "" || strings.EqualFold(t.header[0], "unnamed: 0")) {
		first = 1
	}
	if src, err = t.column(opt.Source, "source"); err != nil {
		return
	}
	if dst, err = t.column(opt.Target, "target"); err != nil {
		return
	}
	if src < 0 {
		if src = t.headerIndex(sourceNames...); src < 0 {
			src = first
		}
	}
	if dst < 0 {
		if dst = t.headerIndex(targetNames...); dst < 0 {
			dst = first + 1
			if dst == src {
				dst = src + 1
			}
		}
	}
	if src == dst {
		err = t.lr.fileErrorf("source and target are the same column %d", src+1)
		return
	}
	w = -1
	if !noWeight {
		if w, err = t.column(opt.Weight, "weight"); err != nil {
			return
		}
	}
	if w < 0 && !noWeight && opt.Weight == "" {
		switch {
		case t.header != nil:
			w = t.headerIndex(weightNames...)
		default:
			used := 0
			for k := range f {
				if k != src && k != dst {
					used++
					w = k
				}
			}
			if used > 1 {
				err = t.lr.fileErrorf(`want "u v" or "u v w" per line, got %d fields in %q: name the columns with a header line, or give the weight column`, len(f), strings.Join(f, string(t.delim)))
				return
			}
		}
	}
	if w >= 0 && w < len(f) && strings.HasPrefix(f[w], "{") {
		dict = true
	}
	return
}

func dictWeight(s string) (float64, error) {
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return 0, fmt.Errorf("attribute dictionary %q is not closed by }", s)
	}
	body := s[1 : len(s)-1]
	for _, key := range []string{"'weight'", `"weight"`} {
		i := strings.Index(body, key)
		if i < 0 {
			continue
		}
		rest := strings.TrimSpace(body[i+len(key):])
		if !strings.HasPrefix(rest, ":") {
			return 0, fmt.Errorf("attribute dictionary %q: want 'weight': value", s)
		}
		rest = strings.TrimSpace(rest[1:])
		if k := strings.IndexAny(rest, ",}"); k >= 0 {
			rest = rest[:k]
		}
		return parseWeight(strings.TrimSpace(rest))
	}
	return 1, nil
}

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
		// non-zero would silently become 0.
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

// decodeLabels reads an "id,label" table (a one-column table gives the
// labels of the nodes 0, 1, …), calling emit for every row. Repeated ids
// are refused where the pipeline groups them (see checkLabels), since one
// file may be one of several.
func decodeLabels(lr *lineReader, opt loaders.TableOptions, emit func(id, value string, line int)) error {
	t := newTable(lr, opt, "#")
	var (
		idCol, valCol = -1, -1
		width         int
		widthLine     int
		positional    bool
		rows          int
		lastLine      int
	)
	for {
		f, line, ok, err := t.row()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if width == 0 {
			width, widthLine = len(f), line
			if t.header != nil && len(t.header) != width {
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("row has %d fields but the header names %d columns", width, len(t.header))}
			}
			if width == 1 {
				positional = true
			} else {
				first := 0
				if len(t.header) > 0 && (t.header[0] == "" || strings.EqualFold(t.header[0], "unnamed: 0")) {
					first = 1
				}
				if idCol = t.headerIndex(idNames...); idCol < 0 {
					idCol = first
				}
				if valCol = t.headerIndex(labelNames...); valCol < 0 {
					valCol = first + 1
					if valCol == idCol {
						valCol = idCol + 1
					}
				}
				if valCol >= width {
					return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf(`want "id,value" rows, got %d field(s)`, width)}
				}
			}
		} else if len(f) != width && !(width == 2 && len(f) == 1 && !positional) {
			return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("want %d fields like line %d, got %d", width, widthLine, len(f))}
		}
		if positional {
			if lastLine != 0 && line != lastLine+1 && t.blankBetween(lastLine, line) {
				return &loaders.ParseError{Path: lr.path, Line: lastLine + 1, Msg: "blank line before more data: line i of this file describes node i, so a blank line would shift the rest"}
			}
			emit(strconv.Itoa(rows), f[0], line)
		} else {
			if f[idCol] == "" {
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("empty node id in column %d", idCol+1)}
			}
			val := ""
			if valCol < len(f) {
				val = f[valCol]
			}
			emit(f[idCol], val, line)
		}
		rows++
		lastLine = line
	}
	if rows == 0 {
		return lr.fileErrorf("no data lines")
	}
	return nil
}

// blankBetween reports whether a blank line was skipped between two data
// lines (comment lines do not count).
func (t *table) blankBetween(a, b int) bool {
	for _, l := range t.blanks {
		if l > a && l < b {
			return true
		}
	}
	return false
}

// unlabelled reports whether a label value means "no label", as the core.
func unlabelled(s string) bool {
	switch strings.ToLower(s) {
	case "", "-1", "nan", "na", "n/a", "none", "null", "?":
		return true
	}
	return false
}

// canonicalLabel maps "3.0" to "3", as the core.
func canonicalLabel(s string) string {
	if strings.ContainsAny(s, ".eE") {
		if v, err := strconv.ParseFloat(s, 64); err == nil && v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return strconv.FormatInt(int64(v), 10)
		}
	}
	return s
}

// canonicalInt reports whether id is an integer id in the core's sense
// (nodeids: digits, no leading zero, at most 18 of them) and its value.
func canonicalInt(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}
