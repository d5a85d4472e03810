package loaders

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

// NodeDataset is a node-classification data set read from a folder by
// LoadNodeDataset.
type NodeDataset struct {
	// Name is the base name of the folder ("cora").
	Name string
	// Reports say how LoadNodes read each of the user's files (format,
	// header, columns), in the order edges, labels, targets, features; nil
	// for a folder.
	Reports []TableReport
	// Graph has one node per label, 0/1 weights, no self loops (see
	// NodeGraphOptions).
	Graph *graph.CSR
	// IDs are the user's ids of the nodes (the identity for folders, whose
	// files number the nodes 0..n−1).
	IDs *nodeids.Map
	// Labels[i] is the class of node i in 0..Classes−1, or −1 when unknown.
	// Nil when no labels were given.
	Labels []int
	// Classes is the number of distinct labels ≥ 0 (0 when no node is
	// labelled): for folders the distinct values of labels.txt (see
	// ClassValues), for a user's labels table the distinct labels (named by
	// ClassNames).
	Classes int
	// ClassValues[c] is the integer label written in a folder's labels.txt
	// for class c, ascending: the distinct labels are numbered
	// 0..Classes−1 in order, so that a label such as 2147483647 costs one
	// class, not 2³¹. For the benchmark folders, whose labels are 0..C−1,
	// ClassValues[c] = c. Nil for a user's labels table (see ClassNames).
	ClassValues []int
	// SelfLoopsDropped is the number of lines of the edge file that were
	// self loops, which NodeGraphOptions drops.
	SelfLoopsDropped int
	// Features is the sparse node × feature matrix, nil without one.
	Features *Sparse
	// DenseFeatures is a dense node × feature matrix (a CSV or NumPy feature
	// file), nil without one. At most one of Features and DenseFeatures is
	// set.
	DenseFeatures *mat.Dense
	// Targets[i] is the regression target of node i, NaN when unknown; nil
	// without targets.
	Targets []float64
	// Split is the standard split, nil without split_planetoid.txt.
	Split *Split
	// closer releases a memory-mapped graph file (Close).
	closer io.Closer
	// ClassNames[c] names class c ("" when not listed): the label as written
	// in a user's labels table, or class_names.txt in a folder (nil without).
	ClassNames []string
}

// Close releases what the data set holds outside the Go heap: the mapping
// of a graph file (.gsg) that Graph is a view of. Graph must not be used
// after Close. Close does nothing for data sets read into memory.
func (ds *NodeDataset) Close() error {
	if ds == nil || ds.closer == nil {
		return nil
	}
	err := ds.closer.Close()
	ds.closer = nil
	return err
}

// NodeGraphOptions are the graph options LoadNodeDataset builds Graph with:
// every line "u v" is an undirected edge of weight 1, repeats are merged and
// self loops dropped, as PyG's to_undirected and remove_self_loops do and as
// the Python peers of the benchmarks load the same files.
func NodeGraphOptions() graph.Options {
	return graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop, Symmetrize: graph.Undirected}
}

// File names of the node-classification folder format.
const (
	nodeEdgesFile      = "edges.txt"
	nodeLabelsFile     = "labels.txt"
	nodeFeaturesFile   = "features.txt.gz"
	nodeSplitFile      = "split_planetoid.txt"
	nodeClassNamesFile = "class_names.txt"
)

// LoadNodeDataset reads a node-classification folder: edges.txt and
// labels.txt, and when present features.txt.gz, split_planetoid.txt and
// class_names.txt. The node count n is the number of labels; the features
// header, when there is one, must give the same n. Edges must name nodes in
// [0, n), and split nodes must have a known label.
func LoadNodeDataset(dir string) (*NodeDataset, error) {
	name := filepath.Base(dir)
	if abs, err := filepath.Abs(dir); err == nil {
		name = filepath.Base(abs)
	}
	return loadNodeFolder(folderSource{fsys: os.DirFS(dir), disk: dir}, name)
}

// folderSource is a folder in our layout, on disk (disk is its path) or in an
// fs.FS (disk is empty, and show gives the names errors use).
type folderSource struct {
	fsys fs.FS
	disk string
	show string // the folder's name in errors, for an fs.FS
}

// path returns the name of a file of the folder as errors give it.
func (d folderSource) path(name string) string {
	if d.disk != "" {
		return filepath.Join(d.disk, name)
	}
	return path.Join(d.show, name)
}

// exists reports whether the folder holds name.
func (d folderSource) exists(name string) (bool, error) {
	_, err := fs.Stat(d.fsys, name)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("loaders: %w", err)
}

