package nodeclass

import (
	"math"
	"math/rand/v2"

	vec "gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/mlp"
)

// sepLayerNormEps is the ε under LayerNorm's square root, PyTorch's
// nn.LayerNorm default.
const sepLayerNormEps = 1e-5

// sepShape is the size of a SepGNN network: d input features, h hidden
// units, c classes, L residual layers.
type sepShape struct{ d, h, c, layers int }

// size is the number of parameters.
func (s sepShape) size() int {
	return s.d*s.h + s.h + s.layers*(2*s.h*s.h+3*s.h) + s.h*s.c + s.c
}

// sepParams are views into one flat vector of parameters (Adam and the
// best-epoch copy work on the flat vector):
//
//	W_in (d×h), b_in, then per layer W_l (2h×h: the ego rows over the
//	neighbour rows), b_l, γ_l, β_l, then W_out (h×c), b_out.
type sepParams struct {
	flat           []float64
	win            *mat.Dense
	bin            []float64
	w              []*mat.Dense
	b, gamma, beta [][]float64
	wout           *mat.Dense
	bout           []float64
	weights        [][]float64 // the entries weight decay applies to
}

// newSepParams lays the parameters of shape s over flat (allocated when
// nil).
func newSepParams(s sepShape, flat []float64) *sepParams {
	if flat == nil {
		flat = make([]float64, s.size())
	}
	p := &sepParams{flat: flat}
	off := 0
	take := func(k int) []float64 {
		v := flat[off : off+k : off+k]
		off += k
		return v
	}
	p.win = mat.NewDense(s.d, s.h, take(s.d*s.h))
	p.bin = take(s.h)
	for l := 0; l < s.layers; l++ {
		p.w = append(p.w, mat.NewDense(2*s.h, s.h, take(2*s.h*s.h)))
		p.b = append(p.b, take(s.h))
		p.gamma = append(p.gamma, take(s.h))
		p.beta = append(p.beta, take(s.h))
	}
	p.wout = mat.NewDense(s.h, s.c, take(s.h*s.c))
	p.bout = take(s.c)
	p.weights = [][]float64{p.win.RawMatrix().Data, p.wout.RawMatrix().Data}
	for _, w := range p.w {
		p.weights = append(p.weights, w.RawMatrix().Data)
	}
	return p
}

// initSep draws the weights by Glorot's uniform rule and sets γ = 1, the
// biases and β to 0.
func initSep(p *sepParams, rng *rand.Rand) {
	glorotFill(p.win, rng)
	for l, w := range p.w {
		glorotFill(w, rng)
		for j := range p.gamma[l] {
			p.gamma[l][j] = 1
		}
	}
	glorotFill(p.wout, rng)
}

// glorotFill fills w with draws from U(−a, a), a = √(6/(fan_in + fan_out)).
func glorotFill(w *mat.Dense, rng *rand.Rand) {
	r, c := w.Dims()
	a := math.Sqrt(6 / float64(r+c))
	for i, data := 0, w.RawMatrix().Data; i < len(data); i++ {
		data[i] = a * (2*rng.Float64() - 1)
	}
}

// meanOp is S = D⁻¹A of a graph with its self loops left out, applied to
// blocks of rows (NeighbourMean), and its transpose Sᵀ = A D⁻¹ (A is
// symmetric in graph.CSR). Both gather over rows, so every row is summed
// in one order whatever the number of workers.
type meanOp struct {
	g   *graph.CSR
	inv []float64 // 1/Σ_{j≠i} w_ij, 0 for a node without neighbours
}

func newMeanOp(g *graph.CSR) meanOp {
	n := g.Nodes()
	inv := make([]float64, n)
	for i := 0; i < n; i++ {
		cols, ws := g.Row(i)
		mass := 0.0
		for k, j := range cols {
			if int(j) != i {
				mass += ws[k]
			}
		}
		if mass > 0 {
			inv[i] = 1 / mass
		}
	}
	return meanOp{g: g, inv: inv}
}

