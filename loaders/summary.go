package loaders

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/nodeids"
)

// DatasetSummary counts what a node data set holds besides its graph.
type DatasetSummary struct {
	Classes         int      `json:"classes"`
	ClassSizes      []int    `json:"class_sizes,omitempty"`
	ClassNames      []string `json:"class_names,omitempty"`
	Unlabelled      int      `json:"unlabelled"`
	Features        int      `json:"features"`
	FeatureNonZeros int      `json:"feature_nonzeros"` // -1 for dense features
	DenseFeatures   bool     `json:"dense_features,omitempty"`
	Targets         int      `json:"targets,omitempty"` // nodes with a known regression target
	IDs             string   `json:"ids"`               // "index" (0..n-1), "integer" or "text"
	Train           int      `json:"train"`
	Val             int      `json:"val"`
	Test            int      `json:"test"`
}

// Summary counts the classes, labels, features, targets and split of ds
// and says what its ids are.
func (ds *NodeDataset) Summary() DatasetSummary {
	s := DatasetSummary{Classes: ds.Classes, ClassSizes: make([]int, ds.Classes), IDs: "index"}
	for c := 0; c < ds.Classes; c++ {
		s.ClassNames = append(s.ClassNames, ds.ClassName(c))
	}
	for _, l := range ds.Labels {
		if l >= 0 {
			s.ClassSizes[l]++
		} else {
			s.Unlabelled++
		}
	}
	if ds.Features != nil {
		s.Features, s.FeatureNonZeros = ds.Features.Cols, ds.Features.NNZ()
	}
	if ds.DenseFeatures != nil {
		_, s.Features = ds.DenseFeatures.Dims()
		s.FeatureNonZeros, s.DenseFeatures = -1, true
	}
	for _, v := range ds.Targets {
		if !math.IsNaN(v) {
			s.Targets++
		}
	}
	if ds.IDs != nil && !ds.IDs.IsIdentity() {
		s.IDs = "integer"
		if ds.IDs.IsText() {
			s.IDs = "text"
		}
	}
	if ds.Split != nil {
		s.Train, s.Val, s.Test = len(ds.Split.Train), len(ds.Split.Val), len(ds.Split.Test)
	}
	return s
}

// ClassName is the user's name of class c: as written in the labels file,
// else the label value of a folder's labels.txt, else its number.
func (ds *NodeDataset) ClassName(c int) string {
	switch {
	case c >= 0 && c < len(ds.ClassNames) && ds.ClassNames[c] != "":
		return ds.ClassNames[c]
	case c >= 0 && c < len(ds.ClassValues):
		return strconv.Itoa(ds.ClassValues[c])
	}
	return strconv.Itoa(c)
}

// NodeID is the user's id of node i (its number without ids).
func (ds *NodeDataset) NodeID(i int) string {
	if ds.IDs != nil {
		return ds.IDs.ID(i)
	}
	return strconv.Itoa(i)
}

// TUSummary counts the graphs, classes, nodes and edges of a graph
// classification data set.
type TUSummary struct {
	Graphs        int     `json:"graphs"`
	Nodes         int     `json:"nodes"`
	Edges         int     `json:"edges"`
	Components    int     `json:"components"`
	Classes       int     `json:"classes"`
	ClassSizes    []int   `json:"class_sizes"`
	LabelValues   []int   `json:"label_values"`
	MeanNodes     float64 `json:"mean_nodes"`
	MeanEdges     float64 `json:"mean_edges"`
	NodeLabels    int     `json:"node_label_values"` // distinct node labels
	AttributeDims int     `json:"attribute_dims"`
}

