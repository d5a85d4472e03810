package nodeclass

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/logreg"
	"github.com/gssl/gssl/propagate"
)

// gcnLoop is the self-loop weight σ of S̃ (propagate.GCN), the operator of
// SGC and APPNP; Correct & Smooth's S (propagate.Symmetric) has none.
const gcnLoop = 1

// predictCheckEvery is how many new nodes are predicted between checks of
// the context.
const predictCheckEvery = 4096

// fitPropagation predicts the fitted nodes, softmax(P(X̂W) + 1bᵀ) on the
// normalised features xn of g, and keeps what Predict needs for new nodes: the
// nodes' degrees and the propagated logits (S̃^j X̂W for j < K, or ΠX̂W).
// It returns the number of block products taken.
func (m *linear) fitPropagation(ctx context.Context, g *graph.CSR, xn Features) (int, error) {
	op := propagate.GCN(g)
	h := xn.Mul(m.w)
	var z *mat.Dense
	products := 0
	switch f := m.f.(type) {
	case powerFilter:
		n, c := h.Dims()
		m.prop = make([]*mat.Dense, f.k)
		for j := range f.k {
			if err := ctx.Err(); err != nil {
				return products, fmt.Errorf("nodeclass: propagation stopped after %d products: %w", j, err)
			}
			m.prop[j] = h
			next := mat.NewDense(n, c, nil)
			op.MulBlockTo(next, h)
			h = next
			products++
		}
		z = h
	case pprFilter:
		p, info, err := propagate.PPRBlock(ctx, op, h, f.a, f.set)
		products = info.Products
		if err != nil {
			return products, fmt.Errorf("nodeclass: %w", err)
		}
		m.prop = []*mat.Dense{p}
		z = mat.DenseCopyOf(p)
	default:
		return 0, fmt.Errorf("nodeclass: a %T propagation has no new-node rule", m.f)
	}
	r, _ := z.Dims()
	for i := range r {
		row := z.RawRowView(i)
		for j := range row {
			row[j] += m.b[j]
		}
		logreg.Softmax(row)
	}
	m.probs = z
	m.deg = g.Degrees()
	m.t = invSqrtDegrees(m.deg, gcnLoop)
	return products, nil
}

// invSqrtDegrees returns (d_i + loop)^{-1/2}, 0 where d_i + loop is 0, as
// propagate.NewAdjacency scales the adjacency.
func invSqrtDegrees(deg []float64, loop float64) []float64 {
	t := make([]float64, len(deg))
	for i, d := range deg {
		if d += loop; d > 0 {
			t[i] = 1 / math.Sqrt(d)
		}
	}
	return t
}

// newNodeScale returns a new node's t_v = (σ + Σ_u w_vu)^{-1/2} (0 when that
// is 0) and its self weight S_vv = σ t_v².
func newNodeScale(nb []int32, w []float64, loop float64) (tv, self float64) {
	d := loop
	for k := range nb {
		if w == nil {
			d++
		} else {
			d += w[k]
		}
	}
	if d > 0 {
		tv = 1 / math.Sqrt(d)
	}
	return tv, loop * tv * tv
}

// addNeighbours adds Σ_u S_vu F_u to dst, S_vu = t_v w_vu t_u with the
// fitted nodes' t: the new node's row of the frozen-known operator applied
// to the fitted rows of f.
func addNeighbours(dst []float64, f *mat.Dense, t []float64, tv float64, nb []int32, w []float64) {
	for k, u := range nb {
		wt := 1.0
		if w != nil {
			wt = w[k]
		}
		s := tv * wt * t[u]
		if s == 0 {
			continue
		}
		for j, v := range f.RawRowView(int(u)) {
			dst[j] += s * v
		}
	}
}

