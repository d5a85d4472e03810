package linbp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/homophily"
)

// Defaults of the Propagation's fields.
const (
	DefaultAlpha   = 0.9
	DefaultTol     = 1e-8
	DefaultMaxIter = 1000
)

// Propagation is linearised belief propagation with the compatibility
// matrix estimated from the training labels (see the package doc).
// Predict returns the class probabilities of the fitted nodes, the
// approximate beliefs 1/c + B clipped at 0 and renormalised
// (see the package doc); Beliefs returns the centred beliefs B themselves.
type Propagation struct {
	// Alpha is a ρ(Ĥ), in the open interval (0, 1) (0: DefaultAlpha).
	Alpha float64
	// Tol is the relative stopping tolerance, > 0 (0: DefaultTol).
	Tol float64
	// MaxIter is the most iterations, ≥ 1 (0: DefaultMaxIter).
	MaxIter int

	fit *fitted
}

type fitted struct {
	beliefs *mat.Dense
	compat  *mat.Dense
	info    estimator.Info
}

var _ estimator.NodeClassifier = (*Propagation)(nil)

func (m *Propagation) alpha() float64 {
	if m.Alpha == 0 {
		return DefaultAlpha
	}
	return m.Alpha
}

func (m *Propagation) tol() float64 {
	if m.Tol == 0 {
		return DefaultTol
	}
	return m.Tol
}

func (m *Propagation) maxIter() int {
	if m.MaxIter == 0 {
		return DefaultMaxIter
	}
	return m.MaxIter
}

// Validate checks the hyperparameters.
func (m *Propagation) Validate() error {
	switch {
	case !(m.Alpha >= 0 && m.Alpha < 1):
		return fmt.Errorf("linbp: Alpha=%v is invalid: it must be in the open interval (0, 1) (0 for %v)", m.Alpha, DefaultAlpha)
	case !(m.Tol >= 0 && m.Tol < 1):
		return fmt.Errorf("linbp: Tol=%v is invalid: it must be in the open interval (0, 1) (0 for %v)", m.Tol, DefaultTol)
	case m.MaxIter < 0:
		return fmt.Errorf("linbp: MaxIter=%d is invalid: it must be ≥ 1 (0 for %d)", m.MaxIter, DefaultMaxIter)
	}
	return nil
}

// Clone returns an unfitted copy with the same hyperparameters.
func (m *Propagation) Clone() *Propagation {
	c := *m
	c.fit = nil
	return &c
}

// Info reports the iterations and the last relative change.
func (m *Propagation) Info() estimator.Info {
	if m.fit == nil {
		return estimator.Info{}
	}
	return m.fit.info
}

// Compatibility returns the centred compatibility matrix Ĥ of the last fit
// (nil before).
func (m *Propagation) Compatibility() *mat.Dense {
	if m.fit == nil {
		return nil
	}
	return mat.DenseCopyOf(m.fit.compat)
}

// Fit estimates Ĥ from the labelled nodes (label ≥ 0) and solves for B.
// Features are ignored.
func (m *Propagation) Fit(ctx context.Context, x estimator.Nodes, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	m.fit = nil
	g := x.Graph
	if g == nil {
		return errors.New("linbp: no graph")
	}
	n := g.Nodes()
	if len(labels) != n {
		return fmt.Errorf("linbp: %d labels for a graph of %d nodes", len(labels), n)
	}
	stats, err := homophily.Measure(g, labels)
	if err != nil {
		return fmt.Errorf("linbp: estimating the compatibility matrix: %w", err)
	}
	c := stats.Compatibility.RawMatrix().Rows
	if c < 2 {
		return fmt.Errorf("linbp: the labelled nodes have %d class: need ≥ 2", c)
	}
	hc := Centre(stats.Compatibility)
	e := Priors(labels, c)
	rho := SpectralRadius(hc)
	a := 0.0
	if rho > 0 {
		a = m.alpha() / rho
	}
	b, info, err := Solve(ctx, g, e, hc, a, m.tol(), m.maxIter())
	if err != nil {
		return err
	}
	m.fit = &fitted{beliefs: b, compat: hc, info: info}
	return nil
}

// Predict returns the class probabilities of the fitted nodes (the zero
// NodeQuery), probabilities of the centred beliefs: each row is
// non-negative, sums to 1 and has the largest entry where the row of B
// has its first largest; new nodes are not supported.
func (m *Propagation) Predict(ctx context.Context, q estimator.NodeQuery) (*mat.Dense, error) {
	if m.fit == nil {
		return nil, fmt.Errorf("linbp: %w", estimator.ErrNotFitted)
	}
	if q.New != nil || q.Features != nil {
		return nil, errors.New("linbp: belief propagation predicts its fitted nodes only (the zero NodeQuery)")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("linbp: predict cancelled: %w", err)
	}
	return probabilities(m.fit.beliefs), nil
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *Propagation) Output() estimator.Output { return estimator.Probabilities }

