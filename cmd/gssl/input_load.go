package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
)

// loadNodes reads the folder or the tables named by in (loaders.LoadNodes).
func loadNodes(_ context.Context, in *nodeInput) (*loaders.NodeDataset, error) {
	header, err := loaders.ParseHeaderMode(in.Header)
	if err != nil {
		return nil, fmt.Errorf("--header: %w", err)
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
		IDColumn: in.IDColumn, LabelColumn: in.LabelColumn, TargetColumn: in.TargetColumn, MaxMemory: maxMemory, Graph: opt, Nodes: in.Nodes})
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

// loadError rewrites reader errors that name library options into ones
// that name the flags.
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

// fileError is an error about one of the user's files, named by its flag:
// "--labels l.csv:3: …" instead of "loaders: l.csv:3: …".
type fileError struct {
	msg string
	err error
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() error { return e.err }

// flagFile names the flag of the file err is about (flag "" or a path
// that err does not name: err unchanged), without the packages' prefixes.
func flagFile(flag, path string, err error) error {
	if err == nil || flag == "" || path == "" {
		return err
	}
	msg := strings.TrimPrefix(packageChain.ReplaceAllString(err.Error(), "$1"), "open ")
	if !strings.HasPrefix(msg, path) {
		return err
	}
	return &fileError{msg: "--" + flag + " " + msg, err: err}
}

// inputError names the flag of the input file a reader's error is about.
func (in *nodeInput) inputError(err error) error {
	path := ""
	var pe *loaders.ParseError
	var fe *os.PathError
	switch {
	case errors.As(err, &pe):
		path = pe.Path
	case errors.As(err, &fe):
		path = fe.Path
	default:
		return err
	}
	for _, f := range []struct{ flag, path string }{{"edges", in.Edges}, {"labels", in.Labels}, {"features", in.Features},
		{"feature-ids", in.FeatureIDs}, {"targets", in.Targets}} {
		if f.path == path {
			return flagFile(f.flag, path, err)
		}
	}
	if in.Data != "" && strings.HasPrefix(path, in.Data) {
		return flagFile("data", in.Data, err)
	}
	return err
}