// checkNewNodes checks new nodes and their features against a model fitted
// on n nodes with d features.
func checkNewNodes(where string, n, d int, nodes estimator.NewNodes, x Features) error {
	if err := nodes.Check(n); err != nil {
		return fmt.Errorf("nodeclass: %s: %w (edges must go to fitted nodes: a new node's edge to another new node is not part of the rule)", where, err)
	}
	if (x.Dense == nil) == (x.Sparse == nil) {
		return fmt.Errorf("nodeclass: %s: features: exactly one of Dense and Sparse must be set", where)
	}
	r, c := x.Dims()
	if r != nodes.Len() || c != d {
		return fmt.Errorf("nodeclass: %s: the features are %d×%d for %d new nodes; the model was fitted on %d features", where, r, c, nodes.Len(), d)
	}
	if x.Dense != nil {
		for i := range r {
			for k, v := range x.Dense.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("nodeclass: %s: new node %d: feature %d = %v is not finite", where, i, k, v)
				}
			}
		}
		return nil
	}
	s := x.Sparse
	if len(s.Indptr) != r+1 || s.Indptr[0] != 0 || int(s.Indptr[r]) != len(s.Indices) || len(s.Values) != len(s.Indices) {
		return fmt.Errorf("nodeclass: %s: sparse features: Indptr needs %d entries from 0 to len(Indices) = len(Values)", where, r+1)
	}
	for i := range r {
		lo, hi := s.Indptr[i], s.Indptr[i+1]
		if hi < lo {
			return fmt.Errorf("nodeclass: %s: sparse features: Indptr decreases at row %d", where, i)
		}
		for k := lo; k < hi; k++ {
			if col := s.Indices[k]; col < 0 || int(col) >= c {
				return fmt.Errorf("nodeclass: %s: new node %d: feature index %d is out of range [0, %d)", where, i, col, c)
			}
			if v := s.Values[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("nodeclass: %s: new node %d: feature %d = %v is not finite", where, i, s.Indices[k], v)
			}
		}
	}
	return nil
}

// predictNodes is the frozen-known rule of the package documentation for
// SGC and APPNP: softmax of the new nodes' logits with the fitted nodes'
// propagated logits fixed.
func (m *linear) predictNodes(ctx context.Context, where string, nodes estimator.NewNodes, x Features) (*mat.Dense, error) {
	n, c := m.probs.Dims()
	d, _ := m.w.Dims()
	if nodes.Len() == 0 {
		if err := nodes.Check(n); err != nil {
			return nil, fmt.Errorf("nodeclass: %s: %w", where, err)
		}
		return &mat.Dense{}, nil
	}
	if err := checkNewNodes(where, n, d, nodes, x); err != nil {
		return nil, err
	}
	xn, err := normalize(x, m.norm)
	if err != nil {
		return nil, err
	}
	out := xn.Mul(m.w) // x̂_v W, then the propagated logits in place
	prev := make([]float64, c)
	for i := range nodes.Len() {
		if i%predictCheckEvery == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		nb, w := nodes.Row(i)
		tv, self := newNodeScale(nb, w, gcnLoop)
		row := out.RawRowView(i)
		switch f := m.f.(type) {
		case powerFilter:
			// h_j = S̃_vv h_{j−1} + Σ_u S̃_vu (S̃^{j−1}X̂W)_u, j = 1..K.
			for j := range f.k {
				copy(prev, row)
				for k := range row {
					row[k] = self * prev[k]
				}
				addNeighbours(row, m.prop[j], m.t, tv, nb, w)
			}
		case pprFilter:
			// z_v = (a Σ_u S̃_vu z_u + (1 − a) h_v) / (1 − a S̃_vv).
			copy(prev, row)
			clear(row)
			addNeighbours(row, m.prop[0], m.t, tv, nb, w)
			den := 1 - f.a*self
			for k := range row {
				row[k] = (f.a*row[k] + (1-f.a)*prev[k]) / den
			}
		}
		for k := range row {
			row[k] += m.b[k]
		}
		logreg.Softmax(row)
	}
	return out, nil
}