// Beliefs returns the centred beliefs B of the fitted nodes (rows sum to
// 0; decision values, not probabilities), nil before a fit.
func (m *Propagation) Beliefs() *mat.Dense {
	if m.fit == nil {
		return nil
	}
	return mat.DenseCopyOf(m.fit.beliefs)
}

// probabilities returns, for centred beliefs b (n×c, rows summing to 0),
// the approximate beliefs 1/c + b clipped at 0 and each row divided by its
// sum. A row's largest entry stays where b's first largest is: clipping
// and scaling keep the order of the entries, and where rounding would tie
// an earlier entry with it, the largest is raised by one unit in the last
// place. A row of b sums to 0, so its largest entry is ≥ 0 and the row's
// sum is ≥ 1/c: it is never divided by 0.
func probabilities(b *mat.Dense) *mat.Dense {
	n, c := b.Dims()
	p := mat.NewDense(n, c, nil)
	u := 1 / float64(c)
	for i := 0; i < n; i++ {
		src, dst := b.RawRowView(i), p.RawRowView(i)
		best, sum := 0, 0.0
		for k, v := range src {
			if v > src[best] {
				best = k
			}
			dst[k] = max(u+v, 0)
			sum += dst[k]
		}
		for k := range dst {
			dst[k] /= sum
		}
		for k := 0; k < best; k++ {
			if dst[k] >= dst[best] {
				dst[best] = math.Nextafter(dst[k], math.Inf(1))
			}
		}
	}
	return p
}

// Centre returns Ĥ = H − 1/c, a zero row of H (a class without counted
// edges) taken as uniform, so that it centres to 0.
func Centre(h *mat.Dense) *mat.Dense {
	c, _ := h.Dims()
	out := mat.NewDense(c, c, nil)
	for k := 0; k < c; k++ {
		s := 0.0
		for l := 0; l < c; l++ {
			s += h.At(k, l)
		}
		if s == 0 {
			continue
		}
		for l := 0; l < c; l++ {
			out.Set(k, l, h.At(k, l)-1/float64(c))
		}
	}
	return out
}

// Priors returns E: one-hot labels minus 1/c for labelled nodes, 0 rows
// for the others.
func Priors(labels []int, c int) *mat.Dense {
	e := mat.NewDense(len(labels), c, nil)
	for i, k := range labels {
		if k < 0 {
			continue
		}
		for l := 0; l < c; l++ {
			e.Set(i, l, -1/float64(c))
		}
		e.Set(i, k, 1-1/float64(c))
	}
	return e
}

// SpectralRadius returns the largest modulus of h's eigenvalues.
func SpectralRadius(h *mat.Dense) float64 {
	var eig mat.Eigen
	if !eig.Factorize(h, mat.EigenNone) {
		// Gershgorin's bound: the largest absolute row sum.
		r := 0.0
		c, _ := h.Dims()
		for k := 0; k < c; k++ {
			s := 0.0
			for l := 0; l < c; l++ {
				s += math.Abs(h.At(k, l))
			}
			r = max(r, s)
		}
		return r
	}
	r := 0.0
	for _, v := range eig.Values(nil) {
		r = max(r, cmplx.Abs(v))
	}
	return r
}

// Solve iterates B ← E + a S B Ĥ from B = E until the largest change of an
// entry is at most tol times E's largest entry, with S = D^{-1/2} A D^{-1/2}.
func Solve(ctx context.Context, g *graph.CSR, e, hc *mat.Dense, a, tol float64, maxIter int) (*mat.Dense, estimator.Info, error) {
	n, c := e.Dims()
	scale := make([]float64, n)
	for i := range scale {
		if d := g.Degree(i); d > 0 {
			scale[i] = 1 / math.Sqrt(d)
		}
	}
	emax := mat.Norm(e, math.Inf(1))
	b := mat.DenseCopyOf(e)
	sb := mat.NewDense(n, c, nil)
	next := mat.NewDense(n, c, nil)
	info := estimator.Info{}
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, info, fmt.Errorf("linbp: cancelled at iteration %d: %w", it, err)
		}
		for i := 0; i < n; i++ {
			row := sb.RawRowView(i)
			clear(row)
			cols, ws := g.Row(i)
			for k, j := range cols {
				w := ws[k] * scale[i] * scale[j]
				for l, v := range b.RawRowView(int(j)) {
					row[l] += w * v
				}
			}
		}
		next.Mul(sb, hc)
		next.Scale(a, next)
		next.Add(next, e)
		change := 0.0
		for i, v := range next.RawMatrix().Data {
			change = max(change, math.Abs(v-b.RawMatrix().Data[i]))
		}
		b, next = next, b
		info = estimator.Info{Iterations: it, Residual: change / max(emax, math.SmallestNonzeroFloat64), Products: it}
		if change <= tol*emax {
			return b, info, nil
		}
	}
	return nil, info, &estimator.NotConvergedError{Model: "linbp", Method: "fixed point", Iterations: info.Iterations, Residual: info.Residual}
}

// String names the model and its hyperparameters, as classify reports it.
func (m *Propagation) String() string {
	return fmt.Sprintf("LinBP(alpha=%g)", m.alpha())
}
