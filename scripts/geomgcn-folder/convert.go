package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/scripts/internal/nodefolder"
)

// report are the counts of the written folder and what making the graph
// undirected dropped.
type report struct {
	nodefolder.Counts
	DirectedEdges int `json:"directed_edges"`
	SelfLoops     int `json:"self_loops_dropped"`
	Reciprocal    int `json:"reverse_edges_merged"`
}

// Headers of the two text files, as the repository writes them.
const (
	nodeHeader = "node_id\tfeature\tlabel"
	edgeHeader = "node_id\tnode_id"
)

// convert checks the set name under repo and writes its folder into out.
func convert(repo, name, out string) (*report, error) {
	base := filepath.Join(repo, "new_data", name)
	x, labels, err := readNodes(filepath.Join(base, "out1_node_feature_label.txt"))
	if err != nil {
		return nil, err
	}
	n := len(labels)
	edges, r, err := readEdges(filepath.Join(base, "out1_graph_edges.txt"), n)
	if err != nil {
		return nil, err
	}
	splits, err := readSplits(filepath.Join(repo, "splits"), name, n)
	if err != nil {
		return nil, err
	}
	c, err := nodefolder.Write(out, &nodefolder.Set{Features: x, Labels: labels, Edges: edges, Splits: splits})
	if err != nil {
		return nil, err
	}
	r.Counts = *c
	return r, nil
}

// lines calls row with each line after the header of the text file at
// path (its number counted from 1 for the header) and checks the header.
func lines(path, header string, row func(line int, text string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	k := 0
	for sc.Scan() {
		k++
		text := strings.TrimRight(sc.Text(), "\r")
		if k == 1 {
			if text != header {
				return fmt.Errorf("%s: line 1 is %.40q: want the header %q (a Git LFS pointer or another file?)", path, text, header)
			}
			continue
		}
		if err := row(k, text); err != nil {
			return fmt.Errorf("%s: line %d: %w", path, k, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if k == 0 {
		return fmt.Errorf("%s: empty file: want the header %q", path, header)
	}
	return nil
}

// readNodes reads the feature and label file: rows by node id.
func readNodes(path string) (*mat.Dense, []int, error) {
	type node struct {
		id, label int
		x         []float64
	}
	var nodes []node
	err := lines(path, nodeHeader, func(_ int, text string) error {
		f := strings.Split(text, "\t")
		if len(f) != 3 {
			return fmt.Errorf("%d tab-separated fields, want 3 (id, features, label)", len(f))
		}
		var v node
		var err error
		if v.id, err = strconv.Atoi(f[0]); err != nil {
			return fmt.Errorf("node id %q is not an integer", f[0])
		}
		if v.label, err = strconv.Atoi(f[2]); err != nil || v.label < 0 {
			return fmt.Errorf("label %q is not a class number ≥ 0", f[2])
		}
		for j, s := range strings.Split(f[1], ",") {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("feature %d = %q is not a finite number", j, s)
			}
			v.x = append(v.x, x)
		}
		if len(nodes) > 0 && len(v.x) != len(nodes[0].x) {
			return fmt.Errorf("%d features, the first row %d (film's rows list feature indices: not supported)", len(v.x), len(nodes[0].x))
		}
		nodes = append(nodes, v)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	n := len(nodes)
	if n == 0 {
		return nil, nil, fmt.Errorf("%s: no nodes", path)
	}
	x := mat.NewDense(n, len(nodes[0].x), nil)
	labels := make([]int, n)
	seen := make([]bool, n)
	for k, v := range nodes {
		switch {
		case v.id < 0 || v.id >= n:
			return nil, nil, fmt.Errorf("%s: line %d: node id %d is outside [0, %d): the ids must be 0 … n−1", path, k+2, v.id, n)
		case seen[v.id]:
			return nil, nil, fmt.Errorf("%s: line %d: node id %d appears twice", path, k+2, v.id)
		case v.label >= n:
			return nil, nil, fmt.Errorf("%s: line %d: label %d is not a class in [0, %d)", path, k+2, v.label, n)
		}
		seen[v.id] = true
		labels[v.id] = v.label
		x.SetRow(v.id, v.x)
	}
	return x, labels, nil
}

// readEdges reads the directed edge file of an n-node set and returns its
// undirected edges u < v, sorted, with what was merged or dropped.
func readEdges(path string, n int) ([][2]int, *report, error) {
	r := &report{}
	var pairs [][2]int
	dir := map[[2]int]int{} // directed edge → its line
	err := lines(path, edgeHeader, func(line int, text string) error {
		f := strings.Split(text, "\t")
		if len(f) != 2 {
			return fmt.Errorf("%d tab-separated fields, want 2 (u, v)", len(f))
		}
		var e [2]int
		for k, s := range f {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 || v >= n {
				return fmt.Errorf("%q is not a node id in [0, %d)", s, n)
			}
			e[k] = v
		}
		if prev, ok := dir[e]; ok {
			return fmt.Errorf("edge %d → %d repeats line %d", e[0], e[1], prev)
		}
		dir[e] = line
		r.DirectedEdges++
		if e[0] == e[1] {
			r.SelfLoops++
			return nil
		}
		if e[0] > e[1] {
			e[0], e[1] = e[1], e[0]
		}
		pairs = append(pairs, e)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sorted, _ := nodefolder.SortedEdges(pairs)
	edges := sorted[:0]
	for k, e := range sorted {
		if k > 0 && e == sorted[k-1] {
			r.Reciprocal++ // the same pair the other way: the only repeat left
			continue
		}
		edges = append(edges, e)
	}
	return edges, r, nil
}

var maskNames = [3]string{"train_mask", "val_mask", "test_mask"}

// readSplits reads splits/NAME_split_0.6_0.2_K.npz for K = 0, 1, … until
// the first missing one.
func readSplits(dir, name string, n int) ([]nodefolder.Split, error) {
	var out []nodefolder.Split
	for k := 0; ; k++ {
		path := filepath.Join(dir, fmt.Sprintf("%s_split_0.6_0.2_%d.npz", name, k))
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			if k == 0 {
				return nil, fmt.Errorf("%s: no split file (the repository's splits/ folder?)", path)
			}
			return out, nil
		}
		sp, err := readSplit(path, n)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
}

// readSplit reads and checks the three masks of one split file.
func readSplit(path string, n int) (nodefolder.Split, error) {
	var parts [3][]int
	in := make([]int, n)
	for k, m := range maskNames {
		v, err := loaders.ReadNPZVector(path, m)
		if err != nil {
			return nodefolder.Split{}, err
		}
		if len(v) != n {
			return nodefolder.Split{}, fmt.Errorf("%s: %s has %d entries, the set %d nodes", path, m, len(v), n)
		}
		for i, b := range v {
			switch {
			case b != 0 && b != 1:
				return nodefolder.Split{}, fmt.Errorf("%s: %s[%d] = %v: want a boolean mask", path, m, i, b)
			case b == 0:
				continue
			case in[i] > 0:
				return nodefolder.Split{}, fmt.Errorf("%s: node %d is in both %s and %s", path, i, maskNames[in[i]-1], m)
			}
			in[i] = k + 1
			parts[k] = append(parts[k], i)
		}
		if len(parts[k]) == 0 {
			return nodefolder.Split{}, fmt.Errorf("%s: %s selects no node", path, m)
		}
	}
	return nodefolder.Split{Train: parts[0], Val: parts[1], Test: parts[2]}, nil
}
