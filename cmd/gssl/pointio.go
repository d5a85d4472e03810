package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
)

// pointInput is the user's point data of the point-level model commands
// (gp, imgp, falkon, svm): features, one target or class per row, and the
// points to predict.
type pointInput struct {
	Features     string // training (and, for rows without a target, to-predict) points
	Targets      string // one value per row of Features; blank = unknown (predicted)
	TestFeatures string // further points to predict
	TestTargets  string // their values, to score the predictions
	IDs          string // the id column of the feature (and target) files, by name or 1-based position
}

// addFlags registers the flags; what is "targets" (regression) or "labels"
// (classification).
func (in *pointInput) addFlags(f *pflag.FlagSet, what string) {
	f.StringVar(&in.Features, "features", "", "points, one per row: CSV/TSV/whitespace with an optional header, or NumPy .npy/.npz")
	f.StringVar(&in.Targets, what, "", "one "+strings.TrimSuffix(what, "s")+" per row of --features (a column, optionally with a header, or id and value with --ids; or a 1-D .npy); a blank value marks a point to predict")
	f.StringVar(&in.TestFeatures, "test-features", "", "further points to predict, same columns as --features")
	f.StringVar(&in.TestTargets, "test-"+what, "", "the true "+what+" of --test-features, to score the predictions")
	f.StringVar(&in.IDs, "ids", "", "column of the feature files (and of the "+what+" files) holding each point's id, by header name or 1-based position; default: the row number")
}

// given reports whether any point file is named.
func (in *pointInput) given() bool {
	return in.Features != "" || in.Targets != "" || in.TestFeatures != "" || in.TestTargets != ""
}

// pointData is the user's points, read and checked.
type pointData struct {
	Name     string
	X        *mat.Dense // training rows (all of --features)
	Values   []string   // the raw value of every row of X, "" where unknown
	XTest    *mat.Dense // --test-features, or nil
	TestVals []string   // the raw values of --test-targets, or nil
	IDs      []string   // ids of X's rows
	TestIDs  []string   // ids of XTest's rows
}

// readFeatures reads a feature file: NumPy .npy (a 2-D or higher array) or
// .npz (numpy.savez of one array), else a text table (loaders.ReadPointTable).
func readFeatures(flag, path, ids string) (*loaders.PointTable, error) {
	ext := streamExt(path, strings.ToLower(filepath.Ext(path)))
	if ext == ".npy" || ext == ".npz" {
		if ids != "" {
			return nil, fmt.Errorf("--%s %s: a NumPy array has no id column; drop --ids (rows are numbered from 0)", flag, path)
		}
		var x *mat.Dense
		var err error
		if ext == ".npy" {
			x, err = loaders.ReadNPY(path)
		} else {
			var sp *loaders.Sparse
			sp, x, err = loaders.ReadNPZFeatures(path)
			if err == nil && sp != nil {
				return nil, fmt.Errorf("--%s %s: a SciPy sparse matrix; the point commands need dense features (scipy: numpy.save(path, m.toarray()))", flag, path)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", flag, err)
		}
		t := &loaders.PointTable{X: x}
		return t, checkPointMagnitude(flag, path, t)
	}
	t, err := loaders.ReadPointTable(path, ids)
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", flag, err)
	}
	return t, checkPointMagnitude(flag, path, t)
}

// readValues reads a target or label file and matches it to the points'
// rows: one value per row, in the same order (and with the same ids, when
// both files have an id column). A .npy file holds the values as a 1-D
// array (NaN, or −1 for labels, marks a point to predict).
func readValues(flag, path, ids string, rows int, rowIDs []string) ([]string, error) {
	var c *loaders.ValueColumn
	if strings.EqualFold(streamExt(path, filepath.Ext(path)), ".npy") {
		var vals []string
		if strings.Contains(flag, "label") {
			ls, err := loaders.ReadNPYLabels(path)
			if err != nil {
				return nil, fmt.Errorf("--%s: %w", flag, err)
			}
			for _, l := range ls {
				vals = append(vals, map[bool]string{true: "", false: strconv.Itoa(l)}[l == -1])
			}
		} else {
			vs, err := loaders.ReadNPYVector(path)
			if err != nil {
				return nil, fmt.Errorf("--%s: %w", flag, err)
			}
			for _, v := range vs {
				vals = append(vals, map[bool]string{true: "", false: strconv.FormatFloat(v, 'g', -1, 64)}[math.IsNaN(v)])
			}
		}
		c = &loaders.ValueColumn{Values: vals}
	} else {
		var err error
		if c, err = loaders.ReadValueColumn(path, ids); err != nil {
			return nil, fmt.Errorf("--%s: %w", flag, err)
		}
	}
	if len(c.Values) != rows {
		return nil, fmt.Errorf("--%s %s: %d values for %d points; give one per point, in the same order", flag, path, len(c.Values), rows)
	}
	if c.IDs != nil && rowIDs != nil {
		for i := range c.IDs {
			if c.IDs[i] != rowIDs[i] {
				return nil, fmt.Errorf("--%s %s:%d: id %q, but point %d of the features has id %q; the rows must be in the same order", flag, path, c.Lines[i], c.IDs[i], i, rowIDs[i])
			}
		}
	}
	return c.Values, nil
}

