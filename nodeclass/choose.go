package nodeclass

import (
	"context"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/stkr"
)

// DefaultFolds is the number of cross-validation folds without validation
// nodes (eval.DefaultFolds).
const DefaultFolds = eval.DefaultFolds

// KGrid returns SGC's propagation steps searched by SGCGrid.
func KGrid() []int { return []int{1, 2, 3} }

// AlphaGrid returns APPNP's propagation weights searched by APPNPGrid.
func AlphaGrid() []float64 { return []float64{0.8, 0.9, 0.95} }

// CorrectAlphaGrid and SmoothAlphaGrid are the α₁ and α₂ of
// CorrectSmoothGrid; ScaleGrid its correction scales (Autoscale first).
func CorrectAlphaGrid() []float64 { return []float64{0.5, 0.8, 0.9, 0.99} }

// SmoothAlphaGrid is the α₂ grid of CorrectSmoothGrid.
func SmoothAlphaGrid() []float64 { return []float64{0.5, 0.8, 0.9, 0.99} }

// ScaleGrid is the correction-scale grid of CorrectSmoothGrid.
func ScaleGrid() []float64 { return []float64{Autoscale, 1, 5} }

// SGCGrid returns unfitted SGC models over KGrid × L2Grid. They share the
// propagated rows of the training nodes: a grid propagates once per K.
func SGCGrid() []Base {
	cache := &designCache{}
	var out []Base
	for _, k := range KGrid() {
		for _, l2 := range L2Grid() {
			out = append(out, &SGC{K: k, L2: l2, cache: cache})
		}
	}
	return out
}

// APPNPGrid returns unfitted APPNP models over AlphaGrid × L2Grid, sharing
// the propagated rows of the training nodes (one solve per a).
func APPNPGrid() []Base {
	cache := &designCache{}
	var out []Base
	for _, a := range AlphaGrid() {
		for _, l2 := range L2Grid() {
			out = append(out, &APPNP{Alpha: a, L2: l2, cache: cache})
		}
	}
	return out
}

// STKRGrid returns STKR models with the inverse-Laplacian transform over
// stkr.EtaGrid × stkr.BetaGrid, the grids of SP-Lap in the STKR paper's
// protocol, on the graph kernel (featureWeight 0) or on the feature kernel
// with weight featureWeight.
func STKRGrid(featureWeight float64) []Base {
	var out []Base
	for _, eta := range stkr.EtaGrid() {
		for _, beta := range stkr.BetaGrid() {
			out = append(out, &STKR{Eta: eta, Beta: beta, FeatureWeight: featureWeight})
		}
	}
	return out
}

// CorrectSmoothGrid returns Correct & Smooth models over CorrectAlphaGrid ×
// SmoothAlphaGrid × ScaleGrid, all on one base. The base is fitted once per
// set of training labels (the candidates share it), so a grid costs one
// base fit and two c-column propagations per candidate.
func CorrectSmoothGrid(base Base) []Base {
	shared := &memo{base: base}
	var out []Base
	for _, a1 := range CorrectAlphaGrid() {
		for _, a2 := range SmoothAlphaGrid() {
			for _, s := range ScaleGrid() {
				out = append(out, &CorrectSmooth{Base: shared, CorrectAlpha: a1, SmoothAlpha: a2, Scale: s})
			}
		}
	}
	return out
}

// memo is a Base that refits its model only when the graph, features or
// labels differ from the last fit's.
type memo struct {
	base   Base
	g      *graph.CSR
	x      Features
	labels []int
	err    error
}

func (m *memo) Fit(ctx context.Context, g *graph.CSR, x Features, labels []int) error {
	if m.labels != nil && m.g == g && m.x == x && slices.Equal(m.labels, labels) {
		return m.err
	}
	m.err = m.base.Fit(ctx, g, x, labels)
	m.g, m.x, m.labels = g, x, slices.Clone(labels)
	return m.err
}

func (m *memo) Probabilities() (*mat.Dense, error) { return m.base.Probabilities() }

