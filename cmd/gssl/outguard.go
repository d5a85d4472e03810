package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gssl/gssl/internal/atomicfile"
)

// outputFlags are the flags that name files a command writes; --report
// names a folder whose index.html is written.
var outputFlags = map[string]bool{"out": true, "save": true, "plot": true, "report": true, "gram-out": true, "cpu-profile": true}

// checkOutputsNotInputs refuses, before any work, an output flag that names
// a file the command reads: the same path, a symbolic link to it or a hard
// link (os.SameFile). The inputs are every other flag's value and every
// argument that names an existing file, and the files directly inside a
// folder so named (--data DIR). They are registered with atomicfile, so
// that an output derived from a flag (a prefix, a folder) cannot replace
// one either.
func checkOutputsNotInputs(cmd *cobra.Command, args []string) error {
	type output struct{ flag, path string }
	var outs []output
	what := map[string]string{} // input path → the flag or argument naming it
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() != "string" || f.Value.String() == "" {
			return
		}
		if p := f.Value.String(); outputFlags[f.Name] {
			if f.Name == "report" {
				p = filepath.Join(p, "index.html")
			}
			outs = append(outs, output{f.Name, p})
		} else {
			addInputs(what, "--"+f.Name, p)
		}
	})
	for i, a := range args {
		if cmd.Name() == "convert" && i == len(args)-1 && len(args) > 1 {
			outs = append(outs, output{"", a}) // convert IN OUT
			continue
		}
		addInputs(what, "argument "+a, a)
	}
	atomicfile.Protect(slices.Collect(maps.Keys(what))...)
	for _, o := range outs {
		if in := atomicfile.Protected(o.path); in != "" {
			name := "the output " + o.path
			if o.flag != "" {
				name = fmt.Sprintf("--%s %s", o.flag, o.path)
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
	case path == "" || path == "-" || err != nil:
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
