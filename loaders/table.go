package loaders

import (
	"fmt"
	"strconv"
	"strings"
)

// HeaderMode says whether the first data line of a table names its columns.
type HeaderMode int

const (
	// HeaderAuto (the zero value) takes the first line as a header when every
	// field is a column name pandas and networkx users write (source,
	// target, weight, id, label, …; see headerNames), or when its fields are
	// text where the next line has numbers.
	HeaderAuto HeaderMode = iota
	// HeaderYes: the first data line is a header.
	HeaderYes
	// HeaderNo: every line is data.
	HeaderNo
)

// ParseHeaderMode parses "auto", "yes" or "no" (and "true"/"false").
func ParseHeaderMode(s string) (HeaderMode, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return HeaderAuto, nil
	case "yes", "true", "1":
		return HeaderYes, nil
	case "no", "false", "0", "none":
		return HeaderNo, nil
	}
	return 0, fmt.Errorf("header mode %q is invalid: want auto, yes or no", s)
}

func (h HeaderMode) String() string {
	switch h {
	case HeaderAuto:
		return "auto"
	case HeaderYes:
		return "yes"
	case HeaderNo:
		return "no"
	}
	return fmt.Sprintf("HeaderMode(%d)", int(h))
}

// TableOptions say how a delimited text table is read.
type TableOptions struct {
	// Header says whether the first data line names the columns.
	Header HeaderMode
	// Delimiter separates fields: ',', '\t', ';', '|' or ' ' (runs of white
	// space). 0 detects it from the first data line: a tab, else a comma,
	// else a semicolon, else a bar, else white space.
	Delimiter byte
}

// headerNames are the column names recognised as a header line, lower case.
// "" stands for the unnamed index column pandas writes with index=True.
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
	opt      TableOptions
	comments string
	delim    byte // 0 until the first data line
	header   []string
	started  bool
	pending  []string // a first data line read while looking for the header
	pendLine int
	blanks   []int // blank lines after the first data line (at most a few kept)
	// headerLine is the header's line (0 without one) and headerHow how
	// the header was decided, for the TableReport.
	headerLine int
	headerHow  string
	// firstText: HeaderAuto took a first row of text only (no number) as
	// data, for lack of a sign that it names columns; the callers check it
	// is data (see walkEdgeTable, decodeNodeValues).
	firstText bool
	err       error // a line that is an error in any table (a stray byte-order mark)
}

func newTable(lr *lineReader, opt TableOptions, comments string) *table {
	return &table{lr: lr, opt: opt, comments: comments, delim: opt.Delimiter}
}

// nextData returns the trimmed next data line, skipping blank and comment
// lines; ok is false at the end of the input (then see t.lr.err()).
func (t *table) nextData() (s string, ok bool) {
	for t.lr.next() {
		s := t.lr.text
		if t.lr.line == 1 {
			s = strings.TrimPrefix(s, "\ufeff") // UTF-8 byte-order mark
		}
		if strings.IndexByte(s, 0xef) >= 0 {
			if k := strings.Index(s, "\ufeff"); k >= 0 {
				// A byte-order mark belongs at the start of a file; one
				// inside (two files concatenated) would become an invisible
				// part of an id.
				t.err = t.lr.errorf("a UTF-8 byte-order mark (U+FEFF) at byte %d of the line: it belongs only at the start of a file (were two files concatenated?); remove it", k+1)
				return "", false
			}
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

// detectDelimiter chooses the delimiter of line s, ignoring a trailing
// networkx attribute dictionary.
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

// split splits a data line into fields: on the delimiter (fields trimmed,
// double quotes removed, "" inside quotes read as "), or on runs of white
// space, where a field starting with '{' runs to the end of the line (a
// networkx attribute dictionary).
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
		if t.delim == ',' {
			// A networkx dictionary may hold commas: keep it whole.
			if len(s) > 0 && s[0] == '{' {
				return append(f, strings.TrimSpace(s)), nil
			}
		}
		k := strings.IndexByte(s, t.delim)
		if k < 0 {
			return append(f, strings.TrimSpace(s)), nil
		}
		f = append(f, strings.TrimSpace(s[:k]))
		s = s[k+1:]
	}
}

// unquote reads a double-quoted field at the start of s and returns it and
// the rest of s after the closing quote.
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

// isNumber reports whether s is a number.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || strings.Contains(err.Error(), "range")
}

// looksLikeHeader reports whether every field is a known column name.
func looksLikeHeader(f []string) bool {
	for _, x := range f {
		if !headerNames[strings.ToLower(x)] {
			return false
		}
	}
	return true
}

