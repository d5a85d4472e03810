package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeids"
	"github.com/gssl/gssl/savedmodel"
)

// knnFlags are the settings of a K-nearest-neighbour graph built from
// points: the same flags, with the same meaning, in gssl knn and in every
// node command given --features without --edges.
type knnFlags struct {
	Neighbors   int     // K
	Approximate bool    // NN-descent instead of the exact search
	Weights     string  // connectivity, gaussian or imgp
	Bandwidth   float64 // σ of exp(−d²/(2σ²)); 0: self-tuning (gaussian) or the median K-th distance (imgp)
}

// defaultNeighbors is K of a KNN graph when --neighbors is not given:
// scikit-learn's LabelSpreading default (n_neighbors=7) rounded up to the
// value gssl knn has always used.
const defaultNeighbors = 10

// defaultKNNWeights are the edge weights of a KNN graph built for a node
// command: scikit-learn's kernel='knn' (0/1 edges).
const defaultKNNWeights = "connectivity"

// addFlags registers --neighbors, --approximate, --knn-weights and
// --bandwidth.
func (k *knnFlags) addFlags(f *pflag.FlagSet, what string) {
	f.IntVar(&k.Neighbors, "neighbors", defaultNeighbors, "neighbours per point of the K-nearest-neighbour graph"+what)
	f.BoolVar(&k.Approximate, "approximate", false, "build the K-nearest-neighbour graph by NN-descent (approximate, for large N) instead of the exact search"+what)
	f.StringVar(&k.Weights, "knn-weights", defaultKNNWeights, "edge weights of the K-nearest-neighbour graph: connectivity (1 per edge, scikit-learn's kernel='knn'), gaussian (exp(−d²/(2σ²)), σ = --bandwidth, or self-tuning exp(−d²/(σ_iσ_j)) with σ_i the distance to the 7th neighbour when --bandwidth is 0), or imgp (IMGP's density-normalised Gaussian, σ = --bandwidth or the median distance to the K-th neighbour)"+what)
	f.Float64Var(&k.Bandwidth, "bandwidth", 0, "bandwidth σ of the Gaussian exp(−d²/(2σ²)) of --knn-weights gaussian or imgp (0: self-tuning, or for imgp the median distance to the K-th neighbour)"+what)
}

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
type knnSummary struct {
	Points      int     `json:"points"`
	Features    int     `json:"features"`
	K           int     `json:"k"`
	Method      string  `json:"method"`  // exact or nn-descent
	Weights     string  `json:"weights"` // connectivity, gaussian, gaussian-self-tuning or imgp
	Bandwidth   float64 `json:"bandwidth,omitempty"`
	Rule        string  `json:"rule"`
	Edges       int     `json:"edges"`
	GraphBytes  int64   `json:"graph_bytes"`
	DenseBytes  int64   `json:"features_bytes"`
	Rescanned   int     `json:"rescanned,omitempty"`
	Iterations  int     `json:"iterations,omitempty"`
	SearchSecs  float64 `json:"search_seconds"`
	MedianKthNN float64 `json:"median_kth_distance"`
}

// line is the summary as one stderr line.
func (s *knnSummary) line() string {
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
	n := ds.Graph.Nodes()
	rows, _ := b.X.Dims()
	if n == rows {
		return &savedmodel.Points{X: b.X, Weights: b.W}, nil
	}
	if n <= b.W.K {
		return nil, fmt.Errorf("the model's %d nodes are too few to predict new points from their %d nearest", n, b.W.K)
	}
	_, d := b.X.Dims()
	x := mat.NewDense(n, d, nil)
	w := *b.W
	w.W, w.N = nil, n
	if b.W.Scale != nil {
		w.Scale = make([]float64, n)
	}
	for i := 0; i < n; i++ {
		r, ok := b.IDs.Lookup(nodeID(ds, i))
		if !ok {
			return nil, fmt.Errorf("node %q is not a row of the features", nodeID(ds, i))
		}
		copy(x.RawRowView(i), b.X.RawRowView(r))
		if w.Scale != nil {
			w.Scale[i] = b.W.Scale[r]
		}
	}
	return &savedmodel.Points{X: x, Weights: &w}, nil
}

// knnGraphBytes estimates the memory of the search and the graph of n
// points with K neighbours: the neighbour lists (int32 index and float64
// distance per entry), the symmetrised distances and the weighted graph
// (at most 2nK entries of int32 index and float64 weight each, plus row
// offsets and degrees): linear in n·K.
func knnGraphBytes(n, k int) int64 {
	lists := int64(n) * int64(k) * 12
	graphs := 2 * (int64(n)*int64(2*k+1)*12 + int64(n)*16)
	return lists + graphs
}

// knnDenseBytes is the points' memory: the float64 matrix and the float32
// packed copy of the exact search.
func knnDenseBytes(n, d int) int64 { return int64(n) * int64(d) * 12 }

