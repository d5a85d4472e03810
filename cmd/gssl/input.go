package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
)

// nodeInput is the input vocabulary of the node-level commands
// (help/flags.md): a data folder, or tables of edges, labels, features and
// targets with the options of their reader (protocol.NodeInput), or a KNN
// graph of the features. Nothing given means the embedded Cora.
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
	KNN          knngraph.GraphOptions
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

// spec is the files part of the flags.
func (in *nodeInput) spec() protocol.NodeInput {
	return protocol.NodeInput{Data: in.Data, Edges: in.Edges, Labels: in.Labels, Features: in.Features, FeatureIDs: in.FeatureIDs, Targets: in.Targets,
		Header: in.Header, Weight: in.Weight, Source: in.Source, Target: in.Target, IDColumn: in.IDColumn, LabelColumn: in.LabelColumn,
		TargetColumn: in.TargetColumn, Directed: in.Directed, Nodes: in.Nodes}
}

func (in *nodeInput) fromPoints() bool { return in.spec().FromPoints() }
func (in *nodeInput) embedded() bool   { return in.spec().Embedded() }
func (in *nodeInput) source() string   { return in.spec().Name() }
func (in *nodeInput) check() error     { return in.spec().Check() }

// load reads the input (protocol.NodeInput.Load, or the KNN graph of the
// features), logging and recording how each file was read.
func (in *nodeInput) load(ctx context.Context, stderr io.Writer) (*loaders.NodeDataset, error) {
	spec := in.spec()
	if err := spec.Check(); err != nil || spec.Embedded() {
		return protocolLoad(ctx, &spec, stderr, err)
	}
	if spec.FromPoints() {
		return in.loadPoints(ctx, stderr)
	}
	var err error
	spec.MaxMemory, err = parseBytes("max-memory", in.MaxMemory)
	ds, err := protocolLoad(ctx, &spec, stderr, err)
	in.Data, in.Edges = spec.Data, spec.Edges // a file given as --data is read as --edges
	if ds != nil {
		in.reports = ds.Reports
	}
	return ds, in.inputError(err)
}

// protocolLoad is spec.Load after err (when nil).
func protocolLoad(ctx context.Context, spec *protocol.NodeInput, stderr io.Writer, err error) (*loaders.NodeDataset, error) {
	if err != nil {
		return nil, err
	}
	return spec.Load(ctx, func(s string) { logf(stderr, "%s", s) }, func(r []loaders.TableReport) { recordInputs(ctx, stderr, r...) })
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
	flag, path := in.spec().FileOf(err)
	return flagFile(flag, path, err)
}

// Short names of loaders.NodeDataset's methods, used across the commands.
func nodeID(ds *loaders.NodeDataset, i int) string    { return ds.NodeID(i) }
func className(ds *loaders.NodeDataset, c int) string { return ds.ClassName(c) }
func needLabels(ds *loaders.NodeDataset) error        { return protocol.NeedLabels(ds) }
func checkNodesFlag(n int) error                      { return protocol.CheckNodeCount(n) }

// labelOf is node i's class, −1 when unlabelled or without labels.
func labelOf(ds *loaders.NodeDataset, i int) int {
	if ds.Labels == nil {
		return -1
	}
	return ds.Labels[i]
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

func restrictDataset(ds *loaders.NodeDataset, sub *graph.Subgraph) *loaders.NodeDataset {
	return ds.Restrict(sub)
}
