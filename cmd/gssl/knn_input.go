package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
	"github.com/gssl/gssl/nodeids"
	"github.com/gssl/gssl/savedmodel"
)

// knnFlags are the settings of a K-nearest-neighbour graph built from
// points (knngraph.GraphOptions): the same flags, with the same meaning, in
// gssl knn and in every node command given --features without --edges.
type knnFlags = knngraph.GraphOptions

// knnSummary says how a KNN graph was built, for stderr and --json.
type knnSummary = knngraph.Summary

// knnBuilt is a KNN graph a node command built from --features: the points
// and the weights, which a saved model keeps to predict new points.
type knnBuilt struct {
	X       *mat.Dense
	IDs     *nodeids.Map // the rows' ids
	W       *knngraph.Weighted
	Summary knnSummary
}

// pointsOf returns the points of the nodes of ds (the built data set, or a
// part of it such as its largest component, matched by id) with their
// scales, for a saved model.
func (b *knnBuilt) pointsOf(ds *loaders.NodeDataset) (*savedmodel.Points, error) {
	nodes := make([]string, ds.Graph.Nodes())
	for i := range nodes {
		nodes[i] = nodeID(ds, i)
	}
	return savedmodel.PointsOf(b.X, b.W, b.IDs, nodes)
}

// searchProgress reports a search: the exact search on a bar, NN-descent a
// line per iteration.
func searchProgress(bar *progress, approximate bool, stderr io.Writer) func(done, total int) {
	if approximate {
		return func(it, updates int) { logf(stderr, "knn: NN-descent iteration %d: %d updates", it, updates) }
	}
	last := 0
	return func(done, total int) {
		bar.Add(done - last)
		last = done
	}
}

// loadPoints builds the node data set of a node command given --features
// and no graph: the K-nearest-neighbour graph (knngraph.FromPoints) of the
// feature rows, whose nodes are the rows (named by --feature-ids, or an id
// column of a CSV table, else 0, 1, …), with --labels and --targets matched
// to them.
func (in *nodeInput) loadPoints(ctx context.Context, stderr io.Writer) (*loaders.NodeDataset, error) {
	if in.Nodes != 0 {
		return nil, fmt.Errorf("--nodes %d applies to edge tables; with --features and no --edges the nodes are the rows of --features", in.Nodes)
	}
	limit, err := parseBytes("max-memory", in.MaxMemory)
	p, perr := in.KNN.PointGraph()
	if err = firstError(err, perr); err != nil {
		return nil, err
	}
	pts, err := readPointRows(ctx, in.Features, in.FeatureIDs, limit, stderr)
	if err != nil {
		return nil, err
	}
	in.reports = []loaders.TableReport{pts.Report}
	ds, err := loaders.PointsDataset(pts, strings.TrimSuffix(filepath.Base(in.Features), filepath.Ext(in.Features))+"-knn"+strconv.Itoa(in.KNN.Neighbors), in.Labels, in.Targets)
	if err != nil {
		return nil, flagFile("targets", in.Targets, flagFile("labels", in.Labels, err))
	}
	p.Seed = in.seed()
	bar := newProgress(stderr, rowsOf(pts.X), "knn")
	p.Progress = searchProgress(bar, p.Approximate, stderr)
	w, s, err := loaders.KNNGraph(ctx, ds, pts, in.Features, p, memlimit.Budget{Bytes: limit, Name: "--max-memory"})
	bar.Finish()
	if err != nil {
		return nil, err
	}
	logf(stderr, "gssl: %s", s)
	in.built = &knnBuilt{X: pts.X, IDs: pts.IDs, W: w, Summary: s}
	return ds, nil
}

// builtSummary is the KNN graph's summary for --json, nil for a graph read
// from a file.
func (in *nodeInput) builtSummary() *knnSummary {
	if in.built == nil {
		return nil
	}
	return &in.built.Summary
}

// seed is the command's --seed (NN-descent's seed), 0 without one.
func (in *nodeInput) seed() uint64 {
	if in.flags != nil {
		if f := in.flags.Lookup("seed"); f != nil {
			v, _ := strconv.ParseUint(f.Value.String(), 10, 64)
			return v
		}
	}
	return 0
}

// readPointRows reads points and their ids (loaders.ReadPoints), records
// the reader's report, and refuses points above limit and a file without
// rows (loaders.Points.Check).
func readPointRows(ctx context.Context, path, idsPath string, limit int64, stderr io.Writer) (*loaders.Points, error) {
	p, err := loaders.ReadPoints(path, idsPath)
	if named := flagFile("features", path, err); named != err {
		return nil, named
	} else if err != nil {
		return nil, fmt.Errorf("--features: %w", err)
	}
	err = p.Check(memlimit.Budget{Bytes: limit, Name: "--max-memory"})
	if n, _ := p.X.Dims(); n > 0 && err != nil {
		return nil, err // points above the limit are refused before they are recorded
	}
	recordInputs(ctx, stderr, p.Report)
	return p, err
}

// flagNamedError is a library error retold in the user's words.
type flagNamedError struct {
	msg string
	err error
}

func (e *flagNamedError) Error() string { return e.msg }
func (e *flagNamedError) Unwrap() error { return e.err }

// flagNamed retells a library error with the names of pairs (old, new, …:
// a field as the library writes it, "degree=", and the flag that sets it,
// "--degree ") replaced, so that it names what the user typed; nil stays
// nil.
func flagNamed(err error, pairs ...string) error {
	if err == nil {
		return nil
	}
	return &flagNamedError{strings.NewReplacer(pairs...).Replace(err.Error()), err}
}
