package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/pflag"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"
)

// nodeInput is the input vocabulary shared by the node-level commands
// (docs/cli.md): a data folder, or tables of edges, labels, features and
// targets with the options of their reader. Nothing given means the Cora
// embedded in the binary.
type nodeInput struct {
	Data       string // folder: ours or OGB's node-property layout
	Edges      string // edge table or Matrix Market file
	Labels     string // "id,label" table
	Features   string // node features
	FeatureIDs string // the node of each feature row, one id per line
	Targets    string // "id,value" regression targets
	Header     string // auto, yes or no
	Weight     string // weight column by name or 1-based position
	Directed   string // undirected, max, sum, mean, mutual or error
	Nodes      int    // > 0: ids are 0..Nodes−1
	// Source and Target choose the edge table's id columns, IDColumn,
	// LabelColumn and TargetColumn those of the labels and targets
	// tables (by name or 1-based position).
	Source, Target                      string
	IDColumn, LabelColumn, TargetColumn string
	// reports say how each file was read (loaders.TableReport), after load.
	reports   []loaders.TableReport
	KNN       knnFlags
	MaxMemory string // refuse features and KNN graphs above this size

	flags *pflag.FlagSet // the command's flags (its --seed seeds NN-descent)
	built *knnBuilt      // the KNN graph built from Features, after load
}

// addFlags registers the input flags on f.
func (in *nodeInput) addFlags(f *pflag.FlagSet) {
	f.StringVar(&in.Data, "data", "", "data folder: ours (edges.txt, labels.txt, …) or OGB's node-property layout (default: the Cora embedded in gssl)")
	f.StringVar(&in.Edges, "edges", "", "edge table (CSV/TSV/whitespace; header by column names; string or integer ids; optional weight) or Matrix Market .mtx")
	f.StringVar(&in.Labels, "labels", "", `"id,label" table; an empty or missing label means unlabelled; class names are kept`)
	f.StringVar(&in.Features, "features", "", "node features (.npy, .npz, svmlight, CSV or our sparse text)")
	f.StringVar(&in.FeatureIDs, "feature-ids", "", "the id of each row of --features, one per line (for a NumPy matrix saved next to its list of nodes)")
	f.StringVar(&in.Targets, "targets", "", `"id,value" table of regression targets`)
	f.StringVar(&in.Header, "header", "auto", "tables start with a header line: auto (recognised by column names), yes or no")
	f.StringVar(&in.Weight, "weight", "", "edge weight column, by name or 1-based position (default: a column named weight, or a third numeric column; none: every weight 1)")
	f.StringVar(&in.Source, "source", "", "source id column of --edges, by name or 1-based position (default: a column named source, src, from, u, …, else the first)")
	f.StringVar(&in.Target, "target", "", "target id column of --edges, by name or 1-based position (default: a column named target, dst, to, v, …, else the second)")
	f.StringVar(&in.IDColumn, "id-column", "", "node id column of --labels and --targets, by name or 1-based position (default: a column named id, node, name, …, or the first of two)")
	f.StringVar(&in.LabelColumn, "label-column", "", "label column of --labels, by name or 1-based position (default: a column named label, class, y, …, or the second of two)")
	f.StringVar(&in.TargetColumn, "target-column", "", "value column of --targets, by name or 1-based position (default: a column named target, value, y, …, or the second of two)")
	f.StringVar(&in.Directed, "directed", "undirected", "how edges become an undirected graph: undirected (one line per edge; an edge given twice is merged by max), max, sum, mean or mutual (lines are arcs: W = max(A, Aᵀ), A + Aᵀ, (A + Aᵀ)/2, or arcs both ways), or error (an edge given twice, or a Matrix Market matrix that is not symmetric, is an error)")
	f.IntVar(&in.Nodes, "nodes", 0, "the ids are the integers 0..N-1 (nodes without edges included); 0: the ids present")
	in.KNN.addFlags(f, " (with --features and no --edges)")
	f.StringVar(&in.MaxMemory, "max-memory", defaultMaxMemory(), "refuse --features and their K-nearest-neighbour graph, and a fit's dense blocks (classes × nodes, a Krylov basis), above this size")
	in.flags = f
}

// fromPoints reports whether the graph is to be built from the features:
// --features without --edges or --data.
func (in *nodeInput) fromPoints() bool {
	return in.Features != "" && in.Edges == "" && in.Data == ""
}

// embedded reports whether no input flag was given, so the embedded Cora is
// used.
func (in *nodeInput) embedded() bool {
	return in.Data == "" && in.Edges == "" && in.Labels == "" && in.Features == "" && in.Targets == ""
}

// source names the input in outputs.
func (in *nodeInput) source() string {
	switch {
	case in.embedded():
		return "embedded:" + datasets.CoraName
	case in.Data != "":
		return in.Data
	case in.fromPoints():
		return in.Features
	}
	return in.Edges
}

