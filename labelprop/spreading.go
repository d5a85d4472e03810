package labelprop

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
)

// Solver selects how label spreading solves (I − aS) F = (1 − a) Y.
type Solver int

const (
	// Auto (the zero value) runs CG when F, the n×c block of scores, takes
	// at least AutoCGBytes, and Chebyshev otherwise (and always with
	// Float32 or StopLabels, which only Chebyshev has). Above that size a
	// product gathers its rows from memory, not the caches, and costs most
	// of an iteration of either solver, so CG, whose error in the energy
	// norm never exceeds Chebyshev's bound and which needs far fewer
	// iterations where the spectrum is clustered (the random
	// planted-partition graphs of BENCHMARKS.md, "Loading and scale"), is
	// the faster; in the caches Chebyshev's cheaper iteration wins where
	// the counts are close (PubMed). Info.Solver tells which one ran.
	Auto Solver = iota
	// Chebyshev runs the Chebyshev semi-iteration on I − aS, whose
	// eigenvalues lie in [1 − a, 1 + a] for every graph, so
	// no eigenvalue estimate is needed. Each class's residual falls at
	// least by 1/T_k(1/a) after k iterations (O(√(1/(1−a))), like CG; in
	// practice 0–46 % more iterations than CG); it stops when every class's
	// relative residual reaches Tol. An iteration has no inner product and
	// is one pass over the graph and two n×c blocks, about half a CG
	// iteration's cost.
	Chebyshev Solver = iota
	// CG runs block conjugate gradients on I − aS, which is symmetric
	// positive definite for 0 < a < 1. Each class stops when its relative
	// residual reaches Tol. It needs O(√(1/(1−a))) iterations: those of
	// the peer script's scipy CG, less what deflating the known eigenvector
	// D^{1/2}1 saves (doc.go, "Deflation").
	CG
	// FixedPoint iterates F ← aSF + (1 − a)Y from F = 0 (Zhou et al.'s
	// algorithm) until max|ΔF| ≤ Tol·max|F|. It needs O(1/(1−a)) sweeps.
	FixedPoint
)

func (s Solver) String() string {
	switch s {
	case Auto:
		return "auto"
	case CG:
		return "cg"
	case FixedPoint:
		return "fixed-point"
	case Chebyshev:
		return "chebyshev"
	}
	return fmt.Sprintf("Solver(%d)", int(s))
}

// AutoCGBytes is the size of F (8·n·c bytes) from which Auto runs CG. It
// is measured, not derived: on this project's machine (2 MiB of L2 a core)
// CG's fit took 1.0–1.7× Chebyshev's on the real graphs whose F is at most
// 2.1 MiB (Cora, PubMed, Amazon Photo, Coauthor-CS and -Physics, a = 0.5,
// 0.9, 0.99; one case, Coauthor-Physics at a = 0.99, 0.70×), and 0.79×,
// 0.45× and 0.16× on the 10⁶-edge planted-partition graph (3.8 MiB), whose
// clustered spectrum CG exploits (BENCHMARKS.md, "Loading and scale").
const AutoCGBytes = 3 << 20

// ParseSolver reads the names of String: "auto", "chebyshev", "cg" or
// "fixed-point".
func ParseSolver(s string) (Solver, error) {
	switch s {
	case "auto":
		return Auto, nil
	case "cg", "CG":
		return CG, nil
	case "fixed-point", "fixedpoint", "fp":
		return FixedPoint, nil
	case "chebyshev", "cheb":
		return Chebyshev, nil
	}
	return 0, fmt.Errorf("labelprop: unknown solver %q: want auto, chebyshev, cg or fixed-point", s)
}