// load reads the files; what names the value flag ("targets" or "labels").
func (in *pointInput) load(what string) (*pointData, error) {
	if in.Features == "" {
		return nil, fmt.Errorf("--features is needed with --%s, --test-features or --test-%s", what, what)
	}
	if in.Targets == "" {
		return nil, fmt.Errorf("--%s is needed with --features: one value per point (blank for the points to predict)", what)
	}
	if in.TestTargets != "" && in.TestFeatures == "" {
		return nil, fmt.Errorf("--test-%s needs --test-features", what)
	}
	tr, err := readFeatures("features", in.Features, in.IDs)
	if err != nil {
		return nil, err
	}
	d := &pointData{Name: in.Features, X: tr.X, IDs: tr.IDs}
	n, dim := tr.X.Dims()
	if d.IDs == nil {
		d.IDs = rowNumbers(n)
	}
	if d.Values, err = readValues(what, in.Targets, in.IDs, n, tr.IDs); err != nil {
		return nil, err
	}
	if in.TestFeatures != "" {
		te, err := readFeatures("test-features", in.TestFeatures, in.IDs)
		if err != nil {
			return nil, err
		}
		if _, c := te.X.Dims(); c != dim {
			return nil, fmt.Errorf("--test-features %s: %d columns, but --features %s has %d", in.TestFeatures, c, in.Features, dim)
		}
		d.XTest, d.TestIDs = te.X, te.IDs
		m, _ := te.X.Dims()
		if d.TestIDs == nil {
			d.TestIDs = rowNumbers(m)
		}
		if in.TestTargets != "" {
			if d.TestVals, err = readValues("test-"+what, in.TestTargets, in.IDs, m, te.IDs); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

func rowNumbers(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i)
	}
	return ids
}

// floatValues parses regression targets, NaN where unknown.
func floatValues(flag, path string, vals []string) ([]float64, error) {
	out := make([]float64, len(vals))
	for i, s := range vals {
		if s == "" {
			out[i] = math.NaN()
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("--%s %s: value %q of point %d is not a finite number", flag, path, s, i)
		}
		if math.Abs(v) > maxMagnitude {
			return nil, fmt.Errorf("--%s %s: value %g of point %d is beyond %g, where squared errors overflow; scale the values", flag, path, v, i, maxMagnitude)
		}
		out[i] = v
	}
	return out, nil
}

// renamedFlag registers old as a hidden alias of the flag named new (which
// must already be defined): using it prints a deprecation notice on the
// command's stderr and then sets new.
func renamedFlag(cmd *cobra.Command, old, new string) {
	f := cmd.Flags()
	target := f.Lookup(new)
	if target == nil {
		panic("renamedFlag: no flag --" + new)
	}
	f.Var(&aliasValue{cmd: cmd, flags: f, old: old, new: new}, old, "deprecated: use --"+new)
	f.Lookup(old).NoOptDefVal = target.NoOptDefVal
	_ = f.MarkHidden(old)
}

type aliasValue struct {
	cmd      *cobra.Command
	flags    *pflag.FlagSet
	old, new string
}

func (a *aliasValue) String() string { return "" }
func (a *aliasValue) Type() string   { return a.flags.Lookup(a.new).Value.Type() }
func (a *aliasValue) Set(s string) error {
	fmt.Fprintf(a.cmd.ErrOrStderr(), "gssl %s: --%s is deprecated; use --%s\n", a.cmd.Name(), a.old, a.new)
	return a.flags.Set(a.new, s)
}

// Memory limits of dense paths (#16): a dense n×n matrix is refused above
// --max-memory, with the sparse or low-rank alternative named.

// defaultMemoryFraction of physical memory is the default --max-memory.
const defaultMemoryFraction = 0.5

// fallbackMemory is the default --max-memory where physical memory is
// unknown.
const fallbackMemory = 4 << 30

// physicalMemory returns the machine's memory in bytes (MemTotal of
// /proc/meminfo), or 0 when unknown.
func physicalMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				if err == nil && kb > 0 {
					return kb << 10
				}
			}
		}
	}
	return 0
}

// defaultMaxMemory is the --max-memory default: half of physical memory,
// or of the address-space limit (ulimit -v) when that is smaller.
func defaultMaxMemory() string {
	m := physicalMemory()
	if as := addressSpaceLimit(); as > 0 && (m == 0 || as < m) {
		m = as
	}
	if m > 0 {
		return formatBytes(int64(defaultMemoryFraction * float64(m)))
	}
	return formatBytes(fallbackMemory)
}

// parseBytes reads a memory size: a number with an optional unit (B, KB,
// MB, GB, TB, powers of 1024; KiB… accepted too).
func parseBytes(flag, s string) (int64, error) {
	if s == "" {
		s = defaultMaxMemory() // the flag's default, for callers that build options by hand
	}
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range []struct {
		suffix string
		m      float64
	}{{"TIB", 1 << 40}, {"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) || v*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("--%s %q is invalid: give a positive size such as 8GB or 512MB", flag, s)
	}
	return int64(v * mult), nil
}

func formatBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return strconv.FormatFloat(float64(b)/(1<<30), 'f', 1, 64) + "GB"
	case b >= 1<<20:
		return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) + "MB"
	}
	return strconv.FormatInt(b, 10) + "B"
}

// errTooMuchMemory is wrapped by the memory refusals.
var errTooMuchMemory = errors.New("above the memory limit")

// checkMemory refuses a dense allocation of need bytes (what describes it)
// above the limit, naming the flag and the alternative.
func checkMemory(need, limit int64, what, alternative string) error {
	if need <= limit {
		return nil
	}
	return fmt.Errorf("%s take %s, %w --max-memory %s; %s (or raise --max-memory)", what, formatBytes(need), errTooMuchMemory, formatBytes(limit), alternative)
}

// subRows copies the rows idx of x.
func subRows(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(max(len(idx), 1), d, nil)
	if len(idx) == 0 {
		return out.Slice(0, 0, 0, d).(*mat.Dense)
	}
	for p, i := range idx {
		copy(out.RawRowView(p), x.RawRowView(i))
	}
	return out
}
