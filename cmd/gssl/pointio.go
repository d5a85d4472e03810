package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gssl/gssl/internal/procstat"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
)

// The point data of the point commands (protocol's data sources).
type (
	pointInput      = protocol.PointFiles
	pointLabels     = protocol.LabelFiles
	pointTargets    = protocol.TargetFiles
	RegressionData  = protocol.RegressionData
	regressionInput = protocol.LabelledRegression
)

// recordTo records the files a data source reads (recordInputs).
func recordTo(ctx context.Context, stderr io.Writer) func(...loaders.TableReport) {
	return func(r ...loaders.TableReport) { recordInputs(ctx, stderr, r...) }
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

// parseBytes reads a memory size (memlimit.ParseFlag); empty means the
// default.
var parseBytes = memlimit.ParseFlag

// budget is the memory budget of --max-memory (parseBytes).
func budget(maxMemory string) (memlimit.Budget, error) {
	limit, err := parseBytes("max-memory", maxMemory)
	return memlimit.Budget{Bytes: limit, Name: "--max-memory"}, err
}

// checkMemory refuses a dense allocation of need bytes (what describes it)
// above the limit, naming the flag and the alternative.
func checkMemory(need, limit int64, what, alternative string) error {
	return memlimit.Budget{Bytes: limit, Name: "--max-memory"}.Check(need, what, alternative)
}

// peakRSSMB is the process's peak memory, for the reports (procstat).
var peakRSSMB = procstat.PeakRSSMB
