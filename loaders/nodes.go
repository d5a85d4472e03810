package loaders

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/nodeids"
)

// NodeFiles names the files of a node-level data set; LoadNodes reads them.
// Either Dir or Edges is given.
type NodeFiles struct {
	// Dir is a folder in one of the layouts LoadNodeDataset reads.
	Dir string
	// Edges is a graph: an edge table (ReadEdgeTable), a Matrix Market file
	// (recognised by its %%MatrixMarket header) or a SciPy save_npz
	// adjacency matrix (a zip archive), whose nodes are 0..n−1, or a gssl
	// graph file (.gsg, memory-mapped; its ids are the nodes; see
	// NodeDataset.Close).
	Edges string
	// Labels is a table of "id,label" rows: class names as written, an
	// empty, missing, -1 or NaN label meaning unlabelled; or one label per
	// line, or a NumPy .npy vector, for the nodes 0, 1, ….
	Labels string
	// Features is a feature matrix whose rows are the nodes 0, 1, …: NumPy
	// .npy, a .npz archive (a SciPy sparse matrix or one array), svmlight
	// (by the extension .svm, .svmlight or .libsvm), our sparse text format
	// ("# n_rows n_cols" header); or a CSV/TSV table of numbers, whose rows
	// are the nodes named in its first column when the header names it id
	// (node, name, …) and the nodes 0, 1, … otherwise.
	Features string
	// FeatureIDs, when set, lists the node of each feature row, one id per
	// line (for a matrix without ids, such as a NumPy array saved next to
	// the list of its nodes).
	FeatureIDs string
	// Targets is a table of "id,value" rows of regression targets (empty or
	// NaN: unknown), or one value per line, or a NumPy .npy vector, for the
	// nodes 0, 1, ….
	Targets string
	// Table says how the text tables are read (header, delimiter).
	Table TableOptions
	// Source, Target and Weight name the edge table's columns (see
	// EdgeTableOptions); Weight also names the weight key of GraphML and
	// GML files ("none" ignores weights).
	Source, Target, Weight string
	// IDColumn names the id column of the labels and targets tables,
	// LabelColumn the labels table's label column and TargetColumn the
	// targets table's value column, each by header name or 1-based
	// position. "" finds them by their header names (id, node, …; label,
	// class, …), or by position in a table of two columns; a column that
	// would have to be guessed is an error naming the option.
	IDColumn, LabelColumn, TargetColumn string
	// MaxMemory > 0 bounds the decoded size of each array read from a
	// NumPy or SciPy file before it is allocated (a deflated .npz member
	// may inflate a thousandfold).
	MaxMemory int64
	// Graph says how edges become the graph. The zero value reads each line
	// as an undirected edge and rejects repeats; UserGraphOptions (what the
	// command line uses) merges repeats and reverse duplicates by max.
	Graph graph.Options
	// OGBSplit names the split of an OGB folder (split/<name>); "" takes
	// its only split.
	OGBSplit string
	// Nodes > 0 fixes the nodes to the integer ids 0..Nodes−1: any other id
	// is an error, and nodes listed in no file are isolated nodes.
	Nodes int
	// MapGraph maps a .gsg graph file read-only and shared
	// (graphfile.OpenOptions.Shared) instead of reading it into a private
	// copy: no copy is made and the graph's pages are the page cache's,
	// which the kernel may drop under memory pressure and read again, where
	// a private copy stays in memory (or swap). The file must then not be
	// rewritten in place while it is open (gssl's writers replace a file by
	// renaming a new one, which an open mapping survives).
	MapGraph bool
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
		if IsOGBFolder(f.Dir) {
			return LoadOGB(f.Dir, f.OGBSplit)
		}
		if f.OGBSplit != "" {
			return nil, fmt.Errorf("loaders: an OGB split name (%s) was given, but %s is not an OGB node-property folder (no raw/%s)", f.OGBSplit, f.Dir, ogbNumNodes)
		}
		return LoadNodeDataset(f.Dir)
	case f.Edges == "":
		return nil, fmt.Errorf("loaders: no graph: give a folder or an edge file")
	}
	if f.Nodes < 0 || f.Nodes > nodeids.MaxNodes {
		return nil, fmt.Errorf("loaders: node count %d out of range [1, %d]", f.Nodes, nodeids.MaxNodes)
	}
	if err := stageInputs(f); err != nil {
		return nil, err
	}
	ld := &nodeLoad{files: f}
	return ld.load()
}

