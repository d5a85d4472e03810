package nodeclass

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"

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

// Base is a model whose class probabilities (Predict of the fitted nodes)
// Correct & Smooth refines: any node classifier, e.g. SGC, APPNP, or the
// adapters of label spreading (Spreading) and STKR (STKR).
type Base = estimator.NodeClassifier

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
	return (*errorMemo)(nil).correct(ctx, nil, s, z, labels, alpha, scale, set)
}

// errorMemo keeps the propagated errors Ê and the autoscale σ of the
// models of one CorrectSmoothGrid, which share one base: its candidates of
// equal α₁ differ only after the correction's solve (in the scale and the
// smoothing), so it is solved once per α₁. With the grid's settings
// (combos), it also smooths every candidate of one α₂ in one block solve
// (smoothed). A nil memo keeps nothing.
type errorMemo struct {
	mu       sync.Mutex
	g        *graph.CSR // the graph of S
	z        *mat.Dense // the base scores the entries are of
	labels   []int
	entries  []errorEntry
	combos   []csSetting
	smoothed []smoothEntry
}

type errorEntry struct {
	alpha float64
	set   propagate.Settings
	eh    *mat.Dense
	sigma float64
}

// csSetting is one candidate's (α₁, α₂, scale) in a CorrectSmoothGrid.
type csSetting struct{ a1, a2, scale float64 }

type smoothEntry struct {
	csSetting
	set propagate.Settings
	y   *mat.Dense
}

// key makes the memo's entries those of the graph g, scores z and labels,
// dropping the others. The caller holds mu.
func (em *errorMemo) key(g *graph.CSR, z *mat.Dense, labels []int) {
	if em.z == nil || em.g != g || !slices.Equal(em.labels, labels) || !mat.Equal(em.z, z) {
		em.g, em.z, em.labels, em.entries, em.smoothed = g, mat.DenseCopyOf(z), slices.Clone(labels), nil, nil
	}
}

// correct is Correct with Ê and σ from the memo when it holds them for the
// same graph g (S is its propagate.Symmetric), scores, labels, α and
// settings: the solve is deterministic, so the result is bitwise the one
// computed anew.
func (em *errorMemo) correct(ctx context.Context, g *graph.CSR, s linop.BlockOperator, z *mat.Dense, labels []int, alpha, scale float64, set propagate.Settings) (out, eh *mat.Dense, sigma float64, err error) {
	n, c := z.Dims()
	if err := checkCS(s, n, labels, alpha, c); err != nil {
		return nil, nil, 0, err
	}
	if scale < 0 || math.IsNaN(scale) || math.IsInf(scale, 0) {
		return nil, nil, 0, fmt.Errorf("nodeclass: correct: scale=%v is invalid: it must be finite and ≥ 0 (0 = autoscale)", scale)
	}
	if eh, sigma, err = em.errors(ctx, g, s, z, labels, alpha, set); err != nil {
		return nil, nil, 0, err
	}
	return corrected(z, eh, sigma, scale), eh, sigma, nil
}

// corrected returns Z + the scaled correction of Ê (Correct's rule).
func corrected(z, eh *mat.Dense, sigma, scale float64) *mat.Dense {
	out := mat.DenseCopyOf(z)
	n, _ := z.Dims()
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
	return out
}

// errors returns Ê = (1 − α)(I − αS)^{-1}E and σ = mean_{j∈L} ‖E_j‖₁ for
// the residuals E of the scores z on the labelled nodes, from the memo
// when it holds them (Ê is then shared: callers do not modify it).
func (em *errorMemo) errors(ctx context.Context, g *graph.CSR, s linop.BlockOperator, z *mat.Dense, labels []int, alpha float64, set propagate.Settings) (*mat.Dense, float64, error) {
	if em != nil {
		em.mu.Lock()
		defer em.mu.Unlock()
		em.key(g, z, labels)
	}
	return em.errorsLocked(ctx, s, z, labels, alpha, set)
}

// errorsLocked is errors once the memo is keyed; the caller holds mu.
func (em *errorMemo) errorsLocked(ctx context.Context, s linop.BlockOperator, z *mat.Dense, labels []int, alpha float64, set propagate.Settings) (*mat.Dense, float64, error) {
	if em != nil {
		for _, e := range em.entries {
			if e.alpha == alpha && e.set == set {
				return e.eh, e.sigma, nil
			}
		}
	}
	n, c := z.Dims()
	e := mat.NewDense(n, c, nil)
	var sigma float64
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
	eh, _, err := propagate.PPRBlock(ctx, s, e, alpha, set)
	if err != nil {
		return nil, 0, fmt.Errorf("nodeclass: correct: %w", err)
	}
	if em != nil {
		em.entries = append(em.entries, errorEntry{alpha: alpha, set: set, eh: eh, sigma: sigma})
	}
	return eh, sigma, nil
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
	oneHot(g, labels, 0, c)
	out, _, err := propagate.PPRBlock(ctx, s, g, alpha, set)
	if err != nil {
		return nil, fmt.Errorf("nodeclass: smooth: %w", err)
	}
	return out, nil
}

