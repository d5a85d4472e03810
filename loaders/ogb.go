// Open Graph Benchmark node-property folders.
//
// The raw layout of ogb's NodePropPredDataset (W. Hu et al., "Open Graph
// Benchmark: Datasets for Machine Learning on Graphs", NeurIPS 2020;
// https://ogb.stanford.edu/docs/nodeprop/), as found under
// dataset/ogbn_arxiv after ogb downloads it. Every file is a gzipped CSV
// without a header, as pandas' to_csv(header=False, index=False) writes it:
//
//	raw/edge.csv.gz           "u,v" per line, 0-based node ids
//	raw/num-node-list.csv.gz  one line: the node count n
//	raw/num-edge-list.csv.gz  optional, one line: the number of edge lines
//	raw/node-label.csv.gz     n lines, line i = the class of node i; an empty
//	                          line, "" or nan (pandas' NaN) = unlabelled
//	raw/node-feat.csv.gz      optional, n lines of comma-separated reals
//	split/<name>/{train,valid,test}.csv.gz
//	                          optional, one node id per line
//
// The node count n must agree with the labels and features. The edges of
// some data sets are arcs (ogbn-arxiv's citations); the graph is the
// undirected one PyG's to_undirected builds: an arc in either direction
// makes an edge of weight 1, repeats merged, self loops dropped
// (OGBGraphOptions). Classes are the distinct labels, ascending, numbered
// 0..C−1 and named in ClassNames by the label as written (the identity for
// the OGB data sets, whose labels are 0..C−1). Multi-task labels
// (ogbn-proteins' 112 columns) and heterogeneous graphs (ogbn-mag) are not
// read. A node in the split must be labelled.

package loaders

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

// OGBGraphOptions are the graph options LoadOGB builds Graph with: edges
// are read as arcs and W = max(A, Aᵀ) with 0/1 weights (an arc either way
// makes an edge, repeated arcs merged), self loops dropped, as PyG's
// to_undirected and remove_self_loops do for ogbn-arxiv.
func OGBGraphOptions() graph.Options {
	return graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop, Symmetrize: graph.DirectedMax}
}

// OGB file names.
const (
	ogbEdges    = "edge.csv.gz"
	ogbNumNodes = "num-node-list.csv.gz"
	ogbNumEdges = "num-edge-list.csv.gz"
	ogbLabels   = "node-label.csv.gz"
	ogbFeatures = "node-feat.csv.gz"
)

// IsOGBFolder reports whether dir has the raw layout LoadOGB reads (a
// raw/num-node-list.csv.gz file).
func IsOGBFolder(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "raw", ogbNumNodes))
	return err == nil && st.Mode().IsRegular()
}

// LoadOGB reads an OGB node-property folder (see the layout above) with
// the split in split/<splitName>; splitName "" takes the only split of the
// folder, or none when there is no split folder. The nodes are 0..n−1
// (ds.IDs is the identity); DenseFeatures holds node-feat.csv.gz.
func LoadOGB(dir, splitName string) (*NodeDataset, error) {
	name := filepath.Base(dir)
	if abs, err := filepath.Abs(dir); err == nil {
		name = filepath.Base(abs)
	}
	raw := filepath.Join(dir, "raw")
	ds := &NodeDataset{Name: name}

	numPath := filepath.Join(raw, ogbNumNodes)
	counts, err := readFile(numPath, decodeOGBCounts)
	if err != nil {
		return nil, err
	}
	if len(counts) != 1 {
		return nil, &ParseError{Path: numPath, Msg: fmt.Sprintf("%d graphs: a node-property data set has one graph (one line)", len(counts))}
	}
	declared := counts[0]

	labelsPath := filepath.Join(raw, ogbLabels)
	values, err := readFile(labelsPath, decodeOGBLabels)
	if err != nil {
		return nil, err
	}
	n := len(values)
	if n != declared {
		return nil, &ParseError{Path: labelsPath, Msg: fmt.Sprintf("%d lines, want one per node: %s says %d nodes", n, numPath, declared)}
	}
	ds.IDs = nodeids.Identity(n)
	ds.Labels, ds.ClassNames = ogbClasses(values)
	ds.Classes = len(ds.ClassNames)

	edgesPath := filepath.Join(raw, ogbEdges)
	var arcs int
	ds.Graph, err = readFile(edgesPath, func(lr *lineReader) (*graph.CSR, error) {
		el, err := parseEdges(lr, n, false, nil)
		if err != nil {
			return nil, err
		}
		arcs = len(el.edges)
		return el.build(lr.path, n, OGBGraphOptions())
	})
	if err != nil {
		return nil, err
	}
	numEdgesPath := filepath.Join(raw, ogbNumEdges)
	if ok, err := exists(numEdgesPath); err != nil {
		return nil, err
	} else if ok {
		m, err := readFile(numEdgesPath, decodeOGBCounts)
		if err != nil {
			return nil, err
		}
		if len(m) != 1 || m[0] != arcs {
			return nil, &ParseError{Path: edgesPath, Msg: fmt.Sprintf("%d edge lines, but %s says %v", arcs, numEdgesPath, m)}
		}
	}

	featPath := filepath.Join(raw, ogbFeatures)
	if ok, err := exists(featPath); err != nil {
		return nil, err
	} else if ok {
		if ds.DenseFeatures, err = ReadDense(featPath); err != nil {
			return nil, err
		}
		if r, _ := ds.DenseFeatures.Dims(); r != n {
			return nil, &ParseError{Path: featPath, Msg: fmt.Sprintf("%d rows, want one per node: %s says %d nodes", r, numPath, n)}
		}
	}

	if ds.Split, err = readOGBSplit(dir, splitName, ds.Labels); err != nil {
		return nil, err
	}
	return ds, nil
}

