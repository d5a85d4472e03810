// Command platonov-npz converts a data set of Platonov et al., "A critical
// look at the evaluation of GNNs under heterophily" (ICLR 2023), as their
// code publishes it (yandex-research/heterophilous-graphs, data/NAME.npz),
// into a gssl node-classification folder laid out as the shared
// heterophilous sets are (../shared/data/tolokers/README.md):
//
//	go run ./scripts/platonov-npz -npz minesweeper.npz -out DIR
//
// The .npz holds node_features (n × F), node_labels (n), edges (E × 2, each
// undirected edge once) and train_masks, val_masks, test_masks (K × n bool,
// one row per fixed split). DIR receives
//
//   - edges.txt: "u v" with u < v, sorted, each edge once;
//   - labels.txt: line i the class of node i;
//   - features.txt.gz: the header "# n F", then per node its nonzero
//     values as "col:value" pairs, each value written as Python's repr of
//     the float32 widened to float64 (the shared sets were written so);
//   - split_0.txt … split_{K−1}.txt: "train i" lines, then "val i", then
//     "test i", each in increasing node order.
//
// The input is checked before anything is written: every node labelled
// with a class in [0, n), every edge inside [0, n) with no self loop and no
// edge twice (in either direction), the three masks of a split disjoint and
// none of them empty, every feature finite. A failed check is an error
// naming the array and the element. The verified counts are printed as one
// JSON line, for the folder's README.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/scripts/internal/nodefolder"
)

func main() {
	npz := flag.String("npz", "", "the paper's data/NAME.npz")
	out := flag.String("out", "", "output folder (created; existing files are replaced)")
	flag.Parse()
	if *npz == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "platonov-npz: -npz and -out are required")
		os.Exit(2)
	}
	c, err := convert(*npz, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "platonov-npz:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(c); err != nil {
		fmt.Fprintln(os.Stderr, "platonov-npz:", err)
		os.Exit(1)
	}
}

// dataset is a checked .npz.
type dataset struct {
	features *mat.Dense
	labels   []int
	edges    [][2]int // u < v, sorted
	masks    [3]*mat.Dense
}

var maskNames = [3]string{"train_masks", "val_masks", "test_masks"}

// read reads and checks the arrays of the .npz at path.
func read(path string) (*dataset, error) {
	var d dataset
	var err error
	if d.labels, err = loaders.ReadNPZLabels(path, "node_labels"); err != nil {
		return nil, err
	}
	n := len(d.labels)
	for i, y := range d.labels {
		if y < 0 || y >= n {
			return nil, fmt.Errorf("%s: node_labels[%d] = %d: every node needs a class in [0, %d)", path, i, y, n)
		}
	}
	if d.features, err = loaders.ReadNPZ(path, "node_features"); err != nil {
		return nil, err
	}
	if r, _ := d.features.Dims(); r != n {
		return nil, fmt.Errorf("%s: node_features has %d rows, node_labels %d nodes", path, r, n)
	}
	e, err := loaders.ReadNPZ(path, "edges")
	if err != nil {
		return nil, err
	}
	if d.edges, err = edgeList(path, e, n); err != nil {
		return nil, err
	}
	for k, name := range maskNames {
		if d.masks[k], err = loaders.ReadNPZ(path, name); err != nil {
			return nil, err
		}
		r, c := d.masks[k].Dims()
		if c != n {
			return nil, fmt.Errorf("%s: %s has %d columns, node_labels %d nodes", path, name, c, n)
		}
		if k > 0 {
			if r0, _ := d.masks[0].Dims(); r != r0 {
				return nil, fmt.Errorf("%s: %s has %d splits, %s %d", path, name, r, maskNames[0], r0)
			}
		}
		for s := 0; s < r; s++ {
			for i := 0; i < n; i++ {
				if v := d.masks[k].At(s, i); v != 0 && v != 1 {
					return nil, fmt.Errorf("%s: %s[%d, %d] = %v: want a boolean mask", path, name, s, i, v)
				}
			}
		}
	}
	splits, _ := d.masks[0].Dims()
	for s := 0; s < splits; s++ {
		var size [3]int
		for i := 0; i < n; i++ {
			in := -1
			for k := range d.masks {
				if d.masks[k].At(s, i) == 0 {
					continue
				}
				if in >= 0 {
					return nil, fmt.Errorf("%s: split %d: node %d is in both %s and %s", path, s, i, maskNames[in], maskNames[k])
				}
				in = k
				size[k]++
			}
		}
		for k, c := range size {
			if c == 0 {
				return nil, fmt.Errorf("%s: split %d: %s selects no node", path, s, maskNames[k])
			}
		}
	}
	return &d, nil
}

// edgeList checks the E × 2 edge array and returns its edges as sorted
// pairs u < v.
func edgeList(path string, e *mat.Dense, n int) ([][2]int, error) {
	rows, cols := e.Dims()
	if cols != 2 {
		return nil, fmt.Errorf("%s: edges has %d columns, want 2 (an E × 2 array of node pairs)", path, cols)
	}
	out := make([][2]int, rows)
	for r := 0; r < rows; r++ {
		var p [2]int
		for c := range p {
			v := e.At(r, c)
			if v != math.Trunc(v) || v < 0 || v >= float64(n) {
				return nil, fmt.Errorf("%s: edges[%d, %d] = %v is not a node id in [0, %d)", path, r, c, v, n)
			}
			p[c] = int(v)
		}
		if p[0] == p[1] {
			return nil, fmt.Errorf("%s: edges[%d] = (%d, %d) is a self loop", path, r, p[0], p[1])
		}
		if p[0] > p[1] {
			p[0], p[1] = p[1], p[0]
		}
		out[r] = p
	}
	sorted, order := nodefolder.SortedEdges(out)
	for k := 1; k < len(sorted); k++ {
		if sorted[k] == sorted[k-1] {
			return nil, fmt.Errorf("%s: edges[%d] and edges[%d] are the same undirected edge (%d, %d)", path, order[k-1], order[k], sorted[k][0], sorted[k][1])
		}
	}
	return sorted, nil
}

// convert checks the .npz at path and writes its folder into dir.
func convert(path, dir string) (*nodefolder.Counts, error) {
	d, err := read(path)
	if err != nil {
		return nil, err
	}
	set := &nodefolder.Set{Features: d.features, Labels: d.labels, Edges: d.edges}
	splits, n := d.masks[0].Dims()
	for s := 0; s < splits; s++ {
		var parts [3][]int
		for k, m := range d.masks {
			for i := 0; i < n; i++ {
				if m.At(s, i) != 0 {
					parts[k] = append(parts[k], i)
				}
			}
		}
		set.Splits = append(set.Splits, nodefolder.Split{Train: parts[0], Val: parts[1], Test: parts[2]})
	}
	return nodefolder.Write(dir, set)
}