// Summary counts the graphs, classes, nodes, edges, connected components
// and node-label values of d.
func (d *TUDataset) Summary() TUSummary {
	s := TUSummary{Graphs: len(d.Graphs), LabelValues: d.LabelValues, Classes: len(d.LabelValues)}
	s.ClassSizes = make([]int, s.Classes)
	nodeLabels := map[int]bool{}
	for _, g := range d.Graphs {
		s.ClassSizes[g.Class]++
		s.Nodes += g.Graph.Nodes()
		s.Edges += g.Graph.Edges()
		_, c := g.Graph.Components()
		s.Components += c
		for _, l := range g.NodeLabels {
			nodeLabels[l] = true
		}
		if g.Attributes != nil {
			_, s.AttributeDims = g.Attributes.Dims()
		}
	}
	s.NodeLabels = len(nodeLabels)
	if s.Graphs > 0 {
		s.MeanNodes = float64(s.Nodes) / float64(s.Graphs)
		s.MeanEdges = float64(s.Edges) / float64(s.Graphs)
	}
	return s
}

// Labelled returns the labelled nodes of ds, ascending.
func (ds *NodeDataset) Labelled() []int {
	var out []int
	for i, l := range ds.Labels {
		if l >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// IDOrder returns nodes sorted by the user's ids (as text, stably): the
// order in which cross-validation deals them into folds, so that the folds
// depend on the ids, not on the order in which the files listed them.
func (ds *NodeDataset) IDOrder(nodes []int) []int {
	out := slices.Clone(nodes)
	slices.SortStableFunc(out, func(a, b int) int { return strings.Compare(ds.NodeID(a), ds.NodeID(b)) })
	return out
}

// Restrict returns ds restricted to the nodes of sub (a subgraph of its
// graph): the subgraph, its nodes' labels and the class names; the user's
// ids follow the nodes.
func (ds *NodeDataset) Restrict(sub *graph.Subgraph) *NodeDataset {
	out := &NodeDataset{Name: ds.Name, Graph: sub.CSR, Classes: ds.Classes, ClassNames: ds.ClassNames, ClassValues: ds.ClassValues}
	if ds.Labels != nil {
		out.Labels = make([]int, len(sub.Original))
		for t, i := range sub.Original {
			out.Labels[t] = ds.Labels[i]
		}
	}
	if ds.IDs != nil {
		out.IDs = ds.IDs.Subset(sub.Original)
	}
	return out
}

// ParseDirected maps a name of how a user's edge table becomes an
// undirected graph to its graph options (UserGraphOptions changed):
// undirected ("" too) merges an edge given twice (either direction) by max,
// error refuses it (and a Matrix Market matrix that is not symmetric), max,
// sum, mean and mutual read arcs and symmetrise them.
func ParseDirected(name string) (graph.Options, error) {
	opt := UserGraphOptions()
	switch name {
	case "", "undirected":
	case "error":
		opt.Duplicates = graph.DuplicateError
	case "max":
		opt.Symmetrize = graph.DirectedMax
	case "sum":
		opt.Symmetrize = graph.DirectedSum
	case "mean":
		opt.Symmetrize = graph.DirectedMean
	case "mutual":
		opt.Symmetrize = graph.DirectedMutual
	default:
		return opt, fmt.Errorf("loaders: directed rule %q is invalid: use undirected, max, sum, mean, mutual or error", name)
	}
	return opt, nil
}

// LoadGraph reads a graph and its node ids from path: a .gsg graph file, a
// node-classification folder, or an edge file in any format LoadNodes
// reads (repeated edges merged by the larger weight; self loops kept unless
// dropSelfLoops; a folder drops them always). nodes > 0 makes the ids the
// integers 0..nodes−1.
func LoadGraph(path string, nodes int, dropSelfLoops bool) (*graph.CSR, *nodeids.Map, error) {
	st, err := inputfile.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() && graphfile.IsGraphFile(path) {
		return graphfile.Read(path)
	}
	files := NodeFiles{Nodes: nodes}
	if st.IsDir() {
		files.Dir = path
	} else {
		files.Edges, files.Graph = path, UserGraphOptions()
		if dropSelfLoops {
			files.Graph.SelfLoops = graph.SelfLoopDrop
		}
	}
	ds, err := LoadNodes(files)
	if err != nil {
		return nil, nil, err
	}
	return ds.Graph, ds.IDs, nil
}