// stageInputs reads the files of f that can be read only once (standard
// input as "-", a pipe, a FIFO) into private copies (package
// internal/inputfile), each bounded by the smaller of the stream cap
// (inputfile.Cap, which a front end may set) and MaxMemory, so that
// sniffing a format and reading it see the same bytes.
// Standard input named for two files is an error naming both.
func stageInputs(f NodeFiles) error {
	limit := inputfile.Cap()
	if f.MaxMemory > 0 {
		limit = min(limit, f.MaxMemory)
	}
	files := []struct{ role, path string }{{"edges", f.Edges}, {"labels", f.Labels}, {"features", f.Features}, {"feature ids", f.FeatureIDs}, {"targets", f.Targets}}
	stdin := ""
	for _, x := range files {
		if !inputfile.IsStdin(x.path) {
			continue
		}
		if stdin != "" {
			return fmt.Errorf("loaders: the %s and the %s both read standard input, which can be read once: save one of them to a file", stdin, x.role)
		}
		stdin = x.role
	}
	for _, x := range files {
		if x.path == "" {
			continue
		}
		if err := inputfile.Stage(x.path, limit); err != nil {
			if tl := new(inputfile.TooLargeError); errors.As(err, &tl) && tl.TempDir == "" {
				return fmt.Errorf("loaders: %s: %s is a stream (a pipe or a FIFO, of unknown length) of more than %d bytes, the smaller of the cap on a stream (%d bytes) and the memory limit (--max-memory): save the data to a file and pass that", x.role, inputfile.Display(x.path), tl.Cap, inputfile.Cap())
			}
			return fmt.Errorf("loaders: %s: %w", x.role, err)
		}
	}
	return nil
}

// nodeLoad holds the state of one LoadNodes call.
type nodeLoad struct {
	files  NodeFiles
	b      nodeids.Builder
	fixed  int // > 0: only the first fixed provisional nodes are allowed
	fixedG *graph.CSR
	// fixedRange: the allowed nodes are the ids 0..fixed−1.
	fixedRange bool
	// noFast turns off ReadIntEdgesParallel.
	noFast bool
}

// add checks that the builder did not grow past a fixed node set.
func (ld *nodeLoad) checkFixed(path string, line int32, id string) error {
	if ld.fixed > 0 && ld.b.Len() > ld.fixed {
		what := fmt.Sprintf("--nodes %d", ld.fixed)
		if ld.fixedG != nil {
			what = "the graph's " + fmt.Sprint(ld.fixed) + " nodes"
		}
		msg := fmt.Sprintf("node id %q is not one of %s", id, what)
		if ld.fixedRange {
			msg += fmt.Sprintf(" (ids 0..%d)", ld.fixed-1)
		}
		return &ParseError{Path: path, Line: int(line), Msg: msg}
	}
	return nil
}

func (ld *nodeLoad) load() (_ *NodeDataset, err error) {
	f := ld.files
	ds := &NodeDataset{Name: datasetName(f.Edges)}
	defer func() {
		if err != nil {
			ds.Close() // a mapped graph file
		}
	}()
	edges, err := ld.readEdges(ds)
	if err != nil {
		return nil, err
	}
	vals, err := ld.readNodeFiles(ds, ld.b.Len()) // the nodes the graph file names
	if err != nil {
		return nil, err
	}
	ids, perm := ld.b.Finish()
	if edges.fast != nil && ids.IsText() {
		// Text ids in another file number every node by first appearance,
		// which only the table reader sees.
		return (&nodeLoad{files: f, noFast: true}).load()
	}
	ds.IDs = ids
	n := ids.Len()
	if ds.Graph, err = ld.graphOf(edges, ids, perm, n); err != nil {
		return nil, err
	}
	if err := vals.place(ds, n, perm); err != nil {
		return nil, err
	}
	return ds, nil
}

// datasetName is the name of a data set read from an edge file: its base
// name without up to two extensions (graph.csv.gz is graph).
func datasetName(edges string) string {
	name := strings.TrimSuffix(filepath.Base(edges), filepath.Ext(edges))
	return strings.TrimSuffix(name, filepath.Ext(name))
}

// loadedEdges is the graph file as read: a graph whose nodes are fixed
// (nodeLoad.fixedG), a graph read by ReadIntEdgesParallel (fast), or an
// edge table or graph format whose ids wait for the final numbering (te).
type loadedEdges struct {
	fast *graph.CSR
	te   *tableEdges
}

