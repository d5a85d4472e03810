package knngraph

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// PointGraph are the settings of a weighted K-nearest-neighbour graph built
// from points by FromPoints.
type PointGraph struct {
	K           int     // neighbours per point, in [1, n−1]
	Approximate bool    // NN-descent instead of the exact search
	Kernel      Kernel  // edge weights (Connectivity, Gaussian or IMGP)
	Bandwidth   float64 // σ of the Gaussian kernels; 0: self-tuning (Gaussian) or the median K-th distance (IMGP)
	Rule        Rule    // symmetrisation (the zero value is Or)
	Precision   Precision
	Seed        uint64 // NN-descent's seed
	// MaxBytes > 0 refuses, before the search, points and graph whose
	// memory (GraphBytes + PointsBytes) is larger, with a *MemoryError.
	MaxBytes int64
	// Progress, when set, observes the exact search (rows done, total) or
	// NN-descent (iteration, updates of that iteration).
	Progress func(done, total int)
}

// Summary says how a graph of points was built: the choices made and what
// they gave, for a user to read and a program to record.
type Summary struct {
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

// MemoryError is a graph of points refused because its memory passes a
// limit.
type MemoryError struct {
	Points, Features, K int
	Need, Limit         int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("knngraph: the %d×%d points and their K-nearest-neighbour graph (k = %d) take %d bytes, above the limit of %d", e.Points, e.Features, e.K, e.Need, e.Limit)
}

// GraphBytes estimates the memory of the search and the graph of n points
// with K neighbours: the neighbour lists (int32 index and float64 distance
// per entry), the symmetrised distances and the weighted graph (at most 2nK
// entries of int32 index and float64 weight each, plus row offsets and
// degrees): linear in n·K.
func GraphBytes(n, k int) int64 {
	lists := int64(n) * int64(k) * 12
	graphs := 2 * (int64(n)*int64(2*k+1)*12 + int64(n)*16)
	return lists + graphs
}

// PointsBytes is the memory of n points of d coordinates: the float64
// matrix and the float32 packed copy of the exact search.
func PointsBytes(n, d int) int64 { return int64(n) * int64(d) * 12 }

// Validate checks the settings that do not depend on the points, naming
// the first invalid field.
func (p PointGraph) Validate() error {
	switch {
	case p.K < 1:
		return fmt.Errorf("knngraph: K=%d is invalid: it must be ≥ 1", p.K)
	case p.Kernel < Connectivity || p.Kernel > IMGP:
		return fmt.Errorf("knngraph: Kernel=%d is invalid: use Connectivity, Gaussian or IMGP", int(p.Kernel))
	case p.Bandwidth < 0 || math.IsNaN(p.Bandwidth) || math.IsInf(p.Bandwidth, 0):
		return fmt.Errorf("knngraph: Bandwidth=%v is invalid: it must be finite and ≥ 0 (0: the default)", p.Bandwidth)
	case p.Kernel == Connectivity && p.Bandwidth != 0:
		return fmt.Errorf("knngraph: Bandwidth=%v is given, but Kernel connectivity has no bandwidth: use Kernel gaussian or imgp", p.Bandwidth)
	case p.Rule != Or && p.Rule != Mutual:
		return fmt.Errorf("knngraph: Rule=%d is invalid: use Or or Mutual", int(p.Rule))
	case p.Precision != Float32 && p.Precision != Float64:
		return fmt.Errorf("knngraph: Precision=%d is invalid: use Float32 or Float64", int(p.Precision))
	}
	return nil
}

// Search returns the K nearest neighbours of every row of x, exactly or by
// NN-descent (Approximate, seeded by Seed), reporting to p.Progress.
func (p PointGraph) Search(ctx context.Context, x *mat.Dense) (*Neighbors, error) {
	if p.Approximate {
		d := &Descent{Seed: p.Seed}
		if p.Progress != nil {
			d.Progress = p.Progress
		}
		return Approximate(ctx, x, p.K, d)
	}
	return Exact(ctx, x, p.K, &Settings{Precision: p.Precision, Progress: p.Progress})
}

// FromPoints builds the weighted K-nearest-neighbour graph of the rows of
// x as p says (search, symmetrisation by p.Rule, weights by p.Kernel) after
// checking its memory against p.MaxBytes, and returns it with a Summary of
// the choices made.
func FromPoints(ctx context.Context, x *mat.Dense, p PointGraph) (*Weighted, Summary, error) {
	n, d := x.Dims()
	s := Summary{Points: n, Features: d, K: p.K, Rule: p.Rule.String(), GraphBytes: GraphBytes(n, p.K), DenseBytes: PointsBytes(n, d), Method: "exact"}
	if err := p.Validate(); err != nil {
		return nil, s, err
	}
	if n < 2 || p.K >= n {
		return nil, s, fmt.Errorf("knngraph: K = %d is invalid for %d points: it must be in [1, n−1]", p.K, n)
	}
	if need := s.GraphBytes + s.DenseBytes; p.MaxBytes > 0 && need > p.MaxBytes {
		return nil, s, &MemoryError{Points: n, Features: d, K: p.K, Need: need, Limit: p.MaxBytes}
	}
	if p.Approximate {
		s.Method = "nn-descent"
		progress := p.Progress
		p.Progress = func(it, updates int) {
			s.Iterations = it
			if progress != nil {
				progress(it, updates)
			}
		}
	}
	start := time.Now()
	nb, err := p.Search(ctx, x)
	if err != nil {
		return nil, s, err
	}
	s.SearchSecs, s.Rescanned = time.Since(start).Seconds(), nb.Rescanned
	g, err := NewGraph(nb, p.Rule)
	if err != nil {
		return nil, s, err
	}
	w, err := g.Weigh(p.Kernel, p.Bandwidth)
	if err != nil {
		return nil, s, err
	}
	s.Weights, s.Bandwidth, s.MedianKthNN = p.Kernel.String(), w.Sigma, g.MedianKth()
	if w.SelfTuning() {
		s.Weights = "gaussian-self-tuning"
	}
	s.Edges = w.W.Edges() - w.W.SelfLoops()
	return w, s, nil
}

// WeightsNamed returns the weights of g named as gssl knn --knn-weights
// names them: a Kernel's name (connectivity, gaussian, imgp: Weigh with
// sigma; σ = 0 is self-tuning for gaussian and ignored for connectivity),
// distance2 (the squared distances), affinity (IMGP's Ã with self loops)
// or normalized (IMGP's density-normalised A), the last two with the
// Gaussian bandwidth sigma.
func (g *Graph) WeightsNamed(name string, sigma float64) (*graph.CSR, error) {
	switch name {
	case "distance2":
		return g.Dist2, nil
	case "affinity", "normalized":
		w, err := g.Weights(GaussianAlpha(sigma))
		if err != nil {
			return nil, err
		}
		if name == "normalized" {
			return w.A, nil
		}
		return w.Tilde, nil
	}
	kern, err := ParseKernel(name)
	if err != nil {
		return nil, err
	}
	if kern == Connectivity {
		sigma = 0
	}
	w, err := g.Weigh(kern, sigma)
	if err != nil {
		return nil, err
	}
	return w.W, nil
}

// SampleRecall measures recall@K of nb (neighbours of the rows of x)
// against the exact neighbours of sample rows drawn with seed: a neighbour
// no farther than the exact K-th one counts as found (ties), as Recall.
func SampleRecall(ctx context.Context, x *mat.Dense, nb *Neighbors, sample int, seed uint64) (float64, error) {
	n, _ := x.Dims()
	if sample < 1 {
		return 0, fmt.Errorf("knngraph: a recall sample of %d points: it must be ≥ 1", sample)
	}
	perm := rand.New(rand.NewPCG(seed, 0x726563616c6c)).Perm(n)[:min(sample, n)] // "recall"
	sort.Ints(perm)
	ex, err := ExactRows(ctx, x, perm, nb.K, nil)
	if err != nil {
		return 0, err
	}
	kth := make([]float64, len(perm))
	for i := range perm {
		_, d2 := ex.Row(i)
		kth[i] = d2[len(d2)-1]
	}
	return RecallAt(nb, perm, kth)
}

// RecallAt is recall@K of the rows of nb against exact K-th squared
// distances: kth[i] is that of row rows[i]. A neighbour at distance ≤ the
// exact K-th counts as found.
func RecallAt(nb *Neighbors, rows []int, kth []float64) (float64, error) {
	if len(rows) == 0 || len(rows) != len(kth) || nb.K == 0 {
		return 0, fmt.Errorf("knngraph: recall of %d rows against %d distances", len(rows), len(kth))
	}
	hits := 0
	for i, q := range rows {
		if q < 0 || q >= nb.N {
			return 0, fmt.Errorf("knngraph: recall of row %d of %d", q, nb.N)
		}
		_, d2 := nb.Row(q)
		for _, d := range d2 {
			if d <= kth[i] {
				hits++
			}
		}
	}
	return float64(hits) / float64(len(rows)*nb.K), nil
}

// ReadGroundTruth reads a ground-truth file of exact neighbours as
// shared/bench/peers/knn.py writes it, one query a line: "query nbr… |
// d2…" with k neighbours and k squared distances ('#' lines are comments).
// It returns each query's row (in [0, n)) and its exact K-th squared
// distance. name names the file in errors.
func ReadGroundTruth(r io.Reader, name string, n, k int) (rows []int, kth []float64, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		left, right, ok := strings.Cut(s, "|")
		l, rt := strings.Fields(left), strings.Fields(right)
		if !ok || len(l) != k+1 || len(rt) != k {
			return nil, nil, fmt.Errorf("%s:%d: want \"query\" plus %d neighbours, '|', %d distances", name, line, k, k)
		}
		q, err := strconv.Atoi(l[0])
		if err != nil || q < 0 || q >= n {
			return nil, nil, fmt.Errorf("%s:%d: query %q is not a point index in [0, %d)", name, line, l[0], n)
		}
		d, err := strconv.ParseFloat(rt[k-1], 64)
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		rows, kth = append(rows, q), append(kth, d)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(rows) == 0 {
		return nil, nil, fmt.Errorf("%s: no queries", name)
	}
	return rows, kth, nil
}

// GroundTruthRecall is recall@K of nb against the ground-truth file at
// path (ReadGroundTruth, then RecallAt), with the number of queries the
// file holds. Errors about the file start with its path.
func GroundTruthRecall(path string, nb *Neighbors) (recall float64, queries int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	rows, kth, err := ReadGroundTruth(f, path, nb.N, nb.K)
	if err != nil {
		return 0, 0, err
	}
	recall, err = RecallAt(nb, rows, kth)
	return recall, len(rows), err
}

// ParseRule is the inverse of Rule.String: "or" or "mutual".
func ParseRule(s string) (Rule, error) {
	for _, r := range []Rule{Or, Mutual} {
		if s == r.String() {
			return r, nil
		}
	}
	return 0, fmt.Errorf("knngraph: rule %q is invalid: use or or mutual", s)
}

// ParsePrecision is the inverse of Precision.String: "float32" or "float64".
func ParsePrecision(s string) (Precision, error) {
	for _, p := range []Precision{Float32, Float64} {
		if s == p.String() {
			return p, nil
		}
	}
	return 0, fmt.Errorf("knngraph: precision %q is invalid: use float32 or float64", s)
}
