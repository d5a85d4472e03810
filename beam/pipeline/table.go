package pipeline

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gssl/gssl/loaders"
)

// The table rules are those of the core's loaders (ReadEdgeTable and the
// "id,label" reader): the lines, rows, header, column resolution and value
// parsing come from loaders' line-level API (loaders.NewLines,
// NewTableReader, EdgeColumns, ParseWeight, …), so that a file is accepted
// or refused alike by gssl and gssl-beam, with errors of the same type
// (*loaders.ParseError, "loaders: path:line: …"). The decoders below run
// inside a DoFn, one file per call, so that every error can name its line.

// lineReader is one input file's lines, as the core reads them.
type lineReader struct {
	path  string
	lines *loaders.Lines
}

func newLineReader(r io.Reader, path string) (*lineReader, error) {
	l, err := loaders.NewLines(r, path)
	if err != nil {
		return nil, err
	}
	return &lineReader{path: path, lines: l}, nil
}

func (r *lineReader) fileErrorf(format string, args ...any) error {
	return &loaders.ParseError{Path: r.path, Msg: fmt.Sprintf(format, args...)}
}

// newTable reads the table of lr; lines starting with a byte of comments
// are skipped.
func newTable(lr *lineReader, opt loaders.TableOptions, comments string) *loaders.TableReader {
	return loaders.NewTableReader(lr.lines, opt, comments)
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
		f, line, ok, err := t.Row()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if width == 0 {
			width, widthLine = len(f), line
			if t.Header() != nil && len(t.Header()) != width {
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("row has %d fields but the header names %d columns (%q)", width, len(t.Header()), strings.Join(t.Header(), string(t.Delimiter())))}
			}
			if src, dst, wcol, dict, err = loaders.EdgeColumns(lr.path, t.Header(), t.Delimiter(), opt, f); err != nil {
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
			mixed := t.Header() == nil && opt.Weight == "" && !noWeight && src < 2 && dst < 2 && min(width, len(f)) == 2 && max(width, len(f)) == 3
			if !mixed {
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: loaders.FieldCountMessage(width, widthLine, len(f), t.Header() == nil)}
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
		f, line, ok, err := t.Row()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if width == 0 {
			width, widthLine = len(f), line
			if t.Header() != nil && len(t.Header()) != width {
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("row has %d fields but the header names %d columns", width, len(t.Header()))}
			}
			if width == 1 {
				positional = true
			} else {
				first := 0
				if len(t.Header()) > 0 && (t.Header()[0] == "" || strings.EqualFold(t.Header()[0], "unnamed: 0")) {
					first = 1
				}
				if idCol = t.HeaderIndex(idNames...); idCol < 0 {
					idCol = first
				}
				if valCol = t.HeaderIndex(labelNames...); valCol < 0 {
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
			if lastLine != 0 && line != lastLine+1 && t.BlankBetween(lastLine, line) {
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
