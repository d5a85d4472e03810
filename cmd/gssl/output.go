package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// report prints v as one JSON object when asJSON is set, and otherwise calls
// text to print a readable summary.
func report(w io.Writer, asJSON bool, v any, text func(w io.Writer)) error {
	if asJSON {
		enc := json.NewEncoder(w)
		return enc.Encode(v)
	}
	text(w)
	return nil
}

// finite maps NaN and ±Inf to nil so that JSON output stays valid.
func finite(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// finites maps finite on every element.
func finites(v []float64) []any {
	if v == nil {
		return nil
	}
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = finite(x)
	}
	return out
}

// timeMark is a point in time that seconds measures from.
type timeMark = time.Time

// timeNow starts a measurement.
func timeNow() timeMark { return time.Now() }

// seconds returns the time since start in seconds.
func seconds(start timeMark) float64 { return time.Since(start).Seconds() }

// progress reports long loops on stderr: a bar when stderr is a terminal,
// nothing otherwise (so piped output and logs stay clean).
type progress struct {
	bar *progressbar.ProgressBar
}

// newProgress returns a progress reporter for total steps.
func newProgress(stderr io.Writer, total int, what string) *progress {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || total <= 1 {
		return &progress{}
	}
	return &progress{bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)}
}

// Add advances the bar by n steps.
func (p *progress) Add(n int) {
	if p.bar != nil {
		_ = p.bar.Add(n)
	}
}

// SetTotal changes the number of steps the bar counts to.
func (p *progress) SetTotal(n int) {
	if p.bar != nil {
		p.bar.ChangeMax(n)
	}
}

// Describe changes the bar's label.
func (p *progress) Describe(s string) {
	if p.bar != nil {
		p.bar.Describe(s)
	}
}

// Finish removes the bar.
func (p *progress) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// logf writes one line to stderr.
func logf(stderr io.Writer, format string, args ...any) {
	fmt.Fprintf(stderr, format+"\n", args...)
}

// findUp looks for rel in the current directory and its parents. It
// returns rel unchanged when nothing is found, so the error names it.
//
// Deprecated: no default may point outside the binary (the node-level
// commands default to the embedded Cora); a command whose only data is a
// benchmark folder must require its flag instead.
func findUp(rel string) string {
	dir, err := os.Getwd()
	if err != nil {
		return rel
	}
	for {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return rel
		}
		dir = parent
	}
}

// sharedData returns the path of a data set in the shared data folder that
// sits next to the checkout (../shared/data/NAME).
//
// Deprecated: see findUp; tests use internal/sharedtest.
func sharedData(name string) string { return findUp(filepath.Join("..", "shared", "data", name)) }
