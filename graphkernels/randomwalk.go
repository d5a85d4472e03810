package graphkernels

import (
	"context"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/linop"
)

// RandomWalk is the geometric random-walk kernel with node labels
// (Gärtner et al. 2003; Vishwanathan et al., JMLR 2010, eq. 8 and §4.2):
//
//	k(G, G') = 1ᵀ (I − λ A×)^{-1} 1,   A× = P (A ⊗ A') P
//
// where A and A' are the weight matrices of the two graphs and P keeps the
// node pairs (u, u') with equal labels: it counts the common walks of every
// length ℓ with weight λ^ℓ. The system is solved by conjugate gradients on
// the n·n' pair space with the vec trick, (A ⊗ A') vec X = vec(A X A'), so
// the Kronecker matrix is never formed: a product costs
// O(n'·nnz(A) + n·nnz(A')) and memory is O(n·n') per pair being computed.
//
// The series converges, and I − λA× is positive definite, only when
// λ < 1/ρ(A×). ρ(A×) ≤ ρ(A)·ρ(A'); when λ·ρ(A)·ρ(A') ≥ 1 the label-filtered
// ρ(A×) of that pair is computed (power iteration with Collatz–Wielandt and
// Rayleigh bounds) and Fit or Transform fails, naming the pair, when λ is
// not below 1/ρ(A×).
type RandomWalk struct {
	// Lambda is the decay λ > 0 of walks of length ℓ (weight λ^ℓ); it must be
	// below 1/ρ(A×) for every pair of graphs compared.
	Lambda float64
	// Tol is the CG relative residual target; 0 means 1e-10.
	Tol float64
	// MaxIter caps the CG iterations of one pair; 0 means krylov's default.
	MaxIter int
	// Progress, when set, observes the Gram matrix rows.
	Progress Progress

	train []Graph
	rho   []float64 // upper bounds of ρ(A) of the training graphs
}

var _ Kernel = (*RandomWalk)(nil)

// DefaultRandomWalkTol is the CG relative residual used when Tol is 0:
// near machine precision, so kernel values carry about 10 correct digits.
const DefaultRandomWalkTol = 1e-10

// Validate checks the hyperparameters that do not depend on the graphs.
func (r *RandomWalk) Validate() error {
	if !(r.Lambda > 0) || math.IsInf(r.Lambda, 0) {
		return fmt.Errorf("graphkernels: RandomWalk Lambda=%v is invalid: it must be > 0 and below 1/ρ(A×)", r.Lambda)
	}
	if !(r.Tol >= 0 && r.Tol < 1) {
		return fmt.Errorf("graphkernels: RandomWalk Tol=%v is invalid: it must be in [0, 1) (0 means %g)", r.Tol, DefaultRandomWalkTol)
	}
	if r.MaxIter < 0 {
		return fmt.Errorf("graphkernels: RandomWalk MaxIter=%d is invalid: it must be ≥ 0 (0 means the solver's default)", r.MaxIter)
	}
	return nil
}

// Fit keeps the training graphs after checking that λ is below 1/ρ(A×)
// for every pair of them.
func (r *RandomWalk) Fit(ctx context.Context, graphs []Graph) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if len(graphs) == 0 {
		return fmt.Errorf("graphkernels: RandomWalk: no training graphs")
	}
	if err := checkGraphs("training", graphs); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	rho, err := adjacencyRadii(graphs)
	if err != nil {
		return err
	}
	n := len(graphs)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			if err := r.checkPair(graphs[i], graphs[j], rho[i], rho[j]); err != nil {
				return fmt.Errorf("graphkernels: RandomWalk training graphs %d and %d: %w", i, j, err)
			}
		}
	}
	r.train, r.rho = graphs, rho
	return nil
}

