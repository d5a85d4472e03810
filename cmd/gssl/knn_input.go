package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeids"
	"github.com/gssl/gssl/savedmodel"
)

// knnFlags are the settings of a K-nearest-neighbour graph built from
// points: the same flags, with the same meaning, in gssl knn and in every
// node command given --features without --edges.
type knnFlags struct {
	Neighbors   int     `flag:"neighbors"`
	Approximate bool    `flag:"approximate"`
	Weights     string  `flag:"knn-weights"` // connectivity, gaussian or imgp
	Bandwidth   float64 `flag:"bandwidth"`   // σ of exp(−d²/(2σ²)); 0: self-tuning (gaussian) or the median K-th distance (imgp)
}

// newKNNFlags is the KNN flags' defaults.
func newKNNFlags() knnFlags { return knnFlags{Neighbors: defaultNeighbors, Weights: defaultKNNWeights} }

// defaultNeighbors is K of a KNN graph when --neighbors is not given:
// scikit-learn's LabelSpreading default (n_neighbors=7) rounded up to the
// value gssl knn has always used.
const defaultNeighbors = 10

// defaultKNNWeights are the edge weights of a KNN graph built for a node
// command: scikit-learn's kernel='knn' (0/1 edges).
const defaultKNNWeights = "connectivity"

// kernel validates the weight flags.
func (k *knnFlags) kernel() (knngraph.Kernel, error) {
	if k.Weights == "" {
		k.Weights = defaultKNNWeights
	}
	kern, err := knngraph.ParseKernel(k.Weights)
	if err != nil {
		return 0, fmt.Errorf("--knn-weights %q is invalid: use connectivity, gaussian or imgp", k.Weights)
	}
	if k.Bandwidth < 0 || math.IsNaN(k.Bandwidth) || math.IsInf(k.Bandwidth, 0) {
		return 0, fmt.Errorf("--bandwidth %v is invalid: it must be finite and ≥ 0 (0: the default)", k.Bandwidth)
	}
	if kern == knngraph.Connectivity && k.Bandwidth != 0 {
		return 0, fmt.Errorf("--bandwidth %v is given, but --knn-weights connectivity has no bandwidth: pass --knn-weights gaussian or imgp", k.Bandwidth)
	}
	return kern, nil
}

// checkK refuses K outside [1, n−1].
func (k *knnFlags) checkK(n int, what string) error {
	if n < 2 {
		return fmt.Errorf("%d %s: a K-nearest-neighbour graph needs at least 2 points", n, what)
	}
	if k.Neighbors < 1 || k.Neighbors >= n {
		return fmt.Errorf("--neighbors %d is invalid: it must be in [1, %d] for %d %s (a point's neighbours are the other points)", k.Neighbors, n-1, n, what)
	}
	return nil
}

// knnSummary says how a KNN graph was built, for stderr and --json.
type knnSummary = knngraph.Summary

// knnLine is the summary as one stderr line.
func knnLine(s *knnSummary) string {
	w := s.Weights
	if s.Bandwidth > 0 {
		w += fmt.Sprintf(" (σ = %.4g)", s.Bandwidth)
	}
	return fmt.Sprintf("KNN graph of %d points (%d features): k = %d, %s search, %s weights, %s rule; %d edges, graph %s (linear in n·k), features %s",
		s.Points, s.Features, s.K, s.Method, w, s.Rule, s.Edges, formatBytes(s.GraphBytes), formatBytes(s.DenseBytes))
}

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