// buildKNN searches the K nearest neighbours of the rows of x and weighs
// the symmetrised (or-rule) graph, after checking its memory against limit.
func buildKNN(ctx context.Context, x *mat.Dense, k knnFlags, seed uint64, limit int64, what string, stderr io.Writer) (*knnBuilt, error) {
	kern, err := k.kernel()
	if err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if err := k.checkK(n, what); err != nil {
		return nil, err
	}
	s := knnSummary{Points: n, Features: d, K: k.Neighbors, Rule: knngraph.Or.String(),
		GraphBytes: knnGraphBytes(n, k.Neighbors), DenseBytes: knnDenseBytes(n, d)}
	if err := checkMemory(s.GraphBytes+s.DenseBytes, limit, fmt.Sprintf("the %d×%d points and their K-nearest-neighbour graph (k = %d)", n, d, k.Neighbors), "give fewer points or features, or a smaller --neighbors"); err != nil {
		return nil, err
	}
	start := timeNow()
	var nb *knngraph.Neighbors
	if k.Approximate {
		s.Method = "nn-descent"
		nb, err = knngraph.Approximate(ctx, x, k.Neighbors, &knngraph.Descent{Seed: seed, Progress: func(it, updates int) {
			s.Iterations = it
			logf(stderr, "knn: NN-descent iteration %d: %d updates", it, updates)
		}})
	} else {
		s.Method = "exact"
		bar := newProgress(stderr, n, "knn")
		last := 0
		nb, err = knngraph.Exact(ctx, x, k.Neighbors, &knngraph.Settings{Progress: func(done, total int) {
			bar.Add(done - last)
			last = done
		}})
		bar.Finish()
	}
	if err != nil {
		return nil, knnPointError(err, what)
	}
	s.SearchSecs, s.Rescanned = seconds(start), nb.Rescanned
	g, err := knngraph.NewGraph(nb, knngraph.Or)
	if err != nil {
		return nil, err
	}
	w, err := g.Weigh(kern, k.Bandwidth)
	if err != nil {
		return nil, knnPointError(err, what)
	}
	s.Weights, s.Bandwidth, s.MedianKthNN = kern.String(), w.Sigma, g.MedianKth()
	if w.SelfTuning() {
		s.Weights = "gaussian-self-tuning"
	}
	s.Edges = w.W.Edges() - w.W.SelfLoops()
	return &knnBuilt{X: x, W: w, Summary: s}, nil
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
	x, ids, err := readPointFeatures(in.Features, in.FeatureIDs, limit)
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if n == 0 {
		return nil, fmt.Errorf("--features %s has no rows: a K-nearest-neighbour graph needs points", in.Features)
	}
	ds := &loaders.NodeDataset{}
	ds.Name = strings.TrimSuffix(filepath.Base(in.Features), filepath.Ext(in.Features)) + "-knn" + strconv.Itoa(in.KNN.Neighbors)
	ds.IDs = ids
	ds.DenseFeatures = x
	if in.Labels != "" {
		vals, err := readPointValues("labels", in.Labels, ids, in.Features, true)
		if err != nil {
			return nil, err
		}
		ds.Labels, ds.ClassNames = loaders.ClassesOf(vals)
		ds.Classes = len(ds.ClassNames)
	}
	if in.Targets != "" {
		vals, err := readPointValues("targets", in.Targets, ids, in.Features, false)
		if err != nil {
			return nil, err
		}
		if ds.Targets, err = floatValues("targets", in.Targets, vals); err != nil {
			return nil, err
		}
	}
	if err := in.KNN.checkK(n, "rows of --features "+in.Features); err != nil {
		return nil, err
	}
	built, err := buildKNN(ctx, x, in.KNN, in.seed(), limit, "--features "+in.Features+":", stderr)
	if err != nil {
		return nil, err
	}
	logf(stderr, "gssl: %s", built.Summary.line())
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

// readPointFeatures reads a dense feature matrix (NumPy .npy or .npz, or a
// CSV/TSV table, optionally with an id column named id, node or name) and
// the rows' ids (--feature-ids, the id column, else 0, 1, …). NaN and
// infinite values are errors naming the row and column.
func readPointFeatures(path, idsPath string, limit int64) (*mat.Dense, *nodeids.Map, error) {
	var t *loaders.PointTable
	ext := streamExt(path, strings.ToLower(filepath.Ext(strings.TrimSuffix(path, ".gz"))))
	if ext == ".npy" || ext == ".npz" {
		var err error
		if t, err = readFeatures("features", path, ""); err != nil {
			return nil, nil, err
		}
	} else {
		var err error
		t, err = loaders.ReadPointTable(path, "")
		if err != nil {
			// A first column of ids: retry with it as the id column when the
			// header names it so.
			t2, err2 := loaders.ReadPointTable(path, "1")
			switch {
			case err2 == nil && (allText(t2.IDs) || hasIDHeader(path)):
				t = t2
			case err2 != nil && hasIDHeader(path):
				return nil, nil, fmt.Errorf("--features: %w", err2)
			default:
				return nil, nil, fmt.Errorf("--features: %w", err)
			}
		} else if t.Columns != nil && isIDColumn(t.Columns[0]) {
			if t, err = loaders.ReadPointTable(path, "1"); err != nil {
				return nil, nil, fmt.Errorf("--features: %w", err)
			}
		}
	}
	x := t.X
	n, d := x.Dims()
	if err := checkMemory(knnDenseBytes(n, d), limit, fmt.Sprintf("the %d×%d features of %s", n, d, path), "give fewer points or features"); err != nil {
		return nil, nil, err
	}
	raw := x.RawMatrix()
	for i := 0; i < n; i++ {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("--features %s: row %d, column %d is %v; a K-nearest-neighbour graph needs finite features (drop or impute the row)", path, i, j, v)
			}
		}
	}
	ids := nodeids.Identity(n)
	switch {
	case idsPath != "":
		b, err := inputfile.ReadFile(idsPath)
		if err != nil {
			return nil, nil, fmt.Errorf("--feature-ids: %w", err)
		}
		lines := strings.Split(strings.TrimRight(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n"), "\n")
		if len(b) == 0 {
			lines = nil
		}
		if len(lines) != n {
			return nil, nil, fmt.Errorf("--feature-ids %s lists %d ids for the %d rows of --features %s", idsPath, len(lines), n, path)
		}
		if ids, err = nodeids.FromStrings(lines); err != nil {
			return nil, nil, fmt.Errorf("--feature-ids %s: %w", idsPath, err)
		}
	case t.IDs != nil:
		var err error
		if ids, err = nodeids.FromStrings(t.IDs); err != nil {
			return nil, nil, fmt.Errorf("--features %s: %w", path, err)
		}
	}
	return x, ids, nil
}

// hasIDHeader reports whether the table's first line is a header whose
// first column is named as an id column (id, node, name, …).
func hasIDHeader(path string) bool {
	f, err := inputfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimPrefix(strings.TrimSpace(sc.Text()), "\ufeff")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		first := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == '\t' || r == ';' || r == ' ' })
		return len(first) > 0 && isIDColumn(strings.Trim(first[0], `"'`))
	}
	return false
}

