package protocol

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gssl/gssl/datasets"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
)

// NodeInput names a node data set as gssl's node commands take it: a data
// folder (Data), or tables of edges, labels, features and targets with the
// options of their reader; nothing given means the Cora embedded in the
// binary. Its errors name the settings by their command-line flags.
type NodeInput struct {
	Data, Edges, Labels, Features, FeatureIDs, Targets string
	// Header is auto, yes or no; Directed is a loaders.ParseDirected rule.
	Header, Weight, Source, Target, IDColumn, LabelColumn, TargetColumn, Directed string
	// Nodes fixes the node count of an edge table (0: the ids present).
	Nodes int
	// MaxMemory bounds what the readers allocate (0: no bound).
	MaxMemory int64
}

// FromPoints reports whether the graph is to be built from Features (no
// Edges or Data).
func (in NodeInput) FromPoints() bool { return in.Features != "" && in.Edges == "" && in.Data == "" }

// Embedded reports whether no input is named, so that the embedded Cora is
// used.
func (in NodeInput) Embedded() bool {
	return in.Data == "" && in.Edges == "" && in.Labels == "" && in.Features == "" && in.Targets == ""
}

// Name names the input in outputs.
func (in NodeInput) Name() string {
	switch {
	case in.Embedded():
		return "embedded:" + datasets.CoraName
	case in.Data != "":
		return in.Data
	case in.FromPoints():
		return in.Features
	}
	return in.Edges
}

// Check validates the settings that need no file.
func (in NodeInput) Check() error {
	if err := CheckNodeCount(in.Nodes); err != nil {
		return err
	}
	if _, err := ParseHeader(in.Header); err != nil {
		return err
	}
	if _, err := ParseDirected(in.Directed); err != nil {
		return err
	}
	switch {
	case in.Data != "" && in.Edges != "":
		return errors.New("--data and --edges exclude each other: a data folder, or an edge table")
	case in.FeatureIDs != "" && in.Features == "":
		return errors.New("--feature-ids names the rows of --features: give --features FILE too")
	case in.Edges == "" && in.Data == "" && !in.Embedded() && in.Features == "":
		return errors.New("--labels and --targets need a graph: give --edges FILE (or --data DIR), or --features FILE to build the K-nearest-neighbour graph of its rows")
	}
	return nil
}

// Load reads the labelled graph in (the embedded Cora, the folder Data or
// the tables; not a graph built from points, see FromPoints) and refuses
// values beyond what sums and distances hold. A file given as Data is read
// as Edges: notice is told, and in is changed to say so. read, when not
// nil, is given the readers' column reports before the values are checked.
func (in *NodeInput) Load(ctx context.Context, notice func(string), read func([]loaders.TableReport)) (*loaders.NodeDataset, error) {
	if err := in.Check(); err != nil {
		return nil, err
	}
	if in.Embedded() {
		return datasets.Cora()
	}
	if in.Data != "" {
		st, err := inputfile.Stat(in.Data)
		if err != nil {
			return nil, fmt.Errorf("--data: %w", err)
		}
		if !st.IsDir() {
			notice(fmt.Sprintf("gssl: --data %s is a file, not a folder: reading it as --edges", in.Data))
			in.Edges, in.Data = in.Data, ""
		}
	}
	header, _ := ParseHeader(in.Header) // checked
	opt, _ := ParseDirected(in.Directed)
	ds, err := loaders.LoadNodes(loaders.NodeFiles{Dir: in.Data, Edges: in.Edges, Labels: in.Labels, Features: in.Features, FeatureIDs: in.FeatureIDs, Targets: in.Targets,
		Table: loaders.TableOptions{Header: header}, Weight: in.Weight, Source: in.Source, Target: in.Target,
		IDColumn: in.IDColumn, LabelColumn: in.LabelColumn, TargetColumn: in.TargetColumn, MaxMemory: in.MaxMemory, Graph: opt, Nodes: in.Nodes,
		MapGraph: true}) // a .gsg is mapped, not copied (loaders.NodeFiles.MapGraph; docs/memory.md)
	if err != nil {
		return nil, flagAdvice(err)
	}
	if read != nil {
		read(ds.Reports)
	}
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

// ParseHeader reads a header mode (loaders.ParseHeaderMode).
func ParseHeader(s string) (loaders.HeaderMode, error) {
	h, err := loaders.ParseHeaderMode(s)
	if err != nil {
		return 0, fmt.Errorf("--header %q is invalid: use auto, yes or no", s)
	}
	return h, nil
}

// ParseDirected reads the rule for the edges of a user's table
// (loaders.ParseDirected).
func ParseDirected(directed string) (graph.Options, error) {
	opt, err := loaders.ParseDirected(directed)
	if err != nil {
		return opt, fmt.Errorf("--directed %q is invalid: use undirected, max, sum, mean, mutual or error", directed)
	}
	return opt, nil
}

// flagAdvice rewrites the reader's advice that names library options into
// advice that names --directed.
func flagAdvice(err error) error {
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

// FileOf returns the setting (its flag's name: "edges", "labels", …,
// "data") and the path of the input file a reader's error is about, or
// two empty strings.
func (in NodeInput) FileOf(err error) (flag, path string) {
	var pe *loaders.ParseError
	var fe *os.PathError
	switch {
	case errors.As(err, &pe):
		path = pe.Path
	case errors.As(err, &fe):
		path = fe.Path
	default:
		return "", ""
	}
	for _, f := range [][2]string{{"edges", in.Edges}, {"labels", in.Labels}, {"features", in.Features}, {"feature-ids", in.FeatureIDs}, {"targets", in.Targets}} {
		if f[1] == path {
			return f[0], path
		}
	}
	if in.Data != "" && strings.HasPrefix(path, in.Data) {
		return "data", in.Data
	}
	return "", ""
}

// NeedLabels refuses a data set without any labelled node.
func NeedLabels(ds *loaders.NodeDataset) error {
	if slices.ContainsFunc(ds.Labels, func(l int) bool { return l >= 0 }) {
		return nil
	}
	return errors.New("no node is labelled: give --labels FILE (id,label rows; an empty label means unlabelled)")
}

// bytesPerFixedNode is what one node of an explicit node count costs,
// edges aside: its id, row offset, degree, label and component entries.
const bytesPerFixedNode = 96

// CheckNodeCount refuses a negative node count (--nodes), and one whose
// node tables alone pass the default memory bound: the count is the one
// the input does not justify, so a typo such as 2·10⁹ is an error, not a
// swap storm.
func CheckNodeCount(n int) error {
	if n < 0 {
		return fmt.Errorf("--nodes %d is invalid: it must be ≥ 0 (0: the ids present)", n)
	}
	limit, err := memlimit.Parse(memlimit.Format(memlimit.Default())) // the default bound as the flag shows it
	if err != nil {
		return err
	}
	if need := int64(n) * bytesPerFixedNode; need > limit {
		return fmt.Errorf("--nodes %d is invalid: %d nodes take %s, above %s (half of the available memory); give the number of nodes of the graph, or 0 for the ids present", n, n, memlimit.Format(need), memlimit.Format(limit))
	}
	return nil
}
