package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gssl/gssl/internal/atomicfile"
)

// outputFlags are the flags that name files a command writes; --report
// names a folder whose index.html is written.
var outputFlags = map[string]bool{"out": true, "save": true, "plot": true, "report": true, "gram-out": true, "cpu-profile": true}

// inputFile is a file a command may read, with the flag (or argument) that
// names it.
type inputFile struct {
	what string
	path string
	info os.FileInfo
}

// checkOutputsNotInputs refuses, before any work, an output flag that names
// a file the command reads: the same path, a symbolic link to it or a hard
// link (os.SameFile). The inputs are every other flag's value and every
// argument that names an existing file, and the files directly inside a
// folder so named (--data DIR). It also registers the inputs with
// atomicfile, so that an output derived from a flag (a prefix, a folder)
// cannot replace one either.
func checkOutputsNotInputs(cmd *cobra.Command, args []string) error {
	type output struct{ flag, path string }
	var outs []output
	var ins []inputFile
	addInput := func(what, path string) {
		if path == "" || path == "-" {
			return
		}
		st, err := os.Stat(path)
		if err != nil {
			return
		}
		if st.Mode().IsRegular() {
			ins = append(ins, inputFile{what, path, st})
			return
		}
		if !st.IsDir() {
			return
		}
		entries, err := os.ReadDir(path)
		if err != nil || len(entries) > maxFolderInputs {
			return
		}
		for _, e := range entries {
			p := filepath.Join(path, e.Name())
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				ins = append(ins, inputFile{what, p, st})
			}
		}
	}
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() != "string" || f.Value.String() == "" {
			return
		}
		if outputFlags[f.Name] {
			p := f.Value.String()
			if f.Name == "report" {
				p = filepath.Join(p, "index.html")
			}
			outs = append(outs, output{f.Name, p})
			return
		}
		addInput("--"+f.Name, f.Value.String())
	})
	for i, a := range args {
		if cmd.Name() == "convert" && i == len(args)-1 && len(args) > 1 {
			outs = append(outs, output{"", a}) // convert IN OUT
			continue
		}
		addInput("argument "+a, a)
	}
	paths := make([]string, len(ins))
	for i, in := range ins {
		paths[i] = in.path
	}
	atomicfile.Protect(paths...)
	for _, o := range outs {
		st, err := os.Stat(o.path)
		if err != nil {
			continue
		}
		for _, in := range ins {
			if os.SameFile(st, in.info) {
				name := "the output " + o.path
				if o.flag != "" {
					name = fmt.Sprintf("--%s %s", o.flag, o.path)
				}
				return usageError{fmt.Errorf("%s is the input %s (%s): an output never replaces an input; write it elsewhere", name, in.path, in.what)}
			}
		}
	}
	return nil
}

// maxFolderInputs bounds the entries of an input folder that are compared
// with the outputs (a data folder holds a handful of files).
const maxFolderInputs = 10000
