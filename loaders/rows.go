package loaders

import (
	"io"
	"strings"
)

// The functions of this file export the line-level rules of ReadEdgeTable
// and the "id,label" reader, so that a reader which walks the lines itself
// (such as the Beam pipeline's, one file per DoFn call) accepts and refuses
// a file alike, with the same messages. They wrap the unexported helpers
// the loaders use; they do not open files.

// EdgeColumns resolves the 0-based source, target and weight columns of an
// edge table as ReadEdgeTable does, from opt, the header (nil when the file
// has none), the delimiter and the first data row; w is −1 when there is
// no weight column, and dict reports that the weights are networkx
// attribute dictionaries. Errors are ParseErrors naming path.
func EdgeColumns(path string, header []string, delim byte, opt EdgeTableOptions, first []string) (src, dst, w int, dict bool, err error) {
	t := &table{lr: &lineReader{path: path}, opt: opt.Table, delim: delim, header: header}
	return edgeColumns(t, opt, first, strings.EqualFold(opt.Weight, "none"))
}

// ParseWeight parses an edge weight: finite, non-negative and not a
// non-zero value that underflows to 0.
func ParseWeight(s string) (float64, error) { return parseWeight(s) }

// DictWeight reads the 'weight' entry of a networkx attribute dictionary
// such as {} or {'weight': 0.5, 'color': 'red'}; without one the weight is 1.
func DictWeight(s string) (float64, error) { return dictWeight(s) }

// Unlabelled reports whether a label value means "no label": empty, -1, or
// one of the missing-value spellings of pandas and R.
func Unlabelled(s string) bool { return unlabelled(s) }

// CanonicalLabel maps a label written as a float with an integer value (as
// pandas writes an int column with missing values: "3.0") to the integer,
// and returns any other label unchanged.
func CanonicalLabel(s string) string { return canonicalLabel(s) }

// ParseFinite parses a finite float64, what naming the value in errors
// ("value", "weight", …); a non-zero value that underflows to 0 is refused.
func ParseFinite(s, what string) (float64, error) { return parseFinite(s, what) }

// Lines is a (possibly gzipped) text stream read line by line, counting the
// lines from 1 for error messages, as the loaders read their files.
type Lines struct {
	lr *lineReader
}

// NewLines reads the lines of r, gunzipping it when it starts with the gzip
// magic; path names it in errors. An empty stream is an error.
func NewLines(r io.Reader, path string) (*Lines, error) {
	lr, err := newLineReader(r, path)
	if err != nil {
		return nil, err
	}
	return &Lines{lr: lr}, nil
}

// TableReader reads the rows of a delimited text table with the rules of
// ReadEdgeTable and the "id,label" reader: blank and comment lines skipped,
// a UTF-8 byte-order mark dropped, the delimiter detected and the header
// recognised as TableOptions say.
type TableReader struct {
	t *table
}

// NewTableReader reads the table of l; a data line starting with a byte of
// comments is skipped.
func NewTableReader(l *Lines, opt TableOptions, comments string) *TableReader {
	return &TableReader{t: newTable(l.lr, opt, comments)}
}

// Row returns the fields of the next data row and its line; ok is false at
// the end of the input, err a ParseError naming the path and line. The
// first call reads the header, if any.
func (r *TableReader) Row() (fields []string, line int, ok bool, err error) { return r.t.row() }

// Header returns the header's fields, nil when the table has none (or
// before the first Row).
func (r *TableReader) Header() []string { return r.t.header }

// Delimiter returns the delimiter in use, 0 before the first Row when it
// is detected.
func (r *TableReader) Delimiter() byte { return r.t.delim }

// HeaderIndex returns the index of the first header field whose name is,
// case-insensitively, one of names, or −1.
func (r *TableReader) HeaderIndex(names ...string) int { return r.t.headerIndex(names...) }

// BlankBetween reports whether a blank line was skipped between the data
// lines a and b (comment lines do not count).
func (r *TableReader) BlankBetween(a, b int) bool { return r.t.blankBetween(a, b) }