// readIn opens name in the folder and hands its lines to parse.
func readIn[T any](d folderSource, name string, parse func(*lineReader) (T, error)) (T, error) {
	var zero T
	f, err := d.fsys.Open(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = d.path(name) // the name the caller knows
		}
		return zero, fmt.Errorf("loaders: %w", err)
	}
	defer f.Close()
	lr, err := newLineReader(f, d.path(name))
	if err != nil {
		return zero, err
	}
	return parse(lr)
}

// loadNodeFolder reads the files of a node-classification folder.
func loadNodeFolder(d folderSource, name string) (*NodeDataset, error) {
	ds := &NodeDataset{Name: name}
	labelsPath := d.path(nodeLabelsFile)
	labels, err := readIn(d, nodeLabelsFile, decodeLabels)
	if err != nil {
		return nil, err
	}
	n := len(labels)
	ds.IDs = nodeids.Identity(n)
	ds.Labels, ds.ClassValues = NumberClasses(labels)
	ds.Classes = len(ds.ClassValues)

	featuresPath := d.path(nodeFeaturesFile)
	if ok, err := d.exists(nodeFeaturesFile); err != nil {
		return nil, err
	} else if ok {
		if ds.Features, err = readIn(d, nodeFeaturesFile, decodeFeatures); err != nil {
			return nil, err
		}
		if ds.Features.Rows != n {
			return nil, &ParseError{Path: labelsPath, Msg: fmt.Sprintf("%d labels, want %d: one per node, the node count being the %d rows of %s", n, ds.Features.Rows, ds.Features.Rows, featuresPath)}
		}
	}

	if ds.Graph, ds.SelfLoopsDropped, err = d.readEdges(n, labelsPath); err != nil {
		return nil, err
	}

	splitPath := d.path(nodeSplitFile)
	if ok, err := d.exists(nodeSplitFile); err != nil {
		return nil, err
	} else if ok {
		if ds.Split, err = readIn(d, nodeSplitFile, func(lr *lineReader) (*Split, error) { return decodeSplit(lr, n) }); err != nil {
			return nil, err
		}
		for _, part := range [][]int{ds.Split.Train, ds.Split.Val, ds.Split.Test} {
			for _, i := range part {
				if labels[i] < 0 {
					return nil, &ParseError{Path: splitPath, Msg: fmt.Sprintf("node %d is in the split but its label in %s is -1 (unknown)", i, labelsPath)}
				}
			}
		}
	}

	if ok, err := d.exists(nodeClassNamesFile); err != nil {
		return nil, err
	} else if ok {
		ds.ClassNames, err = readIn(d, nodeClassNamesFile, func(lr *lineReader) ([]string, error) {
			return decodeClassNames(lr, ds.ClassValues)
		})
		if err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// readEdges reads edges.txt into a graph on the n nodes of the labels, and
// counts the self loops it drops. On disk it tries the parallel reader
// first; the line-by-line parser reads everything else and names the line
// of any problem.
func (d folderSource) readEdges(n int, labelsPath string) (*graph.CSR, int, error) {
	if d.disk != "" {
		g, ids, ff, err := readIntEdgesParallel(d.path(nodeEdgesFile), NodeGraphOptions())
		if err == nil && ff.width == 2 {
			if g, ok := placeIdentity(g, ids, n); ok {
				return g, ff.loops, nil
			}
		} else if err != nil && !errors.Is(err, ErrNotFast) {
			return nil, 0, err
		}
	}
	loops := 0
	g, err := readIn(d, nodeEdgesFile, func(lr *lineReader) (*graph.CSR, error) {
		el, err := parseEdges(lr, 0, false, nil)
		if err != nil {
			return nil, err
		}
		for _, e := range el.edges {
			if e.U == e.V {
				loops++
			}
		}
		if el.maxID >= n {
			for k, e := range el.edges {
				if e.U >= n || e.V >= n {
					return nil, &ParseError{Path: lr.path, Line: el.lines[k], Msg: fmt.Sprintf("node id %d out of range [0, %d): %s has %d labels, one per node", max(e.U, e.V), n, labelsPath, n)}
				}
			}
		}
		return el.build(lr.path, n, NodeGraphOptions())
	})
	return g, loops, err
}

// placeIdentity places the nodes of a graph read with integer ids on the
// nodes 0..n−1 their ids name; ok is false when an id is n or more.
func placeIdentity(g *graph.CSR, ids *nodeids.Map, n int) (*graph.CSR, bool) {
	k := ids.Len()
	if k > n {
		return nil, false
	}
	var place []int32
	if !ids.IsIdentity() {
		place = make([]int32, k)
		for i := range place {
			v, _ := ids.IntID(i)
			if v >= int64(n) {
				return nil, false
			}
			place[i] = int32(v)
		}
	}
	out, err := g.Place(n, place)
	return out, err == nil
}

// exists reports whether path exists; errors other than absence are returned.
func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("loaders: %w", err)
}

// decodeLabels reads one label per line: a class ≥ 0, or −1 for unknown.
func decodeLabels(lr *lineReader) ([]int, error) {
	// A label line takes at least two bytes ("0\n") but the last.
	labels := make([]int, 0, lr.size/2+1)
	lr.transient = true // parseInt and its errors copy what they keep
	err := lr.eachLine("#", blankTrailing, func(s string) error {
		l, err := parseInt(s, "label")
		if err != nil {
			return err
		}
		if l < -1 {
			return fmt.Errorf("label %d is invalid: want a class ≥ 0, or -1 for unknown", l)
		}
		labels = append(labels, l)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(labels) == 0 {
		return nil, lr.fileErrorf("no labels")
	}
	return labels, nil
}

// NumberClasses maps the labels ≥ 0 to classes 0..C−1 in ascending order of
// value (−1 stays −1) and returns the classes and the value of each class.
// It allocates O(len(labels)) whatever the values.
func NumberClasses(labels []int) (classes, values []int) {
	top := -1
	for _, l := range labels {
		top = max(top, l)
	}
	classes = make([]int, len(labels))
	if top < len(labels) {
		// Values below the label count: a table from value to class.
		class := make([]int32, top+1)
		for _, l := range labels {
			if l >= 0 {
				class[l] = 1
			}
		}
		for v, seen := range class {
			if seen != 0 {
				class[v] = int32(len(values))
				values = append(values, v)
			}
		}
		for i, l := range labels {
			classes[i] = -1
			if l >= 0 {
				classes[i] = int(class[l])
			}
		}
		return classes, values
	}
	class := make(map[int]int)
	for _, l := range labels {
		if l >= 0 {
			class[l] = 0
		}
	}
	values = slices.Sorted(maps.Keys(class))
	for c, v := range values {
		class[v] = c
	}
	for i, l := range labels {
		classes[i] = -1
		if l >= 0 {
			classes[i] = class[l]
		}
	}
	return classes, values
}

// decodeClassNames reads lines "k name" for the label values k of values
// (ascending); names[c] names the class of values[c].
func decodeClassNames(lr *lineReader, values []int) ([]string, error) {
	classes := len(values)
	names := make([]string, classes)
	seen := make([]int, classes)
	err := lr.eachLine("#", blankSkip, func(s string) error {
		ks, name := s, ""
		if i := strings.IndexAny(s, " \t"); i >= 0 {
			ks, name = s[:i], strings.TrimSpace(s[i+1:])
		}
		if name == "" {
			return fmt.Errorf(`want "k name", got %q`, s)
		}
		v, err := parseInt(ks, "class")
		if err != nil {
			return err
		}
		k, ok := slices.BinarySearch(values, v)
		if !ok {
			return fmt.Errorf("class %d is not a label of any node (the labels have %d classes)", v, classes)
		}
		if seen[k] != 0 {
			return fmt.Errorf("class %d already named on line %d", v, seen[k])
		}
		seen[k] = lr.line
		names[k] = name
		return nil
	})
	if err != nil {
		return nil, err
	}
	return names, nil
}

// Split is a train/validation/test partition of node (or item) ids, in file
// order: the evaluation package's type, so splits read from files and splits
// drawn by eval.RandomPerClass are interchangeable.
type Split = eval.Split

// ReadSplit reads a split file of lines "train i", "val i" or "test i" for
// ids i in [0, n). An id listed twice, in the same part or in two, is an
// error. ReadSplit panics if n < 0.
func ReadSplit(path string, n int) (*Split, error) {
	if n < 0 {
		panic("loaders: negative node count")
	}
	return readFile(path, func(lr *lineReader) (*Split, error) { return decodeSplit(lr, n) })
}

func decodeSplit(lr *lineReader, n int) (*Split, error) {
	sp := &Split{}
	type listing struct {
		line int
		part string
	}
	seen := make(map[int]listing)
	err := lr.eachLine("#", blankSkip, func(s string) error {
		f := strings.Fields(s)
		if len(f) != 2 {
			return fmt.Errorf(`want "train i", "val i" or "test i", got %q`, s)
		}
		var dst *[]int
		switch f[0] {
		case "train":
			dst = &sp.Train
		case "val":
			dst = &sp.Val
		case "test":
			dst = &sp.Test
		default:
			return fmt.Errorf(`want part "train", "val" or "test", got %q`, f[0])
		}
		i, err := parseIndex(f[1], "node")
		if err != nil {
			return err
		}
		if i >= n {
			return fmt.Errorf("node %d out of range [0, %d)", i, n)
		}
		if prev, ok := seen[i]; ok {
			return fmt.Errorf("node %d already listed on line %d (as %s)", i, prev.line, prev.part)
		}
		seen[i] = listing{lr.line, f[0]}
		*dst = append(*dst, i)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sp, nil
}
