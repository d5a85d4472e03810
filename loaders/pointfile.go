package loaders

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/nodeids"
)

// ReadPointMatrix reads dense points, one per row: NumPy .npy (a 2-D or
// higher array) or .npz (numpy.savez of one dense array), else a text
// table (ReadPointTable without an id column). A SciPy sparse matrix is
// refused, as is a value beyond estimator.MaxMagnitude (NaN included).
func ReadPointMatrix(path string) (*PointTable, error) {
	var t *PointTable
	switch StreamExt(path, strings.ToLower(filepath.Ext(path))) {
	case ".npy":
		x, err := ReadNPY(path)
		if err != nil {
			return nil, err
		}
		t = &PointTable{X: x}
	case ".npz":
		sp, x, err := ReadNPZFeatures(path)
		if err != nil {
			return nil, err
		}
		if sp != nil {
			return nil, fmt.Errorf("%s: a SciPy sparse matrix; the point commands need dense features (scipy: numpy.save(path, m.toarray()))", path)
		}
		t = &PointTable{X: x}
	default:
		var err error
		if t, err = ReadPointTable(path, ""); err != nil {
			return nil, err
		}
	}
	return t, checkMagnitudes(path, t.X)
}

// checkMagnitudes refuses a value of x beyond estimator.MaxMagnitude (NaN
// included), naming its 1-based row and column.
func checkMagnitudes(path string, x *mat.Dense) error {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		for j, v := range x.RawRowView(i)[:c] {
			if !(math.Abs(v) <= estimator.MaxMagnitude) {
				return fmt.Errorf("%s: row %d, column %d: %g is beyond %g, where kernel distances and norms overflow; scale the features", path, i+1, j+1, v, estimator.MaxMagnitude)
			}
		}
	}
	return nil
}

// Points are the rows of a features file with their ids.
type Points struct {
	X   *mat.Dense
	IDs *nodeids.Map // the rows' ids: an ids file, the table's id column, else 0, 1, …
	// Report says how the file was read.
	Report TableReport
}

// ReadPoints reads dense points (ReadPointMatrix's formats) whose rows are
// the nodes of a graph to be built from them, with their ids: those of
// idsPath (one per line) when given, else those of a CSV table's first
// column when the header names it id, node, name, index, node_id or nodeid
// or when it holds names rather than numbers, else the row numbers 0, 1, ….
// NaN and infinite values are errors naming the row and column.
func ReadPoints(path, idsPath string) (*Points, error) {
	t, idCol, err := readPointRows(path)
	if err != nil {
		return nil, err
	}
	n, d := t.X.Dims()
	raw := t.X.RawMatrix()
	for i := 0; i < n; i++ {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s: row %d, column %d is %v; a K-nearest-neighbour graph needs finite features (drop or impute the row)", path, i, j, v)
			}
		}
	}
	p := &Points{X: t.X, IDs: nodeids.Identity(n), Report: TableReport{Path: path, Role: "features", Format: "table", ID: "the row number (row i is node i)"}}
	if ext := StreamExt(path, strings.ToLower(filepath.Ext(strings.TrimSuffix(path, ".gz")))); ext == ".npy" || ext == ".npz" {
		p.Report.Format = ext[1:]
	}
	switch {
	case idsPath != "":
		lines, err := ReadIDLines(idsPath)
		if err != nil {
			return nil, err
		}
		if len(lines) != n {
			return nil, fmt.Errorf("--feature-ids %s lists %d ids for the %d rows of --features %s", idsPath, len(lines), n, path)
		}
		if p.IDs, err = nodeids.FromStrings(lines); err != nil {
			return nil, fmt.Errorf("%s: %w", idsPath, err)
		}
		p.Report.ID = "the lines of " + idsPath
	case t.IDs != nil:
		if p.IDs, err = nodeids.FromStrings(t.IDs); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		p.Report.ID = idCol
	}
	return p, nil
}

// readPointRows reads the dense rows of a points file, taking a table's
// first column as ids when its header names it so or it holds names.
func readPointRows(path string) (*PointTable, string, error) {
	if ext := StreamExt(path, strings.ToLower(filepath.Ext(strings.TrimSuffix(path, ".gz")))); ext == ".npy" || ext == ".npz" {
		t, err := ReadPointMatrix(path)
		return t, "", err
	}
	const idCol = "column 1"
	t, err := ReadPointTable(path, "")
	if err != nil {
		// A first column of ids: retry with it as the id column when the
		// header names it so or it holds names.
		t2, err2 := ReadPointTable(path, "1")
		switch {
		case err2 == nil && ((len(t2.IDs) > 0 && allText(t2.IDs)) || hasIDHeader(path)):
			return t2, idCol, nil
		case err2 != nil && hasIDHeader(path):
			return nil, "", err2
		}
		return nil, "", err
	}
	if t.Columns != nil && isIDColumn(t.Columns[0]) {
		t, err = ReadPointTable(path, "1")
		return t, idCol, err
	}
	return t, "", nil
}

// hasIDHeader reports whether the table's first line is a header whose
// first column is named as an id column.
func hasIDHeader(path string) bool {
	f, err := inputfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimPrefix(strings.TrimSpace(sc.Text()), "\ufeff")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		first := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == '\t' || r == ';' || r == ' ' })
		return len(first) > 0 && isIDColumn(strings.Trim(first[0], `"'`))
	}
	return false
}