// buildKNN builds the K-nearest-neighbour graph of the rows of x
// (knngraph.FromPoints), with a bar (or a line per NN-descent iteration)
// on stderr; what names the rows in errors.
func buildKNN(ctx context.Context, x *mat.Dense, k knnFlags, seed uint64, limit int64, what string, stderr io.Writer) (*knnBuilt, error) {
	kern, err := k.kernel()
	if err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if err := k.checkK(n, what); err != nil {
		return nil, err
	}
	p := knngraph.PointGraph{K: k.Neighbors, Approximate: k.Approximate, Kernel: kern, Bandwidth: k.Bandwidth, Seed: seed, MaxBytes: limit}
	bar := newProgress(stderr, n, "knn")
	p.Progress = searchProgress(bar, k.Approximate, stderr)
	w, s, err := knngraph.FromPoints(ctx, x, p)
	bar.Finish()
	var me *knngraph.MemoryError
	if errors.As(err, &me) {
		return nil, checkMemory(me.Need, limit, fmt.Sprintf("the %d×%d points and their K-nearest-neighbour graph (k = %d)", n, d, k.Neighbors), "give fewer points or features, or a smaller --neighbors")
	}
	if err != nil {
		return nil, knnPointError(err, what)
	}
	return &knnBuilt{X: x, W: w, Summary: s}, nil
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

// knnPointError rewrites the library's "knngraph: point i" into the
// user's row numbering and file.
func knnPointError(err error, what string) error {
	msg := strings.TrimPrefix(err.Error(), "knngraph: ")
	msg = strings.Replace(msg, "point ", what+" row ", 1)
	msg = strings.Replace(msg, "node ", what+" row ", 1)
	return errors.New(msg)
}

// loadPoints builds the node data set of a node command given --features
// and no graph: the K-nearest-neighbour graph of the feature rows, whose
// nodes are the rows (named by --feature-ids, or an id column of a CSV
// table, else 0, 1, …), with --labels and --targets matched to them.
func (in *nodeInput) loadPoints(ctx context.Context, stderr io.Writer) (*loaders.NodeDataset, error) {
	if in.Nodes != 0 {
		return nil, fmt.Errorf("--nodes %d applies to edge tables; with --features and no --edges the nodes are the rows of --features", in.Nodes)
	}
	limit, err := parseBytes("max-memory", in.MaxMemory)
	if err != nil {
		return nil, err
	}
	if _, err := in.KNN.kernel(); err != nil {
		return nil, err
	}
	p, err := readPoints(in.Features, in.FeatureIDs, limit)
	if err != nil {
		return nil, err
	}
	x, ids := p.X, p.IDs
	in.reports = []loaders.TableReport{p.Report}
	recordInputs(ctx, stderr, p.Report)
	n, _ := x.Dims()
	if n == 0 {
		return nil, fmt.Errorf("--features %s has no rows: a K-nearest-neighbour graph needs points", in.Features)
	}
	ds, err := loaders.PointsDataset(p, strings.TrimSuffix(filepath.Base(in.Features), filepath.Ext(in.Features))+"-knn"+strconv.Itoa(in.KNN.Neighbors), in.Labels, in.Targets)
	if err != nil {
		return nil, flagFile("targets", in.Targets, flagFile("labels", in.Labels, err))
	}
	if err := in.KNN.checkK(n, "rows of --features "+in.Features); err != nil {
		return nil, err
	}
	built, err := buildKNN(ctx, x, in.KNN, in.seed(), limit, "--features "+in.Features+":", stderr)
	if err != nil {
		return nil, err
	}
	logf(stderr, "gssl: %s", knnLine(&built.Summary))
	ds.Graph = built.W.W
	built.IDs = ids
	in.built = built
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
	if in.flags == nil {
		return 0
	}
	f := in.flags.Lookup("seed")
	if f == nil {
		return 0
	}
	v, _ := strconv.ParseUint(f.Value.String(), 10, 64)
	return v
}

// readPoints reads points and their ids (loaders.ReadPoints), with the
// reader's report, and refuses them above limit.
func readPoints(path, idsPath string, limit int64) (*loaders.Points, error) {
	p, err := loaders.ReadPoints(path, idsPath)
	if err != nil {
		if named := flagFile("features", path, err); named != err {
			return nil, named
		}
		return nil, fmt.Errorf("--features: %w", err)
	}
	n, d := p.X.Dims()
	if err := checkMemory(knngraph.PointsBytes(n, d), limit, fmt.Sprintf("the %d×%d features of %s", n, d, path), "give fewer points or features"); err != nil {
		return nil, err
	}
	return p, nil
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
