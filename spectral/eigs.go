package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/linop"
)

// Which selects the end of the spectrum Eigs computes.
type Which int

const (
	// Largest asks for the k largest algebraic eigenvalues (the zero value).
	Largest Which = iota
	// Smallest asks for the k smallest algebraic eigenvalues.
	Smallest
)

func (w Which) String() string {
	switch w {
	case Largest:
		return "largest"
	case Smallest:
		return "smallest"
	}
	return fmt.Sprintf("Which(%d)", int(w))
}

// DefaultTol is the residual tolerance used when Settings.Tol is 0.
const DefaultTol = 1e-10

// DefaultMaxRestarts is the restart cap used when Settings.MaxRestarts is 0.
const DefaultMaxRestarts = 1000

// stallRestarts is the number of filtered restarts without progress (no pair
// locked, the largest wanted residual not halved) after which Eigs polishes
// without the filter, and then (after 5× as many unfiltered restarts) gives
// up with a *NotConvergedError: the residuals have reached their rounding
// floor.
const stallRestarts = 5

// stallFloor is the residual, relative to ‖A‖, above which an unfiltered
// run never counts as stalled: rounding limits residuals to a few ε‖A‖, far
// below it, so a run above it is merely slow (a clustered spectrum with a
// small basis) and goes on until MaxRestarts.
const stallFloor = 1e-8

// Settings control Eigs and the functions built on it. The zero value is
// usable: every zero field means its documented default.
type Settings struct {
	// Tol is the residual tolerance per eigenpair: a pair (λ, v), ‖v‖ = 1, is
	// converged when ‖A v − λ v‖₂ ≤ Tol·‖A‖, with ‖A‖ estimated by the largest
	// |Ritz value| seen (for the normalised adjacency S and L_sym used by
	// LaplacianEigs the estimate is 1, so Tol is an absolute bound there).
	// 0 means DefaultTol (1e-10); it must lie in [1e-15, 1).
	Tol float64
	// BlockSize is the number of vectors the block Lanczos recursion carries.
	// An eigenvalue of multiplicity up to BlockSize is found in full from the
	// random start block; larger multiplicities are found only as rounding
	// makes the missing copies visible (see the package documentation).
	// 0 means min(k, 4).
	BlockSize int
	// BasisSize is the largest number of active (unconverged) basis vectors
	// kept between restarts, not counting converged vectors that were locked.
	// 0 means max(2k, k + 4·BlockSize, 24). It is raised to at least
	// k + 2·BlockSize.
	BasisSize int
	// Bounds, when Hi > Lo, is an interval known to contain every eigenvalue
	// of the operator (for S = D^{-1/2} W D^{-1/2} it is [−1, 1];
	// LaplacianEigs sets it). Eigs then runs Lanczos on a Chebyshev
	// polynomial p(A) that damps the unwanted part of the spectrum (see the
	// package documentation): fewer basis vectors and re-orthogonalisations
	// for more operator products. A Ritz value outside Bounds is an error.
	Bounds Interval
	// FilterDegree is the degree of the Chebyshev filter when Bounds is set
	// (more exactly its cap: the degree falls when the dynamic range would
	// exceed 1e10): 0 means automatic (at most 40; LaplacianEigs caps it by
	// the graph's density, see the package documentation), 1 turns
	// filtering off. With Method SingleVector it is the degree of that
	// method's filter: 0 means DefaultSingleVectorFilterDegree (LaplacianEigs
	// derives it from the graph's density and the basis size).
	FilterDegree int
	// MaxRestarts caps the thick restarts; 0 means DefaultMaxRestarts.
	MaxRestarts int
	// Seed seeds the random start block (and replacement directions if the
	// Krylov space becomes invariant). The same seed gives the same result.
	Seed uint64
	// Progress, when set, is called after every restart.
	Progress func(Status)
	// Method chooses the Lanczos variant; 0 (Auto) means block Lanczos for
	// Eigs, and for LaplacianEigs the single-vector method on large
	// components (see Auto).
	Method Method
}

// Method selects the Lanczos variant of Eigs.
type Method int

const (
	// Auto lets the caller choose: Eigs uses Block; LaplacianEigs uses
	// Subspace where it applies on components of at least SubspaceMinNodes
	// nodes, SingleVector (Chebyshev-filtered) on components of at least
	// SingleVectorMinNodes nodes and Block on smaller ones.
	Auto Method = iota
	// Block is thick-restart block Lanczos with locking and, when Bounds
	// are set, Chebyshev filtering (BlockSize, FilterDegree apply).
	Block
	// SingleVector is ARPACK-like single-vector thick-restart Lanczos
	// (Wu & Simon 2000), with a column-major basis and full CGS2
	// re-orthogonalisation, on A itself or, when Bounds are set, on a
	// low-degree Chebyshev filter of A (FilterDegree, see the package
	// documentation). BasisSize is the basis size m (0 means
	// max(2k+1, k+20)); BlockSize is ignored. Like ARPACK
	// it finds one copy of a repeated eigenvalue from the start vector;
	// further copies appear only through rounding, so it is meant for
	// operators whose wanted eigenvalues are simple (the normalised
	// adjacency of a connected graph without symmetries).
	SingleVector
	// Subspace is Chebyshev-filtered subspace iteration on the normalised
	// adjacency of each connected component, for LaplacianEigs with the
	// Symmetric and RandomWalk Laplacians (see the package documentation):
	// one block product per filter step, no Krylov basis. Elsewhere (Eigs,
	// the unnormalised Laplacian, a component that needs only its null
	// vector) it means Auto; it hands over to Auto's Lanczos method when it
	// predicts slow convergence. Auto chooses it in LaplacianEigs on
	// components of at least SubspaceMinNodes nodes.
	Subspace
)

