package nodeclass

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/linop"
	"github.com/gssl/gssl/propagate"
)

const (
	// DefaultCorrectAlpha is the propagation weight α₁ of the correction
	// step; the C&S authors' choice for most data sets is near 1.
	DefaultCorrectAlpha = 0.9
	// DefaultSmoothAlpha is the propagation weight α₂ of the smoothing step.
	DefaultSmoothAlpha = 0.8
	// Autoscale is the Scale of Correct & Smooth that scales the propagated
	// error of every node to the mean size of the training errors (Huang
	// et al. 2021, §3.1).
	Autoscale = 0
)

// Base is a model whose class probabilities Correct & Smooth refines: any
// node classifier of this package, or an adapter of label spreading
// (Spreading) or STKR (STKR).
type Base interface {
	Fit(ctx context.Context, g *graph.CSR, x Features, labels []int) error
	Probabilities() (*mat.Dense, error)
}

var (
	_ Base = (*SGC)(nil)
	_ Base = (*APPNP)(nil)
	_ Base = (*CorrectSmooth)(nil)
)

// Correct is the first step of Correct & Smooth (Huang et al., "Combining
// Label Propagation and Simple Models Out-performs Graph Neural Networks",
// ICLR 2021, §3.1). With Z the n×c base probabilities and E the residuals
// Y_L − Z_L on the labelled nodes (zero rows elsewhere), the errors are
// propagated as
//
//	Ê = (1 − α)(I − αS)^{-1} E
//
// (the limit of E ← (1−α)E + αSE) and added to Z:
//
//	Z⁽ʳ⁾ = Z + s·Ê                                  (fixed scale s > 0)
//	Z⁽ʳ⁾_i = Z_i + σ·Ê_i/‖Ê_i‖₁,  σ = mean_{j∈L} ‖E_j‖₁   (Autoscale)
//
// The labelled rows keep Z + correction too; Smooth replaces them by Y.
// labels[i] ≥ 0 marks the labelled nodes.
func Correct(ctx context.Context, s linop.BlockOperator, z *mat.Dense, labels []int, alpha, scale float64, set propagate.Settings) (*mat.Dense, error) {
	out, _, _, err := correct(ctx, s, z, labels, alpha, scale, set)
	return out, err
}

// correct is Correct, returning also the propagated errors Ê and the
// autoscale σ, which the prediction of new nodes needs.
func correct(ctx context.Context, s linop.BlockOperator, z *mat.Dense, labels []int, alpha, scale float64, set propagate.Settings) (out, eh *mat.Dense, sigma float64, err error) {
	n, c := z.Dims()
	if err := checkCS(s, n, labels, alpha, c); err != nil {
		return nil, nil, 0, err
	}
	if scale < 0 || math.IsNaN(scale) || math.IsInf(scale, 0) {
		return nil, nil, 0, fmt.Errorf("nodeclass: correct: scale=%v is invalid: it must be finite and ≥ 0 (0 = autoscale)", scale)
	}
	e := mat.NewDense(n, c, nil)
	for i, l := range labels {
		if l < 0 {
			continue
		}
		row, zi := e.RawRowView(i), z.RawRowView(i)
		for j := range row {
			row[j] = -zi[j]
		}
		row[l]++
		for _, v := range row {
			sigma += math.Abs(v)
		}
	}
	sigma /= float64(numLabelled(labels))
	eh, _, err = propagate.PPRBlock(ctx, s, e, alpha, set)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("nodeclass: correct: %w", err)
	}
	out = mat.DenseCopyOf(z)
	for i := 0; i < n; i++ {
		row, ei := out.RawRowView(i), eh.RawRowView(i)
		f := scale
		if scale == Autoscale {
			var l1 float64
			for _, v := range ei {
				l1 += math.Abs(v)
			}
			if l1 == 0 {
				continue
			}
			f = sigma / l1
		}
		for j := range row {
			row[j] += f * ei[j]
		}
	}
	return out, eh, sigma, nil
}

