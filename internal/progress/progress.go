// Package progress shows how far a long call got on a command's standard
// error: a bar when it is a terminal; otherwise, so that piped output and
// logs stay clean, one line when a stage that took at least LineAfter
// ends (Bar), or one line per new stage message (Steps).
package progress

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Bar counts the steps of one stage.
type Bar struct {
	bar         *progressbar.ProgressBar
	w           io.Writer // without a terminal: the line's writer, its stage name and count
	what        string
	done, total int
	start       time.Time
}

// LineAfter is how long a stage must take, without a terminal, to be
// reported by a line when it ends.
const LineAfter = time.Second

// New returns the progress of total steps of the stage what, shown on w.
func New(w io.Writer, total int, what string) *Bar {
	p := &Bar{w: w, what: what, total: total, start: time.Now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) && total > 1 {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(), progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish())
	}
	return p
}

// Add advances the bar by n steps.
func (p *Bar) Add(n int) {
	if p.done += n; p.bar != nil {
		_ = p.bar.Add(n)
	}
}

// SetTotal changes the number of steps the bar counts to.
func (p *Bar) SetTotal(n int) {
	if p.total = n; p.bar != nil {
		p.bar.ChangeMax(n)
	}
}

// Describe changes the bar's label.
func (p *Bar) Describe(s string) {
	if p.what = s; p.bar != nil {
		p.bar.Describe(s)
	}
}

// Finish removes the bar, or prints the stage's line (once).
func (p *Bar) Finish() {
	switch {
	case p.bar != nil:
		_ = p.bar.Finish()
	case p.w != nil && p.done > 0 && time.Since(p.start) >= LineAfter:
		fmt.Fprintf(p.w, "gssl: %s: %d of %d done in %.1f s\n", p.what, p.done, p.total, time.Since(p.start).Seconds())
		p.w = nil
	}
}

// Steps is the progress of a long library call: the Bar on a terminal,
// otherwise one line per stage, so that a log shows how far the call got.
type Steps struct {
	bar        *Bar
	w          io.Writer
	what, last string
	done       int
}

// NewSteps returns the progress of total steps of what (a command's name).
func NewSteps(w io.Writer, total int, what string) *Steps {
	return &Steps{bar: New(w, total, what), w: w, what: what}
}

// To moves the bar to done of total steps; without a bar it writes the
// line "what: stage" (stage from format and args) when it is new and not
// empty.
func (s *Steps) To(done, total int, format string, args ...any) {
	if s.bar.bar != nil {
		s.bar.SetTotal(total)
		s.bar.Add(done - s.done)
		s.done = done
		return
	}
	if line := fmt.Sprintf(format, args...); format != "" && line != s.last {
		fmt.Fprintf(s.w, "%s: %s\n", s.what, line)
		s.last = line
	}
}

// Bar is the steps' bar (to change its label: Describe).
func (s *Steps) Bar() *Bar { return s.bar }

// Finish removes the bar.
func (s *Steps) Finish() { s.bar.Finish() }
