package atomicfile

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// Named is a file a command names: its path and what names it ("--edges",
// "argument a.txt"; "" when nothing does, such as a positional output).
type Named struct{ What, Path string }

// MaxFolderInputs bounds the entries of an input folder that GuardOutputs
// compares with the outputs (a data folder holds a handful of files).
const MaxFolderInputs = 10000

// GuardOutputs refuses an output of outs that names a file the command
// reads: the same path, a symbolic link to it or a hard link
// (os.SameFile). The inputs are the regular files of ins and the regular
// files directly inside a folder of ins (--data DIR). They are registered
// with Protect, so that an output derived from a name (a prefix, a folder)
// cannot replace one either when it is created.
func GuardOutputs(outs, ins []Named) error {
	what := map[string]string{} // input path → what names it
	for _, in := range ins {
		addInputs(what, in.What, in.Path)
	}
	Protect(slices.Collect(maps.Keys(what))...)
	for _, o := range outs {
		if in := Protected(o.Path); in != "" {
			name := "the output " + o.Path
			if o.What != "" {
				name = o.What + " " + o.Path
			}
			return fmt.Errorf("%s is the input %s (%s): an output never replaces an input; write it elsewhere", name, in, what[in])
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
		if err != nil || len(entries) > MaxFolderInputs {
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