// check validates the flags that need no file.
func (in *nodeInput) check() error {
	if err := checkNodesFlag(in.Nodes); err != nil {
		return err
	}
	if _, err := parseHeader(in.Header); err != nil {
		return err
	}
	if _, err := graphOptions(in.Directed); err != nil {
		return err
	}
	if in.Data != "" && in.Edges != "" {
		return errors.New("--data and --edges exclude each other: a data folder, or an edge table")
	}
	if in.FeatureIDs != "" && in.Features == "" {
		return errors.New("--feature-ids names the rows of --features: give --features FILE too")
	}
	if in.Edges == "" && in.Data == "" && !in.embedded() && in.Features == "" {
		return errors.New("--labels and --targets need a graph: give --edges FILE (or --data DIR), or --features FILE to build the K-nearest-neighbour graph of its rows")
	}
	return nil
}

// load reads the input. A file given to --data is taken as --edges, with a
// notice on stderr.
func (in *nodeInput) load(ctx context.Context, stderr io.Writer) (*loaders.NodeDataset, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if in.embedded() {
		return datasets.Cora()
	}
	if in.fromPoints() {
		return in.loadPoints(ctx, stderr)
	}
	if in.Data != "" {
		st, err := inputfile.Stat(in.Data)
		if err != nil {
			return nil, fmt.Errorf("--data: %w", err)
		}
		if !st.IsDir() {
			logf(stderr, "gssl: --data %s is a file, not a folder: reading it as --edges", in.Data)
			in.Edges, in.Data = in.Data, ""
		}
	}
	ds, err := loadNodes(ctx, in)
	if err != nil {
		return nil, err
	}
	in.reports = ds.Reports
	recordInputs(ctx, stderr, ds.Reports...)
	if err := checkFiniteDataset(ds); err != nil {
		ds.Close()
		return nil, err
	}
	return ds, nil
}

// nodeID is the user's id of node i (loaders.NodeDataset.NodeID).
func nodeID(ds *loaders.NodeDataset, i int) string { return ds.NodeID(i) }

// needLabels refuses a data set without any labelled node, for the
// classifiers.
func needLabels(ds *loaders.NodeDataset) error {
	if slices.ContainsFunc(ds.Labels, func(l int) bool { return l >= 0 }) {
		return nil
	}
	return errors.New("no node is labelled: give --labels FILE (id,label rows; an empty label means unlabelled)")
}

// idOrder returns nodes sorted by the user's ids (loaders.NodeDataset.IDOrder).
func idOrder(ds *loaders.NodeDataset, nodes []int) []int { return ds.IDOrder(nodes) }

// labelledNodes returns the labelled nodes of ds, ascending.
func labelledNodes(ds *loaders.NodeDataset) []int { return ds.Labelled() }

// labelOf is node i's class, −1 when unlabelled or without labels.
func labelOf(ds *loaders.NodeDataset, i int) int {
	if ds.Labels == nil {
		return -1
	}
	return ds.Labels[i]
}

// className is the user's name of class c (loaders.NodeDataset.ClassName).
func className(ds *loaders.NodeDataset, c int) string { return ds.ClassName(c) }

// isolatedPolicy parses --isolated.
func isolatedPolicy(s string) (laplacian.IsolatedPolicy, error) {
	p, err := laplacian.ParseIsolated(s)
	if err != nil {
		return 0, fmt.Errorf("--isolated %q is invalid: use component (an isolated node is its own component, eigenvalue 0), error, or zero (D^-1/2 := 0)", s)
	}
	return p, nil
}

// flagError rewrites library errors that name library options into ones
// that name the command's flags.
func flagError(err error) error {
	var iso *laplacian.IsolatedNodeError
	if errors.As(err, &iso) {
		more := ""
		if len(iso.Nodes) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(iso.Nodes)-1)
		}
		return fmt.Errorf("node %d has degree 0%s, so D^-1/2 is undefined: drop --isolated error (the default, component, makes it its own component with eigenvalue 0), pass --isolated zero, or --lcc to keep the largest connected component", iso.Nodes[0], more)
	}
	return err
}

// restrictDataset returns ds restricted to the nodes of sub
// (loaders.NodeDataset.Restrict).
func restrictDataset(ds *loaders.NodeDataset, sub *graph.Subgraph) *loaders.NodeDataset {
	return ds.Restrict(sub)
}

// bytesPerFixedNode is what one node of an explicit --nodes costs, edges
// aside: its id, row offset, degree, label and component entries (about 85
// bytes measured on a graph of 10⁷ mostly isolated nodes).
const bytesPerFixedNode = 96

// checkNodesFlag refuses a negative --nodes, and one whose node tables
// alone pass the default --max-memory (half of the memory, or of ulimit
// -v): --nodes is the one count the input does not justify, so a typo such
// as 2·10⁹ must be an error, not a swap storm.
func checkNodesFlag(n int) error {
	if n < 0 {
		return fmt.Errorf("--nodes %d is invalid: it must be ≥ 0 (0: the ids present)", n)
	}
	limit, err := parseBytes("max-memory", defaultMaxMemory())
	if err != nil {
		return err
	}
	if need := int64(n) * bytesPerFixedNode; need > limit {
		return fmt.Errorf("--nodes %d is invalid: %d nodes take %s, above %s (half of the available memory); give the number of nodes of the graph, or 0 for the ids present", n, n, formatBytes(need), formatBytes(limit))
	}
	return nil
}
