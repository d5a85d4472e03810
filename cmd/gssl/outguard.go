package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gssl/gssl/internal/atomicfile"
	"github.com/gssl/gssl/internal/inputfile"
)

// outputFlags are the flags that name files a command writes; --report
// names a folder whose index.html is written.
var outputFlags = map[string]bool{"out": true, "save": true, "plot": true, "report": true, "gram-out": true, "cpu-profile": true}

// commandFiles splits the string flags and arguments of cmd into the
// files it writes and those it may read.
func commandFiles(cmd *cobra.Command, args []string) (outs, ins []atomicfile.Named) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		p := f.Value.String()
		switch {
		case f.Value.Type() != "string" || p == "":
		case f.Name == "report":
			outs = append(outs, atomicfile.Named{What: "--report", Path: filepath.Join(p, "index.html")})
		case outputFlags[f.Name]:
			outs = append(outs, atomicfile.Named{What: "--" + f.Name, Path: p})
		default:
			ins = append(ins, atomicfile.Named{What: "--" + f.Name, Path: p})
		}
	})
	for i, a := range args {
		if cmd.Name() == "convert" && i == len(args)-1 && len(args) > 1 {
			outs = append(outs, atomicfile.Named{Path: a}) // convert IN OUT
		} else {
			ins = append(ins, atomicfile.Named{What: "argument " + a, Path: a})
		}
	}
	return outs, ins
}

// checkFiles checks the files of the command line before any work: an
// output that is an input (atomicfile.GuardOutputs), and standard input
// named twice ("-", /dev/stdin, /dev/fd/0: it can be read once). It sets
// the cap on the copy of a stream read as an input (package inputfile) to
// --max-memory where given, so that an endless stream fails there.
func checkFiles(cmd *cobra.Command, args []string) error {
	outs, ins := commandFiles(cmd, args)
	if err := atomicfile.GuardOutputs(outs, ins); err != nil {
		return usageError{err}
	}
	stdin := ""
	for _, in := range ins {
		label := in.What
		if strings.HasPrefix(label, "--") {
			label += " " + in.Path
		}
		switch {
		case !inputfile.IsStdin(in.Path):
		case stdin != "":
			return usageError{fmt.Errorf("%s and %s both read standard input, which can be read only once: save one of them to a file", stdin, label)}
		default:
			stdin = label
		}
	}
	inputfile.SetCap(0, "")
	if f := cmd.Flags().Lookup("max-memory"); f != nil && f.Changed {
		limit, err := parseBytes("max-memory", f.Value.String())
		if err != nil {
			return err
		}
		inputfile.SetCap(limit, "--max-memory")
	}
	return nil
}
