package loaders

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// PointTable is a table of points read by ReadPointTable: one point per
// data row.
type PointTable struct {
	X       *mat.Dense // the numeric columns, n × d
	IDs     []string   // the id column's values, or nil without one
	Columns []string   // the header's names of X's columns, or nil without a header
	Lines   []int      // the 1-based line of every row, for messages
	// Report says how the file was read (header, id column, columns).
	Report TableReport
}

// ReadPointTable reads a table of points: values separated by commas (CSV),
// or else by tabs or spaces, one point per line, '#' comments, gzip detected
// as everywhere in this package. The first data line is a header when none
// of its fields (the id column's aside) is a number; it must then name as
// many columns as the rows have. A blank line is allowed only at the end
// (line i is point i).
//
// idColumn, when not empty, names the column holding each point's id, by
// its header name or by its 1-based position; its values are kept as text
// in IDs and it is left out of X. Every other value must be a finite number
// and every row must have the same number of fields.
func ReadPointTable(path, idColumn string) (*PointTable, error) {
	return readFile(path, func(lr *lineReader) (*PointTable, error) { return decodePointTable(lr, idColumn) })
}

func decodePointTable(lr *lineReader, idColumn string) (*PointTable, error) {
	p := &pointTableReader{lr: lr, t: &PointTable{}, idColumn: idColumn, idAt: -1}
	if idColumn != "" {
		if k, err := strconv.Atoi(idColumn); err == nil {
			if k < 1 {
				return nil, lr.fileErrorf("id column %d is invalid: positions start at 1", k)
			}
			p.idAt = k - 1
		}
	}
	first := true
	err := lr.eachLine("#", blankTrailing, func(s string) error {
		f := splitFields(s)
		if first {
			first = false
			if header, err := p.firstLine(f, s); header || err != nil {
				return err
			}
		}
		return p.row(f)
	})
	if err != nil {
		return nil, err
	}
	return p.finish()
}

// pointTableReader is the state of decodePointTable.
type pointTableReader struct {
	lr         *lineReader
	t          *PointTable
	idColumn   string
	data       []float64
	cols       int // fields per row
	idAt       int // the id column, or −1
	headerLine int
	idName     string
}

// firstLine reads the first line, whose fields f fix the columns; it
// reports whether the line is a header.
func (p *pointTableReader) firstLine(f []string, s string) (header bool, err error) {
	p.cols = len(f)
	if p.idColumn != "" && p.idAt < 0 {
		// A named id column needs a header.
		for j, x := range f {
			if x == p.idColumn {
				p.idAt = j
			}
		}
		if p.idAt < 0 {
			return false, fmt.Errorf("no column named %q in the header %q (give the id column by name or 1-based position)", p.idColumn, s)
		}
	}
	if p.idAt >= p.cols {
		return false, fmt.Errorf("id column %d is beyond the %d columns", p.idAt+1, p.cols)
	}
	if p.idAt >= 0 && p.cols < 2 {
		return false, fmt.Errorf("only the id column; the points need at least one value column")
	}
	if isHeaderExcept(f, p.idAt) {
		p.headerLine = p.lr.line
		for j, x := range f {
			if j != p.idAt {
				p.t.Columns = append(p.t.Columns, x)
			} else {
				p.idName = x
			}
		}
		return true, nil
	}
	if p.idColumn != "" && p.idAt >= 0 {
		if _, err := strconv.Atoi(p.idColumn); err != nil {
			return false, fmt.Errorf("the id column %q is named but the first line is not a header", p.idColumn)
		}
	}
	return false, nil
}

// row reads a data row: its id and its values.
func (p *pointTableReader) row(f []string) error {
	if len(f) != p.cols {
		what := "the first line"
		if p.headerLine != 0 {
			what = fmt.Sprintf("the header on line %d", p.headerLine)
		}
		return fmt.Errorf("row has %d fields, want %d like %s", len(f), p.cols, what)
	}
	for j, x := range f {
		if j == p.idAt {
			if x == "" {
				return fmt.Errorf("empty id in column %d", j+1)
			}
			p.t.IDs = append(p.t.IDs, x)
			continue
		}
		v, err := parseFinite(x, "value")
		if err != nil {
			return fmt.Errorf("column %d: %v", j+1, err)
		}
		p.data = append(p.data, v)
	}
	p.t.Lines = append(p.t.Lines, p.lr.line)
	return nil
}

