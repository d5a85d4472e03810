package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// report prints v as one JSON object when asJSON is set, and otherwise calls
// text to print a readable summary.
func report(w io.Writer, asJSON bool, v any, text func(w io.Writer)) error {
	if asJSON {
		if b := withInputs(w, v); b != nil {
			_, err := w.Write(b)
			return err
		}
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

// progress reports long loops on stderr: a bar when stderr is a terminal;
// otherwise, so that piped output and logs stay clean, one line when a
// stage that took at least progressLineAfter ends.
type progress struct {
	bar *progressbar.ProgressBar
	// Without a terminal: where the line goes, what it names, the count.
	w           io.Writer
	what        string
	done, total int
	start       timeMark
}

// progressLineAfter is how long a stage must take, without a terminal, to
// be reported by a line when it ends.
const progressLineAfter = time.Second

// newProgress returns a progress reporter for total steps.
func newProgress(stderr io.Writer, total int, what string) *progress {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || total <= 1 {
		return &progress{w: stderr, what: what, total: total, start: timeNow()}
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
	p.done += n
	if p.bar != nil {
		_ = p.bar.Add(n)
	}
}

// SetTotal changes the number of steps the bar counts to.
func (p *progress) SetTotal(n int) {
	p.total = n
	if p.bar != nil {
		p.bar.ChangeMax(n)
	}
}

// Describe changes the bar's label.
func (p *progress) Describe(s string) {
	p.what = s
	if p.bar != nil {
		p.bar.Describe(s)
	}
}

// Finish removes the bar, or prints the stage's line.
func (p *progress) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		return
	}
	if p.w != nil && p.done > 0 && time.Since(p.start) >= progressLineAfter {
		logf(p.w, "gssl: %s: %d of %d done in %.1f s", p.what, p.done, p.total, seconds(p.start))
		p.w = nil // once
	}
}

// logf writes one line to stderr.
func logf(stderr io.Writer, format string, args ...any) {
	fmt.Fprintf(stderr, format+"\n", args...)
}