func (m Method) String() string {
	switch m {
	case Auto:
		return "auto"
	case Block:
		return "block"
	case SingleVector:
		return "single-vector"
	case Subspace:
		return "subspace"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Interval is a closed interval [Lo, Hi] of the real line.
type Interval struct {
	Lo, Hi float64
}

// Status reports the state of an eigensolve after a restart.
type Status struct {
	Restarts  int     // restarts so far
	MatVecs   int     // operator products (columns) so far
	Converged int     // eigenpairs converged and locked
	Wanted    int     // eigenpairs asked for
	Residual  float64 // largest residual estimate among the wanted unconverged Ritz pairs
}

// Result holds eigenpairs.
type Result struct {
	// Values are the eigenvalues, ascending.
	Values []float64
	// Vectors is n×k: column j is the eigenvector of Values[j], of unit
	// 2-norm (D-norm for the random-walk Laplacian, see LaplacianEigs), with
	// its entry of largest magnitude positive (the first such entry on ties).
	Vectors *mat.Dense
	// Residuals are the true residual norms ‖A v − λ v‖₂, recomputed from
	// the returned vectors.
	Residuals []float64
	// Restarts and MatVecs count thick restarts and operator products
	// (columns, so a block product counts its block size).
	Restarts int
	MatVecs  int
}

// MaxResidual returns the largest entry of Residuals (0 for no pairs).
func (r *Result) MaxResidual() float64 {
	var m float64
	for _, v := range r.Residuals {
		m = math.Max(m, v)
	}
	return m
}

// Orthogonality returns max |VᵀMV − I| over the pairs of vectors, with
// M = diag(m) (nil m: M = I): how far the vectors are from M-orthonormal
// (m = the degrees for the eigenvectors of L_rw, which are D-orthonormal).
// An entry m[i] ≤ 0 counts as 1.
func (r *Result) Orthogonality(m []float64) float64 {
	n, k := r.Vectors.Dims()
	// One pass over the rows, each entry of the Gram matrix summed over
	// the rows in ascending order.
	g := make([]float64, k*k)
	for i := 0; i < n; i++ {
		v := r.Vectors.RawRowView(i)
		w := 1.0
		scaled := m != nil && m[i] > 0
		if scaled {
			w = m[i]
		}
		for a, va := range v {
			row := g[a*k : (a+1)*k]
			for b := a; b < k; b++ {
				x := va * v[b]
				if scaled {
					x *= w
				}
				row[b] += x
			}
		}
	}
	var worst float64
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			s := g[a*k+b]
			if a == b {
				s--
			}
			worst = math.Max(worst, math.Abs(s))
		}
	}
	return worst
}

// NotConvergedError is returned when the restart cap is reached before k
// eigenpairs converged. Converged holds the pairs that did, in the same form
// as a full Result (possibly none).
type NotConvergedError struct {
	Wanted    int
	Restarts  int
	MatVecs   int
	Residual  float64 // largest residual estimate of the unconverged wanted pairs
	Tol       float64
	Stalled   bool // the residuals stopped decreasing before the restart cap
	Converged *Result
}

func (e *NotConvergedError) Error() string {
	hint := "raise MaxRestarts or BasisSize"
	if e.Stalled {
		hint = "the residuals stopped decreasing: Tol is below the accuracy attainable in floating point for this operator; raise Tol"
	}
	return fmt.Sprintf("spectral: %d of %d eigenpairs converged after %d restarts (%d products); the largest unconverged residual is %.3g > tolerance %.3g; %s",
		len(e.Converged.Values), e.Wanted, e.Restarts, e.MatVecs, e.Residual, e.Tol, hint)
}

// ErrNotSymmetric is wrapped by errors about operators that declare
// themselves non-symmetric.
var ErrNotSymmetric = errors.New("operator is not symmetric")

// config is Settings with defaults applied, for one problem.
type config struct {
	tol         float64
	b, m        int
	maxRestarts int
	seed        uint64
	progress    func(Status)
	lo, hi      float64 // spectrum bounds (lo < hi when filtering)
	degree      int     // 0: automatic
	buffer      int     // extra Ritz pairs checked beyond the wanted ones
}

// filtered reports whether Chebyshev filtering is enabled.
func (c config) filtered() bool { return c.hi > c.lo && c.degree != 1 }

// maxDynamicRange bounds p(far end)/p(cut) of a Chebyshev filter: the wanted
// components near the cut must stay well above rounding relative to the
// most amplified ones.
const maxDynamicRange = 1e10

// maxFilterDegree caps the automatic filter degree.
const maxFilterDegree = 40

// DefaultSingleVectorFilterDegree is the Chebyshev filter degree of Method
// SingleVector in Eigs when Bounds are set and FilterDegree is 0: a
// middle value of the degrees singleFilterDegree gives on the graphs of the
// side-by-side benchmark (BENCHMARKS.md, spectral).
const DefaultSingleVectorFilterDegree = 8

// probeSteps caps the length of the unfiltered probe.
const probeSteps = 160

// filterDegree returns the degree of the filter damping the unwanted side of
// cut: the largest degree whose amplification of the far end of the
// spectrum stays within maxDynamicRange, at most maxFilterDegree (or the
// degree set in Settings). It returns 1 (no filter) when the damped interval
// is empty.
func (c config) filterDegree(which Which, cut float64) int {
	dl, du, far := c.lo, cut, c.hi
	if which == Smallest {
		dl, du, far = cut, c.hi, c.lo
	}
	if !(du > dl) {
		return 1
	}
	center, half := (du+dl)/2, (du-dl)/2
	x := math.Abs(far-center) / half
	if x <= 1 {
		return 1
	}
	d := int(math.Log(2*maxDynamicRange) / math.Acosh(x))
	limit := maxFilterDegree
	if c.degree > 0 {
		limit = c.degree
	}
	return max(2, min(d, limit))
}

// Validate checks the settings that do not depend on the operator (Tol,
// BlockSize, BasisSize, MaxRestarts, FilterDegree, Bounds); errors name the
// field, its value and its valid range.
func (s Settings) Validate() error {
	_, err := s.resolve(math.MaxInt32, 1)
	return err
}