// oneHot replaces columns col to col+c−1 of g by the one-hot labels on
// the labelled rows.
func oneHot(g *mat.Dense, labels []int, col, c int) {
	for i, l := range labels {
		if l < 0 {
			continue
		}
		row := g.RawRowView(i)[col:]
		clear(row[:c])
		row[l] = 1
	}
}

// smooth returns Smooth of the corrected scores of the candidate (a1, a2,
// scale) of the memo's grid on the base scores z: on the first request
// for α₂, every candidate of the grid with that α₂ is smoothed in one
// block solve (the same operator and α, their inputs side by side), and
// the others' results are kept for their fits. The block's solve stops on
// the whole block's residual, so a result may differ from Smooth alone
// within the tolerance; the selection refits its choice alone. A request
// outside the grid is Smooth.
func (em *errorMemo) smooth(ctx context.Context, g *graph.CSR, s linop.BlockOperator, z *mat.Dense, labels []int, a1, a2, scale float64, set propagate.Settings) (*mat.Dense, error) {
	want := csSetting{a1, a2, scale}
	if em == nil || !slices.Contains(em.combos, want) {
		eh, sigma, err := em.errors(ctx, g, s, z, labels, a1, set)
		if err != nil {
			return nil, err
		}
		return Smooth(ctx, s, corrected(z, eh, sigma, scale), labels, a2, set)
	}
	em.mu.Lock()
	defer em.mu.Unlock()
	em.key(g, z, labels)
	for _, e := range em.smoothed {
		if e.csSetting == want && e.set == set {
			return e.y, nil
		}
	}
	n, c := z.Dims()
	if err := checkCS(s, n, labels, a2, c); err != nil {
		return nil, err
	}
	var batch []csSetting
	for _, cs := range em.combos {
		if cs.a2 == a2 && !slices.Contains(batch, cs) {
			batch = append(batch, cs)
		}
	}
	in := mat.NewDense(n, len(batch)*c, nil)
	for b, cs := range batch {
		eh, sigma, err := em.errorsLocked(ctx, s, z, labels, cs.a1, set)
		if err != nil {
			return nil, err
		}
		in.Slice(0, n, b*c, (b+1)*c).(*mat.Dense).Copy(corrected(z, eh, sigma, cs.scale))
		oneHot(in, labels, b*c, c)
	}
	out, _, err := propagate.PPRBlock(ctx, s, in, a2, set)
	if err != nil {
		return nil, fmt.Errorf("nodeclass: smooth: %w", err)
	}
	var y *mat.Dense
	for b, cs := range batch {
		yb := mat.DenseCopyOf(out.Slice(0, n, b*c, (b+1)*c))
		em.smoothed = append(em.smoothed, smoothEntry{csSetting: cs, set: set, y: yb})
		if cs == want {
			y = yb
		}
	}
	return y, nil
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
	// S̃²X̂). Fit fits a clone of it (its Clone method, when it has one),
	// so Base itself stays unfitted.
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

	probs *mat.Dense // the smoothed scores Ŷ
	// What Predict needs for new nodes (newnodes.go): the propagated errors Ê, the
	// autoscale σ, the fitted nodes' degrees and D^{-1/2}, and a snapshot
	// of the fitted base (nil after FitScores or with a base that does not
	// predict new nodes), named by baseName ("" after FitScores).
	corr     *mat.Dense
	sigma    float64
	deg, t   []float64
	fitBase  nodeBase
	baseName string
	info     estimator.Info
	errs     *errorMemo // shared by the models of one CorrectSmoothGrid
}

// Validate checks the hyperparameters, and the base's.
func (m *CorrectSmooth) Validate() error {
	for name, a := range map[string]float64{"CorrectAlpha": m.CorrectAlpha, "SmoothAlpha": m.SmoothAlpha} {
		if a != 0 && !(a > 0 && a < 1) {
			return fmt.Errorf("nodeclass: Correct & Smooth: %s=%v is invalid: it must be inside the open interval (0, 1) (0 means the default)", name, a)
		}
	}
	if m.Scale < 0 || math.IsNaN(m.Scale) || math.IsInf(m.Scale, 0) {
		return fmt.Errorf("nodeclass: Correct & Smooth: Scale=%v is invalid: it must be finite and ≥ 0 (0 = autoscale)", m.Scale)
	}
	if err := validPropagation("Correct & Smooth", m.Propagation); err != nil {
		return err
	}
	if m.Base != nil {
		if err := m.Base.Validate(); err != nil {
			return fmt.Errorf("nodeclass: Correct & Smooth: Base: %w", err)
		}
	}
	return nil
}

