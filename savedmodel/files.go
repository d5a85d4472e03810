package savedmodel

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/nodeids"
	"github.com/gssl/gssl/serve"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/svm"
	"gonum.org/v1/gonum/mat"
)

// Query names the user's files a model predicts from: new nodes by their
// edges to fitted nodes (Edges), new points or, for the nodeclass models,
// new nodes by their features (Features, rows named by FeatureIDs or a
// first id column), or graphs (Graphs, a TU folder). Nothing given asks
// for the fitted items.
type Query struct {
	Edges, Features, FeatureIDs, Graphs string
	// Table says how Edges is read (header, weight and id columns).
	Table loaders.EdgeTableOptions
}

// Input names what a Query gives, as Answer.Input reports it.
const (
	InputFitted        = "fitted"
	InputEdges         = "edges"
	InputFeatures      = "features"
	InputFeatureNodes  = "edges+features"
	InputGraphFolder   = "graphs"
	errBothEdgesPoints = "edges and features exclude each other for a %s model: new nodes, or new points (both together are for the nodeclass models)"
)

// Answer is the model's answer to a Query.
type Answer struct {
	Input       string             // one of the Input… names
	Predictions []serve.Prediction // in the order of the files' rows
	// Truth is each graph's label as the TU files write it (graphs only).
	Truth []string
	// Notes say what the caller may want to tell the user (a new node
	// predicted from its features alone).
	Notes []string
	// Reports say how the tables were read (header, columns).
	Reports []loaders.TableReport
}

// NoEvidence counts the predictions that are the class prior.
func (a *Answer) NoEvidence() int {
	n := 0
	for _, p := range a.Predictions {
		if p.Prior {
			n++
		}
	}
	return n
}

// PredictFiles answers q: it reads the files q names, matches them to the
// model (a new node's edges to fitted nodes by the user's ids) and
// predicts. Errors name the file and, for a table, the line.
func (s *Saved) PredictFiles(ctx context.Context, q Query) (*Answer, error) {
	meta := s.Metadata()
	graphs := meta.Input == serve.InputGraphs
	switch {
	case q.Graphs != "" && (q.Edges != "" || q.Features != ""):
		return nil, errors.New("graphs exclude edges and features: new graphs, new nodes or new points")
	case q.Graphs != "" && !graphs:
		return nil, fmt.Errorf("%s: a %s model does not classify graphs: give the edges of new nodes or the features of new points", q.Graphs, meta.Kind)
	case graphs && q.Edges != "":
		return nil, fmt.Errorf("%s: a %s model classifies whole graphs, not nodes: give a TU data set folder of graphs", q.Edges, meta.Kind)
	case graphs && q.Features != "":
		return nil, fmt.Errorf("%s: a %s model classifies whole graphs, not points: give a TU data set folder of graphs", q.Features, meta.Kind)
	case q.Edges != "" && q.Features != "" && s.NodeFeatures() == 0:
		return nil, fmt.Errorf(errBothEdgesPoints, meta.Kind)
	}
	a := &Answer{}
	var err error
	switch {
	case q.Graphs != "":
		a.Input = InputGraphFolder
		a.Predictions, a.Truth, err = s.PredictTUFolder(ctx, q.Graphs)
	case s.NodeFeatures() > 0 && (q.Edges != "" || q.Features != ""):
		a.Input = InputFeatureNodes
		a.Predictions, err = s.predictFeatureNodes(ctx, q, a)
	case q.Edges != "":
		a.Input = InputEdges
		if meta.Nodes == 0 {
			return nil, fmt.Errorf("a %s model predicts points from their features (%d each), not nodes: give the features of new points", meta.Kind, meta.Features)
		}
		a.Predictions, err = s.predictEdgeFile(ctx, q, a)
	case q.Features != "":
		a.Input = InputFeatures
		a.Predictions, err = s.predictPointFile(ctx, q.Features)
	default:
		a.Input = InputFitted
		if a.Predictions = s.PredictFitted(); len(a.Predictions) == 0 {
			return nil, fmt.Errorf("a %s model keeps no fitted nodes or points to predict: give the features of new points (%d features per point)", meta.Kind, meta.Features)
		}
	}
	if err != nil {
		return nil, err
	}
	return a, nil
}