func (s Settings) resolve(n, k int) (config, error) {
	c := config{tol: s.Tol, b: s.BlockSize, m: s.BasisSize, maxRestarts: s.MaxRestarts, seed: s.Seed, progress: s.Progress}
	if c.tol == 0 {
		c.tol = DefaultTol
	}
	if !(c.tol >= 1e-15 && c.tol < 1) {
		return c, fmt.Errorf("spectral: Tol = %v is invalid: it must lie in [1e-15, 1) (0 means %g)", s.Tol, DefaultTol)
	}
	if c.b < 0 {
		return c, fmt.Errorf("spectral: BlockSize = %d is invalid: it must be ≥ 0 (0 means min(k, 4))", s.BlockSize)
	}
	if c.m < 0 {
		return c, fmt.Errorf("spectral: BasisSize = %d is invalid: it must be ≥ 0 (0 means max(2k, k+4·BlockSize, 24))", s.BasisSize)
	}
	if c.maxRestarts < 0 {
		return c, fmt.Errorf("spectral: MaxRestarts = %d is invalid: it must be ≥ 0 (0 means %d)", s.MaxRestarts, DefaultMaxRestarts)
	}
	if c.maxRestarts == 0 {
		c.maxRestarts = DefaultMaxRestarts
	}
	if c.b == 0 {
		c.b = min(k, 4)
	}
	c.b = min(c.b, n)
	if c.m == 0 {
		c.m = max(2*k, k+4*c.b, 24)
	}
	c.m = max(c.m, k+2*c.b)
	if s.FilterDegree < 0 {
		return c, fmt.Errorf("spectral: FilterDegree = %d is invalid: it must be ≥ 0 (0 means automatic, 1 no filter)", s.FilterDegree)
	}
	c.degree = s.FilterDegree
	bnd := s.Bounds
	if bnd != (Interval{}) {
		if math.IsNaN(bnd.Lo) || math.IsNaN(bnd.Hi) || math.IsInf(bnd.Lo, 0) || math.IsInf(bnd.Hi, 0) || !(bnd.Lo < bnd.Hi) {
			return c, fmt.Errorf("spectral: Bounds [%v, %v] is invalid: it must be a finite interval with Lo < Hi", bnd.Lo, bnd.Hi)
		}
		c.lo, c.hi = bnd.Lo, bnd.Hi
	}
	c.buffer = max(c.b, k/4)
	if s.Method < Auto || s.Method > Subspace {
		return c, fmt.Errorf("spectral: Method = %v is invalid: use Auto, Block, SingleVector or Subspace", s.Method)
	}
	return c, nil
}

func validateOperator(a linop.Operator, k int) (int, error) {
	if a == nil {
		return 0, errors.New("spectral: operator is nil")
	}
	n := a.Dim()
	if n < 1 {
		return 0, fmt.Errorf("spectral: operator has dimension %d; it must be at least 1", n)
	}
	if k < 1 || k > n {
		return 0, fmt.Errorf("spectral: k = %d is invalid: it must lie in [1, %d] (the operator's dimension)", k, n)
	}
	if !linop.IsSymmetric(a) {
		return 0, fmt.Errorf("spectral: Lanczos needs a symmetric operator: %w", ErrNotSymmetric)
	}
	return n, nil
}

// Eigs computes k eigenpairs of the symmetric operator a at the end of the
// spectrum chosen by which, by block Lanczos with thick restarts, full
// re-orthogonalisation and locking of converged pairs (see the package
// documentation). On success the Result holds exactly k pairs with
// eigenvalues ascending. When the restart cap is hit the error is a
// *NotConvergedError carrying the pairs that converged. A cancelled context
// returns its error, wrapped.
//
// When the basis would span the whole space (n ≤ k + BasisSize + BlockSize)
// Eigs applies a to the n unit vectors and solves the dense problem: O(n²)
// memory, for small operators only.
func Eigs(ctx context.Context, a linop.Operator, k int, which Which, s Settings) (*Result, error) {
	n, err := validateOperator(a, k)
	if err != nil {
		return nil, err
	}
	if which != Largest && which != Smallest {
		return nil, fmt.Errorf("spectral: which = %v is invalid: use Largest or Smallest", which)
	}
	c, err := s.resolve(n, k)
	if err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if s.Method == Subspace {
		s.Method = Auto
	}
	if s.Method == SingleVector {
		if c.degree == 0 {
			c.degree = DefaultSingleVectorFilterDegree
		}
		if n <= singleVectorBasis(n, k, s.BasisSize)+1 {
			return denseEigs(ctx, a, k, which)
		}
		return newTrlan(ctx, a, k, which, c, s.BasisSize).run()
	}
	if n <= k+c.m+c.b {
		return denseEigs(ctx, a, k, which)
	}
	l := newLanczos(ctx, a, k, which, c, nil)
	return l.run()
}

// denseEigs is the explicit dense path for small operators.
func denseEigs(ctx context.Context, a linop.Operator, k int, which Which) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("spectral: %w", err)
	}
	n := a.Dim()
	d := linop.ToDense(a)
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, (d.At(i, j)+d.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		return nil, errors.New("spectral: dense symmetric eigensolver failed to converge")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	lo := 0
	if which == Largest {
		lo = n - k
	}
	res := &Result{Values: append([]float64(nil), vals[lo:lo+k]...), Vectors: mat.NewDense(n, k, nil), MatVecs: n}
	res.Vectors.Copy(vecs.Slice(0, n, lo, lo+k))
	finish(a, res)
	return res, nil
}

// finish fixes signs and computes the true residuals of res (one block
// product with the k vectors).
func finish(a linop.Operator, res *Result) {
	fixSigns(res.Vectors)
	res.Residuals = residuals(a, res.Values, res.Vectors)
}

// residuals returns ‖A v_j − λ_j v_j‖₂ for the columns of vecs.
func residuals(a linop.Operator, vals []float64, vecs *mat.Dense) []float64 {
	n, k := vecs.Dims()
	av := mat.NewDense(n, k, nil)
	linop.MulBlock(a, av, vecs)
	return residualNorms(av, vecs, vals)
}

// residualNorms returns ‖av_j − vals_j·v_j‖₂ for the columns of n×k blocks.
func residualNorms(av, v *mat.Dense, vals []float64) []float64 {
	n, k := v.Dims()
	out := make([]float64, k)
	ar, vr := av.RawMatrix(), v.RawMatrix()
	for i := 0; i < n; i++ {
		arow := ar.Data[i*ar.Stride : i*ar.Stride+k]
		vrow := vr.Data[i*vr.Stride : i*vr.Stride+k]
		for j := range arow {
			d := arow[j] - vals[j]*vrow[j]
			out[j] += d * d
		}
	}
	for j := range out {
		out[j] = math.Sqrt(out[j])
	}
	return out
}