// Smooth is the second step of Correct & Smooth: the corrected scores with
// the labelled rows replaced by the one-hot labels, G, propagated as label
// spreading does,
//
//	Ŷ = (1 − α)(I − αS)^{-1} G.
func Smooth(ctx context.Context, s linop.BlockOperator, z *mat.Dense, labels []int, alpha float64, set propagate.Settings) (*mat.Dense, error) {
	n, c := z.Dims()
	if err := checkCS(s, n, labels, alpha, c); err != nil {
		return nil, err
	}
	g := mat.DenseCopyOf(z)
	for i, l := range labels {
		if l < 0 {
			continue
		}
		row := g.RawRowView(i)
		clear(row)
		row[l] = 1
	}
	out, _, err := propagate.PPRBlock(ctx, s, g, alpha, set)
	if err != nil {
		return nil, fmt.Errorf("nodeclass: smooth: %w", err)
	}
	return out, nil
}

func checkCS(s linop.BlockOperator, n int, labels []int, alpha float64, c int) error {
	if s.Dim() != n || len(labels) != n {
		return fmt.Errorf("nodeclass: the operator has dimension %d, the scores %d rows, the labels %d entries", s.Dim(), n, len(labels))
	}
	if !(alpha > 0 && alpha < 1) {
		return fmt.Errorf("nodeclass: alpha=%v is invalid: it must be inside the open interval (0, 1)", alpha)
	}
	for i, l := range labels {
		if l >= c {
			return fmt.Errorf("nodeclass: label %d of node %d is outside [0, %d)", l, i, c)
		}
	}
	if numLabelled(labels) == 0 {
		return fmt.Errorf("nodeclass: no labelled nodes (every label is −1)")
	}
	return nil
}

// CorrectSmooth is Correct & Smooth (Huang et al. 2021) on top of a base
// model: Correct, then Smooth, both with S = D^{-1/2}WD^{-1/2}
// (propagate.Symmetric). Set the exported fields, then call Fit; Fit never
// changes them (it fits Base).
type CorrectSmooth struct {
	// Base gives the soft labels; nil means &SGC{} (the linear model on
	// S̃²X̂).
	Base Base
	// CorrectAlpha is α₁ in (0, 1); 0 means DefaultCorrectAlpha.
	CorrectAlpha float64
	// SmoothAlpha is α₂ in (0, 1); 0 means DefaultSmoothAlpha.
	SmoothAlpha float64
	// Scale is the fixed scale s of the correction; 0 means Autoscale.
	Scale float64
	// Propagation settings of the two PPR solves; a zero Tol means
	// DefaultPropagationTol.
	Propagation propagate.Settings

	defaultBase Base
	probs       *mat.Dense // the smoothed scores Ŷ
	// What PredictNodes needs (newnodes.go): the propagated errors Ê, the
	// autoscale σ, the fitted nodes' degrees and D^{-1/2}, and a snapshot
	// of the fitted base (nil after FitScores or with a base that does not
	// predict new nodes), named by baseName ("" after FitScores).
	corr     *mat.Dense
	sigma    float64
	deg, t   []float64
	fitBase  nodeBase
	baseName string
}

// Validate checks the hyperparameters.
func (m *CorrectSmooth) Validate() error {
	for _, a := range []float64{m.CorrectAlpha, m.SmoothAlpha} {
		if a != 0 && !(a > 0 && a < 1) {
			return fmt.Errorf("nodeclass: Correct & Smooth: alpha=%v is invalid: it must be inside the open interval (0, 1)", a)
		}
	}
	if m.Scale < 0 || math.IsNaN(m.Scale) || math.IsInf(m.Scale, 0) {
		return fmt.Errorf("nodeclass: Correct & Smooth: Scale=%v is invalid: it must be finite and ≥ 0 (0 = autoscale)", m.Scale)
	}
	return nil
}