// meanGrain is the rows per chunk of the parallel products.
const meanGrain = 256

// mul writes S src into dst (dst_i = Σ_{j≠i} w_ij src_j / Σ_{j≠i} w_ij).
func (m meanOp) mul(dst, src *mat.Dense) { m.apply(dst, src, false, nil) }

// mulRows is mul on the rows idx of dst (nil: every row).
func (m meanOp) mulRows(dst, src *mat.Dense, idx []int) { m.apply(dst, src, false, idx) }

// mulT writes Sᵀ src into dst (dst_j = Σ_{i≠j} w_ji src_i / Σ_{k≠i} w_ik).
func (m meanOp) mulT(dst, src *mat.Dense) { m.apply(dst, src, true, nil) }

func (m meanOp) apply(dst, src *mat.Dense, transpose bool, idx []int) {
	n := m.g.Nodes()
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
			out := dst.RawRowView(i)
			clear(out)
			acc.out = out
			cols, ws := m.g.Row(i)
			for k, j := range cols {
				if int(j) == i {
					continue
				}
				a := ws[k]
				if transpose {
					a *= m.inv[j]
				}
				acc.add(a, src.RawRowView(int(j)))
			}
			acc.flush()
			if !transpose {
				vec.Scale(m.inv[i], out)
			}
		}
	})
}

// sepWork holds one pass's activations over all n nodes.
type sepWork struct {
	a0   *mat.Dense   // X W_in + b_in
	h    []*mat.Dense // H_0 … H_L
	sh   []*mat.Dense // S H_{l−1}, l = 1…L
	xhat []*mat.Dense // the normalised pre-activations of layer l
	rstd [][]float64  // 1/σ of each row of layer l
	nrm  []*mat.Dense // γ x̂ + β
	mask []*mat.Dense // dropout masks of H_0's units and of each layer (nil: none)
	prob *mat.Dense   // softmax(H_L W_out + b_out)
	tmp  *mat.Dense   // n×h scratch of the products
	// The gradient pass's n×c and n×h blocks, allocated by its first call
	// and reused by the next epochs'.
	dz, dh, du, back *mat.Dense
}

// grow returns m, or a new r×c matrix when m is nil.
func grow(m *mat.Dense, r, c int) *mat.Dense {
	if m == nil {
		return mat.NewDense(r, c, nil)
	}
	return m
}

func newSepWork(n int, s sepShape) *sepWork {
	w := &sepWork{a0: mat.NewDense(n, s.h, nil), prob: mat.NewDense(n, s.c, nil), tmp: mat.NewDense(n, s.h, nil)}
	w.h = append(w.h, mat.NewDense(n, s.h, nil))
	w.mask = make([]*mat.Dense, s.layers+1)
	for l := 0; l < s.layers; l++ {
		w.h = append(w.h, mat.NewDense(n, s.h, nil))
		w.sh = append(w.sh, mat.NewDense(n, s.h, nil))
		w.xhat = append(w.xhat, mat.NewDense(n, s.h, nil))
		w.nrm = append(w.nrm, mat.NewDense(n, s.h, nil))
		w.rstd = append(w.rstd, make([]float64, n))
	}
	return w
}

// drawMasks draws inverted-dropout masks with drop probability q (none
// when q is 0).
func (w *sepWork) drawMasks(src *rand.PCG, q float64) {
	for l := range w.mask {
		if q == 0 {
			w.mask[l] = nil
			continue
		}
		if w.mask[l] == nil {
			w.mask[l] = mat.NewDense(w.a0.RawMatrix().Rows, w.a0.RawMatrix().Cols, nil)
		}
		mlp.DropoutMask(w.mask[l].RawMatrix().Data, src, q)
	}
}

// clearMasks turns dropout off (evaluation).
func (w *sepWork) clearMasks() {
	for l := range w.mask {
		w.mask[l] = nil
	}
}