// fixSigns flips each column so that its entry of largest magnitude (the
// first one on ties) is positive.
func fixSigns(v *mat.Dense) {
	n, k := v.Dims()
	for j := 0; j < k; j++ {
		best, at := -1.0, 0
		for i := 0; i < n; i++ {
			if a := math.Abs(v.At(i, j)); a > best {
				best, at = a, i
			}
		}
		if v.At(at, j) < 0 {
			for i := 0; i < n; i++ {
				v.Set(i, j, -v.At(i, j))
			}
		}
	}
}

// lanczos is the state of one thick-restart block Lanczos run.
//
// The basis V (n × (k+m+b)) holds, left to right: the nl locked eigenvectors,
// the active basis (j columns whose projection H = Vᵀ B V is known), and the
// next block. B is A, or a Chebyshev polynomial p(A) when Bounds are known.
// H is formed explicitly from the Gram–Schmidt coefficients, so a restart
// only needs the kept Ritz vectors and the next block: the arrowhead
// structure of Wu & Simon's thick restart appears in H by itself, and kept
// vectors may be rotated freely (H follows the rotation).
type lanczos struct {
	ctx   context.Context
	a     linop.Operator
	n, k  int
	which Which
	c     config
	rng   *rand.Rand

	v      *mat.Dense // basis
	w      *mat.Dense // n×b work block (B·Q)
	x      *mat.Dense // n×b contiguous copy of the block being expanded
	y      [3]*mat.Dense
	h      []float64 // active projected matrix, m+b square, row-major, stride hs
	hs     int
	coef   []float64 // b × (k+m+b) Gram–Schmidt coefficients
	coef2  []float64
	r      []float64 // b×b coupling of the last block to the next block
	nl     int       // locked columns
	locked []float64 // their eigenvalues
	anorm  float64
	res    Result

	// Chebyshev filtering (when c.bounds is set).
	cut float64 // end of the damped interval next to the wanted eigenvalues
	deg int     // degree of the filter (1: B = A)

	bestRes float64 // smallest largest-residual since the last progress
	stall   int     // restarts without progress
	polish  bool    // the filter was dropped after a stall
}

// newLanczos prepares a run; v, when not nil, is the storage of the basis
// (at least n × (k+m+b)).
func newLanczos(ctx context.Context, a linop.Operator, k int, which Which, c config, v *mat.Dense) *lanczos {
	n := a.Dim()
	cols := k + c.m + c.b
	hs := c.m + c.b
	if v == nil {
		v = mat.NewDense(n, cols, nil)
	}
	l := &lanczos{
		ctx: ctx, a: a, n: n, k: k, which: which, c: c, bestRes: math.Inf(1),
		rng:   rand.New(rand.NewPCG(c.seed, 0x5eed1a9c20)),
		v:     v,
		w:     mat.NewDense(n, c.b, nil),
		x:     mat.NewDense(n, c.b, nil),
		h:     make([]float64, hs*hs),
		hs:    hs,
		coef:  make([]float64, c.b*cols),
		coef2: make([]float64, c.b*cols),
		r:     make([]float64, c.b*c.b),
	}
	if c.filtered() {
		for i := range l.y {
			l.y[i] = mat.NewDense(n, c.b, nil)
		}
		l.anorm = math.Max(math.Abs(c.lo), math.Abs(c.hi))
	}
	return l
}

// randomize fills columns [c0, c0+b) of V with standard normal numbers.
func (l *lanczos) randomize(c0, b int) {
	raw := l.v.RawMatrix()
	for i := 0; i < l.n; i++ {
		row := raw.Data[i*raw.Stride+c0 : i*raw.Stride+c0+b]
		for t := range row {
			row[t] = l.rng.NormFloat64()
		}
	}
}

func (l *lanczos) run() (*Result, error) {
	b, m := l.c.b, l.c.m
	if l.c.filtered() {
		if err := l.probe(); err != nil {
			return nil, err
		}
	} else {
		// Start block: random, orthonormalised against nothing.
		l.randomize(0, b)
		l.w.Copy(l.v.Slice(0, l.n, 0, b))
		l.orthonormalize(0)
	}
	cur := 0 // active index of the block to expand next
	for {
		// Expand until the active basis holds m columns.
		for cur+b <= m {
			if err := l.ctx.Err(); err != nil {
				return nil, fmt.Errorf("spectral: Lanczos stopped after %d restarts: %w", l.res.Restarts, err)
			}
			l.expand(cur)
			cur += b
		}
		lockedBefore, cutBefore := l.nl, l.cut
		next, maxRes, err := l.restart(cur)
		if err != nil {
			return nil, err
		}
		// Stagnation: no pair locked and the largest residual not halved for
		// stallRestarts restarts (a filter change starts afresh). Residuals
		// have a rounding floor of a few ε‖A‖; a Tol below it cannot be met.
		// Unfiltered cycles converge slowly on clustered spectra but are
		// not near their rounding floor until the residuals are small.
		slow := l.deg <= 1 && maxRes > stallFloor*l.anorm
		if l.nl > lockedBefore || l.cut != cutBefore || maxRes < l.bestRes/2 || slow {
			l.bestRes, l.stall = maxRes, 0
		} else {
			l.stall++
		}
		stallLimit := stallRestarts
		if l.deg <= 1 {
			// Unfiltered cycles are short and may progress slowly.
			stallLimit = 5 * stallRestarts
		}
		if l.c.progress != nil {
			l.c.progress(Status{Restarts: l.res.Restarts, MatVecs: l.res.MatVecs, Converged: l.nl, Wanted: l.k, Residual: maxRes})
		}
		if l.nl >= l.k {
			break
		}
		cur = next
		if l.stall >= stallLimit && l.deg > 1 {
			// The filter's rounding noise limits the attainable residual:
			// polish without it (B = A) from the current Ritz vectors.
			l.deg, l.stall, l.bestRes, l.polish = 1, 0, math.Inf(1), true
			l.restartFrom(min(l.k-l.nl+l.c.buffer, cur))
			cur = 0
		}
		if l.res.Restarts >= l.c.maxRestarts || l.stall >= stallLimit {
			return l.notConverged(maxRes, l.stall >= stallLimit)
		}
	}
	return l.result(l.k), nil
}

