package nodeclass

import (
	"math"
	"math/rand/v2"

	vec "gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/mlp"
	"github.com/gssl/gssl/propagate"
)

// appnpShape is the size of an APPNPNet: d features, h hidden units, c
// classes.
type appnpShape struct{ d, h, c int }

func (s appnpShape) size() int { return s.d*s.h + s.h + s.h*s.c + s.c }

// appnpParams are views into one flat vector of parameters: W₁ (d×h), b₁,
// W₂ (h×c), b₂.
type appnpParams struct {
	flat   []float64
	w1, w2 *mat.Dense
	b1, b2 []float64
}

// newAPPNPParams lays the parameters of shape s over flat (allocated when
// nil).
func newAPPNPParams(s appnpShape, flat []float64) *appnpParams {
	if flat == nil {
		flat = make([]float64, s.size())
	}
	p := &appnpParams{flat: flat}
	off := 0
	take := func(k int) []float64 {
		v := flat[off : off+k : off+k]
		off += k
		return v
	}
	p.w1, p.b1 = mat.NewDense(s.d, s.h, take(s.d*s.h)), take(s.h)
	p.w2, p.b2 = mat.NewDense(s.h, s.c, take(s.h*s.c)), take(s.c)
	return p
}

// initLinear draws W and b as PyTorch's nn.Linear does (the layers of
// PyG's example): every entry uniform in ±1/√fan_in, fan_in = W's rows.
func initLinear(w *mat.Dense, b []float64, rng *rand.Rand) {
	r, _ := w.Dims()
	a := 1 / math.Sqrt(float64(r))
	for _, v := range [][]float64{w.RawMatrix().Data, b} {
		for i := range v {
			v[i] = a * (2*rng.Float64() - 1)
		}
	}
}

// weights are the entries weight decay applies to.
func (p *appnpParams) weights() [][]float64 {
	return [][]float64{p.w1.RawMatrix().Data, p.w2.RawMatrix().Data}
}

// pprSteps sets dst to Π_K h by K steps of z ← a S̃ z + (1 − a) h from
// z = h (APPNP's propagation, Klicpera et al. 2019, eq. 4), using tmp
// (n×c) as scratch. Π_K = Σ_{j<K} (1 − a) a^j S̃^j + a^K S̃^K is a
// polynomial in the symmetric S̃, so it is its own transpose. Every
// product gathers over rows: the result does not depend on the workers.
func pprSteps(op *propagate.Adjacency, dst, h, tmp *mat.Dense, a float64, k int) {
	dst.Copy(h)
	hd, dd, td := h.RawMatrix().Data, dst.RawMatrix().Data, tmp.RawMatrix().Data
	for range k {
		op.MulBlockTo(tmp, dst)
		for i, v := range td {
			dd[i] = a*v + (1-a)*hd[i]
		}
	}
}

// appnpWork holds one pass's activations over every node.
type appnpWork struct {
	x      Features   // the (dropped-out) input of the pass
	a1     *mat.Dense // X W₁ + b₁ (n×h)
	hid    *mat.Dense // ReLU(a1) ⊙ M₁
	m1     *mat.Dense // hidden dropout mask (nil: none)
	out    *mat.Dense // hid W₂ + b₂ (n×c), the predictions H
	prob   *mat.Dense // softmax(Π_K out)
	tmp    *mat.Dense // n×c scratch
	ce     *mat.Dense // (P − Y)/|idx| on the training rows
	do, dh *mat.Dense // the gradient pass's blocks
}

// appnpNet is APPNPNet's network on a graph and its normalised features,
// as trainNet trains it.
type appnpNet struct {
	p, g *appnpParams
	s    appnpShape
	x    Features // X̂
	op   *propagate.Adjacency
	a    float64
	k    int
	w    appnpWork
	drop []float64 // the input's masked values (sparse X: one per stored entry)
}

var _ net = (*appnpNet)(nil)

