package mlp

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/gemm"
)

// params are the weights and biases of the perceptron.
type params struct {
	w1, w2 *mat.Dense
	b1, b2 []float64
}

func newParams(d, h, c int, rng *rand.Rand) *params {
	p := &params{w1: mat.NewDense(d, h, nil), w2: mat.NewDense(h, c, nil), b1: make([]float64, h), b2: make([]float64, c)}
	glorot(p.w1, rng)
	glorot(p.w2, rng)
	return p
}

// glorot fills w with draws from U(−a, a), a = √(6/(fan_in + fan_out)).
func glorot(w *mat.Dense, rng *rand.Rand) {
	r, c := w.Dims()
	a := math.Sqrt(6 / float64(r+c))
	data := w.RawMatrix().Data
	for i := range data {
		data[i] = a * (2*rng.Float64() - 1)
	}
}

// slices returns the parameter arrays in a fixed order.
func (p *params) slices() [][]float64 {
	return [][]float64{p.w1.RawMatrix().Data, p.b1, p.w2.RawMatrix().Data, p.b2}
}

func (p *params) zeroLike() *params {
	d, h := p.w1.Dims()
	_, c := p.w2.Dims()
	return &params{w1: mat.NewDense(d, h, nil), w2: mat.NewDense(h, c, nil), b1: make([]float64, h), b2: make([]float64, c)}
}

func (p *params) clone() *params {
	q := p.zeroLike()
	q.copyFrom(p)
	return q
}

func (p *params) copyFrom(q *params) {
	for k, s := range p.slices() {
		copy(s, q.slices()[k])
	}
}

// work holds one batch's activations: the pre-activations A, the masked
// hidden units H, the dropout mask (nil: none), the probabilities and the
// hidden units' gradient; and the rows of the batch X and of Xᵀ packed for
// the products (package gemm), once for the batch it last saw.
type work struct {
	a, h, mask, prob, dh *mat.Dense
	x                    *mat.Dense
	xa, xt               *gemm.Panels[float64]
}

func newWork(n, h, c int) *work {
	return &work{a: mat.NewDense(n, h, nil), h: mat.NewDense(n, h, nil), prob: mat.NewDense(n, c, nil)}
}

// pack packs the rows of x (for XW₁) and, with trans, of Xᵀ (for XᵀD),
// unless x is the matrix packed last.
func (w *work) pack(x *mat.Dense, trans bool) {
	if w.x != x {
		w.x, w.xa, w.xt = x, nil, nil
	}
	if w.xa == nil {
		w.xa = gemm.PackOp64(x.RawMatrix(), false, gemm.MR, nil)
	}
	if trans && w.xt == nil {
		w.xt = gemm.PackOp64(x.RawMatrix(), true, gemm.MR, nil)
	}
}

// mulPacked sets dst = op(A)·b for the packed rows a of op(A) (dst and b
// row-major, without views).
func mulPacked(dst *mat.Dense, a *gemm.Panels[float64], b *mat.Dense) {
	pb := gemm.PackOp64(b.RawMatrix(), true, gemm.NR64, nil)
	gemm.ParallelMulTTo(dst.RawMatrix().Data, dst.RawMatrix().Stride, a, pb)
}

// mul sets dst = op(a)·op(b) (gemm.Mul64).
func mul(dst, a *mat.Dense, ta bool, b *mat.Dense, tb bool) {
	gemm.Mul64(dst.RawMatrix(), a.RawMatrix(), ta, b.RawMatrix(), tb)
}

// drawMask draws an inverted-dropout mask with drop probability p (none
// when p is 0; DropoutMask).
func (w *work) drawMask(rng *rand.Rand, p float64) {
	if p == 0 {
		w.mask = nil
		return
	}
	if w.mask == nil {
		n, h := w.a.Dims()
		w.mask = mat.NewDense(n, h, nil)
	}
	DropoutMask(w.mask.RawMatrix().Data, rng, p)
}

// forward computes A, H and P for the rows of x.
func forward(p *params, x *mat.Dense, w *work) {
	w.pack(x, false)
	mulPacked(w.a, w.xa, p.w1)
	addRow(w.a, p.b1)
	ad, hd := w.a.RawMatrix().Data, w.h.RawMatrix().Data
	for i, v := range ad {
		hd[i] = max(v, 0)
	}
	if w.mask != nil {
		w.h.MulElem(w.h, w.mask)
	}
	mul(w.prob, w.h, false, p.w2, false)
	addRow(w.prob, p.b2)
	softmaxRows(w.prob)
}