// mulBlock sets dst = A·x for n×c blocks, through MulVecTo for one column.
func (l *lanczos) mulBlock(dst, x *mat.Dense) {
	_, c := x.Dims()
	l.res.MatVecs += c
	if c == 1 {
		l.a.MulVecTo(dst.RawMatrix().Data[:l.n], x.RawMatrix().Data[:l.n])
		return
	}
	linop.MulBlock(l.a, dst, x)
}

// applyB sets l.w = B·l.x: A·x, or the Chebyshev polynomial T_deg of the
// affine map that sends the damped interval [dl, du] to [−1, 1] and the
// wanted end of the spectrum beyond +1:
//
//	Y₀ = X,  Y₁ = s(A − cI)X/e,  Y_{i+1} = 2s(A − cI)Y_i/e − Y_{i−1},
//	c = (du + dl)/2,  e = (du − dl)/2,  s = +1 for Largest, −1 for Smallest.
func (l *lanczos) applyB() {
	if l.deg <= 1 {
		l.mulBlock(l.w, l.x)
		return
	}
	dl, du, sign := l.c.lo, l.cut, 1.0
	if l.which == Smallest {
		dl, du, sign = l.cut, l.c.hi, -1.0
	}
	c, e := (du+dl)/2, (du-dl)/2
	alpha := sign / e
	cs, fused := l.a.(chebStepper)
	step := func(next, cur, prev *mat.Dense, a float64) {
		if fused {
			cs.chebStep(next, cur, prev, a, c)
			l.res.MatVecs += l.c.b
			return
		}
		l.mulBlock(next, cur)
		nr, cr := next.RawMatrix(), cur.RawMatrix()
		if prev == nil {
			for i := range nr.Data {
				nr.Data[i] = a * (nr.Data[i] - c*cr.Data[i])
			}
			return
		}
		pr := prev.RawMatrix()
		for i := range nr.Data {
			nr.Data[i] = a*(nr.Data[i]-c*cr.Data[i]) - pr.Data[i]
		}
	}
	step(l.y[0], l.x, nil, alpha)
	prev, cur := l.x, l.y[0]
	free, spare := l.y[1], l.y[2]
	for d := 2; d <= l.deg; d++ {
		next := free
		if d == l.deg {
			next = l.w
		}
		step(next, cur, prev, 2*alpha)
		if prev == l.x {
			free = spare
		} else {
			free = prev
		}
		prev, cur = cur, next
	}
}

// expand applies B to the block at active index cur, orthogonalises the
// product against the whole basis, fills column block cur of H and stores
// the next block after it.
func (l *lanczos) expand(cur int) {
	b := l.c.b
	c0 := l.nl + cur
	// A contiguous copy of the block keeps the sparse product's reads of x
	// within a few cache lines per row.
	copyCols(l.x, 0, l.v, c0, b)
	l.applyB()
	p := c0 + b // orthogonalise against locked + active + this block
	coef := l.orthonormalizeAgainst(p)
	// H[0:cur+b, cur:cur+b] from the coefficients of the active columns.
	hs := l.hs
	for t := 0; t < b; t++ {
		for i := 0; i < cur+b; i++ {
			x := coef[t*p+l.nl+i]
			l.h[i*hs+cur+t] = x
			l.h[(cur+t)*hs+i] = x
		}
	}
	for s := 0; s < b; s++ { // symmetrise the diagonal block
		for t := s + 1; t < b; t++ {
			x := (l.h[(cur+s)*hs+cur+t] + l.h[(cur+t)*hs+cur+s]) / 2
			l.h[(cur+s)*hs+cur+t] = x
			l.h[(cur+t)*hs+cur+s] = x
		}
	}
	copyCols(l.v, p, l.w, 0, b)
}

// orthonormalize orthonormalises the block in l.w against the first p
// columns of V (none when p = 0) and stores it after them.
func (l *lanczos) orthonormalize(p int) {
	l.orthonormalizeAgainst(p)
	copyCols(l.v, p, l.w, 0, l.c.b)
}

// orthonormalizeAgainst orthonormalises the block W against V[:, 0:p] by
// block classical Gram–Schmidt run twice (BCGS2: project out V, then
// modified Gram–Schmidt within the block; repeat on the result), which keeps
// the basis orthonormal to rounding even when W is dominated by directions
// already in V, as filtered blocks are. A column that vanishes is replaced by
// a random direction orthogonal to everything, with a zero coupling. It
// returns the coefficients C (b×p, row t for column t) of W = V·Cᵀ + Q·R and
// leaves the upper triangular R (b×b) in l.r.
func (l *lanczos) orthonormalizeAgainst(p int) []float64 {
	b := l.c.b
	coef := l.coef[:b*p]
	c2 := l.coef2[:b*p]
	for i := range coef {
		coef[i] = 0
	}
	r1 := make([]float64, b*b)
	for round := 0; round < 2; round++ {
		if p > 0 {
			gramT(c2, l.v, 0, p, l.w)
			subMul(l.w, l.v, 0, p, c2)
		}
		rr, dependent := l.blockMGS(p)
		if round == 0 {
			if p > 0 {
				copy(coef, c2)
			}
			copy(r1, rr)
			for t, dep := range dependent {
				if dep {
					r1[t*b+t] = 0
				}
			}
			continue
		}
		// W = V C1ᵀ + Q1 R1 and Q1 = V C2ᵀ + Q R2 give
		// W = V (C1 + R1ᵀ C2)ᵀ + Q (R2 R1).
		if p > 0 {
			for t := 0; t < b; t++ {
				for s := 0; s <= t; s++ {
					if x := r1[s*b+t]; x != 0 {
						floats.AddScaled(coef[t*p:(t+1)*p], x, c2[s*p:(s+1)*p])
					}
				}
			}
		}
		for i := range l.r {
			l.r[i] = 0
		}
		for s := 0; s < b; s++ {
			for t := s; t < b; t++ {
				var x float64
				for q := s; q <= t; q++ {
					x += rr[s*b+q] * r1[q*b+t]
				}
				l.r[s*b+t] = x
			}
		}
	}
	return coef
}