// base returns Base, or the default SGC kept in an unexported field (Base
// itself is never written).
func (m *CorrectSmooth) base() Base {
	if m.Base != nil {
		return m.Base
	}
	if m.defaultBase == nil {
		m.defaultBase = &SGC{}
	}
	return m.defaultBase
}

// Fit fits Base on the labelled nodes, then corrects and smooths its
// probabilities (two PPR solves with c columns). With an SGC or APPNP base
// the fitted model predicts new nodes too (PredictNodes).
func (m *CorrectSmooth) Fit(ctx context.Context, g *graph.CSR, x Features, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	b := m.base()
	if err := b.Fit(ctx, g, x, labels); err != nil {
		return err
	}
	z, err := b.Probabilities()
	if err != nil {
		return err
	}
	if err := m.FitScores(ctx, g, z, labels); err != nil {
		return err
	}
	m.fitBase, m.baseName = snapshot(b), fmt.Sprint(b)
	return nil
}

// FitScores corrects and smooths given base probabilities z (n×c) of the
// nodes of g, without fitting Base; the model then answers for the nodes
// of g only.
func (m *CorrectSmooth) FitScores(ctx context.Context, g *graph.CSR, z *mat.Dense, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	s := propagate.Symmetric(g)
	zc, eh, sigma, err := correct(ctx, s, z, labels, orDefault(m.CorrectAlpha, DefaultCorrectAlpha), m.Scale, propagation(m.Propagation))
	if err != nil {
		return err
	}
	y, err := Smooth(ctx, s, zc, labels, orDefault(m.SmoothAlpha, DefaultSmoothAlpha), propagation(m.Propagation))
	if err != nil {
		return err
	}
	m.probs, m.corr, m.sigma = y, eh, sigma
	m.deg = g.Degrees()
	m.t = invSqrtDegrees(m.deg, 0)
	m.fitBase, m.baseName = nil, ""
	return nil
}

// Scores returns the n×c smoothed scores Ŷ (label-spreading scores: rows
// need not sum to 1 and entries may be negative).
func (m *CorrectSmooth) Scores() (*mat.Dense, error) {
	if m.probs == nil {
		return nil, estimator.NotFitted("nodeclass")
	}
	return mat.DenseCopyOf(m.probs), nil
}

// Probabilities returns the rows of Scores clipped at zero and normalised
// to sum 1 (a row without a positive entry: one at its largest entry), so
// that the most probable class is the largest score.
func (m *CorrectSmooth) Probabilities() (*mat.Dense, error) {
	s, err := m.Scores()
	if err != nil {
		return nil, err
	}
	toProbabilities(s)
	return s, nil
}

// toProbabilities clips the rows of s at zero and normalises them to sum 1,
// in place; a row without a positive entry becomes one-hot at its largest
// entry (the first on ties).
func toProbabilities(s *mat.Dense) {
	r, _ := s.Dims()
	for i := 0; i < r; i++ {
		row := s.RawRowView(i)
		best, sum := 0, 0.0
		for j, v := range row {
			if v > row[best] {
				best = j
			}
			if v > 0 {
				sum += v
			}
		}
		for j, v := range row {
			switch {
			case sum == 0 && j == best:
				row[j] = 1
			case sum == 0 || v <= 0:
				row[j] = 0
			default:
				row[j] = v / sum
			}
		}
	}
}

// String names the model and its hyperparameters.
func (m *CorrectSmooth) String() string {
	scale := "auto"
	if m.Scale != Autoscale {
		scale = fmt.Sprint(m.Scale)
	}
	return fmt.Sprintf("correct-smooth(%v, α1=%g, α2=%g, scale=%s)", m.base(), orDefault(m.CorrectAlpha, DefaultCorrectAlpha), orDefault(m.SmoothAlpha, DefaultSmoothAlpha), scale)
}
