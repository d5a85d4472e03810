package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/atomicfile"
	"github.com/gssl/gssl/loaders"
)

// writeAtomic writes a file through write (buffered), atomically
// (internal/atomicfile): an interrupted or failed run leaves either the old
// file or the complete new one, never half of one.
// A path of "-" is standard output (--out -, see useOutStdout).
func writeAtomic(path string, write func(w io.Writer) error) error {
	if path == "-" {
		return writeStdout(write)
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// isJSONLines reports whether an --out file is JSON Lines (by its name)
// rather than CSV.
func isJSONLines(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".jsonl" || ext == ".ndjson"
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

// writeTable writes rows rows of the columns cols to path, as CSV or, when
// the name ends in .jsonl or .ndjson, as JSON Lines (one object per row, keys
// in column order), atomically. row fills rec (len(cols) values: string,
// int, float64, or nil for none; NaN is none) for row r.
func writeTable(path string, cols []string, rows int, row func(r int, rec []any)) error {
	rec := make([]any, len(cols))
	err := writeAtomic(path, func(w io.Writer) error {
		if isJSONLines(path) {
			keys := make([][]byte, len(cols))
			for j, c := range cols {
				keys[j], _ = json.Marshal(c)
			}
			var buf []byte
			for r := 0; r < rows; r++ {
				clear(rec)
				row(r, rec)
				buf = append(buf[:0], '{')
				for j, v := range rec {
					if j > 0 {
						buf = append(buf, ',')
					}
					buf = append(buf, keys[j]...)
					buf = append(buf, ':')
					buf = appendJSON(buf, v)
				}
				buf = append(buf, '}', '\n')
				if _, err := w.Write(buf); err != nil {
					return err
				}
			}
			return nil
		}
		cw := csv.NewWriter(w)
		if err := cw.Write(cols); err != nil {
			return err
		}
		fields := make([]string, len(cols))
		for r := 0; r < rows; r++ {
			clear(rec)
			row(r, rec)
			for j, v := range rec {
				fields[j] = csvField(v)
			}
			if err := cw.Write(fields); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return fmt.Errorf("--out %s: %w", path, err)
	}
	return nil
}

func csvField(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

func appendJSON(buf []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...)
	case string:
		b, _ := json.Marshal(x)
		return append(buf, b...)
	case int:
		return strconv.AppendInt(buf, int64(x), 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return append(buf, "null"...)
		}
		return strconv.AppendFloat(buf, x, 'g', -1, 64)
	}
	b, _ := json.Marshal(v)
	return append(buf, b...)
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