func (m *memo) String() string { return fmt.Sprint(m.base) }

// Selection is the outcome of Choose.
type Selection struct {
	// Best is the chosen candidate, fitted on the training labels.
	Best Base
	// Index is Best's position among the candidates.
	Index int
	// Scores are the validation accuracies (the mean over folds for
	// cross-validation), one per candidate.
	Scores []float64
}

// Choose fits every candidate and returns the one with the best accuracy
// (the first on ties). labels holds every label the protocol may see (−1
// unknown). With val nodes, each candidate is fitted on labels with the val
// labels hidden and scored on val, and the chosen one stays fitted on the
// training labels (the Planetoid protocol). Without val nodes, the labelled
// nodes are dealt into the stratified folds of cv (eval.CV.NewFolds: 0 folds
// means eval.DefaultFolds, fewer when a class is smaller, single-label
// classes always trained on), the score is the pooled held-out accuracy (as
// eval.CrossValidate's), and the chosen one is refitted on every label.
// The loop runs fold by fold over the candidates, so that candidates sharing
// a base model or a propagated design (the grids of this package) fit it
// once per fold. Choose sets the candidates' Classes to the number of
// classes of labels.
func Choose(ctx context.Context, cands []Base, g *graph.CSR, x Features, labels, val []int, cv eval.CV) (*Selection, error) {
	if len(cands) == 0 {
		return nil, fmt.Errorf("nodeclass: choose: no candidates")
	}
	if err := checkData(g, x, labels); err != nil {
		return nil, err
	}
	type part struct{ train, test []int }
	var parts []part
	if len(val) > 0 {
		train := slices.Clone(labels)
		for _, i := range val {
			if i < 0 || i >= len(labels) || labels[i] < 0 {
				return nil, fmt.Errorf("nodeclass: choose: val node %d has no label", i)
			}
			train[i] = -1
		}
		parts = []part{{train, val}}
	} else {
		folds, err := cv.NewFolds(labels)
		if err != nil {
			return nil, fmt.Errorf("nodeclass: choose: %w", err)
		}
		for f := 0; f < folds.K; f++ {
			_, test := folds.Split(f)
			train := slices.Clone(labels)
			for _, i := range test {
				train[i] = -1
			}
			parts = append(parts, part{train, test})
		}
	}
	classes := numClasses(labels)
	right := make([]int, len(cands))
	total := 0
	for _, p := range parts {
		total += len(p.test)
		for k, c := range cands {
			setClasses(c, classes)
			if err := c.Fit(ctx, g, x, p.train); err != nil {
				return nil, fmt.Errorf("nodeclass: choose: candidate %d (%v): %w", k, c, err)
			}
			pr, err := c.Probabilities()
			if err != nil {
				return nil, err
			}
			pred := estimator.Argmax(pr)
			for _, i := range p.test {
				if pred[i] == labels[i] {
					right[k]++
				}
			}
		}
	}
	scores := make([]float64, len(cands))
	for k, r := range right {
		scores[k] = float64(r) / float64(total)
	}
	best, err := eval.FirstBest(scores)
	if err != nil {
		return nil, err
	}
	final := parts[0].train
	if len(val) == 0 {
		final = labels
	}
	if err := cands[best].Fit(ctx, g, x, final); err != nil {
		return nil, fmt.Errorf("nodeclass: choose: refitting %v: %w", cands[best], err)
	}
	return &Selection{Best: cands[best], Index: best, Scores: scores}, nil
}

// setClasses fixes the number of classes of a candidate so that a fold
// without some class still predicts c columns.
func setClasses(b Base, c int) {
	switch m := b.(type) {
	case *SGC:
		m.Classes = c
	case *APPNP:
		m.Classes = c
	case *Spreading:
		m.Classes = c
	case *STKR:
		m.Classes = c
	case *CorrectSmooth:
		setClasses(m.base(), c)
	case *memo:
		setClasses(m.base, c)
	}
}
