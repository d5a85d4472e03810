package loaders

import (
	"archive/zip"
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"codeberg.org/sbinet/npyio/npy"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/internal/atomicfile"
	"github.com/gssl/gssl/nodeids"
)

// WriteFileAtomic writes the file path through write (buffered),
// atomically: an interrupted or failed write leaves either the old file
// or the complete new one, never half of one.
func WriteFileAtomic(path string, write func(w io.Writer) error) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// IsJSONLines reports whether a table written to path is JSON Lines (a
// name ending in .jsonl or .ndjson) rather than CSV.
func IsJSONLines(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".jsonl" || ext == ".ndjson"
}

// WriteTableFile writes a table to path, atomically: JSON Lines when
// IsJSONLines(path), else CSV (WriteTable).
func WriteTableFile(path string, cols []string, rows int, row func(r int, rec []any)) error {
	return WriteFileAtomic(path, func(w io.Writer) error { return WriteTable(w, IsJSONLines(path), cols, rows, row) })
}

// WriteTable writes rows rows of the columns cols to w: CSV with a header
// line, or, with jsonLines, one JSON object per row with the keys in
// column order. row fills rec (len(cols) cells: string, int, float64, or
// nil for none; NaN and ±Inf are none too: an empty CSV field, a JSON null)
// for row r.
func WriteTable(w io.Writer, jsonLines bool, cols []string, rows int, row func(r int, rec []any)) error {
	rec := make([]any, len(cols))
	if jsonLines {
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
				buf = append(append(append(buf, keys[j]...), ':'), jsonCell(v)...)
			}
			if _, err := w.Write(append(buf, '}', '\n')); err != nil {
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
			fields[j] = csvCell(v)
		}
		if err := cw.Write(fields); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvCell(v any) string {
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

func jsonCell(v any) []byte {
	switch x := v.(type) {
	case nil:
		return []byte("null")
	case int:
		return strconv.AppendInt(nil, int64(x), 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return []byte("null")
		}
		return strconv.AppendFloat(nil, x, 'g', -1, 64)
	}
	b, _ := json.Marshal(v)
	return b
}

// GraphFormat is the graph format WriteGraph chooses for path by its
// extension: "mtx" (Matrix Market), "gsg" (gssl graph file), "npz" (SciPy
// sparse CSR), or "csv", "tsv", "txt" (an edge table); an error names the
// valid ones.
func GraphFormat(path string) (string, error) {
	f := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	switch f {
	case "mtx", "gsg", "npz", "csv", "tsv", "txt":
		return f, nil
	}
	return "", fmt.Errorf("%s: unknown graph format %q: use .mtx (Matrix Market), .gsg (gssl graph), .npz (SciPy sparse) or .csv, .tsv, .txt (edge table)", path, filepath.Ext(path))
}

// WriteGraph writes g atomically in the format of the path's extension
// (GraphFormat), every format gssl reads: an edge table and a .gsg name
// the nodes by ids (nil: 0, 1, …), Matrix Market and .npz by position.
func WriteGraph(path string, g *graph.CSR, ids *nodeids.Map) error {
	format, err := GraphFormat(path)
	if err != nil {
		return err
	}
	switch format {
	case "gsg":
		return graphfile.Write(path, g, ids)
	case "mtx":
		return WriteFileAtomic(path, func(w io.Writer) error { return WriteMatrixMarket(w, g) })
	case "npz":
		return WriteFileAtomic(path, func(w io.Writer) error { return WriteScipyCSR(w, g) })
	}
	sep := map[string]string{"csv": ",", "tsv": "\t", "txt": " "}[format]
	return WriteFileAtomic(path, func(w io.Writer) error { return WriteEdgeTable(w, g, ids, sep) })
}

// WriteEdgeTable writes each edge of g once (source ≤ target, self loops
// included) with its weight, after a "source,target,weight" header, the
// fields separated by sep; ids name the nodes (nil: 0, 1, …).
func WriteEdgeTable(w io.Writer, g *graph.CSR, ids *nodeids.Map, sep string) error {
	if ids == nil {
		ids = nodeids.Identity(g.Nodes())
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "source%starget%sweight\n", sep, sep)
	g.ForEachEdge(func(u, v int, x float64) {
		if u <= v {
			bw.WriteString(ids.ID(u))
			bw.WriteString(sep)
			bw.WriteString(ids.ID(v))
			bw.WriteString(sep)
			bw.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
			bw.WriteByte('\n')
		}
	})
	return bw.Flush()
}

// WriteScipyCSR writes g as scipy.sparse.save_npz writes a CSR matrix: a
// zip archive of data, indices, indptr, shape and format arrays (every
// stored entry, both directions of an edge), which scipy.sparse.load_npz
// and LoadNodes read.
func WriteScipyCSR(w io.Writer, g *graph.CSR) error {
	n := g.Nodes()
	indptr := make([]int64, 1, n+1)
	var indices []int32
	var data []float64
	for i := 0; i < n; i++ {
		cols, ws := g.Row(i)
		indices = append(indices, cols...)
		data = append(data, ws...)
		indptr = append(indptr, int64(len(indices)))
	}
	z := zip.NewWriter(w)
	for _, m := range []struct {
		name string
		v    any
	}{{"indices", indices}, {"indptr", indptr}, {"format", "csr"}, {"shape", []int64{int64(n), int64(n)}}, {"data", data}} {
		f, err := z.Create(m.name + ".npy")
		if err != nil {
			return err
		}
		if err := npy.Write(f, m.v); err != nil {
			return fmt.Errorf("%s.npy: %w", m.name, err)
		}
	}
	return z.Close()
}

// Column is an extra column of WriteVectors: Value(node, row) gives the
// cell of a node and its row of the matrix (−1 when it has none).
type Column struct {
	Name  string
	Value func(node, row int) any
}

// WriteVectors writes one row per node of ds to path (WriteTableFile): its
// id, the extra columns, then its row of x as columns <prefix>1..<prefix>D.
// orig, when set, names the node of each row of x (a subgraph's original
// nodes); the other nodes get empty cells.
func WriteVectors(path string, ds *NodeDataset, x *mat.Dense, prefix string, orig []int, extra ...Column) error {
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
		if i < 0 || i >= n {
			return fmt.Errorf("loaders: WriteVectors: row %d names node %d of %d", t, i, n)
		}
		row[i] = t
	}
	cols := []string{"id"}
	for _, e := range extra {
		cols = append(cols, e.Name)
	}
	first := len(cols)
	for j := 0; j < d; j++ {
		cols = append(cols, prefix+strconv.Itoa(j+1))
	}
	return WriteTableFile(path, cols, n, func(i int, rec []any) {
		rec[0] = ds.NodeID(i)
		for k, e := range extra {
			rec[1+k] = e.Value(i, row[i])
		}
		if t := row[i]; t >= 0 {
			for j := 0; j < d; j++ {
				rec[first+j] = x.At(t, j)
			}
		}
	})
}
