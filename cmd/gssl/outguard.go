package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gssl/gssl/internal/atomicfile"
	"github.com/gssl/gssl/internal/inputfile"
)

// outputFlags are the flags that name files a command writes; --report
// names a folder whose index.html is written.
var outputFlags = map[string]bool{"out": true, "save": true, "plot": true, "report": true, "gram-out": true, "cpu-profile": true}

// namedFile is a path on the command line and what names it ("--edges",
// "argument a.txt"; "" for convert's OUT).
type namedFile struct{ what, path string }

// commandFiles splits the string flags and arguments of cmd into the
// files it writes and those it may read.
func commandFiles(cmd *cobra.Command, args []string) (outs, ins []namedFile) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		p := f.Value.String()
		switch {
		case f.Value.Type() != "string" || p == "":
		case outputFlags[f.Name] && f.Name == "report":
			outs = append(outs, namedFile{"--" + f.Name, filepath.Join(p, "index.html")})
		case outputFlags[f.Name]:
			outs = append(outs, namedFile{"--" + f.Name, p})
		default:
			ins = append(ins, namedFile{"--" + f.Name, p})
		}
	})
	for i, a := range args {
		if cmd.Name() == "convert" && i == len(args)-1 && len(args) > 1 {
			outs = append(outs, namedFile{"", a}) // convert IN OUT
			continue
		}
		ins = append(ins, namedFile{"argument " + a, a})
	}
	return outs, ins
}

// checkFiles checks the files of the command line before any work: an
// output that is an input, and standard input named twice ("-",
// /dev/stdin, /dev/fd/0: it can be read once). It sets the cap on the copy
// of a stream read as an input (package inputfile) to --max-memory where
// given, so that an endless stream fails there.
func checkFiles(cmd *cobra.Command, args []string) error {
	outs, ins := commandFiles(cmd, args)
	if err := checkOutputsNotInputs(outs, ins); err != nil {
		return err
	}
	stdin := ""
	for _, in := range ins {
		label := in.what
		if strings.HasPrefix(label, "--") {
			label += " " + in.path
		}
		switch {
		case !inputfile.IsStdin(in.path):
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

// checkOutputsNotInputs refuses an output that names a file the command
// reads: the same path, a symbolic link to it or a hard link
// (os.SameFile). The inputs are every file named by a flag or an argument,
// and the files directly inside a folder so named (--data DIR). They are
// registered with atomicfile, so that an output derived from a flag (a
// prefix, a folder) cannot replace one either.
func checkOutputsNotInputs(outs, ins []namedFile) error {
	what := map[string]string{} // input path → the flag or argument naming it
	for _, in := range ins {
		addInputs(what, in.what, in.path)
	}
	atomicfile.Protect(slices.Collect(maps.Keys(what))...)
	for _, o := range outs {
		if in := atomicfile.Protected(o.path); in != "" {
			name := "the output " + o.path
			if o.what != "" {
				name = o.what + " " + o.path
			}
			return usageError{fmt.Errorf("%s is the input %s (%s): an output never replaces an input; write it elsewhere", name, in, what[in])}
		}
	}
	return nil
}

// addInputs records path, named by what, when it is a regular file, or the
// regular files directly inside it when it is a folder.
func addInputs(inputs map[string]string, what, path string) {
	st, err := os.Stat(path)
	switch {
	case path == "-" || err != nil:
	case st.Mode().IsRegular():
		inputs[path] = what
	case st.IsDir():
		entries, err := os.ReadDir(path)
		if err != nil || len(entries) > maxFolderInputs {
			return
		}
		for _, e := range entries {
			p := filepath.Join(path, e.Name())
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				inputs[p] = what
			}
		}
	}
}

// maxFolderInputs bounds the entries of an input folder that are compared
// with the outputs (a data folder holds a handful of files).
const maxFolderInputs = 10000
