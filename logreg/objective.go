package logreg

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// objective evaluates J and ∇J (doc.go) with θ = [W row-major (d×c), b].
// The value and gradient at the same θ share one pass: the last θ, its
// probabilities, its value and, once computed, its gradient are kept.
type objective struct {
	x      Design
	y      []int
	c, d   int
	lambda float64

	last   []float64
	p      *mat.Dense // m×c probabilities at last
	value0 float64
	g0     []float64 // ∇J at last when hasG0
	hasG0  bool
}

func newObjective(x Design, y []int, c int, lambda float64) *objective {
	m, d := x.Dims()
	return &objective{x: x, y: y, c: c, d: d, lambda: lambda, p: mat.NewDense(m, c, nil)}
}

// eval computes the probabilities and J at theta unless theta is the last
// point evaluated.
func (o *objective) eval(theta []float64) {
	if o.last != nil && slices.Equal(o.last, theta) {
		return
	}
	o.last = append(o.last[:0], theta...)
	o.hasG0 = false
	d, c := o.d, o.c
	w := mat.NewDense(d, c, theta[:d*c:d*c])
	b := theta[d*c:]
	o.x.MulTo(o.p, w)
	m := len(o.y)
	var nll float64
	for i := 0; i < m; i++ {
		row := o.p.RawRowView(i)
		for j := range row {
			row[j] += b[j]
		}
		zy := row[o.y[i]]
		lse := Softmax(row)
		nll += lse - zy
	}
	var ww float64
	for _, v := range theta[:d*c] {
		ww += v * v
	}
	o.value0 = nll/float64(m) + 0.5*o.lambda*ww
}

func (o *objective) value(theta []float64) float64 {
	o.eval(theta)
	return o.value0
}

func (o *objective) grad(g, theta []float64) {
	o.eval(theta)
	if o.hasG0 {
		copy(g, o.g0)
		return
	}
	defer func() { o.g0, o.hasG0 = append(o.g0[:0], g...), true }()
	d, c := o.d, o.c
	m := len(o.y)
	inv := 1 / float64(m)
	r := mat.DenseCopyOf(o.p) // P − Y, scaled by 1/m
	gb := g[d*c:]
	clear(gb)
	for i := 0; i < m; i++ {
		row := r.RawRowView(i)
		row[o.y[i]]--
		for j := range row {
			row[j] *= inv
			gb[j] += row[j]
		}
	}
	gw := mat.NewDense(d, c, g[:d*c:d*c])
	o.x.TMulTo(gw, r)
	for k, v := range theta[:d*c] {
		g[k] += o.lambda * v
	}
	if math.IsNaN(o.value0) {
		for k := range g {
			g[k] = math.NaN()
		}
	}
}