// predictEdgeFile answers for the new nodes of an edge file.
func (s *Saved) predictEdgeFile(ctx context.Context, q Query, a *Answer) ([]serve.Prediction, error) {
	nodes, rep, err := ReadNewNodes(q.Edges, q.Table, s.IDs())
	if err != nil {
		return nil, err
	}
	a.Reports = append(a.Reports, rep)
	preds, err := s.PredictNodes(ctx, nodes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q.Edges, err)
	}
	return preds, nil
}

// predictPointFile answers for the points of a features file, named by
// their ids (or row numbers).
func (s *Saved) predictPointFile(ctx context.Context, path string) ([]serve.Prediction, error) {
	t, err := loaders.ReadPointMatrix(path)
	if err != nil {
		return nil, err
	}
	r, c := t.X.Dims()
	pts := make([][]float64, r)
	for i := range pts {
		pts[i] = t.X.RawRowView(i)[:c:c]
	}
	preds, err := s.PredictPoints(ctx, pts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range preds {
		preds[i].ID = strconv.Itoa(i)
		if t.IDs != nil {
			preds[i].ID = t.IDs[i]
		}
	}
	return preds, nil
}

// predictFeatureNodes predicts the new nodes of a model that takes their
// features with their edges (the nodeclass models): the new nodes are the
// rows of q.Features, and q.Edges (optional) joins them to fitted nodes. A
// new node that no edge names is predicted from its features alone.
func (s *Saved) predictFeatureNodes(ctx context.Context, q Query, a *Answer) ([]serve.Prediction, error) {
	kind := s.Metadata().Kind
	if q.Features == "" {
		return nil, fmt.Errorf("a %s model predicts a new node from its features (%d) and its edges to fitted nodes: give --features FILE (one row per new node, named by id) with the edges", kind, s.NodeFeatures())
	}
	ids, x, err := ReadNodeFeatures(q.Features, q.FeatureIDs)
	if err != nil {
		return nil, err
	}
	if _, d := x.Dims(); d != s.NodeFeatures() {
		return nil, fmt.Errorf("%s has %d columns of features; the %s model was fitted on %d", q.Features, d, kind, s.NodeFeatures())
	}
	nodes := make([]serve.NewNode, len(ids))
	row := make(map[string]int, len(ids))
	for i, id := range ids {
		if prev, dup := row[id]; dup {
			return nil, fmt.Errorf("%s: new node %q has two rows (%d and %d)", q.Features, id, prev+1, i+1)
		}
		if _, fitted := s.IDs().Lookup(id); fitted {
			return nil, fmt.Errorf("%s, row %d: %q is a fitted node of the model; give the rows of new nodes only", q.Features, i+1, id)
		}
		row[id] = i
		nodes[i].ID = id
	}
	if q.Edges == "" {
		a.Notes = append(a.Notes, fmt.Sprintf("no edges: each of the %d new nodes is predicted from its features alone", len(nodes)))
	} else {
		withEdges, rep, err := ReadNewNodes(q.Edges, q.Table, s.IDs())
		if err != nil {
			return nil, err
		}
		a.Reports = append(a.Reports, rep)
		for _, n := range withEdges {
			i, ok := row[n.ID]
			if !ok {
				return nil, fmt.Errorf("%s: new node %q has no row in --features %s (a new node needs its features)", q.Edges, n.ID, q.Features)
			}
			nodes[i].Edges = n.Edges
		}
	}
	preds, err := s.PredictNodesWithFeatures(ctx, nodes, x)
	if err != nil {
		return nil, fmt.Errorf("%s and %s: %w", q.Edges, q.Features, err)
	}
	return preds, nil
}

// ReadNewNodes reads an edge table of new nodes: every row must join
// exactly one fitted node (by its id in known) to a node that is not
// fitted; the new nodes come in the order of their first row. Weights
// must be finite and at most estimator.MaxMagnitude. The report says how
// the table was read.
func ReadNewNodes(path string, opt loaders.EdgeTableOptions, known *nodeids.Map) ([]serve.NewNode, loaders.TableReport, error) {
	b := &nodeids.Builder{}
	et, err := loaders.ReadEdgeTable(path, opt, b)
	if err != nil {
		return nil, loaders.TableReport{}, err
	}
	nodes, err := newNodesOf(path, et, b, known)
	return nodes, et.Report, err
}

// newNodesOf turns the rows of an edge table into new nodes.
func newNodesOf(path string, et *loaders.EdgeTable, b *nodeids.Builder, known *nodeids.Map) ([]serve.NewNode, error) {
	m, perm := b.Finish()
	id := func(v int32) string {
		if perm != nil {
			v = perm[v]
		}
		return m.ID(int(v))
	}
	var nodes []serve.NewNode
	index := map[string]int{}
	for k := range et.Src {
		u, v := id(et.Src[k]), id(et.Dst[k])
		_, uKnown := known.Lookup(u)
		_, vKnown := known.Lookup(v)
		switch {
		case uKnown && vKnown:
			return nil, fmt.Errorf("%s, line %d: %s and %s are both fitted nodes; each row joins a new node to a fitted one", path, et.Lines[k], u, v)
		case !uKnown && !vKnown:
			return nil, fmt.Errorf("%s, line %d: neither %s nor %s is a fitted node of the model (%d nodes); each row joins a new node to a fitted one", path, et.Lines[k], u, v, known.Len())
		case uKnown:
			u, v = v, u
		}
		w := 1.0
		if et.W != nil {
			w = et.W[k]
		}
		if !(math.Abs(w) <= estimator.MaxMagnitude) {
			return nil, fmt.Errorf("%s, line %d: weight %g is beyond %g, where a new node's sum of weights overflows; divide the column by a common factor", path, et.Lines[k], w, estimator.MaxMagnitude)
		}
		i, ok := index[u]
		if !ok {
			i = len(nodes)
			index[u] = i
			nodes = append(nodes, serve.NewNode{ID: u})
		}
		nodes[i].Edges = append(nodes[i].Edges, serve.Edge{To: v, Weight: w})
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("%s has no edge", path)
	}
	return nodes, nil
}

// ReadNodeFeatures reads the feature rows of new nodes in the formats the
// fitting commands read: NumPy .npy or .npz (dense, or a SciPy sparse
// matrix), svmlight (.svm, .svmlight, .libsvm), gssl's sparse text format
// ("# rows cols" header), each naming its rows by idsPath (one id per
// line); or a CSV/TSV table whose first column is the node's id (or, with
// idsPath, a table of numbers only).
func ReadNodeFeatures(path, idsPath string) ([]string, nodeclass.Features, error) {
	var x nodeclass.Features
	var err error
	ext := loaders.StreamExt(path, strings.ToLower(filepath.Ext(strings.TrimSuffix(strings.ToLower(path), ".gz"))))
	switch {
	case ext == ".npy":
		x.Dense, err = loaders.ReadNPY(path)
	case ext == ".npz":
		x.Sparse, x.Dense, err = loaders.ReadNPZFeatures(path)
	case ext == ".svm" || ext == ".svmlight" || ext == ".libsvm":
		x.Sparse, _, err = loaders.ReadSVMLight(path, false)
	default:
		var sparseText bool
		if sparseText, err = startsWithHash(path); err != nil {
			break
		}
		if sparseText {
			x.Sparse, err = loaders.ReadFeatures(path)
			break
		}
		idCol := "1"
		if idsPath != "" {
			idCol = ""
		}
		var t *loaders.PointTable
		if t, err = loaders.ReadPointTable(path, idCol); err != nil {
			break
		}
		x.Dense = t.X
		if idsPath == "" {
			return t.IDs, x, nil
		}
	}
	if err != nil {
		return nil, x, err
	}
	if idsPath == "" {
		return nil, x, fmt.Errorf("%s has no id column: give --feature-ids FILE, the new node of each row, one id per line (or a CSV table whose first column is the id)", path)
	}
	ids, err := loaders.ReadIDLines(idsPath)
	if err != nil {
		return nil, x, err
	}
	if r, _ := x.Dims(); len(ids) != r {
		return nil, x, fmt.Errorf("--feature-ids %s lists %d ids for the %d rows of --features %s", idsPath, len(ids), r, path)
	}
	return ids, x, nil
}

// startsWithHash reports whether the (possibly gzipped) file starts with
// '#', the header of gssl's sparse text format.
func startsWithHash(path string) (bool, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return false, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	var b [1]byte
	n, _ := io.ReadFull(r, b[:])
	return n == 1 && b[0] == '#', nil
}

// PredictTUFolder classifies the graphs of a TU folder (loaders.LoadTU);
// each prediction's id is the graph's number in the files (1-based), and
// truth holds each graph's label as the files write it.
func (s *Saved) PredictTUFolder(ctx context.Context, dir string) (preds []serve.Prediction, truth []string, err error) {
	// LoadTU needs the graph labels file; graphs to predict may have none.
	if m, _ := filepath.Glob(filepath.Join(dir, "*_graph_indicator.txt")); len(m) == 1 {
		labels := strings.TrimSuffix(m[0], "_graph_indicator.txt") + "_graph_labels.txt"
		if _, err := os.Stat(labels); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s: no %s: the TU loader needs one graph label per graph; for graphs of unknown class write any integer on each line (it fills the label column and is not used)", dir, filepath.Base(labels))
		}
	}
	ds, err := loaders.LoadTU(dir)
	if err != nil {
		return nil, nil, err
	}
	graphs := make([]graphkernels.Graph, len(ds.Graphs))
	truth = make([]string, len(ds.Graphs))
	for i, g := range ds.Graphs {
		graphs[i] = graphkernels.Graph{Adj: g.Graph, Labels: g.NodeLabels}
		truth[i] = strconv.Itoa(g.Label)
	}
	if preds, err = s.PredictKernelGraphs(ctx, graphs); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	for i := range preds {
		preds[i].ID = strconv.Itoa(i + 1)
	}
	return preds, truth, nil
}

