package loaders

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gssl/gssl/nodeids"
)

// nodeValues is one value column of a node table: node Nodes[k] (an index
// given by the nodeids.Builder) has the value Values[k], read from line
// Lines[k].
type nodeValues struct {
	Nodes  []int32
	Values []string
	Lines  []int32
	Report TableReport
}

// valueColumns says how readNodeValues finds a node table's columns.
type valueColumns struct {
	// ID and Value name the columns by header name or 1-based position
	// ("" finds them by their header names, or by position when the table
	// has two columns).
	ID, Value string
	// Names are header names of the value column, tried in order;
	// ValueFlag names the option that chooses it ("--label-column"), Role
	// the file ("labels", "targets").
	Names           []string
	ValueFlag, Role string
}

// Names of the columns a node table's header may give its ids.
var idNames = []string{"id", "node", "node_id", "nodeid", "name", "key", "index", "paper", "user"}

// readNodeValues reads a table of "id,value" rows (value may be empty), or a
// table of one column, where line i holds the value of the node with id i.
func readNodeValues(path string, opt TableOptions, b *nodeids.Builder, cols valueColumns) (*nodeValues, error) {
	return readFile(path, func(lr *lineReader) (*nodeValues, error) {
		return decodeNodeValues(lr, opt, b, cols)
	})
}