// decodeOGBCounts reads one non-negative integer per line.
func decodeOGBCounts(lr *lineReader) ([]int, error) {
	return decodeLines(lr, "", 0, "no count", func(s string) (int, error) { return parseIndex(s, "count") })
}

// ogbLabel is a label as read: its value, or unlabelled.
type ogbLabel struct {
	v       int64
	missing bool
}

// decodeOGBLabels reads line i = the label of node i. An empty line is
// pandas' NaN (it writes a lone NaN as "" or nothing), so every line counts.
func decodeOGBLabels(lr *lineReader) ([]ogbLabel, error) {
	var out []ogbLabel
	for lr.next() {
		s := strings.TrimSpace(lr.text)
		if strings.EqualFold(s, "nan") || s == "" || s == `""` {
			out = append(out, ogbLabel{missing: true})
			continue
		}
		if strings.IndexByte(s, ',') >= 0 {
			return nil, lr.errorf("%d label columns: multi-task labels (such as ogbn-proteins') are not supported, want one class per node", strings.Count(s, ",")+1)
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			// pandas writes an integer column holding NaN as floats: "3.0".
			f, ferr := strconv.ParseFloat(s, 64)
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
				return nil, lr.errorf("label %q: want an integer class, or nan or an empty line for unlabelled", s)
			}
			v = int64(f)
		}
		switch {
		case v == -1:
			out = append(out, ogbLabel{missing: true})
		case v < 0 || v > math.MaxInt32:
			return nil, lr.errorf("label %d: want a class ≥ 0, or nan for unlabelled", v)
		default:
			out = append(out, ogbLabel{v: v})
		}
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, lr.fileErrorf("no labels")
	}
	return out, nil
}

// ogbClasses numbers the distinct labels 0..C−1 in ascending order and
// names each by its value (classesOf, as for a user's labels table).
func ogbClasses(values []ogbLabel) ([]int, []string) {
	text := make([]string, len(values))
	for i, l := range values {
		if !l.missing {
			text[i] = strconv.FormatInt(l.v, 10)
		}
	}
	return classesOf(text)
}

// readOGBSplit reads split/<name>/{train,valid,test}.csv.gz.
func readOGBSplit(dir, name string, labels []int) (*Split, error) {
	splitDir := filepath.Join(dir, "split")
	entries, err := os.ReadDir(splitDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	switch {
	case name == "" && len(names) == 0:
		return nil, nil
	case name == "" && len(names) > 1:
		return nil, fmt.Errorf("loaders: %s holds %d splits (%s): name the one to use", splitDir, len(names), strings.Join(names, ", "))
	case name == "":
		name = names[0]
	}
	found := false
	for _, s := range names {
		found = found || s == name
	}
	if !found {
		have := "none"
		if len(names) > 0 {
			have = strings.Join(names, ", ")
		}
		return nil, fmt.Errorf("loaders: no split %q in %s (splits: %s)", name, splitDir, have)
	}
	n := len(labels)
	sp := &Split{}
	where := make(map[int]string)
	for _, part := range []struct {
		file string
		dst  *[]int
	}{{"train", &sp.Train}, {"valid", &sp.Val}, {"test", &sp.Test}} {
		path := filepath.Join(splitDir, name, part.file+".csv.gz")
		ids, err := readFile(path, func(lr *lineReader) ([]int, error) {
			var out []int
			err := lr.eachLine("", blankTrailing, func(s string) error {
				v, err := parseIndex(s, "node id")
				if err != nil {
					return err
				}
				if v >= n {
					return fmt.Errorf("node id %d out of range [0, %d)", v, n)
				}
				if prev, dup := where[v]; dup {
					return fmt.Errorf("node %d is already in %s", v, prev)
				}
				if labels[v] < 0 {
					return fmt.Errorf("node %d is in the split but unlabelled", v)
				}
				where[v] = part.file
				out = append(out, v)
				return nil
			})
			return out, err
		})
		if err != nil {
			return nil, err
		}
		*part.dst = ids
	}
	return sp, nil
}