// Table returns the columns of the answer's prediction table, as the
// fitting command's --out writes them, and a function filling row r:
// id, predicted and p_<class> (or score_<class>, or a C-SVM's
// decision_<a>_vs_<b>) for classifiers; id, prediction[, variance] for
// regression; id, cluster for spectral clustering; graph, label,
// prediction and the decision values for graphs.
func (a *Answer) Table(meta serve.Metadata) ([]string, func(r int, rec []any)) {
	preds := a.Predictions
	switch {
	case meta.Input == serve.InputGraphs:
		return graphColumns(meta, preds, a.Truth)
	case meta.Task == serve.Regression:
		return regressionColumns(preds)
	case meta.Kind == spectral.SpectralClusteringKind:
		return []string{"id", "cluster"}, func(r int, rec []any) { rec[0], rec[1] = preds[r].ID, preds[r].Label }
	}
	// Probabilities when the model has them (p_<class>), else its scores
	// (score_<class>).
	prefix, scores := "p_", false
	if len(preds) > 0 && preds[0].Probabilities == nil && preds[0].Scores != nil {
		prefix, scores = "score_", true
	}
	cols := []string{"id", "predicted"}
	if meta.Kind == svm.PointSVCKind {
		cols = append(cols, DecisionColumns(meta.Classes, preds)...)
	} else {
		for _, c := range meta.Classes {
			cols = append(cols, prefix+c)
		}
	}
	// A calibrated model's prediction sets, class names joined by "|".
	sets := meta.ConformalAlpha > 0
	if sets {
		cols = append(cols, "set")
	}
	return cols, func(r int, rec []any) {
		p := preds[r]
		rec[0], rec[1] = p.ID, p.Label
		v := p.Probabilities
		if scores {
			v = p.Scores
		}
		for c, x := range v {
			rec[2+c] = x
		}
		if sets {
			rec[len(rec)-1] = strings.Join(p.Set, "|")
		}
	}
}

