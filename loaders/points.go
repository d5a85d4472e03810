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
	t := &PointTable{}
	var (
		data       []float64
		cols       int // fields per row
		idAt       = -1
		first      = true
		headerLine int
		idName     string
	)
	if idColumn != "" {
		if p, err := strconv.Atoi(idColumn); err == nil {
			if p < 1 {
				return nil, lr.fileErrorf("id column %d is invalid: positions start at 1", p)
			}
			idAt = p - 1
		}
	}
	err := lr.eachLine("#", blankTrailing, func(s string) error {
		f := splitFields(s)
		if first {
			first = false
			cols = len(f)
			if idColumn != "" && idAt < 0 {
				// A named id column needs a header.
				for j, x := range f {
					if x == idColumn {
						idAt = j
					}
				}
				if idAt < 0 {
					return fmt.Errorf("no column named %q in the header %q (give the id column by name or 1-based position)", idColumn, s)
				}
			}
			if idAt >= cols {
				return fmt.Errorf("id column %d is beyond the %d columns", idAt+1, cols)
			}
			if idAt >= 0 && cols < 2 {
				return fmt.Errorf("only the id column; the points need at least one value column")
			}
			if isHeaderExcept(f, idAt) {
				headerLine = lr.line
				for j, x := range f {
					if j != idAt {
						t.Columns = append(t.Columns, x)
					} else {
						idName = x
					}
				}
				return nil
			}
			if idColumn != "" && idAt >= 0 && headerLine == 0 {
				if _, err := strconv.Atoi(idColumn); err != nil {
					return fmt.Errorf("the id column %q is named but the first line is not a header", idColumn)
				}
			}
		}
		if len(f) != cols {
			what := "the first line"
			if headerLine != 0 {
				what = fmt.Sprintf("the header on line %d", headerLine)
			}
			return fmt.Errorf("row has %d fields, want %d like %s", len(f), cols, what)
		}
		for j, x := range f {
			if j == idAt {
				if x == "" {
					return fmt.Errorf("empty id in column %d", j+1)
				}
				t.IDs = append(t.IDs, x)
				continue
			}
			v, err := parseFinite(x, "value")
			if err != nil {
				return fmt.Errorf("column %d: %v", j+1, err)
			}
			data = append(data, v)
		}
		t.Lines = append(t.Lines, lr.line)
		return nil
	})
	if err != nil {
		return nil, err
	}
	n := len(t.Lines)
	if n == 0 {
		return nil, lr.fileErrorf("no data rows")
	}
	d := cols
	if idAt >= 0 {
		d--
	}
	t.X = mat.NewDense(n, d, data)
	t.Report = TableReport{Path: lr.path, Role: "features", Format: "table", Header: "none (the first line holds numbers)",
		ID: "the row number (row i is point i)", Note: fmt.Sprintf("%d feature columns", d)}
	if headerLine != 0 {
		t.Report.Header = fmt.Sprintf("line %d: no field but the id is a number", headerLine)
		if d <= 8 {
			t.Report.Note += ": " + strings.Join(t.Columns, ", ")
		}
	}
	if idAt >= 0 {
		t.Report.ID = columnRef(idAt, headerLine != 0, idName)
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
	c := &ValueColumn{}
	idAt := -1
	named := false
	if idColumn != "" {
		if p, err := strconv.Atoi(idColumn); err == nil {
			if p < 1 || p > 2 {
				return nil, lr.fileErrorf("id column %d is invalid: a value file has two columns, the id and the value", p)
			}
			idAt = p - 1
		} else {
			named = true
		}
	}
	want := 1
	if idColumn != "" {
		want = 2
	}
	var pending []string // a possible header, decided by the next line
	pendingLine, headerLine := 0, 0
	row := 0
	add := func(f []string, line int) {
		for j, x := range f {
			if j == idAt {
				c.IDs = append(c.IDs, x)
			} else {
				c.Values = append(c.Values, missingAsEmpty(x))
			}
		}
		c.Lines = append(c.Lines, line)
	}
	valueOf := func(f []string) string {
		if idAt == 0 {
			return f[1]
		}
		return f[0]
	}
	err := lr.eachLine("#", blankTrailing, func(s string) error {
		f := splitFields(s)
		if row == 0 && want == 2 && len(f) == 1 {
			// The id column is in the feature file only: values alone.
			want, idAt, named = 1, -1, false
		}
		if want == 1 && !strings.ContainsAny(s, ",\t") {
			f = []string{strings.TrimSpace(s)} // a class name may hold spaces
		}
		if len(f) != want {
			return fmt.Errorf("%d fields, want %d (%s)", len(f), want, map[int]string{1: "the value", 2: "the id and the value"}[want])
		}
		row++
		if row == 1 {
			if named {
				for j, x := range f {
					if x == idColumn {
						idAt = j
					}
				}
				if idAt < 0 {
					return fmt.Errorf("no column named %q in the header %q", idColumn, s)
				}
				c.Name, headerLine = f[1-idAt], lr.line
				return nil
			}
			v := valueOf(f)
			for _, h := range valueHeaderNames {
				if strings.EqualFold(v, h) {
					c.Name, headerLine = v, lr.line
					return nil
				}
			}
			if !isNumber(v) && missingAsEmpty(v) != "" {
				pending, pendingLine = f, lr.line
				return nil
			}
		}
		if pending != nil {
			if isNumber(valueOf(f)) {
				c.Name, headerLine = valueOf(pending), pendingLine
			} else {
				add(pending, pendingLine)
			}
			pending = nil
		}
		if idAt >= 0 && f[idAt] == "" {
			return fmt.Errorf("empty id in column %d", idAt+1)
		}
		add(f, lr.line)
		return nil
	})
	if pe := (*ParseError)(nil); errors.As(err, &pe) && strings.HasPrefix(pe.Msg, blankLineMsg) {
		// pandas writes a missing value as an empty line (to_csv's na_rep
		// is ""); say how to mark one instead.
		pe.Msg += `; mark a missing value with NA, nan or ? (pandas: to_csv(na_rep="NA"))`
	}
	if err != nil {
		return nil, err
	}
	if pending != nil {
		add(pending, pendingLine)
	}
	if len(c.Values) == 0 {
		return nil, lr.fileErrorf("no values")
	}
	c.Report = TableReport{Path: lr.path, Role: "values", Format: "table", Header: "none (the first line holds a value)",
		ID: "the line's order (line i is point i)", Label: "column 1"}
	if c.Name != "" {
		c.Report.Header = fmt.Sprintf("line %d: %q names the value column", headerLine, c.Name)
	}
	if idAt >= 0 {
		c.Report.ID, c.Report.Label = columnRef(idAt, false, ""), columnRef(1-idAt, c.Name != "", c.Name)
		if named {
			c.Report.ID = columnRef(idAt, true, idColumn)
		}
	} else if c.Name != "" {
		c.Report.Label = columnRef(0, true, c.Name)
	}
	return c, nil
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