// Spreading is the label spreading of Zhou et al. (2003):
//
//	F = (1 − a)(I − aS)^{-1} Y,   S = D^{-1/2} W D^{-1/2},
//
// Y the one-hot labels of the labelled nodes (zero rows elsewhere). A node of
// degree zero has a zero row and column in S. Every node, labelled or not,
// is predicted by the largest entry of its row of F.
type Spreading struct {
	// Alpha is a, the weight of the neighbours against the node's own label,
	// inside (0, 1); 0 means DefaultAlpha (0.9). The best value depends on
	// the graph: choose it from AlphaGrid on validation nodes, or by
	// cross-validation (protocol.ChooseAlpha).
	Alpha float64
	// Solver is Auto (the zero value), Chebyshev, CG or FixedPoint; all
	// reach the same F.
	Solver Solver
	// Tol is the stopping tolerance; 0 means DefaultTol (1e-6).
	Tol float64
	// MaxIter caps the iterations; 0 means 2n + 100 for CG, 100 000 for
	// the fixed point and, for Chebyshev, 100 more than twice the
	// iterations its bound allows (2·⌈acosh(1/Tol)/acosh(1/a)⌉ + 100),
	// the CG and Chebyshev defaults capped at DefaultMaxIter. Reaching the
	// cap is a *NotConvergedError.
	MaxIter int
	// Classes is the number of classes; 0 means 1 + the largest labelled
	// class. Every class must have a labelled node.
	Classes int
	// ClassMassNormalization scales each class's scores so that their mass
	// over the unlabelled nodes is the labelled class frequency before
	// normalising (Zhu, Ghahramani & Lafferty 2003, §4).
	ClassMassNormalization bool
	// IsolatedSeeds says what to do with a labelled node of degree zero; the
	// zero value is an error.
	IsolatedSeeds IsolatedSeeds
	// Ordering is the node numbering the solver works in: NaturalOrdering
	// (the zero value) or ReverseCuthillMcKee, renumbered inside Fit.
	// Results are always in the caller's numbering.
	Ordering Ordering
	// Progress, when set, is called after every iteration with the iteration
	// count and the current relative residual (or change).
	Progress func(iteration int, residual float64)

	// Float32 stores the Chebyshev solver's two n×c iterate blocks in
	// float32 (half their memory and gather traffic; the products, residuals
	// and the returned scores are float64). The float32 iterates cannot
	// reach a relative residual below about 6·10^-8·(1+a)/(1−a), so Tol 0
	// means DefaultTol32 (1e-5) with it. Only with Solver Chebyshev, or
	// Auto, which then runs Chebyshev.
	Float32 bool
	// Stop is the Chebyshev solver's stopping rule: StopResidual (the zero
	// value) or StopLabels, which also stops once the residual is at most
	// LabelTol (0 means DefaultLabelTol, 1e-3) and the predicted labels
	// have not changed for LabelPatience iterations (0 means
	// DefaultLabelPatience, 5). See StopLabels for its risk. StopLabels
	// needs Solver Chebyshev, or Auto, which then runs Chebyshev.
	Stop          StopRule
	LabelPatience int
	LabelTol      float64
	// WarmStart, when set, is a model fitted on the same graph whose scores
	// start the solve (Chebyshev and CG), each class scaled by the factor
	// that minimises the initial residual (see warmstart.go). The answer is
	// the same to the tolerance; the solve takes fewer iterations when the
	// two values of Alpha are close (protocol.EvaluateLabelProp's grid, in increasing
	// order). It is read, not changed.
	WarmStart *Spreading
	// MaxMemory, when positive, bounds the bytes of Go heap that Fit
	// allocates beyond the graph (MemoryBytes). When the block CG solve of
	// all classes at once would pass it, CG solves the classes in batches
	// of the widest width that fits (memory formula in batch.go and
	// MemoryBytes); every column's recursion is its own, so the scores are
	// bitwise those of a single batch (unless a column is restarted after
	// CG's true-residual check, see batch.go: then both meet Tol). Each
	// batch reads the whole graph every iteration. The other solvers keep
	// their blocks in the storage of F and of the probabilities, which
	// every fit holds, and always run in one batch; a fit that cannot stay
	// within MaxMemory is refused before any block is allocated. 0 means
	// no bound.
	MaxMemory int64

	state
}

// Clone returns an unfitted copy of m with every hyperparameter (every
// exported field, Progress and WarmStart included).
func (m *Spreading) Clone() *Spreading {
	c := *m
	c.state = state{}
	return &c
}

// alpha returns a: Alpha, or DefaultAlpha for 0.
func (m *Spreading) alpha() float64 {
	if m.Alpha == 0 {
		return DefaultAlpha
	}
	return m.Alpha
}

