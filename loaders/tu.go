package loaders

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// TUDataset is a graph-classification data set in the TU Dortmund format,
// read by LoadTU.
type TUDataset struct {
	// Name is the prefix of the file names ("MUTAG").
	Name string
	// Graphs holds the graphs in file order (graph id g is Graphs[g−1]).
	Graphs []TUGraph
	// LabelValues lists the distinct graph labels in ascending order: class
	// c stands for label LabelValues[c] (MUTAG's −1 and 1 become classes 0
	// and 1).
	LabelValues []int
	// SelfLoopsDropped is the number of lines of DS_A.txt that were self
	// loops, which TUGraphOptions drops.
	SelfLoopsDropped int
	// Reports say how each file was read (format "tu"): its role and the
	// columns used and ignored.
	Reports []TableReport
}

// TUGraph is one graph of a TUDataset, on its own nodes 0..n−1 (node i is
// node FirstNode+i of the whole data set, line FirstNode+i+1 of the files).
type TUGraph struct {
	// Graph has an edge of weight 1 wherever the adjacency file lists an arc
	// in either direction (graph.DirectedMax); self loops are dropped.
	Graph *graph.CSR
	// Label is the graph's label as written in the file.
	Label int
	// Class is the index of Label in TUDataset.LabelValues.
	Class int
	// NodeLabels[i] is the label of node i (the first column of the node
	// label file); nil when the data set has none.
	NodeLabels []int
	// EdgeLabels[i][k] is the label of the edge from node i to its k-th
	// neighbour, the k-th entry of Graph.Row(i); nil when the data set has
	// no edge labels.
	EdgeLabels [][]int
	// Attributes is the n×d matrix of node attributes; nil when the data
	// set has none or the graph has no nodes.
	Attributes *mat.Dense
	// FirstNode is the 0-based id, in the whole data set, of node 0.
	FirstNode int
}

// Classes returns the class (0..len(LabelValues)−1) of every graph, in order.
func (d *TUDataset) Classes() []int {
	c := make([]int, len(d.Graphs))
	for g := range d.Graphs {
		c[g] = d.Graphs[g].Class
	}
	return c
}

// ClassNames returns the graph label of every class as text: class c is
// named strconv.Itoa(LabelValues[c]).
func (d *TUDataset) ClassNames() []string {
	names := make([]string, len(d.LabelValues))
	for c, v := range d.LabelValues {
		names[c] = strconv.Itoa(v)
	}
	return names
}

// TUGraphOptions are the options of every TUGraph.Graph: arcs symmetrised by
// max, self loops dropped (as the Python peers do), and a repeated arc
// rejected (LoadTU names both lines).
func TUGraphOptions() graph.Options {
	return graph.Options{Duplicates: graph.DuplicateError, SelfLoops: graph.SelfLoopDrop, Symmetrize: graph.DirectedMax}
}

// The files of a TU data set: DS_<suffix>.txt.
const (
	tuA          = "A"
	tuIndicator  = "graph_indicator"
	tuGraphLabel = "graph_labels"
	tuNodeLabel  = "node_labels"
	tuEdgeLabel  = "edge_labels"
	tuNodeAttr   = "node_attributes"
)

// LoadTU reads a TU Dortmund graph-classification folder: DS_A.txt,
// DS_graph_indicator.txt and DS_graph_labels.txt, and when present
// DS_node_labels.txt, DS_edge_labels.txt and DS_node_attributes.txt, where the
// name DS is found from the one *_graph_indicator.txt file in dir. Other TU
// files (edge and graph attributes) are ignored. Node ids are 1-based in the
// files and graph ids run over 1..N, N being the number of graph labels.
// Errors name the file and line: an id out of range, a graph indicator that
// decreases, an arc joining two graphs, a repeated arc, the two directions
// of an edge with different labels, and files whose line counts disagree.
func LoadTU(dir string) (*TUDataset, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "*_"+tuIndicator+".txt"))
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	if len(matches) != 1 {
		return nil, fmt.Errorf("loaders: %s: want one *_%s.txt file, found %d", dir, tuIndicator, len(matches))
	}
	name := strings.TrimSuffix(filepath.Base(matches[0]), "_"+tuIndicator+".txt")
	src := make(map[string]*lineReader)
	defer func() {
		for _, lr := range src {
			lr.close()
		}
	}()
	for _, suffix := range []string{tuA, tuIndicator, tuGraphLabel, tuNodeLabel, tuEdgeLabel, tuNodeAttr} {
		path := filepath.Join(dir, name+"_"+suffix+".txt")
		switch suffix {
		case tuNodeLabel, tuEdgeLabel, tuNodeAttr:
			if ok, err := exists(path); err != nil {
				return nil, err
			} else if !ok {
				continue
			}
		}
		lr, err := openLines(path)
		if err != nil {
			return nil, err
		}
		src[suffix] = lr
	}
	return decodeTU(name, src)
}

