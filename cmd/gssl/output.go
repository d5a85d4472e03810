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

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/internal/cputime"
	prog "github.com/gssl/gssl/internal/progress"
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

// progress and steps show the progress of long calls on stderr
// (package progress): a bar on a terminal, else lines in the log.
type progress = prog.Bar

func newProgress(stderr io.Writer, total int, what string) *progress {
	return prog.New(stderr, total, what)
}

type steps struct {
	*prog.Steps
	bar *progress
}

func newSteps(stderr io.Writer, total int, what string) *steps {
	s := prog.NewSteps(stderr, total, what)
	return &steps{s, s.Bar()}
}

func (s *steps) to(done, total int, format string, args ...any) { s.To(done, total, format, args...) }

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

// cpuSeconds is the CPU time of the process so far (package cputime).
var cpuSeconds = cputime.Seconds
