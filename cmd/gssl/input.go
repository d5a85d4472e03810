package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
)

// nodeInput is the input vocabulary of the node-level commands
// (help/flags.md): a data folder, or tables of edges, labels, features and
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
	return nodeInput{Header: "auto", Directed: "undirected", KNN: knngraph.DefaultGraphOptions(), MaxMemory: defaultMaxMemory()}
}

// boundTo keeps the command's flags (bindFlags calls it).
func (in *nodeInput) boundTo(f *pflag.FlagSet) { in.flags = f }

// fromPoints: the graph is built from --features (no --edges or --data).
func (in *nodeInput) fromPoints() bool { return in.Features != "" && in.Edges == "" && in.Data == "" }

// embedded: no input flag was given, so the embedded Cora is used.
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
	switch {
	case in.Data != "" && in.Edges != "":
		return errors.New("--data and --edges exclude each other: a data folder, or an edge table")
	case in.FeatureIDs != "" && in.Features == "":
		return errors.New("--feature-ids names the rows of --features: give --features FILE too")
	case in.Edges == "" && in.Data == "" && !in.embedded() && in.Features == "":
		return errors.New("--labels and --targets need a graph: give --edges FILE (or --data DIR), or --features FILE to build the K-nearest-neighbour graph of its rows")
	}
	return nil
}

