package loaders

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

// ReadEdgeList reads an edge list (see the package documentation for the
// format) into a graph on n nodes, built by graph.FromEdges with opt.
//
// With n > 0 the ids must lie in [0, n). With n = 0 the node count is max id
// + 1, which the file must justify: at most half of 0..max id may be absent
// from it (or max id < MinJustifiedNodes), since every absent id still costs a
// node. A file like "0 2000000000" is refused with an error pointing to
// ReadEdgeListIDs, which numbers the ids that appear, and to an explicit n.
//
// Ids outside [0, n), malformed lines, weights that are not finite and
// non-negative (or underflow to 0), the self loops and repeated edges that
// opt rejects are reported with the file and line, and so is a file without
// any edge. ReadEdgeList panics if n < 0.
func ReadEdgeList(path string, n int, opt graph.Options) (*graph.CSR, error) {
	if n < 0 {
		panic("loaders: negative node count")
	}
	return readFile(path, func(lr *lineReader) (*graph.CSR, error) {
		return decodeEdgeList(lr, n, true, opt)
	})
}

// ReadEdgeListIDs reads an edge list whose node ids are labels rather than
// indices: any integers ≥ 0 (however large or sparse) or text tokens without
// white space or commas. The nodes are the distinct ids that appear, numbered
// as nodeids.Builder does (integer ids ascending, text ids in order of first
// appearance), and the returned map gives each node's id. The rest of the
// format, the options and the errors are those of ReadEdgeList.
func ReadEdgeListIDs(path string, opt graph.Options) (*graph.CSR, *nodeids.Map, error) {
	var ids *nodeids.Map
	g, err := readFile(path, func(lr *lineReader) (*graph.CSR, error) {
		var err error
		var g *graph.CSR
		g, ids, err = decodeEdgeListIDs(lr, true, opt)
		return g, err
	})
	if err != nil {
		return nil, nil, err
	}
	return g, ids, nil
}

// MinJustifiedNodes is the node count a graph may have whatever its edges:
// below it, ids absent from an edge list (isolated nodes) or a Matrix Market
// size line larger than its entries need cost little. Above it, the node
// count may be at most twice the number of distinct nodes the edges name.
const MinJustifiedNodes = 1024

// justifiedNodes is the largest node count that present distinct nodes
// justify.
func justifiedNodes(present int) int { return max(2*present, MinJustifiedNodes) }

// decodeEdgeList parses an edge list and builds the graph; weighted says
// whether a third column is allowed.
func decodeEdgeList(lr *lineReader, n int, weighted bool, opt graph.Options) (*graph.CSR, error) {
	el, err := parseEdges(lr, n, weighted, nil)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		n = el.maxID + 1
		if present := el.distinct(); n > justifiedNodes(present) {
			return nil, lr.fileErrorf("node ids run up to %d but only %d distinct ids appear: numbering the nodes 0..%d would make %d nodes that no line mentions; read the ids as labels (ReadEdgeListIDs) or give the node count", el.maxID, present, el.maxID, n-present)
		}
	}
	return el.build(lr.path, n, opt)
}

// decodeEdgeListIDs is decodeEdgeList with ids numbered by a nodeids.Builder.
func decodeEdgeListIDs(lr *lineReader, weighted bool, opt graph.Options) (*graph.CSR, *nodeids.Map, error) {
	var b nodeids.Builder
	el, err := parseEdges(lr, 0, weighted, &b)
	if err != nil {
		return nil, nil, err
	}
	ids, perm := b.Finish()
	if perm != nil {
		for k := range el.edges {
			el.edges[k].U, el.edges[k].V = int(perm[el.edges[k].U]), int(perm[el.edges[k].V])
		}
	}
	el.ids = ids
	g, err := el.build(lr.path, ids.Len(), opt)
	if err != nil {
		return nil, nil, err
	}
	return g, ids, nil
}

// edgeList is a parsed edge list with the line of every edge.
type edgeList struct {
	edges []graph.Edge
	lines []int
	maxID int          // -1 when there are no edges
	base  int          // the file's first id (1 for Matrix Market), for messages
	ids   *nodeids.Map // the ids of the nodes when they are labels, for messages
}

// node names node i in messages.
func (el *edgeList) node(i int) string {
	if el.ids != nil {
		return strconv.Quote(el.ids.ID(i))
	}
	return strconv.Itoa(i + el.base)
}

// distinct returns the number of distinct nodes the edges name, in O(m)
// memory whatever the ids: a bitmap over 0..max id when it is at most 16
// bytes per edge (the usual dense ids, O(m) time), else by sorting the ids
// (O(m log m)).
func (el *edgeList) distinct() int {
	top := -1
	for _, e := range el.edges {
		top = max(top, e.U, e.V)
	}
	if span := top + 1; span <= 128*len(el.edges) {
		seen := make([]uint64, (span+63)/64)
		count := 0
		for _, e := range el.edges {
			for _, v := range [2]int{e.U, e.V} {
				if w, b := v/64, uint64(1)<<(v%64); seen[w]&b == 0 {
					seen[w] |= b
					count++
				}
			}
		}
		return count
	}
	ids := make([]int, 0, 2*len(el.edges))
	for _, e := range el.edges {
		ids = append(ids, e.U, e.V)
	}
	slices.Sort(ids)
	return len(slices.Compact(ids))
}

// parseEdges reads "u v" or "u v w" lines; n > 0 bounds the ids. With b
// non-nil the ids are labels numbered by b (provisional indices) and n is
// ignored. A file without any edge is an error.
func parseEdges(lr *lineReader, n int, weighted bool, b *nodeids.Builder) (*edgeList, error) {
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
			var id int
			if b != nil {
				p, err := labelID(b, f[k])
				if err != nil {
					return err
				}
				id = int(p)
			} else {
				var err error
				if id, err = parseIndex(f[k], "node id"); err != nil {
					return err
				}
				if n > 0 && id >= n {
					return fmt.Errorf("node id %d out of range [0, %d)", id, n)
				}
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
	if len(el.edges) == 0 {
		return nil, lr.fileErrorf("no edges: every line is blank or a comment")
	}
	return el, nil
}

// labelID adds a node id token to b: an integer ≥ 0 or a text token; a
// negative integer is refused rather than taken as text.
func labelID(b *nodeids.Builder, tok string) (int32, error) {
	if tok == "" {
		return 0, fmt.Errorf("empty node id")
	}
	if v, err := strconv.ParseInt(tok, 10, 64); err == nil && v < 0 {
		return 0, fmt.Errorf("node id %d is negative", v)
	}
	return b.Add(tok)
}

// build calls graph.FromEdges and maps a rejected self loop or repeated edge
// back to its line in path.
func (el *edgeList) build(path string, n int, opt graph.Options) (*graph.CSR, error) {
	if opt.SelfLoops == graph.SelfLoopError {
		for k, e := range el.edges {
			if e.U == e.V {
				return nil, &ParseError{Path: path, Line: el.lines[k], Msg: fmt.Sprintf("self loop on node %s (self-loop policy: error)", el.node(e.U))}
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
			return nil, &ParseError{Path: path, Line: el.lines[b], Msg: fmt.Sprintf("edge (%s, %s) repeats line %d (duplicate policy: error; choose sum or max to merge)", el.node(e.U), el.node(e.V), el.lines[a])}
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
