package loaders

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

// NodeFiles names the files of a node-level data set; LoadNodes reads them.
// Either Dir or Edges is given.
type NodeFiles struct {
	// Dir is a folder in one of the layouts LoadNodeDataset reads.
	Dir string
	// Edges is a graph: an edge table (ReadEdgeTable) or a Matrix Market
	// file (recognised by its %%MatrixMarket header).
	Edges string
	// Labels is a table of "id,label" rows: class names as written, an
	// empty, missing, -1 or NaN label meaning unlabelled; or one label per
	// line for the nodes 0, 1, ….
	Labels string
	// Features is a feature matrix: our sparse text format ("# n_rows
	// n_cols" header, row i = node i) or a CSV/TSV table of numbers whose
	// rows are the nodes 0, 1, … or, when its first header column is named
	// id (node, name, …), the nodes named there.
	Features string
	// Targets is a table of "id,value" rows of regression targets (empty or
	// NaN: unknown), or one value per line for the nodes 0, 1, ….
	Targets string
	// Table says how the text tables are read (header, delimiter).
	Table TableOptions
	// Source, Target and Weight name the edge table's columns (see
	// EdgeTableOptions).
	Source, Target, Weight string
	// Graph says how edges become the graph. The zero value reads each line
	// as an undirected edge and rejects repeats; UserGraphOptions (what the
	// command line uses) merges repeats and reverse duplicates by max.
	Graph graph.Options
	// Nodes > 0 fixes the nodes to the integer ids 0..Nodes−1: any other id
	// is an error, and nodes listed in no file are isolated nodes.
	Nodes int
}

// UserGraphOptions are the graph options for a user's edge table: each line
// is an undirected edge, a pair given twice (in either direction) is merged
// keeping the larger weight, and self loops are kept as given.
func UserGraphOptions() graph.Options {
	return graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopKeep, Symmetrize: graph.Undirected}
}

// LoadNodes reads a node-level data set from a folder (Dir) or from the
// user's own files (Edges with optional Labels, Features and Targets). The
// nodes are the ids present in any of the files (or 0..Nodes−1), numbered as
// package nodeids says; ds.IDs maps them back. Ids that name no node of a
// Matrix Market graph, labels or targets listed twice for a node, and
// feature rows of unknown nodes are errors naming the file and line.
func LoadNodes(f NodeFiles) (*NodeDataset, error) {
	switch {
	case f.Dir != "" && f.Edges != "":
		return nil, fmt.Errorf("loaders: a folder (%s) and an edge file (%s) exclude each other", f.Dir, f.Edges)
	case f.Dir != "":
		if f.Labels != "" || f.Features != "" || f.Targets != "" {
			return nil, fmt.Errorf("loaders: the folder %s holds its own labels and features; name files only without a folder", f.Dir)
		}
		ds, err := LoadNodeDataset(f.Dir)
		if err != nil {
			return nil, err
		}
		return ds, nil
	case f.Edges == "":
		return nil, fmt.Errorf("loaders: no graph: give a folder or an edge file")
	}
	if f.Nodes < 0 || f.Nodes > nodeids.MaxNodes {
		return nil, fmt.Errorf("loaders: node count %d out of range [1, %d]", f.Nodes, nodeids.MaxNodes)
	}
	ld := &nodeLoad{files: f}
	return ld.load()
}

// nodeLoad holds the state of one LoadNodes call.
type nodeLoad struct {
	files  NodeFiles
	b      nodeids.Builder
	fixed  int // > 0: ids must be 0..fixed−1
	fixedG *graph.CSR
}

// add checks that the builder did not grow past a fixed node set.
func (ld *nodeLoad) checkFixed(path string, line int32, id string) error {
	if ld.fixed > 0 && ld.b.Len() > ld.fixed {
		what := fmt.Sprintf("--nodes %d", ld.fixed)
		if ld.fixedG != nil {
			what = "the graph's " + fmt.Sprint(ld.fixed) + " nodes"
		}
		return &ParseError{Path: path, Line: int(line), Msg: fmt.Sprintf("node id %q is not one of %s (ids 0..%d)", id, what, ld.fixed-1)}
	}
	return nil
}