// sepForward computes the activations and class probabilities of every
// node (the equations of SepGNN's doc).
func sepForward(p *sepParams, s sepShape, x Features, op meanOp, w *sepWork) {
	sepForwardRows(p, s, x, op, w, nil)
}

// sepForwardRows is sepForward with the last layer and the output computed
// on the rows idx alone (nil: every row), the rows the loss reads.
func sepForwardRows(p *sepParams, s sepShape, x Features, op meanOp, w *sepWork, idx []int) {
	sepForwardWith(p, s, x, func(dst, src *mat.Dense, _ int, rows []int) { op.mulRows(dst, src, rows) }, w, idx)
}

// sepForwardWith is sepForwardRows with the neighbour means of layer l
// (S H_{l−1}, l = 0..L−1) written into the rows given (nil: every row) of
// dst by mean: the fitted graph's S, or new nodes' means over the fitted
// nodes' stored H_{l−1}.
func sepForwardWith(p *sepParams, s sepShape, x Features, mean func(dst, src *mat.Dense, l int, rows []int), w *sepWork, idx []int) {
	featMulTo(w.a0, x, p.win)
	addRowVec(w.a0, p.bin)
	h0 := w.h[0].RawMatrix().Data
	for i, v := range w.a0.RawMatrix().Data {
		h0[i] = max(v, 0)
	}
	if w.mask[0] != nil {
		w.h[0].MulElem(w.h[0], w.mask[0])
	}
	h := s.h
	for l := 0; l < s.layers; l++ {
		var rows []int // the layer's rows: all but in the last layer
		if l == s.layers-1 {
			rows = idx
		}
		prev, next := w.h[l], w.h[l+1]
		mean(w.sh[l], prev, l, rows)
		u := w.xhat[l]
		mulRows(u, prev, rows, p.w[l].Slice(0, h, 0, h).(*mat.Dense), false)
		mulRows(w.tmp, w.sh[l], rows, p.w[l].Slice(h, 2*h, 0, h).(*mat.Dense), false)
		addRows(u, w.tmp, rows)
		addRowVecRows(u, p.b[l], rows)
		n := u.RawMatrix().Rows
		eachRow(n, rows, func(i int) {
			layerNormRow(u.RawRowView(i), &w.rstd[l][i])
			out, xr := w.nrm[l].RawRowView(i), u.RawRowView(i)
			for j := range out {
				out[j] = p.gamma[l][j]*xr[j] + p.beta[l][j]
			}
			nd, pd, nx := next.RawRowView(i), prev.RawRowView(i), out
			var md []float64
			if w.mask[l+1] != nil {
				md = w.mask[l+1].RawRowView(i)
			}
			for j, v := range nx {
				r := max(v, 0)
				if md != nil {
					r *= md[j]
				}
				nd[j] = pd[j] + r
			}
		})
	}
	mulRows(w.prob, w.h[s.layers], idx, p.wout, false)
	addRowVecRows(w.prob, p.bout, idx)
	softmaxRowsOf(w.prob, idx)
}

// layerNormRow replaces row by (row − mean)/σ, σ = √(var + ε), and writes
// 1/σ into rstd.
func layerNormRow(row []float64, rstd *float64) {
	c := len(row)
	mean := vec.Sum(row) / float64(c)
	v := 0.0
	for _, x := range row {
		v += (x - mean) * (x - mean)
	}
	rs := 1 / math.Sqrt(v/float64(c)+sepLayerNormEps)
	for j, x := range row {
		row[j] = (x - mean) * rs
	}
	*rstd = rs
}

// sepLoss returns the mean cross-entropy of the nodes idx with classes y
// plus λ/2 times the squared weights, from the probabilities of the last
// forward pass in w.
func sepLoss(p *sepParams, w *sepWork, idx, y []int, lambda float64) float64 {
	loss := 0.0
	for k, i := range idx {
		loss -= math.Log(max(w.prob.At(i, y[k]), math.SmallestNonzeroFloat64))
	}
	loss /= float64(len(idx))
	if lambda > 0 {
		sq := 0.0
		for _, v := range p.weights {
			sq += vec.Dot(v, v)
		}
		loss += lambda / 2 * sq
	}
	return loss
}