func addRow(m *mat.Dense, b []float64) {
	r, _ := m.Dims()
	for i := 0; i < r; i++ {
		floats.Add(m.RawRowView(i), b)
	}
}

func softmaxRows(m *mat.Dense) {
	r, _ := m.Dims()
	for i := 0; i < r; i++ {
		row := m.RawRowView(i)
		top := floats.Max(row)
		s := 0.0
		for j, v := range row {
			row[j] = math.Exp(v - top)
			s += row[j]
		}
		floats.Scale(1/s, row)
	}
}

// lossGrad returns the loss L of the package doc on the rows x with labels
// y and weight decay lambda, using w's mask; with g non-nil it writes ∂L
// into g.
func lossGrad(p *params, x *mat.Dense, y []int, w *work, lambda float64, g *params) float64 {
	forward(p, x, w)
	n := float64(len(y))
	loss := 0.0
	for i, k := range y {
		loss -= math.Log(max(w.prob.At(i, k), math.SmallestNonzeroFloat64))
	}
	loss /= n
	if lambda > 0 {
		loss += lambda / 2 * (sumSq(p.w1) + sumSq(p.w2))
	}
	if g == nil {
		return loss
	}
	// G = (P − Y)/n, written over P.
	gz := w.prob
	for i, k := range y {
		gz.Set(i, k, gz.At(i, k)-1)
	}
	gz.Scale(1/n, gz)
	mul(g.w2, w.h, true, gz, false)
	colSums(g.b2, gz)
	if w.dh == nil {
		w.dh = mat.NewDense(len(y), len(p.b1), nil)
	}
	dh := w.dh
	mul(dh, gz, false, p.w2, true)
	if w.mask != nil {
		dh.MulElem(dh, w.mask)
	}
	dd, ad := dh.RawMatrix().Data, w.a.RawMatrix().Data
	for i, a := range ad {
		if a <= 0 {
			dd[i] = 0
		}
	}
	w.pack(x, true)
	mulPacked(g.w1, w.xt, dh)
	colSums(g.b1, dh)
	if lambda > 0 {
		floats.AddScaled(g.w1.RawMatrix().Data, lambda, p.w1.RawMatrix().Data)
		floats.AddScaled(g.w2.RawMatrix().Data, lambda, p.w2.RawMatrix().Data)
	}
	return loss
}

func sumSq(m *mat.Dense) float64 {
	return floats.Dot(m.RawMatrix().Data, m.RawMatrix().Data)
}

func colSums(dst []float64, m *mat.Dense) {
	for j := range dst {
		dst[j] = 0
	}
	r, _ := m.Dims()
	for i := 0; i < r; i++ {
		floats.Add(dst, m.RawRowView(i))
	}
}

// Adam is the state of the Adam optimiser (Kingma & Ba, "Adam: a method
// for stochastic optimization", ICLR 2015, with bias correction) over a
// model's parameter arrays: with g the gradient at step t,
//
//	m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,
//	θ ← θ − η (m/(1−β₁ᵗ)) / (√(v/(1−β₂ᵗ)) + ε),
//
// β₁ = 0.9, β₂ = 0.999, ε = 1e-8. The zero Adam with LearningRate η set
// starts from zero moments.
type Adam struct {
	LearningRate float64
	t            int
	m1, m2       [][]float64
}

const (
	beta1   = 0.9
	beta2   = 0.999
	epsilon = 1e-8
)

// Step takes one step of the parameter arrays p against their gradients
// g, arrays of the same lengths in the same order at every step.
func (o *Adam) Step(p, g [][]float64) {
	if o.m1 == nil {
		o.m1, o.m2 = make([][]float64, len(p)), make([][]float64, len(p))
		for k := range p {
			o.m1[k], o.m2[k] = make([]float64, len(p[k])), make([]float64, len(p[k]))
		}
	}
	o.t++
	c1 := 1 - math.Pow(beta1, float64(o.t))
	c2 := 1 - math.Pow(beta2, float64(o.t))
	for k := range p {
		m1, m2, pk := o.m1[k], o.m2[k], p[k]
		for i, gi := range g[k] {
			m1[i] = beta1*m1[i] + (1-beta1)*gi
			m2[i] = beta2*m2[i] + (1-beta2)*gi*gi
			pk[i] -= o.LearningRate * (m1[i] / c1) / (math.Sqrt(m2[i]/c2) + epsilon)
		}
	}
}