func decodeNodeValues(lr *lineReader, opt TableOptions, b *nodeids.Builder, cols valueColumns) (*nodeValues, error) {
	// One-column files: every line is an item, so blank lines are tracked.
	r := &nodeValuesReader{lr: lr, t: newTable(lr, opt, "#"), b: b, cols: cols, nv: &nodeValues{}, idCol: -1, valCol: -1, known: b.Len()}
	for {
		f, line, ok, err := r.t.row()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if r.width == 0 {
			err = r.first(f, line)
		} else if len(f) != r.width && !(r.width == 2 && len(f) == 1 && !r.positional && r.idCol == 0) {
			err = &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("want %d fields like line %d, got %d", r.width, r.widthLine, len(f))}
		}
		if err == nil {
			err = r.row(f, line)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(r.nv.Nodes) == 0 {
		return nil, lr.fileErrorf("no data lines")
	}
	return r.nv, nil
}

// nodeValuesReader is the state of decodeNodeValues.
type nodeValuesReader struct {
	lr            *lineReader
	t             *table
	b             *nodeids.Builder
	cols          valueColumns
	nv            *nodeValues
	idCol, valCol int
	width         int
	widthLine     int
	positional    bool
	lastLine      int
	// seen[id] is the line that listed node id (0: none yet), indexed by
	// the builder's provisional index: dense, 4 bytes per node.
	seen []int32
	// known is the number of nodes the other files named before this one,
	// for a first row of text that may be an unknown header.
	known int
}

// first reads the first row, whose fields fix the columns.
func (r *nodeValuesReader) first(f []string, line int) (err error) {
	t, cols, nv := r.t, r.cols, r.nv
	r.width, r.widthLine = len(f), line
	if t.header != nil && len(t.header) != r.width {
		return &ParseError{Path: r.lr.path, Line: line, Msg: fmt.Sprintf("row has %d fields but the header names %d columns", r.width, len(t.header))}
	}
	nv.Report = TableReport{Path: r.lr.path, Role: cols.Role, Format: "table", Header: t.headerReport(), Delimiter: delimiterName(t.delim)}
	switch {
	case r.width == 1 && cols.ID == "" && cols.Value == "":
		r.positional = true
		nv.Report.ID = "the line number (line i is node i)"
		nv.Report.Label = t.columnName(0)
	default:
		if r.idCol, r.valCol, err = valueColumnsOf(t, cols, r.width); err != nil {
			return err
		}
		nv.Report.ID, nv.Report.Label = t.columnName(r.idCol), t.columnName(r.valCol)
		for k := 0; k < r.width; k++ {
			if k != r.idCol && k != r.valCol {
				nv.Report.Ignored = append(nv.Report.Ignored, t.columnName(k))
			}
		}
	}
	if t.firstText && !r.positional && cols.ID == "" && r.known > 0 {
		if _, err := r.b.Add(f[r.idCol]); err == nil && r.b.Len() > r.known {
			return &ParseError{Path: r.lr.path, Line: line, Msg: fmt.Sprintf("%q is not a header gssl recognises, and %q names no node of the graph: if it names the columns, pass --header yes (and --id-column/%s to choose them); if it is data, pass --header no", strings.Join(f, string(t.delim)), f[r.idCol], cols.ValueFlag)}
		}
	}
	return nil
}

// row adds the node and value of a row, refusing a node listed twice.
func (r *nodeValuesReader) row(f []string, line int) error {
	id, val, err := r.idValue(f, line)
	if err != nil {
		return err
	}
	if int(id) >= len(r.seen) {
		r.seen = append(r.seen, make([]int32, r.b.Len()-len(r.seen))...)
	}
	if prev := r.seen[id]; prev != 0 {
		return &ParseError{Path: r.lr.path, Line: line, Msg: fmt.Sprintf("node %q already listed on line %d", f[max(r.idCol, 0)], prev)}
	}
	r.seen[id] = int32(min(line, math.MaxInt32))
	nv := r.nv
	nv.Nodes = append(nv.Nodes, id)
	nv.Values = append(nv.Values, val)
	nv.Lines = append(nv.Lines, int32(min(line, math.MaxInt32)))
	r.lastLine = line
	return nil
}

// idValue returns the node (its provisional index) and the value of a row.
func (r *nodeValuesReader) idValue(f []string, line int) (id int32, val string, err error) {
	path := r.lr.path
	if r.positional {
		if r.lastLine != 0 && line != r.lastLine+1 && r.t.blankBetween(r.lastLine, line) {
			return 0, "", &ParseError{Path: path, Line: r.lastLine + 1, Msg: "blank line before more data: line i of this file describes node i, so a blank line would shift the rest"}
		}
		if id, err = r.b.AddInt(int64(len(r.nv.Nodes))); err != nil {
			return 0, "", &ParseError{Path: path, Line: line, Msg: err.Error()}
		}
		return id, f[0], nil
	}
	if f[r.idCol] == "" {
		return 0, "", &ParseError{Path: path, Line: line, Msg: fmt.Sprintf("empty node id in column %d", r.idCol+1)}
	}
	if id, err = r.b.Add(f[r.idCol]); err != nil {
		return 0, "", &ParseError{Path: path, Line: line, Msg: err.Error()}
	}
	if r.valCol < len(f) {
		val = f[r.valCol]
	}
	return id, val, nil
}

// valueColumnsOf resolves the id and value columns of a node table of
// width fields: as named by cols, else by the header's names, else by
// position when there are just two columns (after pandas' index). A choice
// it would have to guess is an error naming the option that decides.
func valueColumnsOf(t *table, cols valueColumns, width int) (idCol, valCol int, err error) {
	if idCol, err = t.column(cols.ID, "--id-column"); err != nil {
		return
	}
	if valCol, err = t.column(cols.Value, cols.ValueFlag); err != nil {
		return
	}
	first := 0
	if len(t.header) > 0 && isIndexName(t.header[0]) {
		first = 1
	}
	if idCol < 0 {
		idCol = t.headerIndex(idNames...)
	}
	if valCol < 0 {
		for _, n := range cols.Names {
			if k := t.headerIndex(n); k >= 0 && k != idCol {
				valCol = k
				break
			}
		}
	}
	data := width - first // columns other than pandas' index
	switch {
	case idCol < 0 && valCol < 0 && data == 2:
		idCol, valCol = first, first+1
	case idCol < 0 && valCol >= 0 && data == 2:
		idCol = first
		if idCol == valCol {
			idCol = first + 1
		}
	case valCol < 0 && idCol >= 0 && data == 2:
		valCol = first
		if valCol == idCol {
			valCol = first + 1
		}
	}
	names := fmt.Sprintf("%d columns", width)
	if t.header != nil {
		names = fmt.Sprintf("the columns %q", strings.Join(t.header, string(t.delim)))
	}
	switch {
	case idCol < 0:
		return 0, 0, t.lr.fileErrorf("which column holds the node ids? The table has %s: pass --id-column (a name or a 1-based position)", names)
	case valCol < 0:
		return 0, 0, t.lr.fileErrorf("which column holds the %s? The table has %s and none is named %s: pass %s (a name or a 1-based position)", cols.Role, names, strings.Join(cols.Names, ", "), cols.ValueFlag)
	case idCol == valCol:
		return 0, 0, t.lr.fileErrorf("--id-column and %s are the same column %d", cols.ValueFlag, idCol+1)
	case idCol >= width || valCol >= width:
		return 0, 0, t.lr.fileErrorf(`column %d is named but the rows have %d fields`, max(idCol, valCol)+1, width)
	}
	return idCol, valCol, nil
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

// unlabelled reports whether a label value means "no label": empty, -1, or
// one of the missing-value spellings of pandas and R.
func unlabelled(s string) bool {
	switch strings.ToLower(s) {
	case "", "-1", "nan", "na", "n/a", "none", "null", "?":
		return true
	}
	return false
}

// canonicalLabel maps a label written as a float with an integer value (as
// pandas writes an int column with missing values: "3.0") to the integer.
func canonicalLabel(s string) string {
	if strings.ContainsAny(s, ".eE") {
		if v, err := strconv.ParseFloat(s, 64); err == nil && v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return strconv.FormatInt(int64(v), 10)
		}
	}
	return s
}

// classesOf turns label values into classes 0..C−1: the distinct values in
// ascending numeric order when all are integers, else in ascending text
// order. It returns the class of each value (−1 for unlabelled) and the
// class names.
func classesOf(values []string) (labels []int, names []string) {
	labels = make([]int, len(values))
	distinct := make(map[string]int)
	for _, v := range values {
		if v = canonicalLabel(v); !unlabelled(v) {
			distinct[v] = 0
		}
	}
	names = make([]string, 0, len(distinct))
	numeric := true
	for v := range distinct {
		names = append(names, v)
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			numeric = false
		}
	}
	if numeric {
		slices.SortFunc(names, func(a, b string) int {
			x, _ := strconv.ParseInt(a, 10, 64)
			y, _ := strconv.ParseInt(b, 10, 64)
			return cmpInt(x, y)
		})
	} else {
		slices.Sort(names)
	}
	for c, v := range names {
		distinct[v] = c
	}
	for k, v := range values {
		if v = canonicalLabel(v); unlabelled(v) {
			labels[k] = -1
		} else {
			labels[k] = distinct[v]
		}
	}
	return labels, names
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// parseTarget parses a regression target: a finite number, or NaN when
// missing.
func parseTarget(s string) (float64, error) {
	if unlabelled(s) && s != "-1" {
		return math.NaN(), nil
	}
	return parseFinite(s, "target")
}
