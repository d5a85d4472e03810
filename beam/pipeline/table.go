package pipeline

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gssl/gssl/loaders"
)

// The table rules are those of the core's loaders (ReadEdgeTable and the
// "id,label" reader): the splitting, header recognition, column resolution
// and value parsing come from loaders' line-level API (loaders.RowSplitter,
// IsHeader, EdgeColumns, ParseWeight, …), so that a file is accepted or
// refused alike by gssl and gssl-beam, with errors of the same type
// (*loaders.ParseError, "loaders: path:line: …"). This file only walks the
// lines, inside a DoFn, one file per call, so that every error can name its
// line.

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

// table reads the rows of a delimited text file.
type table struct {
	lr       *lineReader
	opt      loaders.TableOptions
	comments string
	sp       *loaders.RowSplitter
	header   []string
	started  bool
	pending  []string
	pendLine int
	blanks   []int // blank lines after the first data line (at most a few kept)
}

func newTable(lr *lineReader, opt loaders.TableOptions, comments string) *table {
	return &table{lr: lr, opt: opt, comments: comments, sp: loaders.NewRowSplitter(opt)}
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
	if f, err = t.sp.SplitRow(s); err != nil {
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
	if loaders.IsHeader(f) {
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
	f2, err := t.sp.SplitRow(s2)
	if err != nil {
		return nil, t.lr.line, false, t.lr.errorf("%v", err)
	}
	if loaders.IsHeaderAbove(first, f2) {
		t.header = first
		return f2, t.lr.line, true, nil
	}
	t.pending, t.pendLine = f2, t.lr.line
	return first, firstLine, true, nil
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
	idNames    = []string{"id", "node", "node_id", "nodeid", "name", "key", "index", "paper", "user"}
	labelNames = []string{"label", "labels", "class", "y", "category", "target"}
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
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("row has %d fields but the header names %d columns (%q)", width, len(t.header), strings.Join(t.header, string(t.sp.Delimiter())))}
			}
			if src, dst, wcol, dict, err = loaders.EdgeColumns(lr.path, t.header, t.sp.Delimiter(), opt, f); err != nil {
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
				w, err = loaders.DictWeight(f[wcol])
			default:
				w, err = loaders.ParseWeight(f[wcol])
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