// finish builds the matrix and the report.
func (p *pointTableReader) finish() (*PointTable, error) {
	t := p.t
	n := len(t.Lines)
	if n == 0 {
		return nil, p.lr.fileErrorf("no data rows")
	}
	d := p.cols
	if p.idAt >= 0 {
		d--
	}
	t.X = mat.NewDense(n, d, p.data)
	t.Report = TableReport{Path: p.lr.path, Role: "features", Format: "table", Header: "none (the first line holds numbers)",
		ID: "the row number (row i is point i)", Note: fmt.Sprintf("%d feature columns", d)}
	if p.headerLine != 0 {
		t.Report.Header = fmt.Sprintf("line %d: no field but the id is a number", p.headerLine)
		if d <= 8 {
			t.Report.Note += ": " + strings.Join(t.Columns, ", ")
		}
	}
	if p.idAt >= 0 {
		t.Report.ID = columnRef(p.idAt, p.headerLine != 0, p.idName)
	}
	return t, nil
}

// columnRef describes column k (0-based) for a TableReport: `"name"
// (column k+1)` when a header names it, else `column k+1`.
func columnRef(k int, header bool, name string) string {
	if header && name != "" {
		return fmt.Sprintf("%q (column %d)", name, k+1)
	}
	return fmt.Sprintf("column %d", k+1)
}

// isHeaderExcept reports whether no field of a line but the skip-th is a
// number.
func isHeaderExcept(f []string, skip int) bool {
	for j, x := range f {
		if j == skip {
			continue
		}
		if _, err := strconv.ParseFloat(x, 64); err == nil || errors.Is(err, strconv.ErrRange) {
			return false
		}
	}
	return true
}

// ValueColumn is one value per point (a class name or a number as written),
// read by ReadValueColumn.
type ValueColumn struct {
	Values []string // "" where the value is missing
	IDs    []string // the id column's values, or nil without one
	Name   string   // the header's name of the value column, or ""
	Lines  []int    // the 1-based line of every row
	// Report says how the file was read (header, id and value columns).
	Report TableReport
}

// valueHeaderNames are the column names a header line of a value file is
// recognised by (compared without case), as pandas and NumPy users write
// them.
var valueHeaderNames = []string{"label", "labels", "class", "classes", "target", "targets", "y", "value", "values", "category", "angle"}

// ReadValueColumn reads one value per line (class names, integer classes or
// regression targets; an empty field, "nan", "NA" or "?" is a missing value)
// with the conventions of ReadPointTable. With idColumn (a header name or a
// 1-based position) each line holds an id and the value, unless the first
// line has a single field (the ids are then in the feature file only);
// without, the value alone. The first line is a header when it holds idColumn by name, or when
// its value is one of label, class, target, y, value, category (any case),
// or when it is not a number and the next line's value is.
func ReadValueColumn(path, idColumn string) (*ValueColumn, error) {
	return readFile(path, func(lr *lineReader) (*ValueColumn, error) { return decodeValueColumn(lr, idColumn) })
}

func decodeValueColumn(lr *lineReader, idColumn string) (*ValueColumn, error) {
	v := &valueColumnReader{lr: lr, c: &ValueColumn{}, idColumn: idColumn, idAt: -1, want: 1}
	if idColumn != "" {
		if p, err := strconv.Atoi(idColumn); err == nil {
			if p < 1 || p > 2 {
				return nil, lr.fileErrorf("id column %d is invalid: a value file has two columns, the id and the value", p)
			}
			v.idAt = p - 1
		} else {
			v.named = true
		}
		v.want = 2
	}
	err := lr.eachLine("#", blankTrailing, v.line)
	if pe := (*ParseError)(nil); errors.As(err, &pe) && strings.HasPrefix(pe.Msg, blankLineMsg) {
		// pandas writes a missing value as an empty line (to_csv's na_rep
		// is ""); say how to mark one instead.
		pe.Msg += `; mark a missing value with NA, nan or ? (pandas: to_csv(na_rep="NA"))`
	}
	if err != nil {
		return nil, err
	}
	if v.pending != nil {
		v.add(v.pending, v.pendingLine)
	}
	if len(v.c.Values) == 0 {
		return nil, lr.fileErrorf("no values")
	}
	v.report()
	return v.c, nil
}

// valueColumnReader is the state of decodeValueColumn.
type valueColumnReader struct {
	lr          *lineReader
	c           *ValueColumn
	idColumn    string
	idAt        int      // the id column, or −1
	named       bool     // idColumn is a header name
	want        int      // fields per line
	pending     []string // a possible header, decided by the next line
	pendingLine int
	headerLine  int
	row         int
}

// add appends the id and value of a row read on line.
func (v *valueColumnReader) add(f []string, line int) {
	c := v.c
	for j, x := range f {
		if j == v.idAt {
			c.IDs = append(c.IDs, x)
		} else {
			c.Values = append(c.Values, missingAsEmpty(x))
		}
	}
	c.Lines = append(c.Lines, line)
}

// valueOf returns the value field of a row.
func (v *valueColumnReader) valueOf(f []string) string {
	if v.idAt == 0 {
		return f[1]
	}
	return f[0]
}

