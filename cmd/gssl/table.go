package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
)

// writeAtomic writes a file through write (buffered), atomically
// (loaders.WriteFileAtomic).
func writeAtomic(path string, write func(w io.Writer) error) error {
	return loaders.WriteFileAtomic(path, write)
}

// checkOutPath refuses an --out file whose folder does not exist, before
// any work is done.
func checkOutPath(flag, path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return fmt.Errorf("--%s %s: the folder %s does not exist", flag, path, filepath.Dir(path))
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("--%s %s is a folder; give a file name", flag, path)
	}
	return nil
}

// writeTable writes a table to path as CSV or, for .jsonl/.ndjson, JSON
// Lines, atomically (loaders.WriteTableFile).
func writeTable(path string, cols []string, rows int, row func(r int, rec []any)) error {
	if err := loaders.WriteTableFile(path, cols, rows, row); err != nil {
		return fmt.Errorf("--out %s: %w", path, err)
	}
	return nil
}

// plotFormat returns the image format of a --plot file from its extension
// (those gonum/plot writes), or an error naming the valid ones, so that a
// bad name is refused before anything is computed and no file is left
// behind. No --plot ("") is no format and no error.
func plotFormat(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	switch ext {
	case "png", "svg", "pdf", "eps", "jpg", "jpeg", "tif", "tiff":
		return ext, checkOutPath("plot", path)
	}
	return "", fmt.Errorf("--plot %s: unknown image format %q; use a name ending in .png, .svg, .pdf, .eps, .jpg or .tiff", path, filepath.Ext(path))
}

// statFile stats a regular file.
func statFile(path string) (os.FileInfo, error) {
	st, err := os.Stat(path)
	if err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a folder", path)
	}
	return st, err
}

// writeVectors writes one row per node of ds: its id, then the row of x for
// it as columns <prefix>1..<prefix>D. orig, when set, names the node of each
// row of x (a subgraph's original ids); the other nodes get empty values.
// extra, when set, adds columns after the id: extra(i, rec) fills them for
// node i.
func writeVectors(path string, ds *loaders.NodeDataset, x *mat.Dense, prefix string, orig []int, extra ...column) error {
	n := ds.Graph.Nodes()
	_, d := x.Dims()
	row := make([]int, n)
	for i := range row {
		row[i] = i
		if orig != nil {
			row[i] = -1
		}
	}
	for t, i := range orig {
		row[i] = t
	}
	cols := []string{"id"}
	for _, e := range extra {
		cols = append(cols, e.name)
	}
	first := len(cols)
	for j := 0; j < d; j++ {
		cols = append(cols, prefix+strconv.Itoa(j+1))
	}
	return writeTable(path, cols, n, func(i int, rec []any) {
		rec[0] = nodeID(ds, i)
		for k, e := range extra {
			rec[1+k] = e.value(i, row[i])
		}
		if t := row[i]; t >= 0 {
			for j := 0; j < d; j++ {
				rec[first+j] = x.At(t, j)
			}
		}
	})
}

// column is an extra column of writeVectors: value(node, row) gives the
// value for a node and its row in the matrix (−1 when it has none).
type column struct {
	name  string
	value func(node, row int) any
}
