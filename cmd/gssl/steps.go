package main

import (
	"fmt"
	"io"
)

// steps shows the progress of a long library call on stderr: the bar of
// newProgress on a terminal, otherwise one line per stage, so that a log
// shows how far the call got.
type steps struct {
	bar    *progress
	stderr io.Writer
	what   string
	done   int
	last   string
}

// newSteps returns the progress of total steps of what (the command's name).
func newSteps(stderr io.Writer, total int, what string) *steps {
	return &steps{bar: newProgress(stderr, total, what), stderr: stderr, what: what}
}

// to moves the bar to done of total steps; without a bar it writes the
// line stage (format and args) when it differs from the last one written
// and is not empty.
func (s *steps) to(done, total int, format string, args ...any) {
	if s.bar.bar != nil {
		s.bar.SetTotal(total)
		s.bar.Add(done - s.done)
		s.done = done
		return
	}
	if format == "" {
		return
	}
	if line := fmt.Sprintf(format, args...); line != s.last {
		logf(s.stderr, "%s: %s", s.what, line)
		s.last = line
	}
}

// Finish removes the bar.
func (s *steps) Finish() { s.bar.Finish() }
