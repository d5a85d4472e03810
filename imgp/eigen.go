package imgp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/knngraph"
)

// Eigenpairs are the L smallest eigenpairs of Δ_rw = I − D⁻¹A with
// D-orthonormal eigenvectors: Δ_rw f_l = λ_l f_l, f_lᵀ D f_m = δ_lm.
type Eigenpairs struct {
	Values  []float64  // λ_0 ≤ λ_1 ≤ … ≤ λ_{L−1}
	Vectors *mat.Dense // N×L, column l is f_l
}

// Eigensolver computes the L smallest eigenpairs of Δ_rw for graph weights.
// The spectral package's Lanczos solver is meant to plug in here.
type Eigensolver interface {
	Smallest(ctx context.Context, w *knngraph.Weights, l int) (*Eigenpairs, error)
}

// DenseComponents is the explicit dense eigensolver. It splits the graph
// into connected components and reduces each component's
// L_sym = I − D^{-1/2}AD^{-1/2} to tridiagonal form (LAPACK's dsytrd, dense),
// computes all its eigenvalues (dsterf), keeps the L smallest over all
// components (a zero eigenvalue per component), and computes only those
// eigenvectors, by inverse iteration on the tridiagonal matrix followed by
// the back-transformation (dormtr). Eigenvectors are f = D^{-1/2}u, zero
// outside their component, with the sign that makes the entry of largest
// magnitude positive. Cost Σ_c (4/3)n_c³ time and max_c n_c² memory per
// worker; a component larger than MaxComponent is an error. Per-component
// solving is exact for repeated zero eigenvalues (single-vector Lanczos is
// not; ALGORITHMS.md §1).
type DenseComponents struct {
	// MaxComponent is the largest component size accepted; 0 means 4000.
	MaxComponent int
}

// tridiagonal is one component reduced to T = QᵀSQ.
type tridiagonal struct {
	nodes  []int
	a      []float64 // dsytrd's reflectors (lower), n×n
	tau    []float64
	d, e   []float64 // T's diagonal and off-diagonal
	values []float64 // eigenvalues of T, ascending
}

// Smallest implements Eigensolver.
func (dc DenseComponents) Smallest(ctx context.Context, w *knngraph.Weights, l int) (*Eigenpairs, error) {
	n := len(w.D)
	if l < 1 || l > n {
		return nil, fmt.Errorf("imgp: eigenpairs L = %d is invalid: it must be in [1, N = %d]", l, n)
	}
	limit := dc.MaxComponent
	if limit == 0 {
		limit = 4000
	}
	members, err := componentMembers(w, limit)
	if err != nil {
		return nil, err
	}
	count := len(members)
	sqrtD := make([]float64, n)
	for i, v := range w.D {
		sqrtD[i] = math.Sqrt(v)
	}
	tri, err := reduceAll(ctx, w, members, sqrtD)
	if err != nil {
		return nil, err
	}
	pairs := smallestPairs(tri, l)
	need := make([]int, count) // eigenpairs needed from each component (its smallest)
	for _, p := range pairs {
		need[p.comp] = max(need[p.comp], p.idx+1)
	}
	vecs := make([]*mat.Dense, count)
	parallel.For(count, 1, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			if need[c] > 0 {
				vecs[c] = tri[c].vectors(need[c])
			}
			tri[c].a = nil
		}
	})
	out := &Eigenpairs{Values: make([]float64, len(pairs)), Vectors: mat.NewDense(n, len(pairs), nil)}
	for q, p := range pairs {
		out.Values[q] = math.Max(p.lambda, 0)
		setEigenvector(out.Vectors, q, members[p.comp], vecs[p.comp], p.idx, sqrtD)
	}
	return out, nil
}

// componentMembers lists the nodes of each connected component of the
// graph, refusing a component of more than limit nodes.
func componentMembers(w *knngraph.Weights, limit int) ([][]int, error) {
	comp, count := w.A.Components()
	members := make([][]int, count)
	for i, c := range comp {
		members[c] = append(members[c], i)
	}
	for c, m := range members {
		if len(m) > limit {
			return nil, fmt.Errorf("imgp: DenseComponents: component %d has %d nodes, more than MaxComponent = %d; use a sparse eigensolver", c, len(m), limit)
		}
	}
	return members, nil
}