func regressionColumns(preds []serve.Prediction) ([]string, func(r int, rec []any)) {
	cols := []string{"id", "prediction"}
	withVar := len(preds) > 0 && preds[0].Variance != nil
	if withVar {
		cols = append(cols, "variance")
	}
	return cols, func(r int, rec []any) {
		p := preds[r]
		rec[0] = p.ID
		if p.Mean != nil {
			rec[1] = *p.Mean
		}
		if withVar && p.Variance != nil {
			rec[2] = *p.Variance
		}
	}
}

// graphColumns are graph, label (truth[r], empty when unknown),
// prediction and the C-SVM's decision value of each one-vs-one machine.
func graphColumns(meta serve.Metadata, preds []serve.Prediction, truth []string) ([]string, func(r int, rec []any)) {
	cols := append([]string{"graph", "label", "prediction"}, DecisionColumns(meta.Classes, preds)...)
	return cols, func(r int, rec []any) {
		p := preds[r]
		rec[0], rec[2] = p.ID, p.Label
		if n, err := strconv.Atoi(p.ID); err == nil {
			rec[0] = n
		}
		if truth != nil {
			rec[1] = truth[r]
		}
		for k, v := range p.Scores {
			rec[3+k] = v
		}
	}
}

// DecisionColumns names the decision values of a C-SVM's one-vs-one
// machines decision_<a>_vs_<b>, or decision_<k> when the model saw fewer
// classes than it has names for.
func DecisionColumns(classes []string, preds []serve.Prediction) []string {
	m := 0
	if len(preds) > 0 {
		m = len(preds[0].Scores)
	}
	var cols []string
	if c := len(classes); c*(c-1)/2 == m {
		for a := 0; a < c; a++ {
			for b := a + 1; b < c; b++ {
				cols = append(cols, "decision_"+classes[a]+"_vs_"+classes[b])
			}
		}
		return cols
	}
	for k := 0; k < m; k++ {
		cols = append(cols, "decision_"+strconv.Itoa(k))
	}
	return cols
}

