package loaders

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// PointFiles names the files of a point data set as the point models (gp,
// imgp, krr, svm) take it: the points, one value per point (a class or a
// regression target; blank where unknown, those points are predicted), and
// optionally further points to predict with their true values.
type PointFiles struct {
	Features     string // points, one per row: a text table (ReadPointTable), .npy or .npz
	Values       string // one value per row of Features (ReadRowValues)
	TestFeatures string // further points to predict, with Features' columns; optional
	TestValues   string // their true values, to score the predictions; needs TestFeatures
	// IDColumn names the id column of the text files, by header name or
	// 1-based position; empty numbers the rows from 0.
	IDColumn string
	// Labels says the values are classes (a .npy holds integers, −1
	// unknown); otherwise they are numbers (a .npy holds floats, NaN
	// unknown).
	Labels bool
}

// PointSet is a PointFiles read and checked: every feature finite and of
// magnitude at most estimator.MaxMagnitude, one value per point with the
// points' ids in the same order.
type PointSet struct {
	Name       string     // the features file
	X          *mat.Dense // every row of Features
	Values     []string   // the value of every row of X as written, "" where unknown
	XTest      *mat.Dense // TestFeatures, or nil
	TestValues []string   // the values of TestValues, or nil
	IDs        []string   // ids of X's rows (row numbers without IDColumn)
	TestIDs    []string   // ids of XTest's rows
	// Targets and TestTargets are Values and TestValues as numbers (NaN
	// where unknown; ParseTargets) when the values are not Labels.
	Targets, TestTargets []float64
	// Reports says how each file was read: Features, Values, then
	// TestFeatures and TestValues when given. Their roles are "features",
	// "labels" or "targets", "test-features", "test-labels" or
	// "test-targets".
	Reports []TableReport
}

// PointFileError is an error in one file of a PointFiles (Err names the
// file); Field names the PointFiles field that holds it ("Features",
// "Values", "TestFeatures" or "TestValues").
type PointFileError struct {
	Field string
	Err   error
}

func (e *PointFileError) Error() string { return e.Field + ": " + e.Err.Error() }

func (e *PointFileError) Unwrap() error { return e.Err }

// ReadPointSet reads the files f names. Features and Values are required,
// TestValues only with TestFeatures, whose columns must be those of
// Features.
func ReadPointSet(f PointFiles) (*PointSet, error) {
	switch {
	case f.Features == "":
		return nil, errors.New("loaders: PointFiles.Features is empty: the values need the points they describe")
	case f.Values == "":
		return nil, errors.New("loaders: PointFiles.Values is empty: give one value per point (blank for the points to predict)")
	case f.TestValues != "" && f.TestFeatures == "":
		return nil, errors.New("loaders: PointFiles.TestValues needs TestFeatures")
	}
	fail := func(field string, err error) error { return &PointFileError{Field: field, Err: err} }
	what := "targets"
	if f.Labels {
		what = "labels"
	}
	tr, err := ReadPointFeatures(f.Features, f.IDColumn)
	if err != nil {
		return nil, fail("Features", err)
	}
	n, dim := tr.X.Dims()
	s := &PointSet{Name: f.Features, X: tr.X, IDs: orRowNumbers(tr.IDs, n)}
	vc, err := readRowValues(f.Values, f.IDColumn, f.Labels, n, tr.IDs)
	if err != nil {
		return nil, fail("Values", err)
	}
	s.Values, s.Reports = vc.Values, []TableReport{tr.Report, vc.Report}
	s.Reports[1].Role = what
	if !f.Labels {
		if s.Targets, err = ParseTargets(f.Values, s.Values); err != nil {
			return nil, fail("Values", err)
		}
	}
	if f.TestFeatures == "" {
		return s, nil
	}
	te, err := ReadPointFeatures(f.TestFeatures, f.IDColumn)
	if err != nil {
		return nil, fail("TestFeatures", err)
	}
	m, c := te.X.Dims()
	if c != dim {
		return nil, fail("TestFeatures", fmt.Errorf("loaders: %s: %d columns, but the features %s have %d", f.TestFeatures, c, f.Features, dim))
	}
	s.XTest, s.TestIDs = te.X, orRowNumbers(te.IDs, m)
	te.Report.Role = "test-features"
	s.Reports = append(s.Reports, te.Report)
	if f.TestValues != "" {
		tv, err := readRowValues(f.TestValues, f.IDColumn, f.Labels, m, te.IDs)
		if err != nil {
			return nil, fail("TestValues", err)
		}
		s.TestValues = tv.Values
		tv.Report.Role = "test-" + what
		s.Reports = append(s.Reports, tv.Report)
		if !f.Labels {
			if s.TestTargets, err = ParseTargets(f.TestValues, s.TestValues); err != nil {
				return nil, fail("TestValues", err)
			}
		}
	}
	return s, nil
}

// RowNumbers returns "0", "1", …, "n−1": the ids of rows without an id
// column.
func RowNumbers(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i)
	}
	return ids
}

func orRowNumbers(ids []string, n int) []string {
	if ids == nil {
		return RowNumbers(n)
	}
	return ids
}