// sepBackward writes into g the gradient of sepLoss with respect to the
// parameters, after sepForward filled w.
func sepBackward(p, g *sepParams, s sepShape, x Features, op meanOp, w *sepWork, idx, y []int, lambda float64) {
	n := w.prob.RawMatrix().Rows
	h := s.h
	w.dz = crossEntropyGrad(w.dz, w.prob, idx, y)
	dz := w.dz
	// The gradients of the output and of the last layer are zero outside
	// the training rows: they are computed on those rows alone, in
	// ascending order, and the blocks that reach the layers below are
	// zeroed elsewhere.
	rows := sortedRows(idx)
	mulTRows(g.wout, w.h[s.layers], dz, rows)
	colSumsRows(g.bout, dz, rows)
	w.dh, w.du, w.back = grow(w.dh, n, h), grow(w.du, n, h), grow(w.back, n, h)
	dh, du, back := w.dh, w.du, w.back
	mulRows(dh, dz, rows, p.wout, true)
	zeroOutside(dh, rows)
	t := w.tmp
	for l := s.layers - 1; l >= 0; l-- {
		var lr []int // the layer's rows: all but in the last layer
		if l == s.layers-1 {
			lr = rows
		}
		// Through D = ReLU(N) ⊙ M into N, then LayerNorm into U.
		clear(g.gamma[l])
		clear(g.beta[l])
		eachRow(n, lr, func(i int) { sepNormRowBackward(p, g, w, l, i, du, dh) })
		// U = H W_ego + (S H) W_nbr + b.
		mulTRows(g.w[l].Slice(0, h, 0, h).(*mat.Dense), w.h[l], du, lr)
		mulTRows(g.w[l].Slice(h, 2*h, 0, h).(*mat.Dense), w.sh[l], du, lr)
		colSumsRows(g.b[l], du, lr)
		mulRows(t, du, lr, p.w[l].Slice(0, h, 0, h).(*mat.Dense), true)
		addRows(dh, t, lr)
		mulRows(t, du, lr, p.w[l].Slice(h, 2*h, 0, h).(*mat.Dense), true)
		zeroOutside(t, lr)
		op.mulT(back, t)
		dh.Add(dh, back)
	}
	// Through H_0 = ReLU(A_0) ⊙ M_0 into W_in.
	dd, ad := dh.RawMatrix().Data, w.a0.RawMatrix().Data
	for i, a := range ad {
		switch {
		case a <= 0:
			dd[i] = 0
		case w.mask[0] != nil:
			dd[i] *= w.mask[0].RawMatrix().Data[i]
		}
	}
	featTMulTo(g.win, x, dh)
	colSumsTo(g.bin, dh)
	if lambda > 0 {
		for k, v := range p.weights {
			vec.AddScaled(g.weights[k], lambda, v)
		}
	}
}

// sepNormRowBackward takes row i of layer l's output gradient dh through
// D = ReLU(N) ⊙ M into N, then through the LayerNorm into row i of du,
// adding the row's share of the LayerNorm's gain and bias gradients to g.
func sepNormRowBackward(p, g *sepParams, w *sepWork, l, i int, du, dh *mat.Dense) {
	dn, nx, hd := du.RawRowView(i), w.nrm[l].RawRowView(i), dh.RawRowView(i)
	var md []float64
	if w.mask[l+1] != nil {
		md = w.mask[l+1].RawRowView(i)
	}
	for j, v := range hd {
		switch {
		case nx[j] <= 0:
			dn[j] = 0
		case md != nil:
			dn[j] = v * md[j]
		default:
			dn[j] = v
		}
	}
	xr := w.xhat[l].RawRowView(i)
	m1, m2 := 0.0, 0.0
	for j, v := range dn {
		g.gamma[l][j] += v * xr[j]
		g.beta[l][j] += v
		v *= p.gamma[l][j]
		dn[j] = v
		m1 += v
		m2 += v * xr[j]
	}
	h := float64(len(dn))
	m1 /= h
	m2 /= h
	for j, v := range dn {
		dn[j] = w.rstd[l][i] * (v - m1 - xr[j]*m2)
	}
}