func newAPPNPNet(p *appnpParams, s appnpShape, x Features, op *propagate.Adjacency, a float64, k int) *appnpNet {
	n, _ := x.Dims()
	nt := &appnpNet{p: p, g: newAPPNPParams(s, nil), s: s, x: x, op: op, a: a, k: k}
	nh, nc := func() *mat.Dense { return mat.NewDense(n, s.h, nil) }, func() *mat.Dense { return mat.NewDense(n, s.c, nil) }
	nt.w = appnpWork{x: x, a1: nh(), hid: nh(), out: nc(), prob: nc(), tmp: nc(), ce: nc(), do: nc(), dh: nh()}
	return nt
}

func (nt *appnpNet) params() []float64 { return nt.p.flat }
func (nt *appnpNet) grads() []float64  { return nt.g.flat }
func (nt *appnpNet) prob() *mat.Dense  { return nt.w.prob }

// drawMasks draws the masks of the input (its stored entries when sparse)
// and of the hidden units, in that order, from src.
func (nt *appnpNet) drawMasks(src *rand.PCG, q float64) {
	if q == 0 {
		nt.clearMasks()
		return
	}
	vals := nt.inputValues()
	if nt.drop == nil {
		nt.drop = make([]float64, len(vals))
	}
	mlp.DropoutMask(nt.drop, src, q)
	for i, v := range vals {
		nt.drop[i] *= v
	}
	nt.w.x = nt.withValues(nt.drop)
	nt.w.m1 = grow(nt.w.m1, nt.w.hid.RawMatrix().Rows, nt.s.h)
	mlp.DropoutMask(nt.w.m1.RawMatrix().Data, src, q)
}

func (nt *appnpNet) clearMasks() { nt.w.x, nt.w.m1 = nt.x, nil }

// inputValues are the entries of X̂ dropout applies to.
func (nt *appnpNet) inputValues() []float64 {
	if s := nt.x.Sparse; s != nil {
		return s.Values
	}
	return nt.x.Dense.RawMatrix().Data
}

// withValues is X̂ with its entries (inputValues) replaced by vals.
func (nt *appnpNet) withValues(vals []float64) Features {
	if s := nt.x.Sparse; s != nil {
		return Features{Sparse: &loaders.Sparse{Rows: s.Rows, Cols: s.Cols, Indptr: s.Indptr, Indices: s.Indices, Values: vals}}
	}
	r, c := nt.x.Dense.Dims()
	return Features{Dense: mat.NewDense(r, c, vals)}
}

// forward computes every node's class probabilities: the propagation
// needs the predictions of every node, so idx changes nothing.
func (nt *appnpNet) forward([]int) {
	w, p := &nt.w, nt.p
	featMulRows(w.a1, w.x, p.w1, nil)
	addRowVec(w.a1, p.b1)
	reluMasked(w.hid, w.a1, w.m1)
	mulRows(w.out, w.hid, nil, p.w2, false)
	addRowVec(w.out, p.b2)
	pprSteps(nt.op, w.prob, w.out, w.tmp, nt.a, nt.k)
	softmaxRowsOf(w.prob, nil)
}

// backward writes the gradient of the mean cross-entropy of the nodes idx
// plus λ/2 (‖W₁‖² + ‖W₂‖²): ∂H = Π_K (P − Y)/|idx| (Π_K symmetric), then
// the perceptron's back-propagation through its masks.
func (nt *appnpNet) backward(idx, y []int, lambda float64) {
	w, p, g := &nt.w, nt.p, nt.g
	w.ce = crossEntropyGrad(w.ce, w.prob, idx, y)
	pprSteps(nt.op, w.do, w.ce, w.tmp, nt.a, nt.k)
	mulTRows(g.w2, w.hid, w.do, nil)
	colSumsTo(g.b2, w.do)
	mulRows(w.dh, w.do, nil, p.w2, true)
	reluMaskedBack(w.dh, w.a1, w.m1)
	featTMulRows(g.w1, w.x, w.dh, nil)
	colSumsTo(g.b1, w.dh)
	if lambda > 0 {
		for k, v := range p.weights() {
			vec.AddScaled(g.weights()[k], lambda, v)
		}
	}
}