// row returns the fields of the next data row and its line; ok is false at
// the end of the input. The first call reads the header, if any.
func (t *table) row() (f []string, line int, ok bool, err error) {
	if t.pending != nil {
		f, line = t.pending, t.pendLine
		t.pending = nil
		return f, line, true, nil
	}
	s, ok := t.nextData()
	if !ok {
		if t.err != nil {
			return nil, 0, false, t.err
		}
		return nil, 0, false, t.lr.err()
	}
	if t.delim == 0 {
		t.delim = detectDelimiter(s)
	}
	if f, err = t.split(s); err != nil {
		return nil, t.lr.line, false, t.lr.errorf("%v", err)
	}
	if t.started {
		if err := t.midHeader(f); err != nil {
			return nil, 0, false, err
		}
		return f, t.lr.line, true, nil
	}
	t.started = true
	switch t.opt.Header {
	case HeaderYes:
		t.header, t.headerLine, t.headerHow = f, t.lr.line, "forced by --header yes"
		return t.row()
	case HeaderNo:
		t.headerHow = "none (--header no)"
		return f, t.lr.line, true, nil
	}
	if looksLikeHeader(f) {
		t.header, t.headerLine, t.headerHow = f, t.lr.line, "recognised by its column names"
		return t.row()
	}
	// Text fields above numbers in the same columns: a header with names
	// we do not know.
	first, firstLine := f, t.lr.line
	s2, ok := t.nextData()
	if !ok {
		if t.err != nil {
			return nil, 0, false, t.err
		}
		if err := t.lr.err(); err != nil {
			return nil, 0, false, err
		}
		t.headerHow = "none (one data line)"
		t.firstText = allText(first)
		return first, firstLine, true, nil
	}
	f2, err := t.split(s2)
	if err != nil {
		return nil, t.lr.line, false, t.lr.errorf("%v", err)
	}
	if len(f2) == len(first) && textAboveNumbers(first, f2) {
		t.header, t.headerLine, t.headerHow = first, firstLine, "text above numbers in the same columns"
		return f2, t.lr.line, true, nil
	}
	t.headerHow = "none (the first line is data like the next)"
	t.firstText = allText(first)
	t.pending, t.pendLine = f2, t.lr.line
	if err := t.midHeader(f2); err != nil {
		return nil, 0, false, err
	}
	return first, firstLine, true, nil
}

// allText reports whether no field of f is a number.
func allText(f []string) bool {
	for _, x := range f {
		if isNumber(x) {
			return false
		}
	}
	return true
}

// midHeader refuses a data row that repeats the header, or that consists
// of column names when the table has no header: two tables concatenated,
// whose second header would become a row of data.
func (t *table) midHeader(f []string) error {
	if h := t.header; h != nil {
		if len(f) != len(h) || !strings.EqualFold(f[0], h[0]) {
			return nil
		}
		for k := range f {
			if !strings.EqualFold(f[k], h[k]) {
				return nil
			}
		}
		return t.lr.errorf("line repeats the header of line %d (%q): were two tables concatenated? Remove the repeated header", t.headerLine, strings.Join(h, string(t.delim)))
	}
	if t.opt.Header != HeaderAuto || len(f) < 2 || !headerNames[strings.ToLower(f[0])] || f[0] == "" || !looksLikeHeader(f) {
		return nil
	}
	return t.lr.errorf("line %q names columns in the middle of the data: were two tables concatenated? Remove it (or pass --header no if these are ids)", strings.Join(f, string(t.delim)))
}

// delimiterName names a delimiter for the TableReport.
func delimiterName(d byte) string {
	switch d {
	case '\t':
		return "tab"
	case ',':
		return "comma"
	case ';':
		return "semicolon"
	case '|':
		return "bar"
	case ' ':
		return "white space"
	}
	return string(d)
}

// headerReport says how the table's header was decided.
func (t *table) headerReport() string {
	if t.header == nil {
		return t.headerHow
	}
	return fmt.Sprintf("line %d %q: %s", t.headerLine, strings.Join(t.header, string(t.delim)), t.headerHow)
}

// columnName describes column k for the TableReport: its position and,
// under a header, its name.
func (t *table) columnName(k int) string {
	if k < 0 {
		return ""
	}
	if k < len(t.header) {
		return fmt.Sprintf("%q (column %d)", t.header[k], k+1)
	}
	return fmt.Sprintf("column %d", k+1)
}

// textAboveNumbers reports whether some column is text in a and a number in
// b while no column is a number in a.
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

// column resolves a column given by name (matched case-insensitively
// against the header) or by 1-based position; it returns the 0-based index,
// or −1 when spec is empty.
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

// headerIndex returns the index of the first header field whose lower-case
// name is in names, or −1.
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