// load reads the input (loaders.LoadNodes, or the KNN graph of the
// features) and refuses values beyond what sums and distances hold. A
// file given to --data is taken as --edges, with a notice on stderr.
func (in *nodeInput) load(ctx context.Context, stderr io.Writer) (*loaders.NodeDataset, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	switch {
	case in.embedded():
		return datasets.Cora()
	case in.fromPoints():
		return in.loadPoints(ctx, stderr)
	case in.Data != "":
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
	if err := ds.CheckFinite(); err != nil {
		ds.Close()
		var me *loaders.MagnitudeError
		switch {
		case !errors.As(err, &me):
			return nil, err
		case me.Input == "edges":
			return nil, errors.New(me.Msg)
		}
		return nil, fmt.Errorf("--%s: %s", me.Input, me.Msg)
	}
	return ds, nil
}

// loadNodes reads the folder or the tables named by in (loaders.LoadNodes).
func loadNodes(_ context.Context, in *nodeInput) (*loaders.NodeDataset, error) {
	header, err := parseHeader(in.Header)
	if err != nil {
		return nil, err
	}
	opt, err := graphOptions(in.Directed)
	if err != nil {
		return nil, err
	}
	maxMemory, err := parseBytes("max-memory", in.MaxMemory)
	if err != nil {
		return nil, err
	}
	ds, err := loaders.LoadNodes(loaders.NodeFiles{Dir: in.Data, Edges: in.Edges, Labels: in.Labels, Features: in.Features, FeatureIDs: in.FeatureIDs, Targets: in.Targets,
		Table: loaders.TableOptions{Header: header}, Weight: in.Weight, Source: in.Source, Target: in.Target,
		IDColumn: in.IDColumn, LabelColumn: in.LabelColumn, TargetColumn: in.TargetColumn, MaxMemory: maxMemory, Graph: opt, Nodes: in.Nodes,
		MapGraph: true}) // a .gsg is mapped, not copied (loaders.NodeFiles.MapGraph; docs/memory.md)
	if err != nil {
		return nil, in.inputError(loadError(err))
	}
	return ds, nil
}

// graphOptions maps --directed to the graph options of a user's edge table
// (loaders.ParseDirected).
func graphOptions(directed string) (graph.Options, error) {
	opt, err := loaders.ParseDirected(directed)
	if err != nil {
		return opt, fmt.Errorf("--directed %q is invalid: use undirected, max, sum, mean, mutual or error", directed)
	}
	return opt, nil
}

// loadError rewrites the reader's advice that names library options into
// advice that names --directed.
func loadError(err error) error {
	var pe *loaders.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	msg := pe.Msg
	if i := strings.Index(msg, "; set a directed Symmetrize rule"); i >= 0 {
		msg = msg[:i] + "; pass --directed max, sum, mean or mutual to symmetrise it"
	}
	if i := strings.Index(msg, " (duplicate policy: error"); i >= 0 {
		msg = msg[:i] + ": --directed error refuses an edge given twice; --directed undirected merges it (by max), sum adds"
	}
	if msg == pe.Msg {
		return err
	}
	return &loaders.ParseError{Path: pe.Path, Line: pe.Line, Msg: msg, Err: pe.Err}
}

// flagFile names the flag of the file err is about, without the packages'
// prefixes: "--labels l.csv:3: …" instead of "loaders: l.csv:3: …" (flag ""
// or a path that err does not name: err unchanged).
func flagFile(flag, path string, err error) error {
	if err == nil || flag == "" || path == "" {
		return err
	}
	msg := strings.TrimPrefix(packageChain.ReplaceAllString(err.Error(), "$1"), "open ")
	if !strings.HasPrefix(msg, path) {
		return err
	}
	return &flagNamedError{msg: "--" + flag + " " + msg, err: err}
}

// inputError names the flag of the input file a reader's error is about.
func (in *nodeInput) inputError(err error) error {
	var pe *loaders.ParseError
	var fe *os.PathError
	path := ""
	switch {
	case errors.As(err, &pe):
		path = pe.Path
	case errors.As(err, &fe):
		path = fe.Path
	default:
		return err
	}
	for _, f := range [][2]string{{"edges", in.Edges}, {"labels", in.Labels}, {"features", in.Features}, {"feature-ids", in.FeatureIDs}, {"targets", in.Targets}} {
		if f[1] == path {
			return flagFile(f[0], path, err)
		}
	}
	if in.Data != "" && strings.HasPrefix(path, in.Data) {
		return flagFile("data", in.Data, err)
	}
	return err
}

// Short names of loaders.NodeDataset's methods, used across the commands.
func nodeID(ds *loaders.NodeDataset, i int) string       { return ds.NodeID(i) }
func idOrder(ds *loaders.NodeDataset, nodes []int) []int { return ds.IDOrder(nodes) }
func labelledNodes(ds *loaders.NodeDataset) []int        { return ds.Labelled() }
func className(ds *loaders.NodeDataset, c int) string    { return ds.ClassName(c) }
func restrictDataset(ds *loaders.NodeDataset, sub *graph.Subgraph) *loaders.NodeDataset {
	return ds.Restrict(sub)
}

// labelOf is node i's class, −1 when unlabelled or without labels.
func labelOf(ds *loaders.NodeDataset, i int) int {
	if ds.Labels == nil {
		return -1
	}
	return ds.Labels[i]
}

// needLabels refuses a data set without any labelled node.
func needLabels(ds *loaders.NodeDataset) error {
	if slices.ContainsFunc(ds.Labels, func(l int) bool { return l >= 0 }) {
		return nil
	}
	return errors.New("no node is labelled: give --labels FILE (id,label rows; an empty label means unlabelled)")
}

// magnitudeHint is what to do about edge weights too large to sum.
const magnitudeHint = loaders.MagnitudeHint

// flagError rewrites laplacian's isolated-node error in the flags' words.
func flagError(err error) error {
	var iso *laplacian.IsolatedNodeError
	if !errors.As(err, &iso) {
		return err
	}
	more := ""
	if len(iso.Nodes) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(iso.Nodes)-1)
	}
	return fmt.Errorf("node %d has degree 0%s, so D^-1/2 is undefined: drop --isolated error (the default, component, makes it its own component with eigenvalue 0), pass --isolated zero, or --lcc to keep the largest connected component", iso.Nodes[0], more)
}

// bytesPerFixedNode is what one node of an explicit --nodes costs, edges
// aside: its id, row offset, degree, label and component entries.
const bytesPerFixedNode = 96

// checkNodesFlag refuses a negative --nodes, and one whose node tables
// alone pass the default --max-memory: --nodes is the one count the input
// does not justify, so a typo such as 2·10⁹ is an error, not a swap storm.
func checkNodesFlag(n int) error {
	if n < 0 {
		return fmt.Errorf("--nodes %d is invalid: it must be ≥ 0 (0: the ids present)", n)
	}
	limit, err := parseBytes("max-memory", defaultMaxMemory())
	if err != nil {
		return err
	}
	if need := int64(n) * bytesPerFixedNode; need > limit {
		return fmt.Errorf("--nodes %d is invalid: %d nodes take %s, above %s (half of the available memory); give the number of nodes of the graph, or 0 for the ids present", n, n, memlimit.Format(need), memlimit.Format(limit))
	}
	return nil
}