// ReadPointFeatures reads a file of points, one per row: a NumPy .npy (a
// 2-D or higher array) or .npz (numpy.savez of one dense array), else a
// text table (ReadPointTable with idColumn). A NumPy file has no id column,
// so idColumn must then be empty. Every value must be finite and of
// magnitude at most estimator.MaxMagnitude (kernel distances square the
// features); the error names the row and column of the first that is not.
func ReadPointFeatures(path, idColumn string) (*PointTable, error) {
	ext := StreamExt(path, strings.ToLower(filepath.Ext(path)))
	var t *PointTable
	switch {
	case ext == ".npy" || ext == ".npz":
		if idColumn != "" {
			return nil, fmt.Errorf("loaders: %s: a NumPy array has no id column; drop the id column (rows are numbered from 0)", path)
		}
		var x *mat.Dense
		var err error
		if ext == ".npy" {
			x, err = ReadNPY(path)
		} else {
			var sp *Sparse
			sp, x, err = ReadNPZFeatures(path)
			if err == nil && sp != nil {
				return nil, fmt.Errorf("loaders: %s: a SciPy sparse matrix; the point models need dense features (scipy: numpy.save(path, m.toarray()))", path)
			}
		}
		if err != nil {
			return nil, err
		}
		t = &PointTable{X: x, Report: TableReport{Path: path, Role: "features", Format: ext[1:], ID: "the row number (row i is point i)"}}
	default:
		var err error
		if t, err = ReadPointTable(path, idColumn); err != nil {
			return nil, err
		}
	}
	r, c := t.X.Dims()
	for i := 0; i < r; i++ {
		for j, v := range t.X.RawRowView(i)[:c] {
			if !(math.Abs(v) <= estimator.MaxMagnitude) {
				return nil, fmt.Errorf("loaders: %s: row %d, column %d: %g is beyond %g, where kernel distances and norms overflow; scale the features", path, i+1, j+1, v, estimator.MaxMagnitude)
			}
		}
	}
	return t, nil
}

// ReadRowValues reads one value per point (ReadValueColumn with
// idColumn, or a 1-D .npy: integers with −1 unknown when labels is true,
// else floats with NaN unknown) and checks it against the points: rows
// values in the same order, with the ids rowIDs when both files have ids.
// Unknown values are "".
func ReadRowValues(path, idColumn string, labels bool, rows int, rowIDs []string) ([]string, error) {
	c, err := readRowValues(path, idColumn, labels, rows, rowIDs)
	if err != nil {
		return nil, err
	}
	return c.Values, nil
}

// readRowValues is ReadRowValues with the column's report.
func readRowValues(path, idColumn string, labels bool, rows int, rowIDs []string) (*ValueColumn, error) {
	c, err := readValueFile(path, idColumn, labels)
	if err != nil {
		return nil, err
	}
	if len(c.Values) != rows {
		return nil, fmt.Errorf("loaders: %s: %d values for %d points; give one per point, in the same order", path, len(c.Values), rows)
	}
	if c.IDs != nil && rowIDs != nil {
		for i := range c.IDs {
			if c.IDs[i] != rowIDs[i] {
				return nil, fmt.Errorf("loaders: %s:%d: id %q, but point %d of the features has id %q; the rows must be in the same order", path, c.Lines[i], c.IDs[i], i, rowIDs[i])
			}
		}
	}
	return c, nil
}

// ParseTargets parses regression targets as ReadRowValues returns them:
// NaN where unknown (""), else a finite number of magnitude at most
// estimator.MaxMagnitude (squared errors overflow beyond). path names the
// file in errors.
func ParseTargets(path string, vals []string) ([]float64, error) {
	out := make([]float64, len(vals))
	for i, s := range vals {
		if s == "" {
			out[i] = math.NaN()
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("loaders: %s: value %q of point %d is not a finite number", path, s, i)
		}
		if math.Abs(v) > estimator.MaxMagnitude {
			return nil, fmt.Errorf("loaders: %s: value %g of point %d is beyond %g, where squared errors overflow; scale the values", path, v, i, estimator.MaxMagnitude)
		}
		out[i] = v
	}
	return out, nil
}

// ReadLabelledPoints reads a table of points whose last column is an
// integer class ≥ 0 (ReadDense: CSV or whitespace, optional header): the
// coordinates and the classes.
func ReadLabelledPoints(path string) (*mat.Dense, []int, error) {
	all, err := ReadDense(path)
	if err != nil {
		return nil, nil, err
	}
	n, c := all.Dims()
	if c < 2 {
		return nil, nil, fmt.Errorf("loaders: %s: %d column, want the coordinates and then the class", path, c)
	}
	labels := make([]int, n)
	for i := range labels {
		v := all.At(i, c-1)
		if v != math.Trunc(v) || v < 0 || v > math.MaxInt32 {
			return nil, nil, fmt.Errorf("loaders: %s: data row %d: class %v in the last column is not a non-negative integer", path, i+1, v)
		}
		labels[i] = int(v)
	}
	return mat.DenseCopyOf(all.Slice(0, n, 0, c-1)), labels, nil
}