// decodeTU parses the files of a TU data set, keyed by suffix; the optional
// ones may be missing.
func decodeTU(name string, src map[string]*lineReader) (*TUDataset, error) {
	for _, suffix := range []string{tuA, tuIndicator, tuGraphLabel} {
		if src[suffix] == nil {
			return nil, fmt.Errorf("loaders: %s: missing %s_%s.txt", name, name, suffix)
		}
	}
	tu := &tuDecoder{d: &TUDataset{Name: name}, src: src}
	for _, step := range []func() error{tu.graphLabels, tu.indicator, tu.nodeLabels, tu.nodeAttributes, tu.adjacency, tu.edgeLabels, tu.graphs} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	tu.d.Reports = tu.cols.reports(src)
	return tu.d, nil
}

// tuArc is an arc of the adjacency file: local node ids of its graph, its
// line and its edge label.
type tuArc struct {
	u, v  int32
	line  int
	label int
}

// tuDecoder is the state of decodeTU.
type tuDecoder struct {
	d    *TUDataset
	src  map[string]*lineReader
	cols tuColumns
	n    int     // nodes
	gid  []int32 // 0-based graph of each node
	// first[g] is the first node of graph g; first[N] = n.
	first    []int
	arcs     []tuArc
	arcGraph []int32 // 0-based graph of each arc
}

// graphLabels reads the graph labels: N lines.
func (tu *tuDecoder) graphLabels() error {
	d := tu.d
	labels, err := decodeTUIntCols(tu.src[tuGraphLabel], "graph label", 0, tu.cols.at(tuGraphLabel))
	if err != nil {
		return err
	}
	d.LabelValues = slices.Compact(slices.Sorted(slices.Values(labels)))
	d.Graphs = make([]TUGraph, len(labels))
	for g, l := range labels {
		c, _ := slices.BinarySearch(d.LabelValues, l)
		d.Graphs[g].Label, d.Graphs[g].Class = l, c
	}
	return nil
}

// indicator reads the graph indicator: n lines, non-decreasing graph ids
// in 1..N.
func (tu *tuDecoder) indicator() error {
	ilr, glr := tu.src[tuIndicator], tu.src[tuGraphLabel]
	N := len(tu.d.Graphs)
	tu.first = make([]int, N+1)
	err := ilr.eachLine("#", blankTrailing, func(s string) error {
		g, err := parseInt(s, "graph id")
		if err != nil {
			return err
		}
		if g < 1 || g > N {
			return fmt.Errorf("graph id %d out of range [1, %d] (%d graph labels in %s)", g, N, N, glr.path)
		}
		if k := len(tu.gid); k > 0 && int(tu.gid[k-1]) > g-1 {
			return fmt.Errorf("graph id %d after %d: the nodes of a graph must be contiguous and graph ids non-decreasing", g, tu.gid[k-1]+1)
		}
		tu.gid = append(tu.gid, int32(g-1))
		tu.first[g]++
		return nil
	})
	if err != nil {
		return err
	}
	tu.n = len(tu.gid)
	if tu.n == 0 {
		return ilr.fileErrorf("no nodes")
	}
	for g := 0; g < N; g++ {
		tu.first[g+1] += tu.first[g]
	}
	for g := range tu.d.Graphs {
		tu.d.Graphs[g].FirstNode = tu.first[g]
	}
	return nil
}

// nodeLabels reads the node labels, when given: n lines; the first column
// is kept.
func (tu *tuDecoder) nodeLabels() error {
	lr := tu.src[tuNodeLabel]
	if lr == nil {
		return nil
	}
	nl, err := decodeTUIntCols(lr, "node label", tu.n, tu.cols.at(tuNodeLabel))
	if err != nil {
		return err
	}
	if len(nl) != tu.n {
		return lr.fileErrorf("%d lines, want %d: one per node, as in %s", len(nl), tu.n, tu.src[tuIndicator].path)
	}
	first := tu.first
	for g := range tu.d.Graphs {
		tu.d.Graphs[g].NodeLabels = nl[first[g]:first[g+1]:first[g+1]]
	}
	return nil
}

// nodeAttributes reads the node attributes, when given: n lines of d
// comma-separated reals.
func (tu *tuDecoder) nodeAttributes() error {
	lr := tu.src[tuNodeAttr]
	if lr == nil {
		return nil
	}
	d := tu.d
	if err := decodeTUAttributes(lr, d, tu.first, tu.n, tu.src[tuIndicator].path); err != nil {
		return err
	}
	if len(d.Graphs) > 0 && d.Graphs[0].Attributes != nil {
		_, *tu.cols.at(tuNodeAttr) = d.Graphs[0].Attributes.Dims()
	}
	return nil
}

