package nodeclass

import (
	"context"
	"fmt"
	"math"

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

// Spreading is label spreading (labelprop.Spreading) as a Base of Correct &
// Smooth; it ignores the features. Labelled isolated nodes keep their label.
type Spreading struct {
	// Alpha is a in (0, 1); 0 means DefaultSpreadingAlpha.
	Alpha float64
	// Classes is the number of classes; 0 means 1 + the largest label.
	Classes int

	probs *mat.Dense
	info  estimator.Info
}

// Validate checks the hyperparameters.
func (m *Spreading) Validate() error {
	if a := m.Alpha; a != 0 && !(a > 0 && a < 1) {
		return fmt.Errorf("nodeclass: Spreading: Alpha=%v is invalid: it must be inside the open interval (0, 1) (0 means %g)", a, DefaultSpreadingAlpha)
	}
	if m.Classes < 0 {
		return fmt.Errorf("nodeclass: Spreading: Classes=%d is invalid: it must be ≥ 0 (0 means 1 + the largest label)", m.Classes)
	}
	return nil
}

// Clone returns an unfitted copy with the same hyperparameters.
func (m *Spreading) Clone() *Spreading { return &Spreading{Alpha: m.Alpha, Classes: m.Classes} }

// Info describes the last fit (label spreading's solver).
func (m *Spreading) Info() estimator.Info { return m.info }

// Fit spreads the labels (−1 unlabelled) over x.Graph.
func (m *Spreading) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	m.probs = nil
	if err := checkLabels(x.Graph, labels); err != nil {
		return err
	}
	nodes, classes := labelled(labels)
	c := m.Classes
	if c == 0 {
		c = numClasses(labels)
	}
	sp := labelprop.Spreading{Alpha: orDefault(m.Alpha, DefaultSpreadingAlpha), Classes: c, IsolatedSeeds: labelprop.IsolatedSeedKeep}
	if err := sp.FitIndexed(ctx, x.Graph, nodes, classes); err != nil {
		return fmt.Errorf("nodeclass: %w", err)
	}
	in := sp.Info()
	m.probs, m.info = sp.Probabilities(), estimator.Info{Iterations: in.Iterations, Residual: in.Residual, Products: in.Products}
	return nil
}

// Predict returns label spreading's class probabilities of the fitted
// nodes; as a base of Correct & Smooth it does not predict new nodes.
func (m *Spreading) Predict(_ context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	return fittedOnly("Spreading", m.probs, q)
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *Spreading) Output() estimator.Output { return estimator.Probabilities }

// fittedOnly answers Predict for the adapters, which predict their fitted
// nodes only.
func fittedOnly(model string, p *mat.Dense, q estimator.NodeQuery) (*mat.Dense, error) {
	if p == nil {
		return nil, estimator.NotFitted("nodeclass: " + model + ".Predict")
	}
	if q.New != nil || q.Features != nil {
		return nil, fmt.Errorf("nodeclass: %s.Predict: the adapter predicts its fitted nodes only (estimator.FittedNodes); an SGC or APPNP predicts new nodes", model)
	}
	return mat.DenseCopyOf(p), nil
}

// checkLabels checks the graph and the labels an adapter is fitted on.
func checkLabels(g *graph.CSR, labels []int) error {
	if g == nil || g.Nodes() == 0 {
		return fmt.Errorf("nodeclass: the graph has no nodes")
	}
	if len(labels) != g.Nodes() {
		return fmt.Errorf("nodeclass: %d labels for %d nodes: give one per node, −1 for unlabelled", len(labels), g.Nodes())
	}
	for i, l := range labels {
		if l < -1 {
			return fmt.Errorf("nodeclass: labels[%d] = %d is invalid: a class is ≥ 0, and −1 marks an unlabelled node", i, l)
		}
	}
	if numLabelled(labels) == 0 {
		return fmt.Errorf("nodeclass: no labelled nodes (every label is −1)")
	}
	return nil
}

// String names the model.
func (m *Spreading) String() string {
	return fmt.Sprintf("spreading(a=%g)", orDefault(m.Alpha, DefaultSpreadingAlpha))
}

// STKR is spectrally transformed kernel regression (package stkr) with the
// inverse-Laplacian transform on one-hot labels, as a Base of Correct &
// Smooth: on the graph kernel, or, with FeatureWeight γ > 0, on
// stkr.FeatureKernel (the graph plus γ times the cosine kernel of the
// features). Its scores are regression outputs (Scores); Predict clips
// and normalises them.
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
	info   estimator.Info
}

// Validate checks the hyperparameters.
func (m *STKR) Validate() error {
	if e := m.Eta; e != 0 && !(e > 0 && e < 1) {
		return fmt.Errorf("nodeclass: STKR: Eta=%v is invalid: it must be inside the open interval (0, 1) (0 means %g)", e, DefaultSTKREta)
	}
	if b := m.Beta; b < 0 || math.IsNaN(b) || math.IsInf(b, 0) {
		return fmt.Errorf("nodeclass: STKR: Beta=%v is invalid: it must be finite and > 0 (0 means %g)", b, DefaultSTKRBeta)
	}
	if w := m.FeatureWeight; w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
		return fmt.Errorf("nodeclass: STKR: FeatureWeight=%v is invalid: it must be finite and ≥ 0 (0 uses the graph only)", w)
	}
	if m.Classes < 0 {
		return fmt.Errorf("nodeclass: STKR: Classes=%d is invalid: it must be ≥ 0 (0 means 1 + the largest label)", m.Classes)
	}
	return nil
}

// Clone returns an unfitted copy with the same hyperparameters.
func (m *STKR) Clone() *STKR {
	return &STKR{Eta: m.Eta, Beta: m.Beta, FeatureWeight: m.FeatureWeight, Classes: m.Classes}
}

// Info describes the last fit (STKR's solver: the most iterations of a
// column, its largest final residual and the products with the kernel).
func (m *STKR) Info() estimator.Info { return m.info }

// Fit regresses the one-hot labels of the labelled nodes of x.Graph (with
// FeatureWeight > 0, on the feature kernel of x.Features too).
func (m *STKR) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	m.scores = nil
	if err := checkLabels(x.Graph, labels); err != nil {
		return err
	}
	nodes, classes := labelled(labels)
	c := m.Classes
	if c == 0 {
		c = numClasses(labels)
	}
	var k stkr.BaseKernel
	var err error
	if m.FeatureWeight > 0 {
		k, err = stkr.NewFeatureKernel(x.Graph, nodeFeatures(x.Features), m.FeatureWeight)
	} else {
		k, err = stkr.NewGraphKernel(x.Graph)
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
	if m.scores, err = r.Scores(); err != nil {
		return fmt.Errorf("nodeclass: %w", err)
	}
	m.info = r.Info()
	return nil
}

// Scores returns STKR's n×c regression outputs.
func (m *STKR) Scores() (*mat.Dense, error) {
	if m.scores == nil {
		return nil, estimator.NotFitted("nodeclass")
	}
	return mat.DenseCopyOf(m.scores), nil
}

// Predict returns the class probabilities of the fitted nodes only: the
// rows of Scores clipped at zero and normalised to sum 1 (a row without a
// positive entry: one at its largest entry).
func (m *STKR) Predict(_ context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	s, err := fittedOnly("STKR", m.scores, q)
	if err != nil {
		return nil, err
	}
	toProbabilities(s)
	return s, nil
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *STKR) Output() estimator.Output { return estimator.Probabilities }

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