// Validate checks the hyperparameters.
func (m *Spreading) Validate() error {
	if m.Alpha != 0 && !(m.Alpha > 0 && m.Alpha < 1) {
		return fmt.Errorf("labelprop: Alpha = %v is invalid: it must be inside the open interval (0, 1), or 0 for DefaultAlpha (%v)", m.Alpha, DefaultAlpha)
	}
	if m.Solver != Auto && m.Solver != Chebyshev && m.Solver != CG && m.Solver != FixedPoint {
		return fmt.Errorf("labelprop: Solver = %d is invalid: use Auto, Chebyshev, CG or FixedPoint", int(m.Solver))
	}
	if err := checkSolver(m.Tol, m.MaxIter, m.Classes); err != nil {
		return err
	}
	if err := checkOrdering(m.Ordering); err != nil {
		return err
	}
	if err := checkStop(m.Stop, m.LabelPatience, m.LabelTol, m.Solver); err != nil {
		return err
	}
	if m.Float32 && m.Solver != Chebyshev && m.Solver != Auto {
		return fmt.Errorf("labelprop: Float32 needs Solver = Chebyshev or Auto (Solver is %v)", m.Solver)
	}
	return checkIsolatedSeeds(m.IsolatedSeeds)
}

// FitIndexed is Fit with the labelled nodes as an index list: nodes[k] has
// class classes[k] (distinct nodes; every other node is unlabelled). It is
// the low-level entry point for callers that hold a split's node lists;
// Fit, the front door, reads one label vector.
func (m *Spreading) FitIndexed(ctx context.Context, g *graph.CSR, nodes, classes []int) error {
	ctx, s, err := m.begin(ctx, m.Validate, g, nodes, classes, m.Classes, m.IsolatedSeeds)
	if err != nil {
		return err
	}
	n, c := s.n, s.classes
	if err := m.checkMemory(g, c); err != nil {
		return err
	}
	a := m.alpha()
	solver := m.solverFor(n, c)
	b := m.rhsBlock(s, solver)
	// F, also the solver's iterates (huge pages when large), and a CG
	// solve's work area in one batch, allocated beside the search for the
	// reached nodes (blocks.go)
	blocks := startBlocks(n, c, solver == CG && m.Ordering == NaturalOrdering && m.classBatch(g, c) >= c)
	if m.WarmStart != nil {
		if err := warmStartGuess(m.WarmStart, a, g, s, blocks.scores()); err != nil {
			return err
		}
	}
	// The solve runs on sg (the graph the solver sees), b and sf; with a
	// renumbering they are copies in its numbering, mapped back below.
	sg, sf := g, (*mat.Dense)(nil)
	var rn *renumbering
	if m.Ordering == ReverseCuthillMcKee {
		if rn, err = renumber(g); err != nil {
			return err
		}
		sg, b, sf = rn.pg, rn.toSolver(b), rn.toSolver(blocks.scores())
	}
	tol := m.tolerance()
	reached, err := s.reached(g) // in the caller's numbering
	if err != nil {
		return err
	}
	f := blocks.scores()
	if rn == nil {
		sf = f
	}
	var info Details
	switch solver {
	case CG:
		rhs := m.rhs(s, b)
		rhs.reached = reached // the deflation's support
		if rn != nil {
			rhs.reached = rn.marksToSolver(reached)
		}
		// without a warm start, F is a fresh zero block
		info, err = spreadCGBatches(ctx, sg, a, rhs, sf, krylov.Settings{Tol: tol, MaxIter: m.MaxIter, Progress: m.Progress}, m.classBatch(g, c), m.WarmStart == nil, blocks.workArea())
	case Chebyshev:
		rhs := m.rhs(s, b)
		b = nil // the solve holds the nonzero rows only
		info, err = spreadChebyshevOpts(ctx, sg, a, rhs, sf, krylov.Settings{Tol: tol, MaxIter: m.MaxIter, Progress: m.Progress},
			chebyshevOptions{float32: m.Float32, stop: newLabelWatch(m.Stop, m.LabelPatience, m.LabelTol)})
	case FixedPoint:
		var s *graph.CSR
		if s, err = normalizedAdjacency(sg); err != nil {
			return err
		}
		maxIter := m.MaxIter
		if maxIter == 0 {
			maxIter = defaultFixedPointIter
		}
		info, err = spreadFixedPoint(ctx, s, a, b, sf, tol, maxIter, m.Progress)
	}
	if rn != nil {
		rn.toCaller(f, sf)
	}
	info.Solver = solver
	m.state.finish(g, s, reached, f, m.ClassMassNormalization, info)
	return err
}

