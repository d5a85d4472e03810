package loaders

import (
	"fmt"
	"math"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/memlimit"
)

// MagnitudeHint is what to do about edge weights beyond
// estimator.MaxMagnitude.
const MagnitudeHint = "divide the column by a common factor (label spreading, the harmonic function and the normalised Laplacians do not change when every weight is scaled alike)"

// MagnitudeError is a value of a data set beyond estimator.MaxMagnitude,
// where sums, products and distances overflow.
type MagnitudeError struct {
	// Input is the file the value comes from: "edges" (a node's weighted
	// degree), "features" or "targets".
	Input string
	Msg   string // the node, column and value, and what to do
}

func (e *MagnitudeError) Error() string { return "loaders: " + e.Input + ": " + e.Msg }

// CheckFinite refuses edge weights whose sum at a node, features and
// targets that are beyond estimator.MaxMagnitude (or not finite), naming
// the node (and column) of the first. A nil data set passes.
func (ds *NodeDataset) CheckFinite() error {
	const limit = estimator.MaxMagnitude
	beyond := func(v float64) bool { return !(math.Abs(v) <= limit) }
	if ds == nil {
		return nil
	}
	if ds.Graph != nil {
		for i, d := range ds.Graph.Degrees() {
			if beyond(d) {
				return &MagnitudeError{"edges", fmt.Sprintf("node %s: its edge weights sum to %g, beyond %g where sums and products overflow; %s", ds.NodeID(i), d, limit, MagnitudeHint)}
			}
		}
	}
	feature := func(i, j int, v float64) error {
		return &MagnitudeError{"features", fmt.Sprintf("node %s, column %d: %g is beyond %g, where distances and norms overflow; scale the features", ds.NodeID(i), j+1, v, limit)}
	}
	if x := ds.DenseFeatures; x != nil {
		r, c := x.Dims()
		for i := range r {
			for j, v := range x.RawRowView(i)[:c] {
				if beyond(v) {
					return feature(i, j, v)
				}
			}
		}
	}
	if x := ds.Features; x != nil {
		for i := range x.Rows {
			cols, vals := x.Row(i)
			for k, v := range vals {
				if beyond(v) {
					return feature(i, int(cols[k]), v)
				}
			}
		}
	}
	for i, v := range ds.Targets {
		if !math.IsNaN(v) && beyond(v) {
			return &MagnitudeError{"targets", fmt.Sprintf("node %s: %g is beyond %g, where squared errors overflow; scale the targets", ds.NodeID(i), v, limit)}
		}
	}
	return nil
}

// EstimatorNodes is the graph and the features of ds (dense or sparse, nil
// without), as the node estimators take them.
func (ds *NodeDataset) EstimatorNodes() estimator.Nodes {
	nodes := estimator.Nodes{Graph: ds.Graph}
	switch {
	case ds.DenseFeatures != nil:
		nodes.Features = ds.DenseFeatures
	case ds.Features != nil:
		nodes.Features = ds.Features
	}
	return nodes
}

// CheckClassMemory refuses, before any dense block is allocated, a fit
// whose classes × nodes blocks take need bytes in all, above budget. When
// nearly every labelled node has a class of its own the message says that
// the label column looks like ids. The error wraps memlimit.ErrTooMuch.
func (ds *NodeDataset) CheckClassMemory(need int64, budget memlimit.Budget) error {
	if need <= budget.Bytes {
		return nil
	}
	c, labelled := ds.Classes, len(ds.Labelled())
	hint := "fewer classes (merge rare ones), or a machine with more memory"
	if c > 100 && 2*c > labelled {
		hint = fmt.Sprintf("%d distinct labels for %d labelled nodes: is the label column of --labels an id rather than a class?", c, labelled)
	}
	return budget.Check(need, fmt.Sprintf("%d classes × %d nodes: the dense score blocks", c, ds.Graph.Nodes()), hint)
}

// SplitData is what eval builds the splits of ds on: its labels, its own
// split (split_planetoid.txt), the reader of split files (ReadSplit, whose
// nodes are 0..n−1, so a data set with ids of its own refuses them),
// source naming the data in errors, and its ids.
func (ds *NodeDataset) SplitData(source string) eval.SplitData {
	return eval.SplitData{Labels: ds.Labels, Own: ds.Split, Source: source, ReadFile: ReadSplit,
		OwnIDs: ds.IDs != nil && !ds.IDs.IsIdentity(), NodeName: ds.NodeID}
}