// Gram returns the Gram matrix of the training graphs, one CG solve per
// pair i ≥ j, in parallel.
func (r *RandomWalk) Gram(ctx context.Context) (*mat.SymDense, error) {
	if r.train == nil {
		return nil, estimator.NotFitted("graphkernels: RandomWalk.Gram")
	}
	graphs := r.train
	n := len(graphs)
	k := mat.NewSymDense(n, nil)
	raw := k.RawSymmetric()
	prefix := make([]int, n+1)
	cum := 0
	for i, g := range graphs {
		cum += g.Adj.Nodes()
		prefix[i+1] = prefix[i] + g.Adj.Nodes()*cum
	}
	err := r.pairs(ctx, n, prefix, func(s *rwScratch, i int) error {
		for j := 0; j <= i; j++ {
			v, err := r.pair(ctx, s, graphs[i], graphs[j])
			if err != nil {
				return fmt.Errorf("graphkernels: RandomWalk training graphs %d and %d: %w", i, j, err)
			}
			raw.Data[j*raw.Stride+i] = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// Transform returns k(new_i, train_j).
func (r *RandomWalk) Transform(ctx context.Context, graphs []Graph) (*mat.Dense, error) {
	return dropSelf(r.Cross(ctx, graphs))
}

// Info is the zero Info (each pair's CG solve is its own).
func (r *RandomWalk) Info() estimator.Info { return estimator.Info{} }

// Clone returns an unfitted copy of r.
func (r *RandomWalk) Clone() *RandomWalk {
	return &RandomWalk{Lambda: r.Lambda, Tol: r.Tol, MaxIter: r.MaxIter, Progress: r.Progress}
}

// Cross returns k(new_i, train_j) and k(new_i, new_i).
func (r *RandomWalk) Cross(ctx context.Context, graphs []Graph) (*mat.Dense, []float64, error) {
	if r.train == nil {
		return nil, nil, estimator.NotFitted("graphkernels: RandomWalk.Transform")
	}
	if err := r.Validate(); err != nil {
		return nil, nil, err
	}
	if err := checkGraphs("new", graphs); err != nil {
		return nil, nil, err
	}
	rho, err := adjacencyRadii(graphs)
	if err != nil {
		return nil, nil, err
	}
	m, n := len(graphs), len(r.train)
	for i := range graphs {
		if err := r.checkPair(graphs[i], graphs[i], rho[i], rho[i]); err != nil {
			return nil, nil, fmt.Errorf("graphkernels: RandomWalk new graph %d with itself: %w", i, err)
		}
		for j := range r.train {
			if err := r.checkPair(graphs[i], r.train[j], rho[i], r.rho[j]); err != nil {
				return nil, nil, fmt.Errorf("graphkernels: RandomWalk new graph %d and training graph %d: %w", i, j, err)
			}
		}
	}
	self := make([]float64, m)
	if m == 0 {
		return &mat.Dense{}, self, nil
	}
	out := mat.NewDense(m, n, nil)
	trainNodes := 0
	for _, g := range r.train {
		trainNodes += g.Adj.Nodes()
	}
	prefix := make([]int, m+1)
	for i, g := range graphs {
		ni := g.Adj.Nodes()
		prefix[i+1] = prefix[i] + ni*(trainNodes+ni)
	}
	err = r.pairs(ctx, m, prefix, func(s *rwScratch, i int) error {
		for j := 0; j < n; j++ {
			v, err := r.pair(ctx, s, graphs[i], r.train[j])
			if err != nil {
				return fmt.Errorf("graphkernels: RandomWalk new graph %d and training graph %d: %w", i, j, err)
			}
			out.Set(i, j, v)
		}
		v, err := r.pair(ctx, s, graphs[i], graphs[i])
		if err != nil {
			return fmt.Errorf("graphkernels: RandomWalk new graph %d with itself: %w", i, err)
		}
		self[i] = v
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, self, nil
}

// rwScratch holds one worker's buffers, grown as needed.
type rwScratch struct {
	b, x, t, y []float64
	mask       []bool
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// pairs runs row(i) over rows [0, n) on balanced chunks and returns the
// error of the lowest failing row (so the message does not depend on the
// schedule), or ctx's error.
func (r *RandomWalk) pairs(ctx context.Context, n int, prefix []int, row func(s *rwScratch, i int) error) error {
	errs := make([]error, n)
	var mu sync.Mutex
	done := 0
	parallel.Balanced(prefix, 1<<12, func(lo, hi int) {
		s := &rwScratch{}
		for i := lo; i < hi; i++ {
			if ctx.Err() != nil {
				return
			}
			if errs[i] = row(s, i); errs[i] != nil {
				return
			}
			if r.Progress != nil {
				mu.Lock()
				done++
				r.Progress(done, n)
				mu.Unlock()
			}
		}
	})
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return ctx.Err()
}

// productOp returns the operator y = P(A ⊗ A')P x on the n·n' pair space
// (row-major: pair (u, u') at u·n' + u') with the mask of label-matched
// pairs, using s.t as scratch.
func productOp(g, h Graph, s *rwScratch) (linop.Func, []bool) {
	n, m := g.Adj.Nodes(), h.Adj.Nodes()
	N := n * m
	if cap(s.mask) < N {
		s.mask = make([]bool, N)
	}
	mask := s.mask[:N]
	for u := 0; u < n; u++ {
		lu := g.label(u)
		for v := 0; v < m; v++ {
			mask[u*m+v] = h.label(v) == lu
		}
	}
	s.t = grow(s.t, N)
	t := s.t
	return linop.Func{N: N, F: func(dst, x []float64) {
		// T = (P x) A'  (A' symmetric: T[u][v] = Σ_{w ∈ N'(v)} A'_vw X[u][w])
		for u := 0; u < n; u++ {
			xr := x[u*m : (u+1)*m]
			mr := mask[u*m : (u+1)*m]
			tr := t[u*m : (u+1)*m]
			for v := 0; v < m; v++ {
				cols, ws := h.Adj.Row(v)
				var sum float64
				for k, c := range cols {
					if mr[c] {
						sum += ws[k] * xr[c]
					}
				}
				tr[v] = sum
			}
		}
		// Y = P (A T)
		for u := 0; u < n; u++ {
			dr := dst[u*m : (u+1)*m]
			for v := range dr {
				dr[v] = 0
			}
			cols, ws := g.Adj.Row(u)
			for k, c := range cols {
				w := ws[k]
				tr := t[int(c)*m : (int(c)+1)*m]
				for v, tv := range tr {
					dr[v] += w * tv
				}
			}
			mr := mask[u*m : (u+1)*m]
			for v := range dr {
				if !mr[v] {
					dr[v] = 0
				}
			}
		}
	}}, mask
}

// pair returns k(g, h) by CG on (I − λA×) x = P1.
func (r *RandomWalk) pair(ctx context.Context, s *rwScratch, g, h Graph) (float64, error) {
	prod, mask := productOp(g, h, s)
	N := prod.N
	if N == 0 {
		return 0, nil
	}
	s.b, s.x, s.y = grow(s.b, N), grow(s.x, N), grow(s.y, N)
	for k, on := range mask {
		s.b[k], s.x[k] = 0, 0
		if on {
			s.b[k] = 1
		}
	}
	sys := linop.Affine{A: prod, Scale: -r.Lambda, Shift: 1}
	tol := r.Tol
	if tol == 0 {
		tol = DefaultRandomWalkTol
	}
	if _, err := krylov.CG(ctx, sys, s.b, s.x, krylov.Settings{Tol: tol, MaxIter: r.MaxIter}); err != nil {
		return 0, err
	}
	var sum float64
	for _, v := range s.x {
		sum += v
	}
	return sum, nil
}

// checkPair returns an error when λ·ρ(A×) ≥ 1 for the pair; rg and rh are
// upper bounds of ρ(A) and ρ(A').
func (r *RandomWalk) checkPair(g, h Graph, rg, rh float64) error {
	if r.Lambda*rg*rh < 1 {
		return nil
	}
	s := &rwScratch{}
	prod, mask := productOp(g, h, s)
	lo, hi := perronBounds(prod.N, prod.F, mask, 1/r.Lambda)
	if r.Lambda*hi < 1 {
		return nil
	}
	// Invalid: bracket ρ(A×) tightly for the message (NaN never stops early).
	lo, hi = perronBounds(prod.N, prod.F, mask, math.NaN())
	rho := 0.5 * (lo + hi)
	return fmt.Errorf("Lambda=%v is invalid: it must be below 1/ρ(A×) = %.6g (ρ(A×) = %.6g), or the walk series diverges", r.Lambda, 1/rho, rho)
}

// adjacencyRadii returns upper bounds of the spectral radius of every
// graph's weight matrix (non-negative: graph.CSR refuses negative weights).
func adjacencyRadii(graphs []Graph) ([]float64, error) {
	rho := make([]float64, len(graphs))
	for k, g := range graphs {
		_, rho[k] = perronBounds(g.Adj.Nodes(), g.Adj.MulVecTo, nil, math.NaN())
	}
	return rho, nil
}

// Power-iteration settings of perronBounds.
const (
	perronRelGap  = 1e-9  // stop when hi − lo ≤ perronRelGap·hi
	perronMaxIter = 20000 // enough for the slow, near-reducible cases
)

// perronBounds brackets the spectral radius ρ of a symmetric non-negative
// matrix B restricted to the coordinates where active is true (nil: all),
// by power iteration on B + I from the all-ones vector: for x > 0 the
// Collatz–Wielandt ratio max_i ((B+I)x)_i/x_i − 1 bounds ρ from above and
// the Rayleigh quotient xᵀBx/xᵀx from below. It stops early once the
// bracket lies entirely below or above threshold.
func perronBounds(n int, mul func(dst, x []float64), active []bool, threshold float64) (lo, hi float64) {
	on := func(i int) bool { return active == nil || active[i] }
	x := make([]float64, n)
	y := make([]float64, n)
	count := 0
	for i := range x {
		if on(i) {
			x[i] = 1
			count++
		}
	}
	if count == 0 {
		return 0, 0
	}
	hi = math.Inf(1)
	for it := 0; it < perronMaxIter; it++ {
		mul(y, x)
		var xx, xy, ratio float64
		for i := range x {
			if !on(i) {
				continue
			}
			xx += x[i] * x[i]
			xy += x[i] * y[i]
			if q := y[i] / x[i]; q > ratio {
				ratio = q
			}
		}
		lo = math.Max(lo, xy/xx)
		hi = math.Min(hi, ratio)
		if hi-lo <= perronRelGap*hi || hi < threshold || lo >= threshold {
			return lo, hi
		}
		// x ← (B + I)x / ‖·‖∞ stays positive on the active coordinates.
		var mx float64
		for i := range x {
			if on(i) {
				x[i] += y[i]
				mx = math.Max(mx, x[i])
			}
		}
		for i := range x {
			x[i] /= mx
		}
	}
	return lo, hi
}