// tolerance resolves Tol's zero value: DefaultTol, or DefaultTol32 with
// Float32.
func (m *Spreading) tolerance() float64 {
	switch {
	case m.Tol != 0:
		return m.Tol
	case m.Float32:
		return DefaultTol32
	}
	return DefaultTol
}

// solverFor resolves Auto for a fit of n nodes and c classes.
func (m *Spreading) solverFor(n, c int) Solver {
	switch {
	case m.Solver != Auto:
		return m.Solver
	case m.Float32 || m.Stop == StopLabels || 8*float64(n)*float64(c) < AutoCGBytes:
		return Chebyshev
	}
	return CG
}

// rhsBlock returns B = (1 − a)Y as an n×c block for the fixed point and a
// renumbering, else nil: the Chebyshev and CG solvers in the caller's
// numbering read its nonzero rows only (rhs).
func (m *Spreading) rhsBlock(s *seeds, solver Solver) *mat.Dense {
	if solver != FixedPoint && m.Ordering != ReverseCuthillMcKee {
		return nil
	}
	b := mat.NewDense(s.n, s.classes, nil)
	for _, v := range s.nodes {
		b.Set(v, int(s.class[v]), 1-m.alpha())
	}
	return b
}

// rhs returns B = (1 − a)Y by its nonzero rows: from the seeds, or from b
// when the solve is in another numbering.
func (m *Spreading) rhs(s *seeds, b *mat.Dense) sparseRHS {
	if b != nil {
		return denseRHS(b)
	}
	return seedRHS(s, 1-m.alpha())
}

// predictOne predicts one new node from its edges to fitted nodes
// (weights nil means 1 each); see NewNodeDetails.
func (m *Spreading) predictOne(nodes []int, weights []float64) (Prediction, error) {
	w, dx, err := m.checkNew(nodes, weights)
	if err != nil {
		return Prediction{}, err
	}
	f := make([]float64, m.seeds.classes)
	if dx > 0 {
		for k, j := range nodes {
			dj := m.degreeOf(j)
			if dj == 0 || w[k] == 0 {
				continue
			}
			sxj := w[k] / math.Sqrt(dx*dj)
			for t, v := range m.scores.RawRowView(j) {
				f[t] += m.alpha() * sxj * v
			}
		}
	}
	return m.predict(f), nil
}

// scaledOperator is diag(c) + diag(l)·W·diag(r) on a graph, applied in one
// pass: I − aS for spreading, D_uu − W_uu for the harmonic function. Both
// uses are symmetric.
type scaledOperator struct {
	g *graph.CSR
	s graph.Scaling
}

var (
	_ linop.BlockOperator = scaledOperator{}
	_ linop.Symmetric     = scaledOperator{}
)

// newSpreadingOperator returns I − aS for the graph s of S.
func newSpreadingOperator(s *graph.CSR, a float64) scaledOperator {
	return scaledOperator{g: s, s: graph.Scaling{Diag: constant(s.Nodes(), 1), Left: constant(s.Nodes(), -a)}}
}

