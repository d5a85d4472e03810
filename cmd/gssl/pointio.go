package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
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

// files are the loaders' names of the files; what names the value flag
// ("targets" or "labels").
func (in *pointInput) files(what string) loaders.PointFiles {
	return loaders.PointFiles{Features: in.Features, Values: in.Targets, TestFeatures: in.TestFeatures, TestValues: in.TestTargets,
		IDColumn: in.IDs, Labels: what == "labels"}
}

// load reads the files; what names the value flag ("targets" or "labels").
func (in *pointInput) load(what string) (*loaders.PointSet, error) {
	switch {
	case in.Features == "":
		return nil, fmt.Errorf("--features is needed with --%s, --test-features or --test-%s", what, what)
	case in.Targets == "":
		return nil, fmt.Errorf("--%s is needed with --features: one value per point (blank for the points to predict)", what)
	case in.TestTargets != "" && in.TestFeatures == "":
		return nil, fmt.Errorf("--test-%s needs --test-features", what)
	}
	s, err := loaders.ReadPointSet(in.files(what))
	var fe *loaders.PointFileError
	if errors.As(err, &fe) {
		flag := map[string]string{"Features": "features", "Values": what, "TestFeatures": "test-features", "TestValues": "test-" + what}[fe.Field]
		return nil, fmt.Errorf("--%s: %w", flag, fe.Err)
	}
	return s, err
}

// readFeatures reads a feature file (loaders.ReadPointFeatures).
func readFeatures(flag, path, ids string) (*loaders.PointTable, error) {
	t, err := loaders.ReadPointFeatures(path, ids)
	return t, withFlag(flag, err)
}

// readValues reads a target or label file matched to the points' rows
// (loaders.ReadPointValues).
func readValues(flag, path, ids string, rows int, rowIDs []string) ([]string, error) {
	v, err := loaders.ReadPointValues(path, ids, strings.Contains(flag, "label"), rows, rowIDs)
	return v, withFlag(flag, err)
}

// floatValues parses regression targets, NaN where unknown
// (loaders.ParseTargets).
func floatValues(flag, path string, vals []string) ([]float64, error) {
	v, err := loaders.ParseTargets(path, vals)
	return v, withFlag(flag, err)
}

// withFlag prefixes err with the flag it concerns.
func withFlag(flag string, err error) error {
	if err != nil {
		return fmt.Errorf("--%s: %w", flag, err)
	}
	return nil
}

func rowNumbers(n int) []string { return loaders.RowNumbers(n) }

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

// subRows copies the rows idx of x (protocol.Rows).
func subRows(x *mat.Dense, idx []int) *mat.Dense { return protocol.Rows(x, idx) }
