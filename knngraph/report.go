package knngraph

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/cputime"
	"github.com/gssl/gssl/internal/procstat"
	"github.com/gssl/gssl/memlimit"
)

// Report describes a measured search for the K nearest neighbours of
// points and the graph built from them (Run): the JSON object of gssl knn.
type Report struct {
	Images        string     `json:"images,omitempty"`
	Features      string     `json:"features,omitempty"`
	Dataset       string     `json:"dataset"`
	Nodes         int        `json:"nodes"`
	Dim           int        `json:"dim"`
	K             int        `json:"k"`
	Method        string     `json:"method"`
	Precision     string     `json:"precision,omitempty"`
	Seconds       float64    `json:"seconds"`
	CPUSeconds    float64    `json:"cpu_seconds"`
	PeakRSSMB     float64    `json:"peak_rss_mb"`
	RSSReset      bool       `json:"rss_reset"`
	Threads       int        `json:"threads"`
	Iterations    int        `json:"iterations,omitempty"`
	Rescanned     int        `json:"rescanned"`
	Recall        *float64   `json:"recall"`
	RecallQueries int        `json:"recall_queries"`
	RecallSource  string     `json:"recall_source,omitempty"`
	Rule          string     `json:"rule"`
	Edges         int        `json:"edges"`
	MedianKth     float64    `json:"median_kth_distance"`
	Bandwidth     float64    `json:"bandwidth"`
	Alpha         float64    `json:"alpha"`
	GraphBytes    int64      `json:"graph_bytes"`
	GraphSeconds  float64    `json:"graph_seconds"`
	LoadSeconds   float64    `json:"load_seconds"`
	Out           string     `json:"out,omitempty"`
	Weights       string     `json:"weights,omitempty"`
	Compare       []Compared `json:"compare,omitempty"`
}

// Unit names the points of the report: points, or images.
func (r Report) Unit() string {
	if r.Features != "" {
		return "points"
	}
	return "images"
}

// Run is a measured search of the rows of a matrix and the graph built
// from it, as gssl knn runs it: the search (timed with its CPU time and
// peak memory), recall@K against exact neighbours (those of GroundTruth,
// or of RecallSample sampled rows), an optional Comparison with
// NN-descent, and the symmetrised graph with its bandwidth.
type Run struct {
	Graph        PointGraph // K, Approximate, Precision, Rule, Seed and Progress are used
	RecallSample int        // rows whose exact neighbours measure recall (0: none)
	GroundTruth  string     // a file of exact neighbours (ReadGroundTruth), instead of the sample
	Compare      []int      // NN-descent iteration limits to compare (nil: no comparison)
	// Dist2Scale multiplies the squared distances before the graph is
	// built (0 means 1; loaders.PixelScale² gives images' distances in
	// pixels/255).
	Dist2Scale float64
	// Weights names the edge weights (Graph.WeightsNamed) and Bandwidth their
	// σ; 0 takes √2 times the IMGP default α, except for self-tuning gaussian.
	Weights   string
	Bandwidth float64
	// Budget, when its Bytes are set, refuses points and graph whose
	// memory (GraphBytes + PointsBytes) passes it, before the search.
	Budget memlimit.Budget
	// Log, when set, receives one line per finished stage.
	Log func(format string, args ...any)
	// Bytes, when set, are the rows of x as bytes (images), n·d of them,
	// which NN-descent then searches without converting x (ApproximateBytes).
	Bytes []uint8
}

// Do runs r on the rows of x and fills rep (whose source fields, Images,
// Features, Dataset, Nodes and Dim, the caller sets), after checking K
// and the memory. It returns the neighbours and the graph.
func (r Run) Do(ctx context.Context, x *mat.Dense, rep *Report) (*Neighbors, *Graph, error) {
	n, d := x.Dims()
	if k := r.Graph.K; k < 1 || k >= n {
		return nil, nil, fmt.Errorf("--neighbors %d is invalid: it must be in [1, %d) for %d %s", k, n, n, rep.Unit())
	}
	if r.Budget.Bytes > 0 {
		what := fmt.Sprintf("the %d×%d points and their K-nearest-neighbour graph (k = %d)", n, d, r.Graph.K)
		if err := r.Budget.Check(GraphBytes(n, r.Graph.K)+PointsBytes(n, d), what, "give fewer points (--n) or a smaller --neighbors"); err != nil {
			return nil, nil, err
		}
	}
	rep.K, rep.Rule, rep.Threads, rep.GraphBytes = r.Graph.K, r.Graph.Rule.String(), runtime.GOMAXPROCS(0), GraphBytes(n, r.Graph.K)
	nb, err := r.search(ctx, x, rep)
	if err != nil {
		return nil, nil, err
	}
	if err := r.recall(ctx, x, nb, rep); err != nil {
		return nil, nil, err
	}
	if r.Compare != nil {
		if err := r.compare(ctx, x, nb, rep); err != nil {
			return nil, nil, err
		}
	}
	g, err := r.graph(nb, rep)
	return nb, g, err
}

// log writes a line to r.Log.
func (r Run) log(format string, args ...any) {
	if r.Log != nil {
		r.Log(format, args...)
	}
}

// search runs the exact or NN-descent search, timed.
func (r Run) search(ctx context.Context, x *mat.Dense, rep *Report) (*Neighbors, error) {
	p := r.Graph
	rep.Method, rep.Precision = "exact", p.Precision.String()
	if p.Approximate {
		rep.Method, rep.Precision = "nn-descent", ""
		p.Progress = func(done, total int) {
			rep.Iterations = done
			if r.Graph.Progress != nil {
				r.Graph.Progress(done, total)
			}
		}
	}
	rep.RSSReset = procstat.ResetPeakRSS()
	cpu0, start := cputime.Seconds(), time.Now()
	nb, err := r.searchPoints(ctx, p, x)
	rep.Seconds, rep.CPUSeconds, rep.PeakRSSMB = time.Since(start).Seconds(), cputime.Seconds()-cpu0, procstat.PeakRSSMB()
	if err != nil {
		return nil, err
	}
	rep.Rescanned = nb.Rescanned
	return nb, nil
}