// featMulTo writes X W into dst; sparse rows are multiplied in place.
func featMulTo(dst *mat.Dense, x Features, w *mat.Dense) { featMulRows(dst, x, w, nil) }

// featMulRows writes the rows idx of X W into dst (nil: every row); dense
// features are multiplied whole.
func featMulRows(dst *mat.Dense, x Features, w *mat.Dense, idx []int) {
	if x.Dense != nil {
		dst.Mul(x.Dense, w)
		return
	}
	n, _ := x.Dims()
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
			cols, vals := x.Sparse.Row(i)
			for k, c := range cols {
				acc.add(vals[k], w.RawRowView(int(c)))
			}
			acc.flush()
		}
	})
}

// featTMulTo writes Xᵀ W into dst (d×h). For sparse X it scatters row by
// row, in row order, on one goroutine.
func featTMulTo(dst *mat.Dense, x Features, w *mat.Dense) { featTMulRows(dst, x, w, nil) }

// featTMulRows is featTMulTo for a W whose rows outside idx (ascending)
// are zero: sparse rows are scattered from the rows idx alone (a zero row
// adds nothing); dense features are multiplied whole.
func featTMulRows(dst *mat.Dense, x Features, w *mat.Dense, idx []int) {
	if x.Dense != nil {
		dst.Mul(x.Dense.T(), w)
		return
	}
	dst.Zero()
	n, _ := x.Dims()
	eachRow(n, idx, func(i int) {
		src := w.RawRowView(i)
		cols, vals := x.Sparse.Row(i)
		for k, c := range cols {
			vec.AddScaled(dst.RawRowView(int(c)), vals[k], src)
		}
	})
}

func addRowVec(m *mat.Dense, b []float64) {
	r, _ := m.Dims()
	for i := 0; i < r; i++ {
		vec.Add(m.RawRowView(i), b)
	}
}

func colSumsTo(dst []float64, m *mat.Dense) {
	clear(dst)
	r, _ := m.Dims()
	for i := 0; i < r; i++ {
		vec.Add(dst, m.RawRowView(i))
	}
}

func softmaxRowsInPlace(m *mat.Dense) {
	r, _ := m.Dims()
	for i := 0; i < r; i++ {
		row := m.RawRowView(i)
		top := vec.Max(row)
		s := 0.0
		for j, v := range row {
			row[j] = math.Exp(v - top)
			s += row[j]
		}
		vec.Scale(1/s, row)
	}
}

// sepNet is SepGNN's network on a graph and its features, as trainNet
// trains it.
type sepNet struct {
	p, g *sepParams
	s    sepShape
	x    Features
	op   meanOp
	w    *sepWork
}

var _ net = (*sepNet)(nil)

func (nt *sepNet) params() []float64                  { return nt.p.flat }
func (nt *sepNet) grads() []float64                   { return nt.g.flat }
func (nt *sepNet) drawMasks(src *rand.PCG, q float64) { nt.w.drawMasks(src, q) }
func (nt *sepNet) clearMasks()                        { nt.w.clearMasks() }
func (nt *sepNet) forward(idx []int)                  { sepForwardRows(nt.p, nt.s, nt.x, nt.op, nt.w, idx) }
func (nt *sepNet) prob() *mat.Dense                   { return nt.w.prob }
func (nt *sepNet) backward(idx, y []int, lambda float64) {
	sepBackward(nt.p, nt.g, nt.s, nt.x, nt.op, nt.w, idx, y, lambda)
}