// Clone returns an unfitted copy with the same hyperparameters (Base is
// shared: Fit never fits it, only a clone of it).
func (m *CorrectSmooth) Clone() *CorrectSmooth {
	return &CorrectSmooth{Base: m.Base, CorrectAlpha: m.CorrectAlpha, SmoothAlpha: m.SmoothAlpha, Scale: m.Scale, Propagation: m.Propagation}
}

// Kind returns CorrectSmoothKind.
func (m *CorrectSmooth) Kind() string { return CorrectSmoothKind }

// Info describes the last fit: that of its base model (Correct & Smooth's
// own two propagations have a fixed number of steps).
func (m *CorrectSmooth) Info() estimator.Info { return m.info }

// newBase returns the model Fit fits: a clone of Base (by its Clone
// method, when it has one returning a Base; Base itself otherwise), or a
// new SGC.
func (m *CorrectSmooth) newBase() Base {
	if m.Base == nil {
		return &SGC{}
	}
	return cloneBase(m.Base)
}

// cloneBase returns b.Clone() when b has a Clone method returning a Base,
// else b.
func cloneBase(b Base) Base {
	if c := reflect.ValueOf(b).MethodByName("Clone"); c.IsValid() && c.Type().NumIn() == 0 && c.Type().NumOut() == 1 {
		if nb, ok := c.Call(nil)[0].Interface().(Base); ok {
			return nb
		}
	}
	return b
}

// Fit fits a clone of Base on the labelled nodes, then corrects and smooths
// its probabilities (two PPR solves with c columns). With an SGC or APPNP
// base the fitted model predicts new nodes too.
func (m *CorrectSmooth) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	m.probs = nil
	b := m.newBase()
	if err := b.Fit(ctx, x, labels); err != nil {
		return err
	}
	z, err := b.Predict(ctx, estimator.FittedNodes)
	if err != nil {
		return err
	}
	if err := m.FitScores(ctx, x.Graph, z, labels); err != nil {
		return err
	}
	m.fitBase, m.baseName, m.info = snapshot(b), fmt.Sprint(b), b.Info()
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
	a1, a2, set := orDefault(m.CorrectAlpha, DefaultCorrectAlpha), orDefault(m.SmoothAlpha, DefaultSmoothAlpha), propagation(m.Propagation)
	_, eh, sigma, err := m.errs.correct(ctx, g, s, z, labels, a1, m.Scale, set)
	if err != nil {
		return err
	}
	y, err := m.errs.smooth(ctx, g, s, z, labels, a1, a2, m.Scale, set)
	if err != nil {
		return err
	}
	m.probs, m.corr, m.sigma = y, eh, sigma
	m.deg = g.Degrees()
	m.t = invSqrtDegrees(m.deg, 0)
	m.fitBase, m.baseName, m.info = nil, "", estimator.Info{}
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

// Predict returns the class probabilities of the queried nodes: the rows
// of the smoothed scores (Scores for the fitted nodes) clipped at zero and
// normalised to sum 1 (a row without a positive entry: one at its largest
// entry), so that the most probable class is the largest score. New nodes
// (q.New, with their features in q.Features when the base takes features)
// are predicted by the base model (its own Predict), then corrected and
// smoothed by the frozen-known rule of the package documentation; a new
// node without edges keeps its base prediction. New nodes need a base that
// predicts them (SGC or APPNP, the default) fitted by Fit; after FitScores,
// or with another base, it is an error.
func (m *CorrectSmooth) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if m.probs == nil {
		return nil, estimator.NotFitted("nodeclass: CorrectSmooth.Predict")
	}
	var s *mat.Dense
	if q.New == nil {
		if q.Features != nil {
			return nil, fmt.Errorf("nodeclass: CorrectSmooth.Predict: the query has features but no new nodes: the fitted nodes keep the features of Fit")
		}
		s = mat.DenseCopyOf(m.probs)
	} else {
		var err error
		if s, err = m.predictNodeScores(ctx, q); err != nil || s.IsEmpty() {
			return s, err
		}
	}
	toProbabilities(s)
	return s, nil
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *CorrectSmooth) Output() estimator.Output { return estimator.Probabilities }

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
	base := m.Base
	if base == nil {
		base = &SGC{}
	}
	return fmt.Sprintf("correct-smooth(%v, α1=%g, α2=%g, scale=%s)", base, orDefault(m.CorrectAlpha, DefaultCorrectAlpha), orDefault(m.SmoothAlpha, DefaultSmoothAlpha), scale)
}