// searchPoints is p.Search of x, on r.Bytes when NN-descent is given them.
func (r Run) searchPoints(ctx context.Context, p PointGraph, x *mat.Dense) (*Neighbors, error) {
	if !p.Approximate || r.Bytes == nil {
		return p.Search(ctx, x)
	}
	n, d := x.Dims()
	if len(r.Bytes) != n*d {
		return nil, fmt.Errorf("knngraph: Run.Bytes holds %d bytes, not the %d×%d points", len(r.Bytes), n, d)
	}
	return ApproximateBytes(ctx, r.Bytes, d, p.K, &Descent{Seed: p.Seed, Progress: p.Progress})
}

// recall measures recall@K of nb against exact neighbours, counting a
// neighbour at distance ≤ the exact K-th distance as found (ties), as
// shared/bench/peers/knn.py does.
func (r Run) recall(ctx context.Context, x *mat.Dense, nb *Neighbors, rep *Report) error {
	n, _ := x.Dims()
	var recall float64
	var err error
	switch {
	case r.GroundTruth != "":
		if recall, rep.RecallQueries, err = GroundTruthRecall(r.GroundTruth, nb); err != nil {
			return err
		}
		rep.RecallSource = "ground truth " + filepath.Base(r.GroundTruth)
	case r.RecallSample > 0:
		start := time.Now()
		rep.RecallQueries = min(r.RecallSample, n)
		recall, err = SampleRecall(ctx, x, nb, r.RecallSample, r.Graph.Seed)
		r.log("exact neighbours of %d sampled points in %.2f s", rep.RecallQueries, time.Since(start).Seconds())
		rep.RecallSource = fmt.Sprintf("exact search on %d points sampled with seed %d", rep.RecallQueries, r.Graph.Seed)
		if err != nil {
			return fmt.Errorf("recall: %w", err)
		}
	default:
		return nil
	}
	rep.Recall = &recall
	return nil
}

// compare runs the Comparison: the exact neighbours already found are
// reused unless the search was NN-descent.
func (r Run) compare(ctx context.Context, x *mat.Dense, nb *Neighbors, rep *Report) error {
	c := Comparison{K: r.Graph.K, Limits: r.Compare, Seed: r.Graph.Seed, Exact: nb, ExactSeconds: rep.Seconds, Settings: &Settings{Precision: r.Graph.Precision},
		Progress: func(c Compared) {
			if c.Method == "exact" {
				r.log("--compare: exact search in %.3f s", c.Seconds)
				return
			}
			r.log("--compare: NN-descent, %d of at most %d iterations: %.3f s, recall %.4f", c.Ran, c.Iterations, c.Seconds, c.Recall)
		}}
	if r.Graph.Approximate {
		c.Exact = nil // the comparison runs (and times) the exact search
	}
	var err error
	if rep.Compare, err = c.Run(ctx, x); err != nil {
		return fmt.Errorf("--compare: %w", err)
	}
	return nil
}

// graph symmetrises the neighbour lists (distances scaled by r.Dist2Scale) and
// describes the graph in rep.
func (r Run) graph(nb *Neighbors, rep *Report) (*Graph, error) {
	if r.Dist2Scale != 0 && r.Dist2Scale != 1 {
		for i := range nb.Dist2 {
			nb.Dist2[i] *= r.Dist2Scale
		}
	}
	start := time.Now()
	g, err := NewGraph(nb, r.Graph.Rule)
	if err != nil {
		return nil, err
	}
	rep.GraphSeconds, rep.Edges, rep.MedianKth = time.Since(start).Seconds(), g.Dist2.Edges()-g.Dist2.SelfLoops(), g.MedianKth()
	if rep.Bandwidth = r.Bandwidth; rep.Bandwidth == 0 && r.Weights != "gaussian" {
		rep.Bandwidth = math.Sqrt2 * g.DefaultAlpha()
	}
	rep.Alpha, rep.Weights = rep.Bandwidth/math.Sqrt2, r.Weights
	note := fmt.Sprintf(" (σ = %.4g)", rep.Bandwidth)
	if r.Weights == "connectivity" || r.Weights == "distance2" {
		note = ""
	} else if r.Weights == "gaussian" && rep.Bandwidth == 0 {
		note = " (self-tuning σ_i: distance to the 7th neighbour)"
	}
	r.log("%d %s of %d features: k = %d, %s search, %s rule, %s weights%s; %d edges, graph %s (linear in n·k)",
		rep.Nodes, rep.Unit(), rep.Dim, rep.K, rep.Method, rep.Rule, r.Weights, note, rep.Edges, memlimit.Format(rep.GraphBytes))
	return g, nil
}

// String is the summary in one line, as gssl logs it.
func (s Summary) String() string {
	w8 := s.Weights
	if s.Bandwidth > 0 {
		w8 += fmt.Sprintf(" (σ = %.4g)", s.Bandwidth)
	}
	return fmt.Sprintf("KNN graph of %d points (%d features): k = %d, %s search, %s weights, %s rule; %d edges, graph %s (linear in n·k), features %s",
		s.Points, s.Features, s.K, s.Method, w8, s.Rule, s.Edges, memlimit.Format(s.GraphBytes), memlimit.Format(s.DenseBytes))
}