// adjacency reads the adjacency file: m arcs "r, c" with 1-based node ids
// of the same graph.
func (tu *tuDecoder) adjacency() error {
	alr, n := tu.src[tuA], tu.n
	return alr.eachLine("#", blankTrailing, func(s string) error {
		f := splitFields(s)
		if len(f) != 2 {
			return fmt.Errorf(`want "row, col", got %q`, s)
		}
		var ids [2]int
		for k := range ids {
			id, err := parseIndex(f[k], "node id")
			if err != nil {
				return err
			}
			if id < 1 || id > n {
				return fmt.Errorf("node id %d out of range [1, %d] (%d lines in %s)", id, n, n, tu.src[tuIndicator].path)
			}
			ids[k] = id - 1
		}
		gu, gv := tu.gid[ids[0]], tu.gid[ids[1]]
		if gu != gv {
			return fmt.Errorf("arc (%d, %d) joins node %d of graph %d and node %d of graph %d", ids[0]+1, ids[1]+1, ids[0]+1, gu+1, ids[1]+1, gv+1)
		}
		lo := tu.first[gu]
		if ids[0] == ids[1] {
			tu.d.SelfLoopsDropped++
		}
		tu.arcs = append(tu.arcs, tuArc{u: int32(ids[0] - lo), v: int32(ids[1] - lo), line: alr.line})
		tu.arcGraph = append(tu.arcGraph, gu)
		return nil
	})
}

// edgeLabels reads the edge labels, when given: one per arc, in the order
// of the adjacency file.
func (tu *tuDecoder) edgeLabels() error {
	elr := tu.src[tuEdgeLabel]
	if elr == nil {
		return nil
	}
	el, err := decodeTUIntCols(elr, "edge label", len(tu.arcs), tu.cols.at(tuEdgeLabel))
	if err != nil {
		return err
	}
	if len(el) != len(tu.arcs) {
		return elr.fileErrorf("%d lines, want %d: one per line of %s", len(el), len(tu.arcs), tu.src[tuA].path)
	}
	for k := range tu.arcs {
		tu.arcs[k].label = el[k]
	}
	return nil
}

// graphs buckets the arcs by graph, sorted by (u, v) so repeats are
// adjacent, and builds each graph and its edge labels.
func (tu *tuDecoder) graphs() error {
	N := len(tu.d.Graphs)
	start := make([]int, N+1)
	for _, g := range tu.arcGraph {
		start[g+1]++
	}
	for g := 0; g < N; g++ {
		start[g+1] += start[g]
	}
	byGraph := make([]tuArc, len(tu.arcs))
	next := slices.Clone(start[:N])
	for k, a := range tu.arcs {
		g := tu.arcGraph[k]
		byGraph[next[g]] = a
		next[g]++
	}
	for g := range tu.d.Graphs {
		if err := tu.graph(g, byGraph[start[g]:start[g+1]]); err != nil {
			return err
		}
	}
	return nil
}

// graph builds graph g from its arcs ga.
func (tu *tuDecoder) graph(g int, ga []tuArc) error {
	alr, lo := tu.src[tuA], tu.first[g]
	sort.SliceStable(ga, func(i, j int) bool {
		return ga[i].u < ga[j].u || (ga[i].u == ga[j].u && ga[i].v < ga[j].v)
	})
	edges := make([]graph.Edge, len(ga))
	for k, a := range ga {
		if k > 0 && a.u == ga[k-1].u && a.v == ga[k-1].v && a.u != a.v {
			return &ParseError{Path: alr.path, Line: a.line, Msg: fmt.Sprintf("arc (%d, %d) repeats line %d", int(a.u)+lo+1, int(a.v)+lo+1, ga[k-1].line)}
		}
		edges[k] = graph.Edge{U: int(a.u), V: int(a.v), W: 1}
	}
	ng := tu.first[g+1] - lo
	cg, err := graph.FromEdges(ng, edges, TUGraphOptions())
	if err != nil {
		return &ParseError{Path: alr.path, Msg: fmt.Sprintf("graph %d", g+1), Err: err}
	}
	tu.d.Graphs[g].Graph = cg
	if tu.src[tuEdgeLabel] == nil {
		return nil
	}
	rows, err := tu.edgeLabelRows(cg, ga, lo)
	if err != nil {
		return err
	}
	tu.d.Graphs[g].EdgeLabels = rows
	return nil
}

