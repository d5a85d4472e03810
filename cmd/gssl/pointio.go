package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gssl/gssl/internal/procstat"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
)

// pointInput is the user's point data of the point-level model commands
// (gp, imgp, falkon, svm): the points, further points to predict and the
// id column; the values (one class or target per point) are the
// command's pointLabels or pointTargets.
type pointInput struct {
	Features     string `flag:"features"`
	TestFeatures string `flag:"test-features"`
	IDs          string `flag:"ids"`
}

// pointLabels are one class per point (--labels) and of the test points.
type pointLabels struct {
	Labels     string `flag:"labels"`
	TestLabels string `flag:"test-labels"`
}

// pointTargets are one regression target per point (--targets) and of the
// test points.
type pointTargets struct {
	Targets     string `flag:"targets"`
	TestTargets string `flag:"test-targets"`
}

// given reports whether any point file is named.
func (in *pointInput) given() bool { return in.Features != "" || in.TestFeatures != "" }

// given reports whether a labels file is named.
func (l pointLabels) given() bool { return l.Labels != "" || l.TestLabels != "" }

// given reports whether a targets file is named.
func (t pointTargets) given() bool { return t.Targets != "" || t.TestTargets != "" }

// load reads the points with the values of the flag --what (labels or
// targets) and of --test-what, reporting the columns it read
// (recordInputs).
func (in *pointInput) load(ctx context.Context, stderr io.Writer, what, values, testValues string) (*loaders.PointSet, error) {
	switch {
	case in.Features == "":
		return nil, fmt.Errorf("--features is needed with --%s, --test-features or --test-%s", what, what)
	case values == "":
		return nil, fmt.Errorf("--%s is needed with --features: one value per point (blank for the points to predict)", what)
	case testValues != "" && in.TestFeatures == "":
		return nil, fmt.Errorf("--test-%s needs --test-features", what)
	}
	s, err := loaders.ReadPointSet(loaders.PointFiles{Features: in.Features, Values: values, TestFeatures: in.TestFeatures,
		TestValues: testValues, IDColumn: in.IDs, Labels: what == "labels"})
	var fe *loaders.PointFileError
	if errors.As(err, &fe) {
		flag := map[string]string{"Features": "features", "Values": what, "TestFeatures": "test-features", "TestValues": "test-" + what}[fe.Field]
		return nil, fmt.Errorf("--%s: %w", flag, fe.Err)
	}
	if err == nil {
		recordInputs(ctx, stderr, s.Reports...)
	}
	return s, err
}

// checkOutPaths checks --out and --save before any work.
func checkOutPaths(out, save string) error {
	if err := checkOutPath("out", out); err != nil {
		return err
	}
	return checkOutPath("save", save)
}

// savePointModel writes --save (when given) with the context c.
func savePointModel(path string, m savedmodel.Model, c savedmodel.Context) error {
	if path == "" {
		return nil
	}
	if err := savedmodel.Save(path, m, c); err != nil {
		return fmt.Errorf("--save %w", err)
	}
	return nil
}

// writePredictions writes a table of predictions to path (writeTable).
func writePredictions(path string, t protocol.PredictionTable) error {
	return writeTable(path, t.Columns, t.Rows, t.Row)
}

// orBackground is ctx, or context.Background() when ctx is nil.
func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// withFlag prefixes err with the flag it concerns.
func withFlag(flag string, err error) error {
	if err != nil {
		return fmt.Errorf("--%s: %w", flag, err)
	}
	return nil
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

// checkMemory refuses a dense allocation of need bytes (what describes it)
// above the limit, naming the flag and the alternative.
func checkMemory(need, limit int64, what, alternative string) error {
	return memlimit.Budget{Bytes: limit, Name: "--max-memory"}.Check(need, what, alternative)
}

// The process's CPU time and peak memory, for the reports (procstat).
var (
	cpuSeconds   = procstat.CPUSeconds
	peakRSSMB    = procstat.PeakRSSMB
	resetPeakRSS = procstat.ResetPeakRSS
)
