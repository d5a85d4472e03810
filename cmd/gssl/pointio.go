package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
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
// (loaders.ReadRowValues).
func readValues(flag, path, ids string, rows int, rowIDs []string) ([]string, error) {
	v, err := loaders.ReadRowValues(path, ids, strings.Contains(flag, "label"), rows, rowIDs)
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
// --max-memory, with the sparse or low-rank alternative named (package
// memlimit).

// defaultMaxMemory is the --max-memory default (memlimit.Default).
func defaultMaxMemory() string { return memlimit.Format(memlimit.Default()) }

// parseBytes reads a memory size (memlimit.Parse); empty means the default.
func parseBytes(flag, s string) (int64, error) {
	if s == "" {
		s = defaultMaxMemory() // the flag's default, for callers that build options by hand
	}
	v, err := memlimit.Parse(s)
	if err != nil {
		return 0, fmt.Errorf("--%s %q is invalid: give a positive size such as 8GB or 512MB", flag, s)
	}
	return v, nil
}

func formatBytes(b int64) string { return memlimit.Format(b) }

// errTooMuchMemory is wrapped by the memory refusals.
var errTooMuchMemory = memlimit.ErrTooMuch

// checkMemory refuses a dense allocation of need bytes (what describes it)
// above the limit, naming the flag and the alternative.
func checkMemory(need, limit int64, what, alternative string) error {
	return memlimit.Budget{Bytes: limit, Name: "--max-memory"}.Check(need, what, alternative)
}

// subRows copies the rows idx of x (protocol.Rows).
func subRows(x *mat.Dense, idx []int) *mat.Dense { return protocol.Rows(x, idx) }
