package loaders

import (
	"fmt"
	"sort"

	"github.com/gssl/gssl/graph"
)

// ReadEdgeList reads an edge list (see the package documentation for the
// format) into a graph on n nodes, built by graph.FromEdges with opt. n = 0
// means max id + 1. Ids outside [0, n), malformed lines, weights that are not
// finite and non-negative, and the self loops and repeated edges that opt
// rejects are reported with the file and line. ReadEdgeList panics if n < 0.
func ReadEdgeList(path string, n int, opt graph.Options) (*graph.CSR, error) {
	if n < 0 {
		panic("loaders: negative node count")
	}
	return readFile(path, func(lr *lineReader) (*graph.CSR, error) {
		return decodeEdgeList(lr, n, true, opt)
	})
}

// decodeEdgeList parses an edge list and builds the graph; weighted says
// whether a third column is allowed.
func decodeEdgeList(lr *lineReader, n int, weighted bool, opt graph.Options) (*graph.CSR, error) {
	el, err := parseEdges(lr, n, weighted)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		n = el.maxID + 1
	}
	return el.build(lr.path, n, opt)
}

// edgeList is a parsed edge list with the line of every edge.
type edgeList struct {
	edges []graph.Edge
	lines []int
	maxID int // -1 when there are no edges
	base  int // the file's first id (1 for Matrix Market), for messages
}

// parseEdges reads "u v" or "u v w" lines; n > 0 bounds the ids.
func parseEdges(lr *lineReader, n int, weighted bool) (*edgeList, error) {
	el := &edgeList{maxID: -1}
	want := `"u v" or "u v w"`
	if !weighted {
		want = `"u v"`
	}
	width, widthLine := 0, 0
	err := lr.eachLine("#%", blankSkip, func(s string) error {
		f := splitFields(s)
		if len(f) != 2 && (len(f) != 3 || !weighted) {
			return fmt.Errorf("want %s, got %q", want, s)
		}
		if width == 0 {
			width, widthLine = len(f), lr.line
		} else if len(f) != width {
			return fmt.Errorf("want %d fields like line %d, got %d in %q", width, widthLine, len(f), s)
		}
		var ids [2]int
		for k := range ids {
			id, err := parseIndex(f[k], "node id")
			if err != nil {
				return err
			}
			if n > 0 && id >= n {
				return fmt.Errorf("node id %d out of range [0, %d)", id, n)
			}
			ids[k] = id
			el.maxID = max(el.maxID, id)
		}
		w := 1.0
		if len(f) == 3 {
			var err error
			if w, err = parseWeight(f[2]); err != nil {
				return err
			}
		}
		el.edges = append(el.edges, graph.Edge{U: ids[0], V: ids[1], W: w})
		el.lines = append(el.lines, lr.line)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return el, nil
}

// build calls graph.FromEdges and maps a rejected self loop or repeated edge
// back to its line in path.
func (el *edgeList) build(path string, n int, opt graph.Options) (*graph.CSR, error) {
	if opt.SelfLoops == graph.SelfLoopError {
		for k, e := range el.edges {
			if e.U == e.V {
				return nil, &ParseError{Path: path, Line: el.lines[k], Msg: fmt.Sprintf("self loop on node %d (self-loop policy: error)", e.U+el.base)}
			}
		}
	}
	g, err := graph.FromEdges(n, el.edges, opt)
	if err == nil {
		return g, nil
	}
	if opt.Duplicates == graph.DuplicateError {
		if a, b, ok := el.firstDuplicate(opt); ok {
			e := el.edges[b]
			return nil, &ParseError{Path: path, Line: el.lines[b], Msg: fmt.Sprintf("edge (%d, %d) repeats line %d (duplicate policy: error; choose sum or max to merge)", e.U+el.base, e.V+el.base, el.lines[a])}
		}
	}
	return nil, &ParseError{Path: path, Err: err}
}

// firstDuplicate returns the positions a < b of the repeated edge whose
// second occurrence comes first, as opt defines a repeat: the same unordered
// pair for undirected input, the same arc for directed input. Self loops
// that opt drops are not repeats.
func (el *edgeList) firstDuplicate(opt graph.Options) (a, b int, ok bool) {
	key := func(k int) (int, int) {
		u, v := el.edges[k].U, el.edges[k].V
		if opt.Symmetrize == graph.Undirected && u > v {
			u, v = v, u
		}
		return u, v
	}
	idx := make([]int, 0, len(el.edges))
	for k, e := range el.edges {
		if e.U != e.V || opt.SelfLoops != graph.SelfLoopDrop {
			idx = append(idx, k)
		}
	}
	sort.SliceStable(idx, func(i, j int) bool {
		ui, vi := key(idx[i])
		uj, vj := key(idx[j])
		return ui < uj || (ui == uj && vi < vj)
	})
	b = -1
	for i := 1; i < len(idx); i++ {
		u0, v0 := key(idx[i-1])
		u1, v1 := key(idx[i])
		if u0 == u1 && v0 == v1 && (b < 0 || idx[i] < b) {
			a, b = idx[i-1], idx[i]
		}
	}
	return a, b, b >= 0
}