// blockMGS orthonormalises the columns of W among themselves by modified
// Gram–Schmidt (two sweeps) and returns R (b×b, W = Q R) and the columns that
// vanished, which are replaced by random directions orthogonal to V[:, 0:p]
// and to the other columns.
func (l *lanczos) blockMGS(p int) ([]float64, []bool) {
	b := l.c.b
	cols := make([][]float64, b)
	for t := range cols {
		cols[t] = mat.Col(nil, t, l.w)
	}
	r := make([]float64, b*b)
	dependent := make([]bool, b)
	for t := 0; t < b; t++ {
		x := cols[t]
		for sweep := 0; sweep < 2; sweep++ {
			for s := 0; s < t; s++ {
				d := floats.Dot(cols[s], x)
				r[s*b+t] += d
				floats.AddScaled(x, -d, cols[s])
			}
		}
		nrm := floats.Norm(x, 2)
		if !(nrm > 1e-300) || math.IsInf(nrm, 0) {
			dependent[t] = true
			l.randomDirection(x, p, cols[:t])
			continue
		}
		floats.Scale(1/nrm, x)
		r[t*b+t] = nrm
	}
	for t := range cols {
		l.w.SetCol(t, cols[t])
	}
	return r, dependent
}

// randomDirection sets x to a random unit vector orthogonal to V[:, 0:p] and
// to the given unit vectors.
func (l *lanczos) randomDirection(x []float64, p int, others [][]float64) {
	one := mat.NewDense(l.n, 1, nil)
	c := make([]float64, p)
	for attempt := 0; ; attempt++ {
		for i := range x {
			x[i] = l.rng.NormFloat64()
		}
		for pass := 0; pass < 2; pass++ {
			one.SetCol(0, x)
			gramT(c, l.v, 0, p, one)
			subMul(one, l.v, 0, p, c)
			mat.Col(x, 0, one)
			for _, o := range others {
				floats.AddScaled(x, -floats.Dot(o, x), o)
			}
		}
		nrm := floats.Norm(x, 2)
		if nrm > 1e-8 || attempt > 10 {
			floats.Scale(1/nrm, x)
			return
		}
	}
}

// colNorms returns the 2-norms of the columns of w.
func colNorms(w *mat.Dense) []float64 {
	raw := w.RawMatrix()
	out := make([]float64, raw.Cols)
	for i := 0; i < raw.Rows; i++ {
		for t, x := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			out[t] += x * x
		}
	}
	for t := range out {
		out[t] = math.Sqrt(out[t])
	}
	return out
}

