package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
)

// writeAtomic writes a file through write, buffered and atomically
// (loaders.WriteFileAtomic); "-" is standard output (see useOutStdout).
func writeAtomic(path string, write func(w io.Writer) error) error {
	if path == "-" {
		return writeStdout(write)
	}
	return loaders.WriteFileAtomic(path, write)
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// checkOutPath refuses, before any work, an output file whose folder does
// not exist or that is a folder.
func checkOutPath(flag, path string) error {
	switch {
	case path == "":
	case !isDir(filepath.Dir(path)):
		return fmt.Errorf("--%s %s: the folder %s does not exist", flag, path, filepath.Dir(path))
	case isDir(path):
		return fmt.Errorf("--%s %s is a folder; give a file name", flag, path)
	}
	return nil
}

// writeTable writes a table to path as CSV or, for .jsonl/.ndjson, JSON
// Lines, atomically (loaders.WriteTableFile); "-" writes CSV on standard
// output (see useOutStdout).
func writeTable(path string, cols []string, rows int, row func(r int, rec []any)) error {
	defer boundGarbage()()
	var err error
	if path == "-" {
		err = writeStdout(func(w io.Writer) error { return loaders.WriteTable(w, false, cols, rows, row) })
	} else {
		err = loaders.WriteTableFile(path, cols, rows, row)
	}
	if err != nil {
		return fmt.Errorf("--out %s: %w", path, err)
	}
	return nil
}

// plotFormat returns the image format of a --plot file from its extension,
// or an error naming the valid ones, before anything is computed; no
// --plot ("") is no format and no error.
func plotFormat(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	switch ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), "."); ext {
	case "png", "svg", "pdf", "eps", "jpg", "jpeg", "tif", "tiff":
		return ext, checkOutPath("plot", path)
	}
	return "", fmt.Errorf("--plot %s: unknown image format %q; use a name ending in .png, .svg, .pdf, .eps, .jpg or .tiff", path, filepath.Ext(path))
}

// writeVectors writes one row per node of ds: its id, the extra columns,
// then its row of x as columns <prefix>1..<prefix>D (loaders.WriteVectors).
func writeVectors(path string, ds *loaders.NodeDataset, x *mat.Dense, prefix string, orig []int, extra ...column) error {
	cols := make([]loaders.Column, len(extra))
	for k, e := range extra {
		cols[k] = loaders.Column{Name: e.name, Value: e.value}
	}
	if err := loaders.WriteVectors(path, ds, x, prefix, orig, cols...); err != nil {
		return fmt.Errorf("--out %s: %w", path, err)
	}
	return nil
}

// column is an extra column of writeVectors: value(node, row) of a node
// and its row in the matrix (−1 when it has none).
type column struct {
	name  string
	value func(node, row int) any
}

// boundGarbage lowers GOGC to writeGCPercent until the returned function
// restores it: a table's writer makes garbage with every cell (a boxed
// value, a formatted string), and under the default GOGC of 100 the heap
// grows by as much as is live before each collection, gigabytes beside a
// large fit's blocks; at 10 the garbage stays within a tenth of the live
// heap, for a collection every tenth of it (the live heap is mostly arrays
// without pointers, which a collection does not scan). A GOGC the user set
// lower (or off) is kept.
func boundGarbage() func() {
	prev := debug.SetGCPercent(writeGCPercent)
	if prev < writeGCPercent {
		debug.SetGCPercent(prev)
	}
	return func() { debug.SetGCPercent(prev) }
}

// writeGCPercent is the GOGC of a table's writing (boundGarbage).
const writeGCPercent = 10
