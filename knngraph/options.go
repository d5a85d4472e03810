package knngraph

import (
	"fmt"
	"strings"
)

// DefaultNeighbors is K of a graph whose options name none:
// scikit-learn's LabelSpreading default (n_neighbors=7) rounded up to the
// value gssl knn has always used.
const DefaultNeighbors = 10

// DefaultWeights are the edge weights of a graph built for a node model
// by default: scikit-learn's kernel='knn' (0/1 edges).
const DefaultWeights = "connectivity"

// GraphOptions are the settings of a graph of points by name, as a
// command line gives them: the same options, with the same meaning, in
// gssl knn and in every node command given points without edges. The
// tags are gssl's flags, which the errors name.
type GraphOptions struct {
	Neighbors   int     `flag:"neighbors"`
	Approximate bool    `flag:"approximate"`
	Weights     string  `flag:"knn-weights"` // connectivity, gaussian or imgp; "" is DefaultWeights
	Bandwidth   float64 `flag:"bandwidth"`
}

// DefaultGraphOptions are DefaultNeighbors and DefaultWeights.
func DefaultGraphOptions() GraphOptions {
	return GraphOptions{Neighbors: DefaultNeighbors, Weights: DefaultWeights}
}

// pointGraphFlags are PointGraph's fields and their flags.
var pointGraphFlags = strings.NewReplacer("knngraph: ", "", "K=", "--neighbors ", "Bandwidth=", "--bandwidth ", "Kernel ", "--knn-weights ")

// PointGraph is the graph o describes, checked (PointGraph.Validate),
// with errors in the words of the flags.
func (o GraphOptions) PointGraph() (PointGraph, error) {
	if o.Weights == "" {
		o.Weights = DefaultWeights
	}
	kern, err := ParseKernel(o.Weights)
	if err != nil {
		return PointGraph{}, fmt.Errorf("--knn-weights %q is invalid: use connectivity, gaussian or imgp", o.Weights)
	}
	p := PointGraph{K: o.Neighbors, Approximate: o.Approximate, Kernel: kern, Bandwidth: o.Bandwidth}
	if err := p.Validate(); err != nil {
		return p, flagError{err, pointGraphFlags}
	}
	return p, nil
}

// flagError is an error retold in the words of the flags.
type flagError struct {
	err   error
	words *strings.Replacer // a field's name → its flag's
}

func (e flagError) Error() string { return e.words.Replace(e.err.Error()) }
func (e flagError) Unwrap() error { return e.err }

// Options are the settings of gssl knn by name: the graph, the search's
// precision, rule and seed, and what measures it (Run).
type Options struct {
	GraphOptions
	Precision         string `flag:"precision"`
	Seed              uint64 `flag:"seed"`
	Rule              string `flag:"rule"`
	RecallSample      int    `flag:"recall-sample"`
	GroundTruth       string `flag:"groundtruth"`
	Compare           bool   `flag:"compare"`
	CompareIterations []int  `flag:"compare-iterations"`
}

// DefaultOptions are gssl knn's defaults.
func DefaultOptions() Options {
	return Options{GraphOptions: DefaultGraphOptions(), Precision: Float32.String(), Rule: Or.String(), RecallSample: 1000, CompareIterations: []int{1, 2, 4, 8}}
}

// Run is the measured search o describes, checked. Weights may also name
// distance2 and IMGP's affinity and normalized weights (Graph.WeightsNamed).
func (o Options) Run() (Run, error) {
	g := o.GraphOptions
	if g.Weights == "" {
		g.Weights = DefaultWeights
	}
	r := Run{RecallSample: o.RecallSample, GroundTruth: o.GroundTruth, Weights: g.Weights, Bandwidth: g.Bandwidth}
	if g.Weights == "affinity" || g.Weights == "normalized" || g.Weights == "distance2" {
		g.Weights = Gaussian.String() // IMGP's Ã and A, and the distances: only the bandwidth is checked
	} else if _, err := ParseKernel(g.Weights); err != nil {
		return r, fmt.Errorf("--knn-weights %q is invalid: use connectivity, gaussian or imgp (or distance2)", g.Weights)
	}
	var err error
	if r.Graph, err = g.PointGraph(); err != nil {
		return r, err
	}
	r.Graph.Seed = o.Seed
	if r.Graph.Precision, err = ParsePrecision(o.Precision); err != nil {
		return r, fmt.Errorf("--precision %q is invalid: use float32 or float64", o.Precision)
	}
	if r.Graph.Rule, err = ParseRule(o.Rule); err != nil {
		return r, fmt.Errorf("--rule %q is invalid: use or or mutual", o.Rule)
	}
	if o.RecallSample < 0 {
		return r, fmt.Errorf("--recall-sample %d is invalid: it must be ≥ 0", o.RecallSample)
	}
	if o.Compare {
		r.Compare = o.CompareIterations
		if err := (Comparison{Limits: r.Compare}).Validate(); err != nil {
			return r, flagError{err, strings.NewReplacer("knngraph: Comparison.Limits", "--compare-iterations")}
		}
	}
	return r, nil
}