// PredictNodes returns the class probabilities (one row per new node) of
// nodes that were not in the graph at fit time, from their edges to fitted
// nodes and their features (row i of x is new node i's, in the columns the
// model was fitted on), by the frozen-known rule of the package
// documentation: the fitted nodes keep their propagated values and
// degrees. Edges between new nodes are not part of the rule; an edge must
// go to a fitted node. A new node without edges gets softmax(x̂_v W + b),
// the logistic regression on its own features.
// Features returns the number of features the model was fitted on, 0
// before Fit.
func (m *SGC) Features() int { return featureCount(m.fit) }

// Features returns the number of features the model was fitted on, 0
// before Fit.
func (m *APPNP) Features() int { return featureCount(m.fit) }

func featureCount(f *linear) int {
	if f == nil {
		return 0
	}
	d, _ := f.w.Dims()
	return d
}

// nodeBase is a base model of Correct & Smooth that predicts new nodes and
// saves itself (SGC, APPNP).
type nodeBase interface {
	Base
	fileModel
	Features() int
}

var (
	_ nodeBase = (*SGC)(nil)
	_ nodeBase = (*APPNP)(nil)
)

// snapshot returns a copy of a fitted base that shares its (immutable)
// fitted state, so that refitting b — a base shared by the candidates of a
// grid — leaves the copy as it was; nil for a base that does not predict
// new nodes.
func snapshot(b Base) nodeBase {
	switch m := b.(type) {
	case *memo:
		return snapshot(m.base)
	case *SGC:
		if m.fit == nil {
			return nil
		}
		c := *m
		c.cache = nil
		return &c
	case *APPNP:
		if m.fit == nil {
			return nil
		}
		c := *m
		c.cache = nil
		return &c
	}
	return nil
}

// predictNodeScores returns the smoothed scores Ŷ of the new nodes of q
// (as Scores for the fitted nodes), whose clipped and normalised rows
// Predict returns.
func (m *CorrectSmooth) predictNodeScores(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if m.fitBase == nil {
		return nil, fmt.Errorf("nodeclass: CorrectSmooth.Predict: %s", m.noNewNodes())
	}
	nodes := *q.New
	z, err := m.fitBase.Predict(ctx, q)
	if err != nil || z.IsEmpty() {
		return z, err
	}
	a1, a2 := orDefault(m.CorrectAlpha, DefaultCorrectAlpha), orDefault(m.SmoothAlpha, DefaultSmoothAlpha)
	_, c := z.Dims()
	e := make([]float64, c)
	for i := range nodes.Len() {
		if i%predictCheckEvery == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		nb, w := nodes.Row(i)
		tv, _ := newNodeScale(nb, w, 0)
		// Correct: Ê_v = α₁ Σ_u S_vu Ê_u (E_v = 0, S_vv = 0).
		clear(e)
		addNeighbours(e, m.corr, m.t, tv, nb, w)
		var l1 float64
		for k := range e {
			e[k] *= a1
			l1 += math.Abs(e[k])
		}
		f := m.Scale
		if f == Autoscale {
			f = 0
			if l1 > 0 {
				f = m.sigma / l1
			}
		}
		row := z.RawRowView(i)
		for k := range row {
			row[k] += f * e[k]
		}
		// Smooth: Ŷ_v = α₂ Σ_u S_vu Ŷ_u + (1 − α₂) G_v, G_v = Z⁽ʳ⁾_v.
		clear(e)
		addNeighbours(e, m.probs, m.t, tv, nb, w)
		for k := range row {
			row[k] = a2*e[k] + (1-a2)*row[k]
		}
	}
	return z, nil
}

// Features returns the number of features of the base model that
// Predict uses for new nodes, 0 when there is none.
func (m *CorrectSmooth) Features() int {
	if m.fitBase == nil {
		return 0
	}
	return m.fitBase.Features()
}

// noNewNodes says why the model cannot predict new nodes.
func (m *CorrectSmooth) noNewNodes() string {
	if m.baseName == "" {
		return "the model was fitted from given base scores (FitScores); it answers for its fitted nodes only (Fit with an SGC or APPNP base predicts new nodes)"
	}
	return fmt.Sprintf("its base %s does not predict new nodes; it answers for its fitted nodes only (an SGC or APPNP base does)", m.baseName)
}