func (ld *nodeLoad) load() (*NodeDataset, error) {
	f := ld.files
	name := strings.TrimSuffix(filepath.Base(f.Edges), filepath.Ext(f.Edges))
	name = strings.TrimSuffix(name, filepath.Ext(name))
	ds := &NodeDataset{Name: name}

	var et *EdgeTable
	isMM, err := hasPrefix(f.Edges, "%%MatrixMarket")
	if err != nil {
		return nil, err
	}
	if isMM {
		g, err := ReadMatrixMarket(f.Edges, f.Graph)
		if err != nil {
			return nil, err
		}
		if f.Nodes > 0 && f.Nodes != g.Nodes() {
			return nil, fmt.Errorf("loaders: %s has %d nodes, but --nodes says %d", f.Edges, g.Nodes(), f.Nodes)
		}
		ld.fixed, ld.fixedG = g.Nodes(), g
	} else if f.Nodes > 0 {
		ld.fixed = f.Nodes
	}
	for i := 0; i < ld.fixed; i++ {
		if _, err := ld.b.AddInt(int64(i)); err != nil {
			return nil, err
		}
	}
	if !isMM {
		et, err = ReadEdgeTable(f.Edges, EdgeTableOptions{Table: f.Table, Source: f.Source, Target: f.Target, Weight: f.Weight}, &ld.b)
		if err != nil {
			return nil, err
		}
		if ld.fixed > 0 && ld.b.Len() > ld.fixed {
			for k := range et.Src {
				if int(et.Src[k]) >= ld.fixed || int(et.Dst[k]) >= ld.fixed {
					return nil, &ParseError{Path: f.Edges, Line: int(et.Lines[k]), Msg: fmt.Sprintf("node id out of range [0, %d) set by --nodes", ld.fixed)}
				}
			}
		}
	}

	var labels, targets *nodeValues
	if f.Labels != "" {
		if labels, err = readNodeValues(f.Labels, f.Table, &ld.b, []string{"label", "labels", "class", "y", "category", "target"}); err != nil {
			return nil, err
		}
		if err := ld.checkValues(f.Labels, labels); err != nil {
			return nil, err
		}
	}
	if f.Targets != "" {
		if targets, err = readNodeValues(f.Targets, f.Table, &ld.b, []string{"target", "value", "y", "label"}); err != nil {
			return nil, err
		}
		if err := ld.checkValues(f.Targets, targets); err != nil {
			return nil, err
		}
	}
	var feat *featureRows
	if f.Features != "" {
		if feat, err = ld.readFeatures(f.Features); err != nil {
			return nil, err
		}
	}

	ids, perm := ld.b.Finish()
	ds.IDs = ids
	n := ids.Len()
	at := func(prov int32) int {
		if perm == nil {
			return int(prov)
		}
		return int(perm[prov])
	}
	if ld.fixedG != nil {
		ds.Graph = ld.fixedG
	} else {
		et.Remap(perm)
		if ds.Graph, err = et.build(f.Edges, n, f.Graph); err != nil {
			return nil, err
		}
	}
	if labels != nil {
		cls, names := classesOf(labels.Values)
		ds.Labels = make([]int, n)
		for i := range ds.Labels {
			ds.Labels[i] = -1
		}
		for k, v := range labels.Nodes {
			ds.Labels[at(v)] = cls[k]
		}
		ds.Classes, ds.ClassNames = len(names), names
	}
	if targets != nil {
		ds.Targets = make([]float64, n)
		for i := range ds.Targets {
			ds.Targets[i] = math.NaN()
		}
		for k, v := range targets.Nodes {
			y, err := parseTarget(targets.Values[k])
			if err != nil {
				return nil, &ParseError{Path: f.Targets, Line: int(targets.Lines[k]), Msg: err.Error()}
			}
			ds.Targets[at(v)] = y
		}
	}
	if feat != nil {
		if err := feat.place(ds, n, at); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// checkValues rejects ids outside a fixed node set.
func (ld *nodeLoad) checkValues(path string, nv *nodeValues) error {
	if ld.fixed == 0 || ld.b.Len() <= ld.fixed {
		return nil
	}
	for k, v := range nv.Nodes {
		if int(v) >= ld.fixed {
			return ld.checkFixed(path, nv.Lines[k], fmt.Sprint("#", k))
		}
	}
	return nil
}

// build turns the edge table into a graph on n nodes with opt, naming the
// line of a rejected self loop or repeated edge.
func (et *EdgeTable) build(path string, n int, opt graph.Options) (*graph.CSR, error) {
	el := &edgeList{edges: make([]graph.Edge, et.Len()), lines: make([]int, et.Len()), maxID: n - 1}
	for k := range et.Src {
		w := 1.0
		if et.W != nil {
			w = et.W[k]
		}
		el.edges[k] = graph.Edge{U: int(et.Src[k]), V: int(et.Dst[k]), W: w}
		el.lines[k] = int(et.Lines[k])
	}
	return el.build(path, n, opt)
}

// hasPrefix reports whether the (possibly gzipped) file starts with prefix.
func hasPrefix(path, prefix string) (bool, error) {
	fh, err := os.Open(path)
	if err != nil {
		return false, fmt.Errorf("loaders: %w", err)
	}
	defer fh.Close()
	br, err := decompress(fh, path)
	if err != nil {
		return false, err
	}
	head, _ := br.Peek(len(prefix))
	return bytes.Equal(head, []byte(prefix)), nil
}

// featureRows are feature rows read before the node numbering is final:
// row k belongs to the provisional node nodes[k].
type featureRows struct {
	path   string
	nodes  []int32
	sparse *Sparse
	dense  *mat.Dense
}

// readFeatures reads a feature file whose rows are the nodes 0..R−1, or a
// table whose first column names the node.
func (ld *nodeLoad) readFeatures(path string) (*featureRows, error) {
	isSparse, err := hasPrefix(path, "#")
	if err != nil {
		return nil, err
	}
	fr := &featureRows{path: path}
	if isSparse {
		if fr.sparse, err = ReadFeatures(path); err != nil {
			return nil, err
		}
		return fr, ld.positionalRows(fr, fr.sparse.Rows)
	}
	ids, d, err := readFeatureTable(path, ld.files.Table)
	if err != nil {
		return nil, err
	}
	fr.dense = d
	if ids == nil {
		r, _ := d.Dims()
		return fr, ld.positionalRows(fr, r)
	}
	fr.nodes = make([]int32, len(ids))
	seen := make(map[int32]int, len(ids))
	for k, id := range ids {
		v, err := ld.b.Add(id)
		if err != nil {
			return nil, &ParseError{Path: path, Msg: fmt.Sprintf("row %d: %v", k+1, err)}
		}
		if err := ld.checkFixed(path, 0, id); err != nil {
			return nil, err
		}
		if prev, dup := seen[v]; dup {
			return nil, &ParseError{Path: path, Msg: fmt.Sprintf("node %q has two feature rows (data rows %d and %d)", id, prev+1, k+1)}
		}
		seen[v] = k
		fr.nodes[k] = v
	}
	return fr, nil
}

// positionalRows makes rows 0..r−1 the nodes with integer ids 0..r−1.
func (ld *nodeLoad) positionalRows(fr *featureRows, r int) error {
	if ld.b.IsText() {
		return fmt.Errorf("loaders: %s has no node ids (row i is node i), but the other files name nodes by text ids; add an id column to it", fr.path)
	}
	fr.nodes = make([]int32, r)
	for i := range fr.nodes {
		v, err := ld.b.AddInt(int64(i))
		if err != nil {
			return err
		}
		fr.nodes[i] = v
	}
	if ld.fixed > 0 && r > ld.fixed {
		return fmt.Errorf("loaders: %s has %d rows, more than the %d nodes", fr.path, r, ld.fixed)
	}
	return nil
}

// place stores the rows in node order; every node needs a row.
func (fr *featureRows) place(ds *NodeDataset, n int, at func(int32) int) error {
	if len(fr.nodes) != n {
		have := make([]bool, n)
		for _, v := range fr.nodes {
			have[at(v)] = true
		}
		for i, ok := range have {
			if !ok {
				return fmt.Errorf("loaders: %s has no row for node %q (%d rows for %d nodes)", fr.path, ds.IDs.ID(i), len(fr.nodes), n)
			}
		}
	}
	order := make([]int, n) // order[i] = the row of node i
	identity := true
	for k, v := range fr.nodes {
		order[at(v)] = k
		if at(v) != k {
			identity = false
		}
	}
	if fr.sparse != nil {
		if identity {
			ds.Features = fr.sparse
			return nil
		}
		ds.Features = fr.sparse.permuteRows(order)
		return nil
	}
	if identity {
		ds.DenseFeatures = fr.dense
		return nil
	}
	_, c := fr.dense.Dims()
	d := mat.NewDense(n, c, nil)
	for i, k := range order {
		d.SetRow(i, fr.dense.RawRowView(k))
	}
	ds.DenseFeatures = d
	return nil
}

// permuteRows returns the matrix whose row i is row order[i] of s.
func (s *Sparse) permuteRows(order []int) *Sparse {
	out := &Sparse{Rows: len(order), Cols: s.Cols, Indptr: make([]int, len(order)+1), Indices: make([]int32, 0, s.NNZ()), Values: make([]float64, 0, s.NNZ())}
	for i, k := range order {
		c, v := s.Row(k)
		out.Indices = append(out.Indices, c...)
		out.Values = append(out.Values, v...)
		out.Indptr[i+1] = len(out.Indices)
	}
	return out
}

// readFeatureTable reads a CSV/TSV table of numbers. When the header's first
// column is named like an id column, that column gives the node of each row
// (returned as ids) and the others the features.
func readFeatureTable(path string, opt TableOptions) (ids []string, d *mat.Dense, err error) {
	type result struct {
		ids []string
		d   *mat.Dense
	}
	r, err := readFile(path, func(lr *lineReader) (result, error) {
		t := newTable(lr, opt, "#")
		var (
			data      []float64
			rows      int
			width     int
			widthLine int
			idCol     = -1
			ids       []string
		)
		for {
			f, line, ok, err := t.row()
			if err != nil {
				return result{}, err
			}
			if !ok {
				break
			}
			if width == 0 {
				width, widthLine = len(f), line
				if t.header != nil {
					if len(t.header) != width {
						return result{}, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("row has %d fields but the header names %d columns", width, len(t.header))}
					}
					if k := t.headerIndex(idNames...); k == 0 {
						idCol = 0
					}
				}
			} else if len(f) != width {
				return result{}, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("want %d fields like line %d, got %d", width, widthLine, len(f))}
			}
			for j, x := range f {
				if j == idCol {
					ids = append(ids, x)
					continue
				}
				v, err := parseFinite(x, "value")
				if err != nil {
					return result{}, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("column %d: %v", j+1, err)}
				}
				data = append(data, v)
			}
			rows++
		}
		if rows == 0 {
			return result{}, lr.fileErrorf("no data rows")
		}
		cols := width
		if idCol >= 0 {
			cols--
		}
		if cols == 0 {
			return result{}, lr.fileErrorf("no feature columns")
		}
		return result{ids, mat.NewDense(rows, cols, data)}, nil
	})
	return r.ids, r.d, err
}
