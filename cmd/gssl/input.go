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
	Data         string `flag:"data"`
	Edges        string `flag:"edges"`
	Labels       string `flag:"labels"`
	Features     string `flag:"features"`
	FeatureIDs   string `flag:"feature-ids"`
	Targets      string `flag:"targets"`
	Header       string `flag:"header"`
	Weight       string `flag:"weight"`
	Source       string `flag:"source"`
	Target       string `flag:"target"`
	IDColumn     string `flag:"id-column"`
	LabelColumn  string `flag:"label-column"`
	TargetColumn string `flag:"target-column"`
	Directed     string `flag:"directed"`
	Nodes        int    `flag:"nodes"`
	KNN          knnFlags
	MaxMemory    string `flag:"max-memory"`

	reports []loaders.TableReport // how each file was read, after load
	flags   *pflag.FlagSet        // the command's flags (its --seed seeds NN-descent)
	built   *knnBuilt             // the KNN graph built from Features, after load
}

// newNodeInput is the input flags' defaults.
func newNodeInput() nodeInput {
	return nodeInput{Header: "auto", Directed: "undirected", KNN: newKNNFlags(), MaxMemory: defaultMaxMemory()}
}

// boundTo keeps the command's flags (bindFlags calls it).
func (in *nodeInput) boundTo(f *pflag.FlagSet) { in.flags = f }

// addFlags registers the input flags on f with help/flags.md's texts.
func (in *nodeInput) addFlags(f *pflag.FlagSet) {
	*in = newNodeInput()
	bindFlags(f, "", helpText{}, in)
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
