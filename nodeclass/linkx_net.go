package nodeclass

import (
	"math/rand/v2"

	vec "gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/mlp"
)

// linkxShape is the size of a LINKX network: n fitted nodes (the columns
// of A), d features, h hidden units, c classes.
type linkxShape struct{ n, d, h, c int }

// size is the number of parameters.
func (s linkxShape) size() int {
	return s.n*s.h + s.h + s.d*s.h + s.h + 2*s.h*s.h + s.h + s.h*s.h + s.h + s.h*s.c + s.c
}

// linkxParams are views into one flat vector of parameters:
//
//	W_A (n×h), b_A, W_X (d×h), b_X, W_c (2h×h: the A rows over the X
//	rows), b_c, W_1 (h×h), b_1, W_o (h×c), b_o.
type linkxParams struct {
	flat       []float64
	wa, wx, wc *mat.Dense
	w1, wo     *mat.Dense
	ba, bx, bc []float64
	b1, bo     []float64
	weights    [][]float64 // the entries weight decay applies to
}

// newLINKXParams lays the parameters of shape s over flat (allocated when
// nil).
func newLINKXParams(s linkxShape, flat []float64) *linkxParams {
	if flat == nil {
		flat = make([]float64, s.size())
	}
	p := &linkxParams{flat: flat}
	off := 0
	take := func(k int) []float64 {
		v := flat[off : off+k : off+k]
		off += k
		return v
	}
	p.wa, p.ba = mat.NewDense(s.n, s.h, take(s.n*s.h)), take(s.h)
	p.wx, p.bx = mat.NewDense(s.d, s.h, take(s.d*s.h)), take(s.h)
	p.wc, p.bc = mat.NewDense(2*s.h, s.h, take(2*s.h*s.h)), take(s.h)
	p.w1, p.b1 = mat.NewDense(s.h, s.h, take(s.h*s.h)), take(s.h)
	p.wo, p.bo = mat.NewDense(s.h, s.c, take(s.h*s.c)), take(s.c)
	for _, w := range []*mat.Dense{p.wa, p.wx, p.wc, p.w1, p.wo} {
		p.weights = append(p.weights, w.RawMatrix().Data)
	}
	return p
}

// initLINKX draws the weights by Glorot's uniform rule; the biases stay 0.
func initLINKX(p *linkxParams, rng *rand.Rand) {
	for _, w := range []*mat.Dense{p.wa, p.wx, p.wc, p.w1, p.wo} {
		glorotFill(w, rng)
	}
}

// linkxWork holds one pass's activations over its rows.
type linkxWork struct {
	ha, hx *mat.Dense // A W_A + b_A, X W_X + b_X
	u      *mat.Dense // [H_A, H_X] W_c + b_c + H_A + H_X
	hid    *mat.Dense // ReLU(U) ⊙ M_1
	a1     *mat.Dense // hid W_1 + b_1
	z      *mat.Dense // ReLU(a1) ⊙ M_2
	m1, m2 *mat.Dense // dropout masks (nil: none)
	prob   *mat.Dense // softmax(z W_o + b_o)
	tmp    *mat.Dense // r×h scratch of the products
	// The gradient pass's blocks, allocated by its first call and reused.
	do, d1, du, dha, dhx *mat.Dense
}

func newLINKXWork(r int, s linkxShape) *linkxWork {
	nh := func() *mat.Dense { return mat.NewDense(r, s.h, nil) }
	return &linkxWork{ha: nh(), hx: nh(), u: nh(), hid: nh(), a1: nh(), z: nh(), prob: mat.NewDense(r, s.c, nil), tmp: nh()}
}

func (w *linkxWork) drawMasks(src *rand.PCG, q float64) {
	if q == 0 {
		w.m1, w.m2 = nil, nil
		return
	}
	r, h := w.u.Dims()
	if w.m1 == nil {
		w.m1, w.m2 = mat.NewDense(r, h, nil), mat.NewDense(r, h, nil)
	}
	mlp.DropoutMask(w.m1.RawMatrix().Data, src, q)
	mlp.DropoutMask(w.m2.RawMatrix().Data, src, q)
}