// edgeLabelRows returns the edge labels of the arcs ga aligned with the
// rows of cg, their graph, whose first node is lo; both directions of an
// edge must agree.
func (tu *tuDecoder) edgeLabelRows(cg *graph.CSR, ga []tuArc, lo int) ([][]int, error) {
	ng := cg.Nodes()
	offset := make([]int, ng+1)
	for i := 0; i < ng; i++ {
		offset[i+1] = offset[i] + cg.RowLen(i)
	}
	flat := make([]int, cg.NNZ())
	setBy := make([]int, cg.NNZ()) // line that set the label, 0 if none
	for _, a := range ga {
		if a.u == a.v {
			continue
		}
		for _, e := range [2][2]int32{{a.u, a.v}, {a.v, a.u}} {
			cols, _ := cg.Row(int(e[0]))
			k, _ := slices.BinarySearch(cols, e[1])
			p := offset[e[0]] + k
			if setBy[p] != 0 && flat[p] != a.label {
				return nil, &ParseError{Path: tu.src[tuEdgeLabel].path, Line: a.line, Msg: fmt.Sprintf("edge label %d of arc (%d, %d) differs from label %d on line %d for the same edge", a.label, int(a.u)+lo+1, int(a.v)+lo+1, flat[p], setBy[p])}
			}
			flat[p], setBy[p] = a.label, a.line
		}
	}
	rows := make([][]int, ng)
	for i := range rows {
		rows[i] = flat[offset[i]:offset[i+1]:offset[i+1]]
	}
	return rows, nil
}

// tuColumns counts the columns of the label and attribute files.
type tuColumns map[string]*int

func (c *tuColumns) at(suffix string) *int {
	if *c == nil {
		*c = tuColumns{}
	}
	if (*c)[suffix] == nil {
		(*c)[suffix] = new(int)
	}
	return (*c)[suffix]
}

// reports describes the files of src in the order LoadTU opens them.
func (c tuColumns) reports(src map[string]*lineReader) []TableReport {
	var out []TableReport
	for _, suffix := range []string{tuA, tuIndicator, tuGraphLabel, tuNodeLabel, tuEdgeLabel, tuNodeAttr} {
		lr := src[suffix]
		if lr == nil {
			continue
		}
		r := TableReport{Path: lr.path, Role: strings.ReplaceAll(suffix, "_", " "), Format: "tu"}
		switch k := 0; suffix {
		case tuA:
			r.Role, r.Source, r.Target = "edges", "column 1", "column 2"
		case tuIndicator:
			r.Note = "column 1: the graph of each node"
		case tuNodeAttr:
			if c[suffix] != nil {
				k = *c[suffix]
			}
			r.Note = fmt.Sprintf("%d attribute columns", k)
		default:
			r.Label = "column 1"
			if c[suffix] != nil {
				k = *c[suffix]
			}
			if k == 2 {
				r.Ignored = []string{"column 2"}
			} else if k > 2 {
				r.Ignored = []string{fmt.Sprintf("columns 2..%d", k)}
			}
		}
		out = append(out, r)
	}
	return out
}

// decodeTUInts reads one integer per line; with several comma-separated
// columns (some TU data sets have them) the first is kept. capHint sizes
// the result.
func decodeTUInts(lr *lineReader, what string, capHint int) ([]int, error) {
	return decodeTUIntCols(lr, what, capHint, new(int))
}

// decodeTUIntCols is decodeTUInts that sets *cols to the most columns of a
// line.
func decodeTUIntCols(lr *lineReader, what string, capHint int, cols *int) ([]int, error) {
	return decodeLines(lr, "#", capHint, "no values", func(s string) (int, error) {
		f := splitFields(s)
		*cols = max(*cols, len(f))
		return parseInt(f[0], what)
	})
}

// decodeTUAttributes reads n lines of comma-separated attributes into the
// graphs of d.
func decodeTUAttributes(lr *lineReader, d *TUDataset, first []int, n int, indicatorPath string) error {
	var (
		data     []float64
		rows     int
		width    int
		widthAt  int
		errWidth = "%d attributes, want %d like line %d"
	)
	err := lr.eachLine("#", blankTrailing, func(s string) error {
		f := splitFields(s)
		if rows == 0 {
			width, widthAt = len(f), lr.line
			// One line's worth: the rows are counted as they come, so a
			// wide first line in a short file allocates only what it holds.
			data = make([]float64, 0, width)
		} else if len(f) != width {
			return fmt.Errorf(errWidth, len(f), width, widthAt)
		}
		if rows == n {
			return fmt.Errorf("more than %d lines: want one per node, as in %s", n, indicatorPath)
		}
		for j, x := range f {
			v, err := parseFinite(x, "attribute")
			if err != nil {
				return fmt.Errorf("column %d: %v", j+1, err)
			}
			data = append(data, v)
		}
		rows++
		return nil
	})
	if err != nil {
		return err
	}
	if rows != n {
		return lr.fileErrorf("%d lines, want %d: one per node, as in %s", rows, n, indicatorPath)
	}
	for g := range d.Graphs {
		lo, hi := first[g], first[g+1]
		if hi > lo {
			d.Graphs[g].Attributes = mat.NewDense(hi-lo, width, data[lo*width:hi*width:hi*width])
		}
	}
	return nil
}
