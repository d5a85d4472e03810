package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// tableStdout is where a table given as --out - is written: the command's
// standard output, set aside by useOutStdout before the command's own
// report is sent to stderr.
var tableStdout io.Writer = os.Stdout

// fileOutCommands write a file that is not one table with --out (a graph,
// a data set prefix): --out - is refused for them.
var fileOutCommands = map[string]bool{"knn": true, "generate": true}

// useOutStdout prepares --out -, which writes the command's one table on
// standard output: its report then goes to stderr. --json, whose object
// belongs on standard output, is refused with it, as are commands whose
// --out is not a table.
func useOutStdout(cmd *cobra.Command, asJSON bool) error {
	f := cmd.Flags().Lookup("out")
	if f == nil || f.Value.String() != "-" {
		return nil
	}
	switch {
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
