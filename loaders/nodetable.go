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
}

// Names of the columns a node table's header may give its ids.
var idNames = []string{"id", "node", "node_id", "nodeid", "name", "key", "index", "paper", "user"}

// readNodeValues reads a table of "id,value" rows (value may be empty), or a
// table of one column, where line i holds the value of the node with id i.
// valueNames are header names of the value column, tried in order.
func readNodeValues(path string, opt TableOptions, b *nodeids.Builder, valueNames []string) (*nodeValues, error) {
	return readFile(path, func(lr *lineReader) (*nodeValues, error) {
		return decodeNodeValues(lr, opt, b, valueNames)
	})
}

func decodeNodeValues(lr *lineReader, opt TableOptions, b *nodeids.Builder, valueNames []string) (*nodeValues, error) {
	// One-column files: every line is an item, so blank lines are tracked.
	t := newTable(lr, opt, "#")
	nv := &nodeValues{}
	var (
		idCol, valCol = -1, -1
		width         int
		widthLine     int
		positional    bool
		lastLine      int
		// seen[id] is the line that listed node id (0: none yet), indexed
		// by the builder's provisional index: dense, 4 bytes per node.
		seen []int32
	)
	for {
		f, line, ok, err := t.row()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if width == 0 {
			width, widthLine = len(f), line
			if t.header != nil && len(t.header) != width {
				return nil, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("row has %d fields but the header names %d columns", width, len(t.header))}
			}
			switch {
			case width == 1:
				positional = true
			default:
				first := 0
				if len(t.header) > 0 && (t.header[0] == "" || strings.EqualFold(t.header[0], "unnamed: 0")) {
					first = 1
				}
				if idCol = t.headerIndex(idNames...); idCol < 0 {
					idCol = first
				}
				if valCol = t.headerIndex(valueNames...); valCol < 0 {
					valCol = first + 1
					if valCol == idCol {
						valCol = idCol + 1
					}
				}
				if valCol >= width {
					return nil, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf(`want "id,value" rows, got %d field(s)`, width)}
				}
			}
		} else if len(f) != width && !(width == 2 && len(f) == 1 && !positional) {
			return nil, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("want %d fields like line %d, got %d", width, widthLine, len(f))}
		}
		var id int32
		var val string
		if positional {
			if lastLine != 0 && line != lastLine+1 && t.blankBetween(lastLine, line) {
				return nil, &ParseError{Path: lr.path, Line: lastLine + 1, Msg: "blank line before more data: line i of this file describes node i, so a blank line would shift the rest"}
			}
			if id, err = b.AddInt(int64(len(nv.Nodes))); err != nil {
				return nil, &ParseError{Path: lr.path, Line: line, Msg: err.Error()}
			}
			val = f[0]
		} else {
			if f[idCol] == "" {
				return nil, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("empty node id in column %d", idCol+1)}
			}
			if id, err = b.Add(f[idCol]); err != nil {
				return nil, &ParseError{Path: lr.path, Line: line, Msg: err.Error()}
			}
			if valCol < len(f) {
				val = f[valCol]
			}
		}
		if int(id) >= len(seen) {
			seen = append(seen, make([]int32, b.Len()-len(seen))...)
		}
		if prev := seen[id]; prev != 0 {
			return nil, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("node %q already listed on line %d", f[max(idCol, 0)], prev)}
		}
		seen[id] = int32(min(line, math.MaxInt32))
		nv.Nodes = append(nv.Nodes, id)
		nv.Values = append(nv.Values, val)
		nv.Lines = append(nv.Lines, int32(min(line, math.MaxInt32)))
		lastLine = line
	}
	if len(nv.Nodes) == 0 {
		return nil, lr.fileErrorf("no data lines")
	}
	return nv, nil
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