// reduceAll reduces every component to tridiagonal form, in parallel.
func reduceAll(ctx context.Context, w *knngraph.Weights, members [][]int, sqrtD []float64) ([]*tridiagonal, error) {
	count := len(members)
	tri := make([]*tridiagonal, count)
	errs := make([]error, count)
	parallel.For(count, 1, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			if err := ctx.Err(); err != nil {
				errs[c] = err
				return
			}
			tri[c], errs[c] = reduce(w, members[c], sqrtD)
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return tri, nil
}

// componentPair is eigenvalue idx of component comp.
type componentPair struct {
	lambda    float64
	comp, idx int
}

// smallestPairs returns the l smallest eigenvalues over all components
// (fewer if there are fewer), ascending, ties in component order.
func smallestPairs(tri []*tridiagonal, l int) []componentPair {
	var pairs []componentPair
	for c, t := range tri {
		for k, v := range t.values[:min(l, len(t.values))] {
			pairs = append(pairs, componentPair{lambda: v, comp: c, idx: k})
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool {
		if pairs[a].lambda != pairs[b].lambda {
			return pairs[a].lambda < pairs[b].lambda
		}
		return pairs[a].comp < pairs[b].comp
	})
	return pairs[:min(l, len(pairs))]
}

// setEigenvector sets column q of dst to f = D^{-1/2}u for the eigenvector u
// in column idx of v, on the nodes m of its component, with the sign that
// makes its entry of largest magnitude positive.
func setEigenvector(dst *mat.Dense, q int, m []int, v *mat.Dense, idx int, sqrtD []float64) {
	var big float64
	for k := range m {
		if x := v.At(k, idx); math.Abs(x) > math.Abs(big)+1e-12 {
			big = x
		}
	}
	sign := 1.0
	if big < 0 {
		sign = -1
	}
	for k, i := range m {
		dst.Set(i, q, sign*v.At(k, idx)/sqrtD[i])
	}
}

// reduce forms one component's L_sym densely and reduces it to tridiagonal
// form, computing all its eigenvalues.
func reduce(w *knngraph.Weights, m []int, sqrtD []float64) (*tridiagonal, error) {
	nc := len(m)
	local := make(map[int]int, nc)
	for k, i := range m {
		local[i] = k
	}
	a := make([]float64, nc*nc) // lower triangle used
	for k, i := range m {
		a[k*nc+k] = 1
		cols, ws := w.A.Row(i)
		for p, j := range cols {
			if kj := local[int(j)]; kj <= k {
				a[k*nc+kj] -= ws[p] / (sqrtD[i] * sqrtD[j])
			}
		}
	}
	t := &tridiagonal{nodes: m, a: a, tau: make([]float64, max(nc-1, 1)), d: make([]float64, nc), e: make([]float64, max(nc-1, 1))}
	var impl gonum.Implementation
	work := make([]float64, 1)
	impl.Dsytrd(blas.Lower, nc, a, nc, t.d, t.e, t.tau, work, -1)
	work = make([]float64, int(work[0]))
	impl.Dsytrd(blas.Lower, nc, a, nc, t.d, t.e, t.tau, work, len(work))
	t.values = append([]float64(nil), t.d...)
	e := append([]float64(nil), t.e...)
	if !impl.Dsterf(nc, t.values, e) {
		return nil, fmt.Errorf("imgp: DenseComponents: the eigenvalues of a component of %d nodes did not converge", nc)
	}
	return t, nil
}

// vectors returns the eigenvectors of the k smallest eigenvalues (nc×k):
// inverse iteration on T (orthogonalised within clusters), then u = Qv.
func (t *tridiagonal) vectors(k int) *mat.Dense {
	nc := len(t.d)
	v := mat.NewDense(nc, k, nil)
	var norm float64 // ‖T‖_1
	for i := range t.d {
		s := math.Abs(t.d[i])
		if i > 0 {
			s += math.Abs(t.e[i-1])
		}
		if i < nc-1 {
			s += math.Abs(t.e[i])
		}
		norm = math.Max(norm, s)
	}
	cluster := 1e-3 * norm
	rng := rand.New(rand.NewPCG(uint64(nc), 0x7a1))
	x := make([]float64, nc)
	ws := newTriSolver(nc)
	for j := 0; j < k; j++ {
		lam := t.values[j]
		for i := range x {
			x[i] = rng.Float64() - 0.5
		}
		ws.factor(t.d, t.e, lam, norm)
		for it := 0; it < 3; it++ {
			ws.solve(x)
			for p := j - 1; p >= 0 && lam-t.values[p] <= cluster; p-- {
				var s float64
				for i := range x {
					s += x[i] * v.At(i, p)
				}
				for i := range x {
					x[i] -= s * v.At(i, p)
				}
			}
			var s float64
			for _, xi := range x {
				s += xi * xi
			}
			s = 1 / math.Sqrt(s)
			for i := range x {
				x[i] *= s
			}
		}
		v.SetCol(j, x)
	}
	if nc > 1 {
		var impl gonum.Implementation
		raw := v.RawMatrix()
		work := make([]float64, 1)
		impl.Dormqr(blas.Left, blas.NoTrans, nc-1, k, nc-1, t.a[nc:], nc, t.tau, raw.Data[raw.Stride:], raw.Stride, work, -1)
		work = make([]float64, int(work[0]))
		impl.Dormqr(blas.Left, blas.NoTrans, nc-1, k, nc-1, t.a[nc:], nc, t.tau, raw.Data[raw.Stride:], raw.Stride, work, len(work))
	}
	return v
}

// triSolver is an LU factorisation with partial pivoting of T − θI for a
// symmetric tridiagonal T (as LAPACK's dlagtf), for inverse iteration.
type triSolver struct {
	u0, u1, u2, l []float64
	swap          []bool
}

func newTriSolver(n int) *triSolver {
	return &triSolver{u0: make([]float64, n), u1: make([]float64, n), u2: make([]float64, n), l: make([]float64, n), swap: make([]bool, n)}
}

func (s *triSolver) factor(d, e []float64, theta, norm float64) {
	n := len(d)
	tiny := 1e-15 * math.Max(norm, 1e-300)
	c0 := d[0] - theta
	var c1 float64
	if n > 1 {
		c1 = e[0]
	}
	for i := 0; i < n-1; i++ {
		next0, next1 := d[i+1]-theta, 0.0
		if i+1 < n-1 {
			next1 = e[i+1]
		}
		if math.Abs(c0) >= math.Abs(e[i]) {
			if c0 == 0 {
				c0 = tiny
			}
			m := e[i] / c0
			s.u0[i], s.u1[i], s.u2[i], s.l[i], s.swap[i] = c0, c1, 0, m, false
			c0, c1 = next0-m*c1, next1
		} else {
			m := c0 / e[i]
			s.u0[i], s.u1[i], s.u2[i], s.l[i], s.swap[i] = e[i], next0, next1, m, true
			c0, c1 = c1-m*next0, -m*next1
		}
	}
	if math.Abs(c0) < tiny {
		c0 = math.Copysign(tiny, c0)
	}
	s.u0[n-1] = c0
}

func (s *triSolver) solve(b []float64) {
	n := len(b)
	for i := 0; i < n-1; i++ {
		if s.swap[i] {
			b[i], b[i+1] = b[i+1], b[i]
		}
		b[i+1] -= s.l[i] * b[i]
	}
	for i := n - 1; i >= 0; i-- {
		v := b[i]
		if i+1 < n {
			v -= s.u1[i] * b[i+1]
		}
		if i+2 < n {
			v -= s.u2[i] * b[i+2]
		}
		b[i] = v / s.u0[i]
	}
}
