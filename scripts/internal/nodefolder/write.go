package nodefolder

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
)

// Split is one fixed split: the node ids of each part, increasing.
type Split struct {
	Train, Val, Test []int
}

// Set is a checked data set: Labels[i] in [0, n) for every node, Edges as
// sorted pairs u < v with no self loop and no edge twice, Features n × F.
// Write does not check it again: the converters do, naming the source
// element at fault.
type Set struct {
	Features *mat.Dense
	Labels   []int
	Edges    [][2]int
	Splits   []Split
}

// Counts are the counts of a written set, printed by the converters as
// one JSON line for the folder's README.
type Counts struct {
	Nodes      int      `json:"nodes"`
	Edges      int      `json:"undirected_edges"`
	Classes    int      `json:"classes"`
	ClassSizes []int    `json:"class_sizes"`
	Features   int      `json:"features"`
	Splits     [][3]int `json:"splits_train_val_test"`
}

// Write creates dir and writes s into it (each file atomically) and
// returns its counts.
func Write(dir string, s *Set) (*Counts, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	_, f := s.Features.Dims()
	c := &Counts{Nodes: len(s.Labels), Edges: len(s.Edges), Features: f}
	for _, y := range s.Labels {
		for y >= len(c.ClassSizes) {
			c.ClassSizes = append(c.ClassSizes, 0)
		}
		c.ClassSizes[y]++
	}
	c.Classes = len(c.ClassSizes)
	write := func(name string, body func(w io.Writer) error) error {
		return loaders.WriteFileAtomic(filepath.Join(dir, name), body)
	}
	if err := write("edges.txt", func(w io.Writer) error { return writeEdges(w, s.Edges) }); err != nil {
		return nil, err
	}
	if err := write("labels.txt", func(w io.Writer) error { return writeInts(w, "", s.Labels) }); err != nil {
		return nil, err
	}
	err := write("features.txt.gz", func(w io.Writer) error {
		zw := gzip.NewWriter(w)
		if err := writeFeatures(zw, s.Features); err != nil {
			return err
		}
		return zw.Close()
	})
	if err != nil {
		return nil, err
	}
	for k, sp := range s.Splits {
		err := write(fmt.Sprintf("split_%d.txt", k), func(w io.Writer) error {
			for p, part := range [3][]int{sp.Train, sp.Val, sp.Test} {
				if err := writeInts(w, partNames[p]+" ", part); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		c.Splits = append(c.Splits, [3]int{len(sp.Train), len(sp.Val), len(sp.Test)})
	}
	return c, nil
}

var partNames = [3]string{"train", "val", "test"}

func writeEdges(w io.Writer, edges [][2]int) error {
	for _, e := range edges {
		if _, err := fmt.Fprintf(w, "%d %d\n", e[0], e[1]); err != nil {
			return err
		}
	}
	return nil
}

// writeInts writes one line per value, prefix first.
func writeInts(w io.Writer, prefix string, vs []int) error {
	for _, v := range vs {
		if _, err := fmt.Fprintf(w, "%s%d\n", prefix, v); err != nil {
			return err
		}
	}
	return nil
}

// writeFeatures writes x in the sparse text format of features.txt.gz.
func writeFeatures(w io.Writer, x *mat.Dense) error {
	n, f := x.Dims()
	if _, err := fmt.Fprintf(w, "# %d %d\n", n, f); err != nil {
		return err
	}
	var line []byte
	for i := 0; i < n; i++ {
		line = line[:0]
		for j := 0; j < f; j++ {
			v := x.At(i, j)
			if v == 0 {
				continue
			}
			if len(line) > 0 {
				line = append(line, ' ')
			}
			line = strconv.AppendInt(line, int64(j), 10)
			line = append(line, ':')
			line = AppendPyRepr(line, v)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// AppendPyRepr appends Python's repr of the finite float v: the shortest
// digits that round-trip (as Go's), in positional notation with at least
// one decimal ("1.0", "0.0001") when the decimal exponent is in [−4, 16),
// else in exponent notation with a two-digit minimum exponent ("1e-05",
// "1.5e+16"), as CPython's float_repr chooses.
func AppendPyRepr(dst []byte, v float64) []byte {
	e := strconv.AppendFloat(nil, v, 'e', -1, 64)
	k := len(e) - 1
	for e[k] != 'e' {
		k--
	}
	exp, _ := strconv.Atoi(string(e[k+1:]))
	if exp < -4 || exp >= 16 {
		return append(dst, e...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'f', -1, 64)
	if !slices.Contains(dst[start:], '.') {
		dst = append(dst, ".0"...)
	}
	return dst
}

// SortedEdges returns the pairs of edges (each u < v, none a self loop)
// in increasing order with their rows in the source, so that a converter
// can report a repeated edge by the rows it occupies.
func SortedEdges(edges [][2]int) (sorted [][2]int, rows []int) {
	rows = make([]int, len(edges))
	for r := range rows {
		rows[r] = r
	}
	slices.SortStableFunc(rows, func(a, b int) int {
		if c := edges[a][0] - edges[b][0]; c != 0 {
			return c
		}
		return edges[a][1] - edges[b][1]
	})
	sorted = make([][2]int, len(edges))
	for k, r := range rows {
		sorted[k] = edges[r]
	}
	return sorted, rows
}