func (w *linkxWork) clearMasks() { w.m1, w.m2 = nil, nil }

// adjMulTo writes A W into dst (dst_i = Σ_j A_ij W_j, j in the row of i
// in g, self loops included as stored), gathering rows in parallel.
func adjMulTo(dst *mat.Dense, g *graph.CSR, w *mat.Dense) { adjMulRows(dst, g, w, nil) }

// adjMulRows is adjMulTo on the rows idx of dst (nil: every row).
func adjMulRows(dst *mat.Dense, g *graph.CSR, w *mat.Dense, idx []int) {
	n := g.Nodes()
	if idx != nil {
		n = len(idx)
	}
	parallel.For(n, meanGrain, func(lo, hi int) {
		var acc rowAcc
		for t := lo; t < hi; t++ {
			i := t
			if idx != nil {
				i = idx[t]
			}
			acc.out = dst.RawRowView(i)
			clear(acc.out)
			cols, ws := g.Row(i)
			for k, j := range cols {
				acc.add(ws[k], w.RawRowView(int(j)))
			}
			acc.flush()
		}
	})
}

// linkxForward computes the activations and class probabilities of the
// rows idx of x (nil: every row; the equations of LINKX's doc), leaving
// the other rows of w as they were; adj writes the rows' A W_A (without
// b_A) into its argument.
func linkxForward(p *linkxParams, s linkxShape, x Features, adj func(dst *mat.Dense, idx []int), w *linkxWork, idx []int) {
	adj(w.ha, idx)
	addRowVecRows(w.ha, p.ba, idx)
	featMulRows(w.hx, x, p.wx, idx)
	addRowVecRows(w.hx, p.bx, idx)
	h := s.h
	mulRows(w.u, w.ha, idx, p.wc.Slice(0, h, 0, h).(*mat.Dense), false)
	mulRows(w.tmp, w.hx, idx, p.wc.Slice(h, 2*h, 0, h).(*mat.Dense), false)
	addRows(w.u, w.tmp, idx)
	addRows(w.u, w.ha, idx)
	addRows(w.u, w.hx, idx)
	addRowVecRows(w.u, p.bc, idx)
	reluMaskedRows(w.hid, w.u, w.m1, idx)
	mulRows(w.a1, w.hid, idx, p.w1, false)
	addRowVecRows(w.a1, p.b1, idx)
	reluMaskedRows(w.z, w.a1, w.m2, idx)
	mulRows(w.prob, w.z, idx, p.wo, false)
	addRowVecRows(w.prob, p.bo, idx)
	softmaxRowsOf(w.prob, idx)
}

// reluMasked writes max(a, 0) ⊙ m into dst (m nil: no mask).
func reluMasked(dst, a, m *mat.Dense) {
	dd, ad := dst.RawMatrix().Data, a.RawMatrix().Data
	var md []float64
	if m != nil {
		md = m.RawMatrix().Data
	}
	for i, v := range ad {
		r := max(v, 0)
		if md != nil {
			r *= md[i]
		}
		dd[i] = r
	}
}

// reluMaskedBack replaces d by d ⊙ m ⊙ [a > 0] (m nil: no mask).
func reluMaskedBack(d, a, m *mat.Dense) {
	dd, ad := d.RawMatrix().Data, a.RawMatrix().Data
	var md []float64
	if m != nil {
		md = m.RawMatrix().Data
	}
	for i, v := range ad {
		switch {
		case v <= 0:
			dd[i] = 0
		case md != nil:
			dd[i] *= md[i]
		}
	}
}

// linkxLoss is the mean cross-entropy of the nodes idx with classes y plus
// λ/2 times the squared weights, from the last forward pass in w.
func linkxLoss(p *linkxParams, w *linkxWork, idx, y []int, lambda float64) float64 {
	loss := crossEntropy(w.prob, idx, y)
	if lambda > 0 {
		sq := 0.0
		for _, v := range p.weights {
			sq += vec.Dot(v, v)
		}
		loss += lambda / 2 * sq
	}
	return loss
}