// readEdges reads the graph file by its sniffed format, adding its reports
// to ds and its nodes to ld.b.
func (ld *nodeLoad) readEdges(ds *NodeDataset) (loadedEdges, error) {
	f := ld.files
	h, err := head(f.Edges)
	if err != nil {
		return loadedEdges{}, err
	}
	format, err := sniffGraph(f.Edges, h)
	if err != nil {
		return loadedEdges{}, err
	}
	isZip := format == formatZip && npzIsScipy(f.Edges)
	fixedFormat := format == formatMatrixMarket || format == formatGSG || isZip
	var fileIDs *nodeids.Map
	if fixedFormat {
		if fileIDs, err = ld.readFixedGraph(ds, format, isZip); err != nil {
			return loadedEdges{}, err
		}
	} else if f.Nodes > 0 {
		ld.fixed = f.Nodes
	}
	ld.fixedRange = fileIDs == nil || fileIDs.IsIdentity()
	if err := ld.addFixedIDs(fileIDs); err != nil {
		return loadedEdges{}, err
	}
	var edges loadedEdges
	if !ld.noFast && format == formatEdgeTable && ld.fixed == 0 && f.Source == "" && f.Target == "" && f.Weight == "" && f.Table == (TableOptions{}) {
		if edges.fast, err = ld.readFast(ds); err != nil {
			return loadedEdges{}, err
		}
	}
	if !fixedFormat && edges.fast == nil {
		if edges.te, err = ld.readTable(ds, format); err != nil {
			return loadedEdges{}, err
		}
	}
	return edges, nil
}

// readFixedGraph reads a graph whose nodes are 0..n−1 or its own ids: a
// Matrix Market file, a SciPy adjacency matrix or a gssl graph file. It
// returns the graph file's ids (nil but for a graph file).
func (ld *nodeLoad) readFixedGraph(ds *NodeDataset, format graphFormat, isZip bool) (fileIDs *nodeids.Map, err error) {
	f := ld.files
	isMM := format == formatMatrixMarket
	var g *graph.CSR
	switch {
	case isMM:
		g, err = ReadMatrixMarket(f.Edges, f.Graph)
	case isZip:
		var z *npzFile
		if z, err = openNPZLimit(f.Edges, f.MaxMemory); err == nil {
			var s *scipyCOO
			if s, err = decodeScipy(z); err == nil {
				g, err = s.graph(f.Edges, f.Graph)
			}
			z.close()
		}
	default:
		var gf *graphfile.File
		if gf, err = graphfile.OpenWith(f.Edges, graphfile.OpenOptions{Shared: f.MapGraph}); err == nil {
			g, fileIDs, ds.closer = gf.Graph, gf.IDs, gf
		}
	}
	if err != nil {
		return nil, err
	}
	kind := map[bool]graphFormat{true: formatMatrixMarket, false: formatGSG}[isMM]
	if isZip {
		kind = "scipy-sparse"
	}
	rep := TableReport{Path: f.Edges, Role: "edges", Format: string(kind)}
	if !isMM && !isZip {
		rep.Note = "read into a private copy"
		if f.MapGraph {
			rep.Note = "mapped read-only and shared: its pages are the page cache's"
		}
	}
	ds.Reports = append(ds.Reports, rep)
	if f.Nodes > 0 && f.Nodes != g.Nodes() {
		return nil, fmt.Errorf("loaders: %s has %d nodes, but --nodes says %d", f.Edges, g.Nodes(), f.Nodes)
	}
	ld.fixed, ld.fixedG = g.Nodes(), g
	return fileIDs, nil
}