// PointsOf keeps what a model fitted on the K-nearest-neighbour graph w of
// the points x needs to predict new points, for the model's nodes named
// nodes (the graph's nodes, or a part of them such as its largest
// component), matched to the rows of x by rows.
func PointsOf(x *mat.Dense, w *knngraph.Weighted, rows *nodeids.Map, nodes []string) (*Points, error) {
	n := len(nodes)
	r, d := x.Dims()
	if n == r {
		return &Points{X: x, Weights: w}, nil
	}
	if n <= w.K {
		return nil, fmt.Errorf("the model's %d nodes are too few to predict new points from their %d nearest", n, w.K)
	}
	out := mat.NewDense(n, d, nil)
	sub := *w
	sub.W, sub.N = nil, n
	if w.Scale != nil {
		sub.Scale = make([]float64, n)
	}
	for i, id := range nodes {
		k, ok := rows.Lookup(id)
		if !ok {
			return nil, fmt.Errorf("node %q is not a row of the features", id)
		}
		copy(out.RawRowView(i), x.RawRowView(k))
		if sub.Scale != nil {
			sub.Scale[i] = w.Scale[k]
		}
	}
	return &Points{X: out, Weights: &sub}, nil
}

// Description is what a saved model file holds, as gssl model info
// prints it.
type Description struct {
	Path          string                  `json:"path"`
	Bytes         int64                   `json:"bytes"`
	SHA256        string                  `json:"sha256"`
	FormatVersion int                     `json:"format_version"`
	Kind          string                  `json:"kind"`
	KindVersion   int                     `json:"kind_version"`
	Writer        string                  `json:"writer"`
	Task          string                  `json:"task"`
	Nodes         int                     `json:"nodes"`
	Graphs        int                     `json:"graphs,omitempty"` // training graphs of a model of graphs
	Classes       []string                `json:"classes,omitempty"`
	ExampleIDs    []string                `json:"example_ids,omitempty"`
	Data          string                  `json:"data,omitempty"`
	GraphSHA256   string                  `json:"graph_sha256,omitempty"`
	Metadata      json.RawMessage         `json:"metadata"`
	Sections      []modelfile.SectionInfo `json:"sections"`
}

// Describe opens the model file at path (checking its magic, version,
// checksums and the model's own arrays, as Open does) and describes it.
func Describe(path string) (*Description, error) {
	s, err := Open(path)
	if err != nil {
		return nil, err
	}
	st, err := inputfile.Stat(path)
	if err != nil {
		return nil, err
	}
	sum, err := modelfile.FileSHA256(path)
	if err != nil {
		return nil, err
	}
	f, meta, c := s.File(), s.Metadata(), s.Context()
	return &Description{Path: path, Bytes: st.Size(), SHA256: sum, FormatVersion: modelfile.FormatVersion, Kind: f.Kind,
		KindVersion: f.KindVersion, Writer: f.Writer, Task: string(meta.Task), Nodes: meta.Nodes, Graphs: meta.Graphs, Classes: meta.Classes,
		ExampleIDs: meta.ExampleIDs, Data: c.Data, GraphSHA256: c.GraphSHA256, Metadata: f.Metadata, Sections: f.Sections()}, nil
}
