package protocol

import (
	"errors"
	"path/filepath"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/homophily"
	"github.com/gssl/gssl/loaders"
)

// GraphInfo describes a single graph or node data set: its statistics,
// its labels and split, and its homophily.
type GraphInfo struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	graph.Stats
	loaders.DatasetSummary
	Homophily     *homophily.Report `json:"homophily"`                // null without labels (see homophily_note)
	HomophilyNote string            `json:"homophily_note,omitempty"` // why homophily is null
	LoadSeconds   float64           `json:"load_seconds"`             // reading (or mapping) the input
	Seconds       float64           `json:"seconds"`                  // the whole command: load and statistics
	// Inputs say how each file was read: format, header, columns.
	Inputs []loaders.TableReport `json:"inputs,omitempty"`
}

// DescribeNodeDataset describes ds, read from in: a node-classification
// data set (a folder, or the embedded one), or a graph file of the format
// its reader found.
func DescribeNodeDataset(in NodeInput, ds *loaders.NodeDataset) GraphInfo {
	r := GraphInfo{Path: in.Name(), Kind: "node-classification", Stats: graph.Describe(ds.Graph), DatasetSummary: ds.Summary()}
	if in.Data == "" && !in.Embedded() {
		r.Kind = "edge-table"
		if len(ds.Reports) > 0 && ds.Reports[0].Format != "integer-edge-list" {
			r.Kind = ds.Reports[0].Format
		}
		r.Inputs = ds.Reports
	}
	var err error
	switch r.Homophily, err = homophily.Describe(ds.Graph, ds.Labels); {
	case ds.Labels == nil:
		r.HomophilyNote = "no labels"
	case errors.Is(err, homophily.ErrNoEdges):
		r.HomophilyNote = "no edge joins two labelled nodes"
	case err != nil:
		r.HomophilyNote = err.Error()
	}
	return r
}

// TUInfo describes a graph-classification data set.
type TUInfo struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	loaders.TUSummary
	Seconds float64 `json:"seconds"`
}

// IsTUFolder reports whether dir holds a TU data set (NAME_graph_indicator.txt).
func IsTUFolder(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*_graph_indicator.txt"))
	return dir != "" && len(m) > 0
}