// line reads a line s.
func (v *valueColumnReader) line(s string) error {
	f := splitFields(s)
	if v.row == 0 && v.want == 2 && len(f) == 1 {
		// The id column is in the feature file only: values alone.
		v.want, v.idAt, v.named = 1, -1, false
	}
	if v.want == 1 && !strings.ContainsAny(s, ",\t") {
		f = []string{strings.TrimSpace(s)} // a class name may hold spaces
	}
	if len(f) != v.want {
		return fmt.Errorf("%d fields, want %d (%s)", len(f), v.want, map[int]string{1: "the value", 2: "the id and the value"}[v.want])
	}
	v.row++
	if v.row == 1 {
		if header, err := v.header(f, s); header || err != nil {
			return err
		}
	}
	if v.pending != nil {
		if isNumber(v.valueOf(f)) {
			v.c.Name, v.headerLine = v.valueOf(v.pending), v.pendingLine
		} else {
			v.add(v.pending, v.pendingLine)
		}
		v.pending = nil
	}
	if v.idAt >= 0 && f[v.idAt] == "" {
		return fmt.Errorf("empty id in column %d", v.idAt+1)
	}
	v.add(f, v.lr.line)
	return nil
}

// header reads the first row f (the line s): it reports whether the row
// is a header or may be one (pending, decided by the next line).
func (v *valueColumnReader) header(f []string, s string) (bool, error) {
	c := v.c
	if v.named {
		for j, x := range f {
			if x == v.idColumn {
				v.idAt = j
			}
		}
		if v.idAt < 0 {
			return false, fmt.Errorf("no column named %q in the header %q", v.idColumn, s)
		}
		c.Name, v.headerLine = f[1-v.idAt], v.lr.line
		return true, nil
	}
	val := v.valueOf(f)
	for _, h := range valueHeaderNames {
		if strings.EqualFold(val, h) {
			c.Name, v.headerLine = val, v.lr.line
			return true, nil
		}
	}
	if !isNumber(val) && missingAsEmpty(val) != "" {
		v.pending, v.pendingLine = f, v.lr.line
		return true, nil
	}
	return false, nil
}

// report describes how the file was read.
func (v *valueColumnReader) report() {
	c := v.c
	c.Report = TableReport{Path: v.lr.path, Role: "values", Format: "table", Header: "none (the first line holds a value)",
		ID: "the line's order (line i is point i)", Label: "column 1"}
	if c.Name != "" {
		c.Report.Header = fmt.Sprintf("line %d: %q names the value column", v.headerLine, c.Name)
	}
	if v.idAt >= 0 {
		c.Report.ID, c.Report.Label = columnRef(v.idAt, false, ""), columnRef(1-v.idAt, c.Name != "", c.Name)
		if v.named {
			c.Report.ID = columnRef(v.idAt, true, v.idColumn)
		}
	} else if c.Name != "" {
		c.Report.Label = columnRef(0, true, c.Name)
	}
}

// missingAsEmpty maps the spellings of a missing value to "".
func missingAsEmpty(s string) string {
	switch strings.ToLower(s) {
	case "", "nan", "na", "n/a", "?", "none", "null":
		return ""
	}
	return s
}

// Floats returns the values as numbers, NaN where missing; a value that is
// not a finite number is an error naming path and its line.
func (c *ValueColumn) Floats(path string) ([]float64, error) {
	out := make([]float64, len(c.Values))
	for i, s := range c.Values {
		if s == "" {
			out[i] = math.NaN()
			continue
		}
		v, err := parseFinite(s, "value")
		if err != nil {
			return nil, &ParseError{Path: path, Line: c.Lines[i], Msg: err.Error()}
		}
		out[i] = v
	}
	return out, nil
}

// Classes numbers the distinct non-missing values 0..C−1 (integers in
// ascending order when every value is an integer, else in order of first
// appearance) and returns each row's class, −1 where missing, with the
// value of every class.
func (c *ValueColumn) Classes() (classes []int, names []string) {
	allInt := true
	for _, s := range c.Values {
		if s == "" {
			continue
		}
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			allInt = false
			break
		}
	}
	index := map[string]int{}
	if allInt {
		var vals []int64
		seen := map[int64]bool{}
		for _, s := range c.Values {
			if s == "" {
				continue
			}
			v, _ := strconv.ParseInt(s, 10, 64)
			if !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
		slices.Sort(vals)
		for k, v := range vals {
			s := strconv.FormatInt(v, 10)
			index[s] = k
			names = append(names, s)
		}
	}
	classes = make([]int, len(c.Values))
	for i, s := range c.Values {
		if s == "" {
			classes[i] = -1
			continue
		}
		if allInt {
			v, _ := strconv.ParseInt(s, 10, 64)
			s = strconv.FormatInt(v, 10) // "07" and "7" are one class
		}
		k, ok := index[s]
		if !ok {
			k = len(names)
			index[s] = k
			names = append(names, s)
		}
		classes[i] = k
	}
	return classes, names
}