// allText reports whether no id is a number: a first column of names.
func allText(ids []string) bool {
	for _, id := range ids {
		if _, err := strconv.ParseFloat(id, 64); err == nil {
			return false
		}
	}
	return len(ids) > 0
}

// idColumnNames are the header names of a features table's id column.
var idColumnNames = []string{"id", "node", "name", "index", "node_id", "nodeid"}

func isIDColumn(name string) bool {
	return slices.Contains(idColumnNames, strings.ToLower(strings.TrimSpace(name)))
}

// readPointValues reads --labels or --targets for the rows of the features:
// a NumPy vector or one value per line (row i is point i), or an "id,value"
// table naming the points by id.
func readPointValues(flag, path string, ids *nodeids.Map, features string, classes bool) ([]string, error) {
	n := ids.Len()
	if strings.EqualFold(streamExt(path, filepath.Ext(path)), ".npy") {
		vals, err := readValues(flag, path, "", n, nil)
		if err != nil {
			return nil, fmt.Errorf("%w (--features %s has %d rows)", err, features, n)
		}
		return vals, nil
	}
	c, err := loaders.ReadValueColumn(path, "")
	if err != nil {
		var err2 error
		if c, err2 = loaders.ReadValueColumn(path, "1"); err2 != nil || c.IDs == nil {
			return nil, fmt.Errorf("--%s: %w", flag, err)
		}
	}
	if c.IDs == nil {
		if len(c.Values) != n {
			return nil, fmt.Errorf("--%s %s: %d values for the %d rows of --features %s; give one per row, in the same order (or an id,%s table)", flag, path, len(c.Values), n, features, strings.TrimSuffix(flag, "s"))
		}
		return c.Values, nil
	}
	out := make([]string, n)
	seen := make([]int, n)
	for k, id := range c.IDs {
		i, ok := ids.Lookup(id)
		if !ok {
			return nil, fmt.Errorf("--%s %s:%d: id %q names no row of --features %s (ids like %s)", flag, path, c.Lines[k], id, features, exampleIDs(ids))
		}
		if seen[i] > 0 {
			return nil, fmt.Errorf("--%s %s:%d: id %q was given a value on line %d already", flag, path, c.Lines[k], id, seen[i])
		}
		seen[i] = c.Lines[k]
		out[i] = c.Values[k]
	}
	return out, nil
}

func exampleIDs(ids *nodeids.Map) string {
	var ex []string
	for i := 0; i < min(3, ids.Len()); i++ {
		ex = append(ex, strconv.Quote(ids.ID(i)))
	}
	return strings.Join(ex, ", ")
}