// eigSym returns the ascending eigenvalues and the eigenvectors (row-major
// j×j, column i for value i) of the leading j×j block of the symmetric
// row-major matrix h with stride hs.
func eigSym(h []float64, hs, j int) ([]float64, *mat.Dense, error) {
	hm := mat.NewSymDense(j, nil)
	for i := 0; i < j; i++ {
		for t := i; t < j; t++ {
			hm.SetSym(i, t, h[i*hs+t])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(hm, true) {
		return nil, nil, errors.New("spectral: eigensolver of the projected matrix failed to converge")
	}
	var y mat.Dense
	es.VectorsTo(&y)
	return es.Values(nil), &y, nil
}

// restart does the Rayleigh–Ritz step on the j active columns, locks
// converged pairs and compresses the basis to the kept Ritz vectors followed
// by the next block. It returns the new active size (where the next block
// sits) and the largest residual among the wanted unconverged pairs.
func (l *lanczos) restart(j int) (int, float64, error) {
	l.res.Restarts++
	theta, y, err := eigSym(l.h, l.hs, j)
	if err != nil {
		return 0, 0, err
	}
	wanted, keep, cand := l.restartSizes(j)
	// Wanted first: by the end of the spectrum of B that holds the wanted
	// eigenvalues of A (the top of p(A) when filtering).
	sel := wantedOrder(j, l.which == Largest || l.deg > 1)[:keep]
	nextCol := l.nl + j
	l.compress(j, y, sel)
	vals, resid, err := l.keptRitzPairs(j, cand, keep, theta, y, sel)
	if err != nil {
		return 0, 0, err
	}
	nlock, maxRes := l.lockConverged(vals, resid, wanted)
	keep -= nlock
	if l.nl >= l.k {
		return 0, maxRes, nil
	}
	if l.c.filtered() && !l.polish && cand > nlock && l.refilter(vals, resid, cand, wanted) {
		l.restartFrom(cand - nlock)
		return 0, maxRes, nil
	}
	if nlock > 0 {
		l.dropLocked(keep, nlock)
	}
	copyCols(l.v, l.nl+keep, l.v, nextCol, l.c.b)
	return keep, maxRes, nil
}

// restartSizes returns, for a restart of j active columns, the number of
// pairs still wanted, of Ritz vectors kept (the wanted ones and about half
// of the rest) and of candidates whose residuals are computed (with a
// filter, explicitly, for the wanted ones and a buffer).
func (l *lanczos) restartSizes(j int) (wanted, keep, cand int) {
	wanted = l.k - l.nl
	m := l.c.m
	keep = wanted + (m-wanted)/2
	keep = min(keep, m-l.c.b, j)
	keep = max(keep, min(wanted, j))
	cand = wanted
	if l.c.filtered() {
		cand = min(keep, wanted+l.c.buffer)
	}
	return wanted, keep, cand
}

// wantedOrder returns the indices of j ascending Ritz values from the
// wanted end: the largest first when largest is set, else the smallest.
func wantedOrder(j int, largest bool) []int {
	order := make([]int, j)
	for i := range order {
		if largest {
			order[i] = j - 1 - i
		} else {
			order[i] = i
		}
	}
	return order
}

// compress replaces the j active columns of V by the Ritz vectors sel (the
// columns of the eigenvector matrix y) and clears H.
func (l *lanczos) compress(j int, y *mat.Dense, sel []int) {
	keep := len(sel)
	s := make([]float64, j*keep)
	for r := 0; r < j; r++ {
		for t, i := range sel {
			s[r*keep+t] = y.At(r, i)
		}
	}
	rotate(l.v, l.nl, j, s, keep, l.nl)
	for i := range l.h {
		l.h[i] = 0
	}
}

// keptRitzPairs returns the Ritz values and residuals of the first cand
// kept vectors (explicit, after a Rayleigh–Ritz step with A, when
// filtering; estimated otherwise) and puts the kept Ritz values on the
// diagonal of H.
func (l *lanczos) keptRitzPairs(j, cand, keep int, theta []float64, y *mat.Dense, sel []int) (vals, resid []float64, err error) {
	hs := l.hs
	if l.c.filtered() {
		vals, resid, err = l.rayleighRitz(cand, theta, sel)
		if err != nil {
			return nil, nil, err
		}
		for t := cand; t < keep; t++ {
			l.h[t*hs+t] = theta[sel[t]]
		}
		return vals, resid, nil
	}
	l.anorm = math.Max(l.anorm, math.Max(math.Abs(theta[0]), math.Abs(theta[j-1])))
	vals, resid = l.estimates(j, theta, y, sel[:cand])
	for t := 0; t < keep; t++ {
		l.h[t*hs+t] = theta[sel[t]]
	}
	return vals, resid, nil
}

// lockConverged locks the leading wanted pairs whose residuals meet the
// tolerance and returns how many, and the largest residual of the wanted
// pairs left.
func (l *lanczos) lockConverged(vals, resid []float64, wanted int) (nlock int, maxRes float64) {
	thr := l.c.tol * l.anorm
	for nlock < wanted && resid[nlock] <= thr {
		nlock++
	}
	for _, r := range resid[nlock:wanted] {
		maxRes = math.Max(maxRes, r)
	}
	l.locked = append(l.locked, vals[:nlock]...)
	l.nl += nlock
	return nlock, maxRes
}

// refilter reports whether the filter should change, and if so moves its
// cut: the far end of the candidates' Ritz values bounds the
// (nl+cand)-th eigenvalue. If the last wanted Ritz value lies inside the
// damped interval, by more than its residual, the cut may damp wanted
// eigenvalues: move it to that bound. If the bound lies far beyond the
// cut, a better filter pays for discarding the Krylov basis. Either way
// the caller restarts from the candidates.
func (l *lanczos) refilter(vals, resid []float64, cand, wanted int) bool {
	cut := vals[cand-1]
	wi := min(wanted, cand) - 1
	worst := vals[wi]
	dist := worst - l.cut
	if l.which == Smallest {
		dist = -dist
	}
	inside := dist < 0 && resid[wi] < -dist
	nd := max(1, l.c.filterDegree(l.which, cut))
	moved := cut > l.cut
	if l.which == Smallest {
		moved = cut < l.cut
	}
	better := dist >= 0 && moved && l.separation(cut, nd, worst, cut) > 2*l.separation(l.cut, l.deg, worst, cut)+1
	if inside || better {
		l.setFilter(cut)
		return true
	}
	return false
}

// dropLocked removes the rows and columns of the nlock pairs just locked
// from the leading keep+nlock block of H.
func (l *lanczos) dropLocked(keep, nlock int) {
	hs := l.hs
	for r := 0; r < keep; r++ {
		copy(l.h[r*hs:r*hs+keep], l.h[(r+nlock)*hs+nlock:(r+nlock)*hs+nlock+keep])
		for t := keep; t < keep+nlock; t++ {
			l.h[r*hs+t] = 0
		}
	}
	for r := keep; r < keep+nlock; r++ {
		for t := 0; t < keep+nlock; t++ {
			l.h[r*hs+t] = 0
		}
	}
}

// estimates returns the Ritz values and the residual estimates ‖R·y_last‖
// of the selected Ritz pairs of the unfiltered recursion.
func (l *lanczos) estimates(j int, theta []float64, y *mat.Dense, sel []int) (vals, resid []float64) {
	b := l.c.b
	vals, resid = make([]float64, len(sel)), make([]float64, len(sel))
	for t, i := range sel {
		vals[t] = theta[i]
		var ss float64
		for p := 0; p < b; p++ {
			var x float64
			for q := p; q < b; q++ {
				x += l.r[p*b+q] * y.At(j-b+q, i)
			}
			ss += x * x
		}
		resid[t] = math.Sqrt(ss)
	}
	return vals, resid
}

// rayleighRitz is the restart step of the filtered iteration. For the first
// cand kept vectors Y = V[:, nl:nl+cand] it forms G = Yᵀ A Y, rotates them to
// the Ritz vectors of A in the wanted order (largest first for Largest,
// smallest first for Smallest) and computes their explicit residuals. It
// then moves the filter's cut to the far end of these Ritz values: by Cauchy
// interlacing the nl+cand ≥ k dimensional space [X Y] bounds the k-th wanted
// eigenvalue, so the cut never damps a wanted eigenvalue. It also sets the
// next cycle's degree.
func (l *lanczos) rayleighRitz(cand int, theta []float64, sel []int) (vals, resid []float64, err error) {
	n := l.n
	y := mat.NewDense(n, cand, nil)
	copyCols(y, 0, l.v, l.nl, cand)
	ay := mat.NewDense(n, cand, nil)
	l.mulBlock(ay, y)
	g := make([]float64, cand*cand)
	gramT(g, y, 0, cand, ay)
	for r := 0; r < cand; r++ {
		for t := r + 1; t < cand; t++ {
			x := (g[r*cand+t] + g[t*cand+r]) / 2
			g[r*cand+t], g[t*cand+r] = x, x
		}
	}
	ev, z, err := eigSym(g, cand, cand)
	if err != nil {
		return nil, nil, err
	}
	if err := l.checkBounds(ev[0], ev[cand-1]); err != nil {
		return nil, nil, err
	}
	zo := make([]float64, cand*cand)
	vals = make([]float64, cand)
	for t := 0; t < cand; t++ {
		i := t
		if l.which == Largest {
			i = cand - 1 - t
		}
		vals[t] = ev[i]
		for r := 0; r < cand; r++ {
			zo[r*cand+t] = z.At(r, i)
		}
	}
	rotate(l.v, l.nl, cand, zo, cand, l.nl)
	rotate(ay, 0, cand, zo, cand, 0)
	copyCols(y, 0, l.v, l.nl, cand)
	resid = residualNorms(ay, y, vals)
	// H block: Zoᵀ diag(θ_sel) Zo, the projection of B on the rotated
	// vectors (the thick-restart relation survives any rotation within the
	// kept block).
	hs := l.hs
	for r := 0; r < cand; r++ {
		for t := r; t < cand; t++ {
			var x float64
			for q := 0; q < cand; q++ {
				x += zo[q*cand+r] * theta[sel[q]] * zo[q*cand+t]
			}
			l.h[r*hs+t], l.h[t*hs+r] = x, x
		}
	}
	return vals, resid, nil
}

// probe runs one cycle of single-vector Lanczos on A without restart (at
// most probeLength steps, re-orthogonalised), places the filter's cut at the
// (k+buffer)-th Ritz value in wanted order — by Cauchy interlacing a bound on
// the (k+buffer)-th eigenvalue, so no wanted eigenvalue is damped — and puts
// the start block of the filtered recursion in V.
func (l *lanczos) probe() error {
	cand := min(l.k+l.c.buffer, l.n)
	steps := min(max(2*cand, 40), probeSteps, l.n-1, l.c.m+l.c.b+l.k-1)
	pc := l.c
	pc.b, pc.m, pc.degree, pc.lo, pc.hi = 1, steps, 1, 0, 0
	// The probe shares the basis storage: it needs steps+1 ≤ k+m+b columns.
	p := newLanczos(l.ctx, l.a, cand, l.which, pc, l.v)
	p.randomize(0, 1)
	p.w.Copy(p.v.Slice(0, l.n, 0, 1))
	p.orthonormalize(0)
	for cur := 0; cur < steps; cur++ {
		if err := l.ctx.Err(); err != nil {
			return fmt.Errorf("spectral: Lanczos stopped in the probe: %w", err)
		}
		p.expand(cur)
	}
	l.res.MatVecs += p.res.MatVecs
	theta, y, err := eigSym(p.h, p.hs, steps)
	if err != nil {
		return err
	}
	if err := l.checkBounds(theta[0], theta[steps-1]); err != nil {
		return err
	}
	cand = min(cand, steps)
	sel := make([]int, cand)
	for t := range sel {
		sel[t] = t
		if l.which == Largest {
			sel[t] = steps - 1 - t
		}
	}
	// Cut: where the Gauss quadrature of the probe's start vector (Ritz
	// values θ_i with weights y_{0i}², a stochastic estimate of the spectral
	// distribution) puts twice the candidates beyond it; never closer to the
	// wanted end than the rigorous interlacing bound θ_{cand}. A cut that
	// damps a wanted eigenvalue is caught at the first restart.
	cut := theta[sel[cand-1]]
	var mass float64
	for t := 0; t < steps; t++ {
		i := steps - 1 - t
		if l.which == Smallest {
			i = t
		}
		mass += y.At(0, i) * y.At(0, i) * float64(l.n)
		if mass >= float64(2*cand) {
			if (l.which == Largest && theta[i] > cut) || (l.which == Smallest && theta[i] < cut) {
				cut = theta[i]
			}
			break
		}
	}
	l.setFilter(cut)
	s := make([]float64, steps*cand)
	for r := 0; r < steps; r++ {
		for t, i := range sel {
			s[r*cand+t] = y.At(r, i)
		}
	}
	rotate(l.v, 0, steps, s, cand, 0)
	l.restartFrom(cand)
	return nil
}

// checkBounds reports Ritz values outside Bounds.
func (l *lanczos) checkBounds(lo, hi float64) error {
	slack := 1e-8 * (l.c.hi - l.c.lo)
	if lo < l.c.lo-slack || hi > l.c.hi+slack {
		return fmt.Errorf("spectral: Bounds [%v, %v] do not contain the spectrum: found Ritz values in [%v, %v]", l.c.lo, l.c.hi, lo, hi)
	}
	return nil
}

// setFilter fixes the filter's cut and degree.
func (l *lanczos) setFilter(cut float64) {
	l.cut = cut
	l.deg = max(1, l.c.filterDegree(l.which, cut))
}

// separation returns the log-amplification that the filter (cut, deg)
// puts between eigenvalues at a and at c (a on the wanted side of c).
func (l *lanczos) separation(cut float64, deg int, a, c float64) float64 {
	if deg <= 1 {
		return 0
	}
	dl, du := l.c.lo, cut
	if l.which == Smallest {
		dl, du = cut, l.c.hi
	}
	center, half := (du+dl)/2, (du-dl)/2
	g := func(x float64) float64 {
		x = math.Abs(x-center) / half
		if x <= 1 {
			return 0
		}
		return math.Acosh(x)
	}
	return float64(deg) * (g(a) - g(c))
}

// restartFrom restarts the recursion from random combinations of the c
// vectors in V[:, nl:nl+c], which carry every wanted direction with a weight
// far above a random vector's: the start block is orthonormalised against
// the locked vectors and H is cleared. (Keeping the vectors themselves would
// break the Krylov relation of the new filter: their residuals under it lie
// outside the basis, and the iteration stalls.)
func (l *lanczos) restartFrom(c int) {
	b := l.c.b
	g := make([]float64, c*b)
	for i := range g {
		g[i] = l.rng.NormFloat64()
	}
	rotate(l.v, l.nl, c, g, b, l.nl)
	copyCols(l.w, 0, l.v, l.nl, b)
	for i := range l.h {
		l.h[i] = 0
	}
	l.orthonormalize(l.nl)
}

// result assembles the first cnt locked pairs, ascending, with signs fixed
// and true residuals.
func (l *lanczos) result(cnt int) *Result {
	idx := make([]int, cnt)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return l.locked[idx[a]] < l.locked[idx[b]] })
	res := &Result{Values: make([]float64, cnt), Restarts: l.res.Restarts, MatVecs: l.res.MatVecs}
	if cnt == 0 {
		res.Vectors = &mat.Dense{}
		return res
	}
	res.Vectors = mat.NewDense(l.n, cnt, nil)
	for t, i := range idx {
		res.Values[t] = l.locked[i]
		res.Vectors.SetCol(t, mat.Col(nil, i, l.v))
	}
	finish(l.a, res)
	res.MatVecs += cnt
	return res
}

func (l *lanczos) notConverged(maxRes float64, stalled bool) (*Result, error) {
	return nil, &NotConvergedError{Wanted: l.k, Restarts: l.res.Restarts, MatVecs: l.res.MatVecs, Residual: maxRes, Tol: l.c.tol * l.anorm, Stalled: stalled, Converged: l.result(l.nl)}
}
