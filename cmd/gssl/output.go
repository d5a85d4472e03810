package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// report prints v as one JSON object when asJSON is set (with the inputs
// the command read, see withInputs), and otherwise calls text to print a
// readable summary.
func report(w io.Writer, asJSON bool, v any, text func(w io.Writer)) error {
	if !asJSON {
		text(w)
		return nil
	}
	if b := withInputs(w, v); b != nil {
		_, err := w.Write(b)
		return err
	}
	return json.NewEncoder(w).Encode(v)
}

// finite maps NaN and ±Inf to nil so that JSON output stays valid.
func finite(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// timeMark is a point in time that seconds measures from (timeNow).
type timeMark = time.Time

func timeNow() timeMark { return time.Now() }

// seconds returns the time since start in seconds.
func seconds(start timeMark) float64 { return time.Since(start).Seconds() }

// logf writes one line to stderr.
func logf(stderr io.Writer, format string, args ...any) {
	fmt.Fprintf(stderr, format+"\n", args...)
}

// progress reports long loops on stderr: a bar when stderr is a terminal;
// otherwise, so that piped output and logs stay clean, one line when a
// stage that took at least progressLineAfter ends.
type progress struct {
	bar         *progressbar.ProgressBar
	w           io.Writer // without a terminal: the line's writer, its stage name and count
	what        string
	done, total int
	start       timeMark
}

// progressLineAfter is how long a stage must take, without a terminal, to
// be reported by a line when it ends.
const progressLineAfter = time.Second

// newProgress returns a progress reporter for total steps.
func newProgress(stderr io.Writer, total int, what string) *progress {
	p := &progress{w: stderr, what: what, total: total, start: timeNow()}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) && total > 1 {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(), progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish())
	}
	return p
}

// Add advances the bar by n steps.
func (p *progress) Add(n int) {
	if p.done += n; p.bar != nil {
		_ = p.bar.Add(n)
	}
}

// SetTotal changes the number of steps the bar counts to.
func (p *progress) SetTotal(n int) {
	if p.total = n; p.bar != nil {
		p.bar.ChangeMax(n)
	}
}

// Describe changes the bar's label.
func (p *progress) Describe(s string) {
	if p.what = s; p.bar != nil {
		p.bar.Describe(s)
	}
}

// Finish removes the bar, or prints the stage's line (once).
func (p *progress) Finish() {
	switch {
	case p.bar != nil:
		_ = p.bar.Finish()
	case p.w != nil && p.done > 0 && time.Since(p.start) >= progressLineAfter:
		logf(p.w, "gssl: %s: %d of %d done in %.1f s", p.what, p.done, p.total, seconds(p.start))
		p.w = nil
	}
}

// steps shows the progress of a long library call: the bar of newProgress
// on a terminal, otherwise one line per stage, so that a log shows how far
// the call got.
type steps struct {
	bar        *progress
	stderr     io.Writer
	what, last string
	done       int
}

// newSteps returns the progress of total steps of what (the command's name).
func newSteps(stderr io.Writer, total int, what string) *steps {
	return &steps{bar: newProgress(stderr, total, what), stderr: stderr, what: what}
}

// to moves the bar to done of total steps; without a bar it writes the
// line stage (format and args) when it is new and not empty.
func (s *steps) to(done, total int, format string, args ...any) {
	if s.bar.bar != nil {
		s.bar.SetTotal(total)
		s.bar.Add(done - s.done)
		s.done = done
		return
	}
	if line := fmt.Sprintf(format, args...); format != "" && line != s.last {
		logf(s.stderr, "%s: %s", s.what, line)
		s.last = line
	}
}

// Finish removes the bar.
func (s *steps) Finish() { s.bar.Finish() }

// tableStdout is where a table given as --out - is written: the command's
// standard output, set aside by useOutStdout.
var tableStdout io.Writer = os.Stdout

// fileOutCommands write with --out a file that is not one table (a graph,
// a data set prefix): --out - is refused for them.
var fileOutCommands = map[string]bool{"knn": true, "generate": true}

// useOutStdout prepares --out -, which writes the command's one table on
// standard output; its report then goes to stderr. It is refused with
// --json, whose object belongs on standard output, and for the commands
// whose --out is not a table.
func useOutStdout(cmd *cobra.Command, asJSON bool) error {
	f := cmd.Flags().Lookup("out")
	switch {
	case f == nil || f.Value.String() != "-":
		return nil
	case fileOutCommands[cmd.Name()]:
		return usageError{fmt.Errorf("--out - (standard output) is for the commands that write one table; gssl %s writes a file: give --out a file name", cmd.Name())}
	case asJSON:
		return usageError{errors.New("--out - writes the table on standard output, where --json prints its object: give --out a file name, or drop --json")}
	}
	tableStdout = cmd.OutOrStdout()
	cmd.SetOut(cmd.ErrOrStderr())
	return nil
}

// writeStdout writes a table through write to tableStdout, buffered.
func writeStdout(write func(w io.Writer) error) error {
	bw := bufio.NewWriterSize(tableStdout, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	return bw.Flush()
}