// pointIDColumnNames are the header names of a points table's id column.
var pointIDColumnNames = []string{"id", "node", "name", "index", "node_id", "nodeid"}

func isIDColumn(name string) bool {
	return slices.Contains(pointIDColumnNames, strings.ToLower(strings.TrimSpace(name)))
}

// ReadPointValues reads labels (classes set) or regression targets for
// the points ids names: a NumPy vector or one value per line (row i is
// point i; −1 or NaN in a vector, or an empty line, is "unknown"), or an
// "id,value" table naming the points by id. features names the points'
// file in messages.
func ReadPointValues(path string, ids *nodeids.Map, features string, classes bool) ([]string, error) {
	n := ids.Len()
	c, err := readValueFile(path, "", classes)
	if err != nil {
		var err2 error
		if c, err2 = readValueFile(path, "1", classes); err2 != nil || c.IDs == nil {
			return nil, err
		}
	}
	if c.IDs == nil {
		if len(c.Values) != n && c.Report.Format == "npy" {
			return nil, fmt.Errorf("%s: %d values for %d points; give one per point, in the same order (%s has %d rows)", path, len(c.Values), n, features, n)
		} else if len(c.Values) != n {
			return nil, fmt.Errorf("%s: %d values for the %d rows of %s; give one per row, in the same order (or an id,value table)", path, len(c.Values), n, features)
		}
		return c.Values, nil
	}
	out := make([]string, n)
	seen := make([]int, n)
	for k, id := range c.IDs {
		i, ok := ids.Lookup(id)
		if !ok {
			return nil, fmt.Errorf("%s:%d: id %q names no row of %s (ids like %s)", path, c.Lines[k], id, features, exampleIDs(ids))
		}
		if seen[i] > 0 {
			return nil, fmt.Errorf("%s:%d: id %q was given a value on line %d already", path, c.Lines[k], id, seen[i])
		}
		seen[i] = c.Lines[k]
		out[i] = c.Values[k]
	}
	return out, nil
}

// readValueFile reads one value per point: a NumPy vector (readNPYValues:
// entry i is point i) or a value column (ReadValueColumn with idColumn).
func readValueFile(path, idColumn string, classes bool) (*ValueColumn, error) {
	if !strings.EqualFold(StreamExt(path, filepath.Ext(path)), ".npy") {
		return ReadValueColumn(path, idColumn)
	}
	vals, err := readNPYValues(path, classes)
	if err != nil {
		return nil, err
	}
	return &ValueColumn{Values: vals, Report: TableReport{Path: path, Format: "npy", ID: "the entry's index (entry i is point i)", Label: "the array's values"}}, nil
}

// readNPYValues reads a NumPy vector of labels (−1: unknown) or of
// targets (NaN: unknown) as text, "" for unknown.
func readNPYValues(path string, classes bool) ([]string, error) {
	var vals []string
	if classes {
		ls, err := ReadNPYLabels(path)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			s := ""
			if l != -1 {
				s = strconv.Itoa(l)
			}
			vals = append(vals, s)
		}
		return vals, nil
	}
	vs, err := ReadNPYVector(path)
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		s := ""
		if !math.IsNaN(v) {
			s = strconv.FormatFloat(v, 'g', -1, 64)
		}
		vals = append(vals, s)
	}
	return vals, nil
}

func exampleIDs(ids *nodeids.Map) string {
	var ex []string
	for i := 0; i < min(3, ids.Len()); i++ {
		ex = append(ex, strconv.Quote(ids.ID(i)))
	}
	return strings.Join(ex, ", ")
}

// ReadIDLines reads one id per line: a BOM at the start, a trailing \r and
// blank lines at the end are dropped; a blank line elsewhere is an error.
func ReadIDLines(path string) ([]string, error) {
	b, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimPrefix(string(b), "\ufeff"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(lines[i]) == "" {
			return nil, fmt.Errorf("%s, line %d: a blank line; every line names one row's node", path, i+1)
		}
	}
	return lines, nil
}

// PointsDataset is the node data set whose nodes are the rows of p (its
// graph is the caller's to build from them, as knngraph.FromPoints does):
// the points as dense features, and the labels and targets files, when
// named, matched to the rows by ReadPointValues. Errors name the file.
func PointsDataset(p *Points, name, labels, targets string) (*NodeDataset, error) {
	ds := &NodeDataset{Name: name, IDs: p.IDs, DenseFeatures: p.X, Reports: []TableReport{p.Report}}
	if labels != "" {
		vals, err := ReadPointValues(labels, p.IDs, "--features "+p.Report.Path, true)
		if err != nil {
			return nil, err
		}
		ds.Labels, ds.ClassNames = ClassesOf(vals)
		ds.Classes = len(ds.ClassNames)
	}
	if targets != "" {
		vals, err := ReadPointValues(targets, p.IDs, "--features "+p.Report.Path, false)
		if err == nil {
			ds.Targets, err = ParseTargets(targets, vals)
		}
		if err != nil {
			return nil, err
		}
	}
	return ds, nil
}
