package nodeclass

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/stkr"
)

const (
	// DefaultSpreadingAlpha is label spreading's a when Spreading.Alpha is
	// zero.
	DefaultSpreadingAlpha = labelprop.DefaultAlpha
	// DefaultSTKREta is the η of STKR's inverse Laplacian when STKR.Eta is
	// zero.
	DefaultSTKREta = 0.99
	// DefaultSTKRBeta is STKR's ridge β when STKR.Beta is zero.
	DefaultSTKRBeta = 0.01
)

var (
	_ Base = (*Spreading)(nil)
	_ Base = (*STKR)(nil)
)

// Spreading is label spreading (labelprop.Spreading) as a Base of Correct &
// Smooth; it ignores the features. Labelled isolated nodes keep their label.
type Spreading struct {
	// Alpha is a in (0, 1); 0 means DefaultSpreadingAlpha.
	Alpha float64
	// Classes is the number of classes; 0 means 1 + the largest label.
	Classes int

	probs *mat.Dense
}

// Fit spreads the labels (−1 unlabelled) over g.
func (m *Spreading) Fit(ctx context.Context, g *graph.CSR, _ Features, labels []int) error {
	nodes, classes := labelled(labels)
	if len(nodes) == 0 {
		return fmt.Errorf("nodeclass: spreading: no labelled nodes (every label is −1)")
	}
	c := m.Classes
	if c == 0 {
		c = numClasses(labels)
	}
	sp := labelprop.Spreading{Alpha: orDefault(m.Alpha, DefaultSpreadingAlpha), Classes: c, IsolatedSeeds: labelprop.IsolatedSeedKeep}
	if err := sp.FitIndexed(ctx, g, nodes, classes); err != nil {
		return fmt.Errorf("nodeclass: %w", err)
	}
	m.probs = sp.Probabilities()
	return nil
}

// Probabilities returns label spreading's class probabilities.
func (m *Spreading) Probabilities() (*mat.Dense, error) {
	if m.probs == nil {
		return nil, estimator.NotFitted("nodeclass")
	}
	return mat.DenseCopyOf(m.probs), nil
}

// String names the model.
func (m *Spreading) String() string {
	return fmt.Sprintf("spreading(a=%g)", orDefault(m.Alpha, DefaultSpreadingAlpha))
}

// STKR is spectrally transformed kernel regression (package stkr) with the
// inverse-Laplacian transform on one-hot labels, as a Base of Correct &
// Smooth: on the graph kernel, or, with FeatureWeight γ > 0, on
// stkr.FeatureKernel (the graph plus γ times the cosine kernel of the
// features). Its scores are regression outputs (Scores); Probabilities
// clips and normalises them.
type STKR struct {
	// Eta is the inverse Laplacian's η in (0, 1); 0 means DefaultSTKREta.
	Eta float64
	// Beta is the ridge β > 0; 0 means DefaultSTKRBeta.
	Beta float64
	// FeatureWeight is γ ≥ 0 of stkr.FeatureKernel; 0 uses the graph only.
	FeatureWeight float64
	// Classes is the number of classes; 0 means 1 + the largest label.
	Classes int

	scores *mat.Dense
}

// Fit regresses the one-hot labels of the labelled nodes.
func (m *STKR) Fit(ctx context.Context, g *graph.CSR, x Features, labels []int) error {
	nodes, classes := labelled(labels)
	if len(nodes) == 0 {
		return fmt.Errorf("nodeclass: stkr: no labelled nodes (every label is −1)")
	}
	c := m.Classes
	if c == 0 {
		c = numClasses(labels)
	}
	var k stkr.BaseKernel
	var err error
	if m.FeatureWeight > 0 {
		k, err = stkr.NewFeatureKernel(g, x, m.FeatureWeight)
	} else {
		k, err = stkr.NewGraphKernel(g)
	}
	if err != nil {
		return fmt.Errorf("nodeclass: %w", err)
	}
	y := mat.NewDense(len(nodes), c, nil)
	for t, l := range classes {
		y.Set(t, l, 1)
	}
	r := stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: orDefault(m.Eta, DefaultSTKREta)}, Beta: orDefault(m.Beta, DefaultSTKRBeta)}
	if err := r.FitIndexed(ctx, k, nodes, y); err != nil {
		return fmt.Errorf("nodeclass: %w", err)
	}
	if m.scores, err = r.Predict(nil); err != nil {
		return fmt.Errorf("nodeclass: %w", err)
	}
	return nil
}

// Scores returns STKR's n×c regression outputs.
func (m *STKR) Scores() (*mat.Dense, error) {
	if m.scores == nil {
		return nil, estimator.NotFitted("nodeclass")
	}
	return mat.DenseCopyOf(m.scores), nil
}

// Probabilities returns the rows of Scores clipped at zero and normalised
// to sum 1 (a row without a positive entry: one at its largest entry).
func (m *STKR) Probabilities() (*mat.Dense, error) {
	s, err := m.Scores()
	if err != nil {
		return nil, err
	}
	toProbabilities(s)
	return s, nil
}

// String names the model.
func (m *STKR) String() string {
	return fmt.Sprintf("stkr(η=%g, β=%g, γ=%g)", orDefault(m.Eta, DefaultSTKREta), orDefault(m.Beta, DefaultSTKRBeta), m.FeatureWeight)
}

func labelled(labels []int) (nodes, classes []int) {
	for i, l := range labels {
		if l >= 0 {
			nodes, classes = append(nodes, i), append(classes, l)
		}
	}
	return nodes, classes
}