// constant returns a slice of n copies of v.
func constant(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func (o scaledOperator) Dim() int          { return o.g.Nodes() }
func (o scaledOperator) IsSymmetric() bool { return true }
func (o scaledOperator) MulVecTo(dst, x []float64) {
	linop.CheckVec("labelprop: operator", o.Dim(), dst, x)
	o.g.ScaledMulVecTo(dst, x, o.s)
}
func (o scaledOperator) MulBlockTo(dst, x *mat.Dense) { o.g.ScaledMulBlockTo(dst, x, o.s) }

// normalizedAdjacency returns S = D^{-1/2} W D^{-1/2} as a graph sharing
// g's structure: one weight per stored entry, and products with it need no
// per-entry scaling. An isolated node has a zero row and column.
func normalizedAdjacency(g *graph.CSR) (*graph.CSR, error) {
	deg, err := laplacian.NewDegrees(g, laplacian.Options{Isolated: laplacian.IsolatedZero})
	if err != nil {
		return nil, fmt.Errorf("labelprop: %w", err)
	}
	sg, err := g.SymmetricScale(deg.InvSqrtD)
	if err != nil {
		return nil, fmt.Errorf("labelprop: %w", err)
	}
	return sg, nil
}

// spreadCG solves (I − aS) F = B by the fused block CG of spreadingCG, F
// holding the initial guess (zero when zero is true, which spares the
// solve a pass over it); g is the graph of W. work is the storage of r, p
// and q (3·n·c zeros), or nil for a new block.
func spreadCG(ctx context.Context, g *graph.CSR, a float64, b sparseRHS, f *mat.Dense, s krylov.Settings, zero bool, work []float64) (Details, error) {
	if work == nil {
		// r, p and q in one allocation: huge pages from a smaller n·c (newBlock)
		work = newBlock(3 * g.Nodes() * b.c)
	}
	cg, err := newCGWork(g, a, b, f, s, work, nil)
	if err != nil {
		return Details{}, err
	}
	cg.zeroX = zero
	res, err := cg.run(ctx)
	info := blockInfo(res)
	return info, wrapSolverError("label spreading (block CG)", info, s.Tol, err)
}

// wrapSolverError turns a krylov error into a labelprop one.
func wrapSolverError(what string, info Details, tol float64, err error) error {
	if err == nil {
		return nil
	}
	var nc *krylov.NotConvergedError
	if errors.As(err, &nc) {
		return notConverged(what, info.Iterations, info.Residual, tol, err)
	}
	return fmt.Errorf("labelprop: %s: %w", what, err)
}

// fixedPointGrain is the number of rows below which the update of F runs
// on one goroutine.
const fixedPointGrain = 4096

// spreadFixedPoint iterates F ← aSF + B from F = 0 until
// max|F_new − F| ≤ tol·max|F_new|; sg is the graph of S. The first iterate,
// B, is free; each further one costs one block product.
func spreadFixedPoint(ctx context.Context, sg *graph.CSR, a float64, b, f *mat.Dense, tol float64, maxIter int, progress func(int, float64)) (Details, error) {
	n, c := b.Dims()
	sc := graph.Scaling{Left: constant(n, a)}
	cur := mat.DenseCopyOf(b)
	next := mat.NewDense(n, c, nil)
	var info Details
	done := func(err error) (Details, error) {
		f.Copy(cur)
		return info, err
	}
	bd := b.RawMatrix().Data
	for info.Iterations < maxIter {
		sg.ScaledMulBlockTo(next, cur, sc)
		info.Products++
		info.Iterations++
		delta, top := addAndCompare(next.RawMatrix().Data, bd, cur.RawMatrix().Data, c)
		cur, next = next, cur
		info.Residual = delta / top
		if progress != nil {
			progress(info.Iterations, info.Residual)
		}
		if delta <= tol*top {
			return done(nil)
		}
		if err := ctx.Err(); err != nil {
			return done(fmt.Errorf("labelprop: label spreading (fixed point) stopped after %d iterations: %w", info.Iterations, err))
		}
	}
	return done(notConverged("label spreading (fixed point)", info.Iterations, info.Residual, tol, nil))
}

// addAndCompare sets next += b and returns max|next − cur| and max|next|,
// in parallel over rows of c entries.
func addAndCompare(next, b, cur []float64, c int) (delta, top float64) {
	var mu sync.Mutex
	parallel.For(len(next)/c, fixedPointGrain, func(lo, hi int) {
		var d, t float64
		for p := lo * c; p < hi*c; p++ {
			v := next[p] + b[p]
			next[p] = v
			if e := math.Abs(v - cur[p]); e > d {
				d = e
			}
			if e := math.Abs(v); e > t {
				t = e
			}
		}
		mu.Lock()
		delta, top = math.Max(delta, d), math.Max(top, t)
		mu.Unlock()
	})
	return delta, top
}