// addFixedIDs numbers the fixed nodes first: the ids of a graph file
// (fileIDs), or 0..fixed−1.
func (ld *nodeLoad) addFixedIDs(fileIDs *nodeids.Map) error {
	for i := 0; i < ld.fixed; i++ {
		var err error
		if fileIDs != nil && fileIDs.IsText() {
			_, err = ld.b.Add(fileIDs.ID(i))
		} else if fileIDs != nil {
			v, _ := fileIDs.IntID(i)
			_, err = ld.b.AddInt(v)
		} else {
			_, err = ld.b.AddInt(int64(i))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readFast reads an integer edge list by ReadIntEdgesParallel; it returns
// a nil graph when the file is not one (ErrNotFast).
func (ld *nodeLoad) readFast(ds *NodeDataset) (*graph.CSR, error) {
	f := ld.files
	g, fids, ff, err := readIntEdgesParallel(f.Edges, f.Graph)
	switch {
	case errors.Is(err, ErrNotFast):
		return nil, nil
	case err != nil:
		return nil, err
	}
	ds.Reports = append(ds.Reports, ff.report(f.Edges))
	for i := 0; i < fids.Len(); i++ {
		v, _ := fids.IntID(i)
		if _, err := ld.b.AddInt(v); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// readTable reads an edge table or a graph format (GraphML, GML, adjacency
// lists, edge_index arrays) whose ids are numbered by ld.b.
func (ld *nodeLoad) readTable(ds *NodeDataset, format graphFormat) (te *tableEdges, err error) {
	f := ld.files
	if format == formatEdgeTable {
		te, err = readTableEdges(f.Edges, EdgeTableOptions{Table: f.Table, Source: f.Source, Target: f.Target, Weight: f.Weight}, f.Graph.SelfLoops, &ld.b, ld.fixed)
	} else {
		te, err = ld.readGraphFormat(format)
	}
	if err != nil {
		return nil, err
	}
	ds.Reports = append(ds.Reports, te.report)
	if te.outLine > 0 {
		return nil, &ParseError{Path: f.Edges, Line: te.outLine, Msg: fmt.Sprintf("node id out of range [0, %d) set by --nodes", ld.fixed)}
	}
	return te, nil
}

// graphOf builds the graph on the final numbering of the n nodes (ids,
// perm from ld.b.Finish).
func (ld *nodeLoad) graphOf(edges loadedEdges, ids *nodeids.Map, perm []int32, n int) (*graph.CSR, error) {
	switch {
	case ld.fixedG != nil:
		return ld.fixedG, nil
	case edges.fast != nil:
		// The edge list's nodes come first among the provisional ones; later
		// files may add nodes (isolated ones), which keeps their order.
		var place []int32
		if perm != nil {
			place = perm[:edges.fast.Nodes()]
		}
		return edges.fast.Place(n, place)
	default:
		return edges.te.build(ids, perm, n, ld.files.Graph)
	}
}

// nodeFiles are the labels, targets and features read before the node
// numbering is final; each may be nil.
type nodeFiles struct {
	files           NodeFiles
	labels, targets *nodeValues
	feat            *featureRows
}

// readNodeFiles reads the labels, targets and features files that are
// given, adding their reports to ds; graphNodes is the number of nodes the
// graph file names.
func (ld *nodeLoad) readNodeFiles(ds *NodeDataset, graphNodes int) (*nodeFiles, error) {
	f := ld.files
	nf := &nodeFiles{files: f}
	var err error
	if f.Labels != "" {
		cols := valueColumns{ID: f.IDColumn, Value: f.LabelColumn, Names: []string{"label", "labels", "class", "y", "category", "target"}, ValueFlag: "--label-column", Role: "labels"}
		if nf.labels, err = ld.readValueFile(ds, f.Labels, cols, true, graphNodes); err != nil {
			return nil, err
		}
	}
	if f.Targets != "" {
		cols := valueColumns{ID: f.IDColumn, Value: f.TargetColumn, Names: []string{"target", "value", "y", "label"}, ValueFlag: "--target-column", Role: "targets"}
		if nf.targets, err = ld.readValueFile(ds, f.Targets, cols, false, graphNodes); err != nil {
			return nil, err
		}
	}
	if f.Features != "" {
		if nf.feat, err = ld.readFeatures(f.Features); err != nil {
			return nil, err
		}
		ds.Reports = append(ds.Reports, nf.feat.report)
	}
	return nf, nil
}

// readValueFile reads a labels or targets file (readValues), adds its
// report to ds and checks its ids against a fixed node set.
func (ld *nodeLoad) readValueFile(ds *NodeDataset, path string, cols valueColumns, classes bool, graphNodes int) (*nodeValues, error) {
	nv, err := ld.readValues(path, cols, classes, graphNodes)
	if err != nil {
		return nil, err
	}
	ds.Reports = append(ds.Reports, nv.Report)
	if err := ld.checkValues(path, nv); err != nil {
		return nil, err
	}
	return nv, nil
}

// place sets the labels, targets and features of ds's n nodes, the
// provisional node v being node perm[v] (v itself when perm is nil).
func (nf *nodeFiles) place(ds *NodeDataset, n int, perm []int32) error {
	at := func(prov int32) int {
		if perm == nil {
			return int(prov)
		}
		return int(perm[prov])
	}
	if nf.labels != nil {
		cls, names := classesOf(nf.labels.Values)
		ds.Labels = make([]int, n)
		for i := range ds.Labels {
			ds.Labels[i] = -1
		}
		for k, v := range nf.labels.Nodes {
			ds.Labels[at(v)] = cls[k]
		}
		ds.Classes, ds.ClassNames = len(names), names
	}
	if nf.targets != nil {
		ds.Targets = make([]float64, n)
		for i := range ds.Targets {
			ds.Targets[i] = math.NaN()
		}
		for k, v := range nf.targets.Nodes {
			y, err := parseTarget(nf.targets.Values[k])
			if err != nil {
				return &ParseError{Path: nf.files.Targets, Line: int(nf.targets.Lines[k]), Msg: err.Error()}
			}
			ds.Targets[at(v)] = y
		}
	}
	if nf.feat != nil {
		return nf.feat.place(ds, n, at)
	}
	return nil
}

// readValues reads a labels (classes) or targets file: a NumPy vector for
// the nodes 0, 1, … (which must have one entry per node of the graph,
// graphNodes), or a table.
func (ld *nodeLoad) readValues(path string, cols valueColumns, classes bool, graphNodes int) (*nodeValues, error) {
	h, err := head(path)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(h, npyMagic) {
		if err := notATable(path, h); err != nil {
			return nil, err
		}
		return readNodeValues(path, ld.files.Table, &ld.b, cols)
	}
	var vals []string
	if classes {
		ls, err := ReadNPYLabels(path)
		if err != nil {
			return nil, err
		}
		vals = make([]string, len(ls))
		for i, l := range ls {
			vals[i] = strconv.Itoa(l)
		}
	} else {
		ys, err := ReadNPYVector(path)
		if err != nil {
			return nil, err
		}
		vals = make([]string, len(ys))
		for i, y := range ys {
			vals[i] = strconv.FormatFloat(y, 'g', -1, 64)
		}
	}
	if ld.b.IsText() {
		return nil, fmt.Errorf("loaders: %s has no node ids (entry i is node i), but the other files name nodes by text ids; write it as an id,value table", path)
	}
	if graphNodes > 0 && len(vals) != graphNodes {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("%d entries for the %d nodes of the graph: entry i of a NumPy %s array is node i, so it needs exactly one entry per node (-1 or NaN for an unknown one); or write an id,value table", len(vals), graphNodes, cols.Role)}
	}
	nv := &nodeValues{Nodes: make([]int32, len(vals)), Values: vals, Lines: make([]int32, len(vals)),
		Report: TableReport{Path: path, Role: cols.Role, Format: "npy", ID: "the entry's index (entry i is node i)", Label: "the array's values"}}
	for i := range vals {
		v, err := ld.b.AddInt(int64(i))
		if err != nil {
			return nil, err
		}
		nv.Nodes[i] = v
	}
	if graphNodes > 0 && ld.b.Len() != graphNodes {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("entry i of a NumPy %s array is node i, but the graph's %d nodes are not the ids 0..%d; write an id,value table", cols.Role, graphNodes, graphNodes-1)}
	}
	return nv, nil
}

// notATable refuses, naming what it is, a file given as a table whose
// content is a graph or model file of gssl or an archive.
func notATable(path string, h []byte) error {
	switch {
	case graphfile.HasMagic(h):
		return &ParseError{Path: path, Msg: "this is a gssl graph file (.gsg), not a table: give it as the graph (--edges)"}
	case bytes.HasPrefix(h, []byte(modelfile.Magic)):
		return &ParseError{Path: path, Msg: "this is a gssl model file (.gssl), not a table: give it to gssl predict or gssl serve (--model)"}
	case bytes.HasPrefix(h, zipMagic):
		return &ParseError{Path: path, Msg: "this is a zip archive (such as a NumPy .npz), not a table"}
	}
	return nil
}

// checkValues rejects ids outside a fixed node set.
func (ld *nodeLoad) checkValues(path string, nv *nodeValues) error {
	if ld.fixed == 0 || ld.b.Len() <= ld.fixed {
		return nil
	}
	for k, v := range nv.Nodes {
		if int(v) >= ld.fixed {
			return ld.checkFixed(path, nv.Lines[k], ld.b.ID(v))
		}
	}
	return nil
}

// head returns the first bytes of the (possibly gzipped) file, enough to
// tell its format by its magic bytes.
func head(path string) ([]byte, error) {
	fh, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	defer fh.Close()
	br, err := decompress(fh, path)
	if err != nil {
		return nil, err
	}
	h, _ := br.Peek(sniffBytes)
	return h, nil
}

// featureRows are feature rows read before the node numbering is final:
// row k belongs to the provisional node nodes[k].
type featureRows struct {
	report TableReport
	path   string
	nodes  []int32
	sparse *Sparse
	dense  *mat.Dense
}

// readFeatures reads a feature file whose rows are the nodes 0..R−1, or a
// table whose first column names the node.
func (ld *nodeLoad) readFeatures(path string) (*featureRows, error) {
	fr := &featureRows{path: path, report: TableReport{Path: path, Role: "features", ID: "the row number (row i is node i)"}}
	if ld.files.FeatureIDs != "" {
		fr.report.ID = "the ids listed in " + ld.files.FeatureIDs
	}
	h, err := head(path)
	if err != nil {
		return nil, err
	}
	if isNPY, isZip := bytes.HasPrefix(h, npyMagic), bytes.HasPrefix(h, zipMagic); isNPY || isZip {
		if isNPY {
			fr.report.Format = "npy"
			var a *npyArray
			if a, err = readNPYFileLimit(path, ld.files.MaxMemory); err == nil {
				fr.dense, err = a.matrix(path, "")
			}
		} else {
			fr.report.Format = "npz"
			fr.sparse, fr.dense, err = readNPZFeatures(path, ld.files.MaxMemory)
		}
		if err != nil {
			return nil, err
		}
		return fr, ld.positionalRows(fr, fr.rows())
	}
	switch strings.ToLower(filepath.Ext(strings.TrimSuffix(path, ".gz"))) {
	case ".svm", ".svmlight", ".libsvm":
		fr.report.Format = "svmlight"
		if fr.sparse, _, err = ReadSVMLight(path, false); err != nil {
			return nil, err
		}
		return fr, ld.positionalRows(fr, fr.sparse.Rows)
	}
	if err := notATable(path, h); err != nil {
		return nil, err
	}
	if bytes.HasPrefix(h, []byte("#")) {
		fr.report.Format = "sparse-text"
		if fr.sparse, err = ReadFeatures(path); err != nil {
			return nil, err
		}
		return fr, ld.positionalRows(fr, fr.sparse.Rows)
	}
	ids, d, err := readFeatureTable(path, ld.files.Table)
	if err != nil {
		return nil, err
	}
	fr.report.Format = "table"
	if ids != nil {
		fr.report.ID = "column 1"
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

// positionalRows makes rows 0..r−1 the nodes with integer ids 0..r−1, or
// the nodes listed in FeatureIDs.
func (ld *nodeLoad) positionalRows(fr *featureRows, r int) error {
	if path := ld.files.FeatureIDs; path != "" {
		ids, err := readFile(path, func(lr *lineReader) ([]string, error) {
			var ids []string
			err := lr.eachLine("#", blankTrailing, func(s string) error {
				ids = append(ids, strings.TrimPrefix(s, "\ufeff"))
				return nil
			})
			return ids, err
		})
		if err != nil {
			return err
		}
		if len(ids) != r {
			return fmt.Errorf("loaders: %s lists %d ids for the %d rows of %s", path, len(ids), r, fr.path)
		}
		fr.nodes = make([]int32, r)
		seen := make(map[int32]int, r)
		for k, id := range ids {
			v, err := ld.b.Add(id)
			if err != nil {
				return &ParseError{Path: path, Line: k + 1, Msg: err.Error()}
			}
			if err := ld.checkFixed(path, int32(k+1), id); err != nil {
				return err
			}
			if prev, dup := seen[v]; dup {
				return &ParseError{Path: path, Line: k + 1, Msg: fmt.Sprintf("id %q already listed on line %d", id, prev)}
			}
			seen[v] = k + 1
			fr.nodes[k] = v
		}
		return nil
	}
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

// rows returns the number of rows read.
func (fr *featureRows) rows() int {
	if fr.sparse != nil {
		return fr.sparse.Rows
	}
	r, _ := fr.dense.Dims()
	return r
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