// linkxBackward writes into g the gradient of linkxLoss with respect to
// the parameters, after linkxForward filled w for the fitted graph g0.
// A is symmetric in graph.CSR, so Aᵀ ∂H_A is the gather A ∂H_A.
func linkxBackward(p, g *linkxParams, s linkxShape, x Features, g0 *graph.CSR, w *linkxWork, idx, y []int, lambda float64) {
	n, h := s.n, s.h
	w.do = crossEntropyGrad(w.do, w.prob, idx, y)
	do := w.do
	// Every gradient block below is zero outside the rows of idx: the
	// products and sums run over those rows alone, in ascending order.
	rows := sortedRows(idx)
	mulTRows(g.wo, w.z, do, rows)
	colSumsRows(g.bo, do, rows)
	w.d1, w.du, w.dha, w.dhx = grow(w.d1, n, h), grow(w.du, n, h), grow(w.dha, n, h), grow(w.dhx, n, h)
	d1, du, dha, dhx := w.d1, w.du, w.dha, w.dhx
	mulRows(d1, do, rows, p.wo, true)
	reluMaskedBackRows(d1, w.a1, w.m2, rows)
	mulTRows(g.w1, w.hid, d1, rows)
	colSumsRows(g.b1, d1, rows)
	mulRows(du, d1, rows, p.w1, true)
	reluMaskedBackRows(du, w.u, w.m1, rows)
	mulTRows(g.wc.Slice(0, h, 0, h).(*mat.Dense), w.ha, du, rows)
	mulTRows(g.wc.Slice(h, 2*h, 0, h).(*mat.Dense), w.hx, du, rows)
	colSumsRows(g.bc, du, rows)
	mulRows(dha, du, rows, p.wc.Slice(0, h, 0, h).(*mat.Dense), true)
	addRows(dha, du, rows)
	mulRows(dhx, du, rows, p.wc.Slice(h, 2*h, 0, h).(*mat.Dense), true)
	addRows(dhx, du, rows)
	// Aᵀ ∂H_A gathers over every node's neighbours, and the dense Xᵀ ∂H_X
	// runs over every row: the other rows are the zeros they are in the
	// pass over every node.
	zeroOutside(dha, rows)
	zeroOutside(dhx, rows)
	adjMulTo(g.wa, g0, dha)
	colSumsRows(g.ba, dha, rows)
	featTMulRows(g.wx, x, dhx, rows)
	colSumsRows(g.bx, dhx, rows)
	if lambda > 0 {
		for k, v := range p.weights {
			vec.AddScaled(g.weights[k], lambda, v)
		}
	}
}

// linkxNet is LINKX's network on a graph and its features, as trainNet
// trains it.
type linkxNet struct {
	p, g *linkxParams
	s    linkxShape
	x    Features
	a    *graph.CSR
	w    *linkxWork
}

var _ net = (*linkxNet)(nil)

func (nt *linkxNet) params() []float64                  { return nt.p.flat }
func (nt *linkxNet) grads() []float64                   { return nt.g.flat }
func (nt *linkxNet) drawMasks(src *rand.PCG, q float64) { nt.w.drawMasks(src, q) }
func (nt *linkxNet) clearMasks()                        { nt.w.clearMasks() }
func (nt *linkxNet) prob() *mat.Dense                   { return nt.w.prob }
func (nt *linkxNet) forward(idx []int) {
	linkxForward(nt.p, nt.s, nt.x, func(dst *mat.Dense, idx []int) { adjMulRows(dst, nt.a, nt.p.wa, idx) }, nt.w, idx)
}
func (nt *linkxNet) backward(idx, y []int, lambda float64) {
	linkxBackward(nt.p, nt.g, nt.s, nt.x, nt.a, nt.w, idx, y, lambda)
}
