package stkr

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/linop"
)

// Default tolerances (relative residual of the system solved).
const (
	// DefaultTol is used for polynomial transforms: the n×n system's
	// solution α is what predictions are linear in, with no amplification.
	DefaultTol = 1e-6
	// DefaultLapTol is used for the inverse Laplacian: predictions are
	// N·(Mθ), so the error of θ is multiplied by N (1e-6 gave errors of 7e-4
	// in the predictions on Cora in stkr.py).
	DefaultLapTol = 1e-9
	// DefaultMaxIter caps the iterations of one column's solve when
	// Regressor.MaxIter is 0. Richardson needs thousands (Algorithm 2 with
	// β = 10–100 takes 4k–6k on Cora); Krylov methods far fewer.
	DefaultMaxIter = 20000
	// DefaultRestart is GMRES's Krylov dimension when Regressor.Restart is 0
	// (the peer script's GMRES(100)).
	DefaultRestart = 100
)

// Solver chooses how the STKR linear system is solved.
type Solver int

const (
	// SolverAuto uses MINRES for the inverse Laplacian (symmetric,
	// indefinite form), CG for a polynomial that is non-negative term by
	// term (only even powers with π_p ≥ 0, e.g. λ^8: the system is SPD) and
	// MINRES for other polynomials (e.g. KRR, s = λ, whose Gram matrix can be
	// indefinite on a graph).
	SolverAuto Solver = iota
	// SolverCG is conjugate gradients on the SPD n×n system of a
	// polynomial transform.
	SolverCG
	// SolverMINRES is MINRES on the symmetric system (n×n for a polynomial,
	// the symmetrised N×N system for the inverse Laplacian).
	SolverMINRES
	// SolverGMRES is restarted GMRES: on the n×n system for a polynomial, on
	// the non-symmetric N×N system as the paper writes it (their eq. 20) for
	// the inverse Laplacian.
	SolverGMRES
	// SolverRichardson is the paper's own iteration: Algorithm 1 for a
	// polynomial (step γ = 2/(N·max|s| + 2nβ)), Algorithm 2 for the inverse
	// Laplacian as stkr.py reads it. Algorithm 2 diverges for small β; the
	// error says so.
	SolverRichardson
)

var solverNames = []string{"auto", "cg", "minres", "gmres", "richardson"}

// String returns the solver's CLI name.
func (s Solver) String() string {
	if s < 0 || int(s) >= len(solverNames) {
		return fmt.Sprintf("Solver(%d)", int(s))
	}
	return solverNames[s]
}

// ParseSolver reads a solver name: auto, cg, minres, gmres or richardson.
func ParseSolver(s string) (Solver, error) {
	for i, n := range solverNames {
		if s == n {
			return Solver(i), nil
		}
	}
	return 0, fmt.Errorf("stkr: unknown solver %q: want one of auto, cg, minres, gmres, richardson", s)
}

// Eigensolver finds the d algebraically largest eigenpairs of a symmetric
// operator: values in descending order and orthonormal eigenvectors as the
// columns of an n×d matrix. Kernel PCA (TopD) uses it.
type Eigensolver interface {
	Largest(ctx context.Context, a linop.Operator, d int) (values []float64, vectors *mat.Dense, err error)
}

// Stats describes a fit: the solver used, iterations and final relative
// residual of each output column, and the products with M over all columns
// (the cost unit of every solver here: one application of the base kernel).
type Stats struct {
	Solver     string
	Iterations []int
	Residual   []float64
	MatVecs    int
}

// TotalIterations sums the iterations over the columns.
func (s Stats) TotalIterations() int {
	t := 0
	for _, it := range s.Iterations {
		t += it
	}
	return t
}

// Regressor is the STKR estimator (the paper's eq. 7)
//
//	α = (G_s[n,n] + nβ I)^{-1} y,   f(x) = Σ_i α_i K_s(x_i, x),
//
// fitted on a base kernel over the N visible nodes, n of them labelled.
// Every transform reduces f to a stored N-vector u per output column,
// f(x) = k(x)ᵀu, so predicting a new point costs O(nnz(k(x))) and the
// transductive predictions are F = N·M·U.
type Regressor struct {
	// Transform is the spectral transformation s; it must be set.
	Transform Transform
	// Beta is the ridge parameter β of eq. 7; it must be finite and > 0.
	Beta float64
	// Solver chooses the linear solver; the zero value is SolverAuto.
	Solver Solver
	// Tol is the relative residual target; 0 means DefaultTol for a
	// polynomial and DefaultLapTol for the inverse Laplacian.
	Tol float64
	// MaxIter caps the iterations per column; 0 means DefaultMaxIter.
	MaxIter int
	// Restart is GMRES's Krylov dimension; 0 means DefaultRestart.
	Restart int
	// Iterations stops the solver early, as a regulariser (the paper's
	// Appendix D tunes the "number of iterations" of its Richardson
	// algorithms on the validation set). 0 means solve to Tol. k > 0 means:
	// with SolverAuto or SolverRichardson, run exactly k steps of the
	// paper's iteration from zero (Algorithm 1 for a polynomial, Algorithm 2
	// for the inverse Laplacian) and keep the k-th iterate, with no
	// tolerance test and no error for not converging; with SolverCG,
	// SolverMINRES or SolverGMRES, stop the Krylov method after at most k
	// iterations (earlier if Tol is reached) and keep its last iterate.
	// Kernel PCA has no iterations: k > 0 is an error for TopD. For the
	// inverse Laplacian stopped early, θ is not (I − ηM)^{-1}[α; 0] for any
	// α, so Alpha (((I − ηM)θ)[train]) no longer represents the predictor
	// exactly; Predict, PredictRow and Vectors (θ) do.
	Iterations int
	// Eigen computes kernel PCA's eigenvectors; nil means LanczosEigen{}
	// (spectral's Lanczos, O(N·d) memory). DenseEigen is the explicit dense
	// reference (O(N²) memory, small graphs only).
	Eigen Eigensolver
	// MaxMemory, when > 0, bounds the bytes of the N×c blocks of an
	// inverse-Laplacian fit by block MINRES (InverseLaplacianBytes): the
	// output columns are then solved in batches, each holding the solver's
	// blocks for its own columns only (one set shared by the batches), with
	// every column's iterates bitwise those of one batch. Every batch reads
	// the graph once per iteration, so fewer columns per batch cost time.
	// 0 means one batch.
	MaxMemory int64
	// Progress, when set, observes every iteration of every column's solve
	// (calls are serialised; columns may be solved concurrently). Block CG
	// and MINRES solve all columns at once and report column −1 with the
	// largest residual of the columns still iterating.
	Progress func(column, iteration int, residual float64)
	// columnByColumn makes MINRES solve one column at a time (krylov.MINRES
	// per column, as GMRES does) instead of all columns at once with shared
	// block products (krylov.MINRESColumns): the reference the tests compare
	// the block path with.
	columnByColumn bool

	kernel BaseKernel
	u      *mat.Dense // N×c stored vectors
	alpha  *mat.Dense // n×c dual coefficients (nil for kernel PCA)
	stats  Stats
	// task is set by Classifier.Fit (classification) and Regressor.Fit.
	task fitTask
	// A model read by UnmarshalBinary has no kernel: the transductive
	// predictions and what new nodes' kernel rows need are stored instead.
	saved *savedKernel
}

// Validate checks the hyperparameters that do not depend on the data.
func (r *Regressor) Validate() error {
	if r.Transform == nil {
		return fmt.Errorf("stkr: Transform is nil: choose Polynomial, InverseLaplacian or TopD")
	}
	if !(r.Beta > 0) || math.IsInf(r.Beta, 0) {
		return fmt.Errorf("stkr: Beta=%v is invalid: it must be finite and > 0", r.Beta)
	}
	if r.Solver < SolverAuto || r.Solver > SolverRichardson {
		return fmt.Errorf("stkr: Solver=%d is invalid: it must be one of SolverAuto … SolverRichardson", int(r.Solver))
	}
	if r.Tol != 0 && !(r.Tol > 0 && r.Tol < 1) {
		return fmt.Errorf("stkr: Tol=%v is invalid: it must be in (0, 1) (0 means the default)", r.Tol)
	}
	if r.MaxIter < 0 {
		return fmt.Errorf("stkr: MaxIter=%d is invalid: it must be ≥ 0 (0 means %d)", r.MaxIter, DefaultMaxIter)
	}
	if r.Restart < 0 {
		return fmt.Errorf("stkr: Restart=%d is invalid: it must be ≥ 0 (0 means %d)", r.Restart, DefaultRestart)
	}
	if r.Iterations < 0 {
		return fmt.Errorf("stkr: Iterations=%d is invalid: it must be ≥ 0 (0 means solve to the tolerance)", r.Iterations)
	}
	if r.MaxMemory < 0 {
		return fmt.Errorf("stkr: MaxMemory=%d is invalid: it must be ≥ 0 (0 means no bound)", r.MaxMemory)
	}
	if _, ok := r.Transform.(TopD); ok && r.Iterations > 0 {
		return fmt.Errorf("stkr: Iterations=%d does not apply to kernel PCA (%s), which has no iterative solve; use 0", r.Iterations, r.Transform)
	}
	return nil
}

// collectBytes is the size of an N×c block from which FitIndexed returns
// the heap's free memory to the system before it allocates its blocks, and
// collects the solver's garbage before it returns.
const collectBytes = 64 << 20

// freeOSMemory is debug.FreeOSMemory (a variable so that tests can count
// its calls).
var freeOSMemory = debug.FreeOSMemory

// IterationsGrid returns the numbers of iterations searched when early
// stopping is chosen on the validation set: 0 (solve to the tolerance)
// first, so that it wins ties, then 1, 2, 4, …, 256.
func IterationsGrid() []int { return []int{0, 1, 2, 4, 8, 16, 32, 64, 128, 256} }

// FitIndexed is the low-level fit on a list of training nodes: train
// (ids in [0, N), distinct) with targets y (one row per train node, one
// column per output, e.g. one-hot classes); every other node is unlabelled.
// Classifier.Fit (classes) and Regressor.Fit (one target per node, NaN for
// unknown) are the front doors built on it. On a solver failure (no
// convergence, divergence, cancellation) the model keeps the best iterate
// found and the error is returned, wrapping the krylov error.
func (r *Regressor) FitIndexed(ctx context.Context, k BaseKernel, train []int, y *mat.Dense) error {
	r.u, r.alpha, r.kernel, r.stats, r.task, r.saved = nil, nil, nil, Stats{}, fitTask{}, nil
	if err := r.Validate(); err != nil {
		return err
	}
	if err := checkKernel(k); err != nil {
		return err
	}
	if err := r.Transform.Validate(k.Radius()); err != nil {
		return err
	}
	if err := checkTrain(k.Dim(), train, y); err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	var count atomic.Int64
	job := &fitJob{r: r, m: counted{m: k, n: &count}, N: k.Dim(), radius: k.Radius(), train: train, y: y}
	_, c := y.Dims()
	if 8*k.Dim()*c >= collectBytes {
		// Memory the heap holds but no longer uses (the garbage of the
		// caller's earlier phases: a loader's parsed text, its id tables)
		// goes back to the system before the N×c blocks are allocated.
		// Kept, it would stay resident beside them for the whole solve:
		// the blocks raise the collector's goal far above it, and each
		// block, one allocation, rarely fits in its holes (docs/memory.md).
		freeOSMemory()
	}
	job.u = mat.NewDense(k.Dim(), c, nil)
	job.alpha = mat.NewDense(len(train), c, nil)
	job.iters = make([]int, c)
	job.resid = make([]float64, c)
	var err error
	switch t := r.Transform.(type) {
	case Polynomial:
		err = job.polynomial(ctx, t)
	case InverseLaplacian:
		err = job.inverseLaplacian(ctx, t)
	case TopD:
		err = job.topD(ctx, t)
	default:
		err = fmt.Errorf("stkr: unsupported transform type %T", r.Transform)
	}
	r.stats = Stats{Solver: job.solver, Iterations: job.iters, Residual: job.resid, MatVecs: int(count.Load())}
	if 8*k.Dim()*c >= collectBytes {
		// The solver's work blocks (six N×c for MINRES) are garbage now.
		// Collected here, their memory is what the caller's next N×c
		// blocks (Scores, probabilities) reuse; left to the pacer, the
		// heap would first grow by those blocks, above the solve's peak.
		runtime.GC()
	}
	if job.done {
		r.u, r.kernel = job.u, k
		r.alpha = nil
		if _, ok := r.Transform.(TopD); !ok {
			r.alpha = job.alpha
		}
	}
	return err
}

// Stats returns the statistics of the last Fit.
func (r *Regressor) Stats() Stats {
	s := r.stats
	s.Iterations = append([]int(nil), s.Iterations...)
	s.Residual = append([]float64(nil), s.Residual...)
	return s
}

// Vectors returns a copy of the stored N×c matrix U with f(x) = k(x)ᵀU: for
// a polynomial u = Σ_p π_p M^{p−1}[α; 0] (π_1[α;0] plus Algorithm 1's v),
// for the inverse Laplacian u = θ, for kernel PCA u = U_d Λ_d^{-1} w/√N.
// It returns an error wrapping estimator.ErrNotFitted before a successful
// Fit.
func (r *Regressor) Vectors() (*mat.Dense, error) {
	if r.u == nil {
		return nil, estimator.NotFitted("stkr: Vectors")
	}
	return mat.DenseCopyOf(r.u), nil
}

// Alpha returns a copy of the n×c dual coefficients α of eq. 7 (for the
// inverse Laplacian α = ((I − ηM)θ)[train]), or nil for kernel PCA, whose
// predictor is a linear probe on features rather than a kernel expansion.
// It returns an error wrapping estimator.ErrNotFitted before a successful
// Fit.
func (r *Regressor) Alpha() (*mat.Dense, error) {
	if r.u == nil {
		return nil, estimator.NotFitted("stkr: Alpha")
	}
	if r.alpha == nil {
		return nil, nil
	}
	return mat.DenseCopyOf(r.alpha), nil
}

// Scores returns the N×c outputs on the visible nodes, F = N·M·U (the
// transductive predictions; for the polynomial transform the same as
// G_s[:, train]·α), one column per output of the fit: what both roles'
// Predict return for the fitted nodes, for any number of outputs
// (FitIndexed). It returns an error wrapping estimator.ErrNotFitted before
// a successful fit.
func (r *Regressor) Scores() (*mat.Dense, error) {
	if r.u == nil {
		return nil, estimator.NotFitted("stkr: Scores")
	}
	n, c := r.u.Dims()
	dst := mat.NewDense(n, c, nil)
	if r.saved != nil {
		dst.Copy(r.saved.pred)
		return dst, nil
	}
	linop.MulBlock(r.kernel, dst, r.u)
	dst.Scale(float64(n), dst)
	return dst, nil
}

// PredictRow sets dst (length c) to f(x) = k(x)ᵀU for a point with kernel
// row k(x) against the visible nodes: O(len(row.Index)·c).
func (r *Regressor) PredictRow(dst []float64, row KernelRow) error {
	if r.u == nil {
		return estimator.NotFitted("stkr: PredictRow")
	}
	n, c := r.u.Dims()
	if len(dst) != c {
		return fmt.Errorf("stkr: predict: dst has length %d, the model has %d outputs", len(dst), c)
	}
	if len(row.Index) != len(row.Value) {
		return fmt.Errorf("stkr: predict: kernel row has %d indices but %d values", len(row.Index), len(row.Value))
	}
	for j := range dst {
		dst[j] = 0
	}
	for t, i := range row.Index {
		if i < 0 || i >= n {
			return fmt.Errorf("stkr: predict: kernel row index %d (position %d) is not a visible node in [0, %d)", i, t, n)
		}
		v := row.Value[t]
		for j, w := range r.u.RawRowView(i) {
			dst[j] += v * w
		}
	}
	return nil
}

func checkTrain(n int, train []int, y *mat.Dense) error {
	if len(train) == 0 {
		return fmt.Errorf("stkr: no labelled (train) nodes")
	}
	if y == nil {
		return fmt.Errorf("stkr: targets y are nil")
	}
	rows, c := y.Dims()
	if rows != len(train) {
		return fmt.Errorf("stkr: y has %d rows but there are %d train nodes: one row per train node", rows, len(train))
	}
	if c < 1 {
		return fmt.Errorf("stkr: y has no columns")
	}
	seen := make(map[int]int, len(train))
	for t, i := range train {
		if i < 0 || i >= n {
			return fmt.Errorf("stkr: train node %d (position %d) is out of range [0, %d)", i, t, n)
		}
		if p, ok := seen[i]; ok {
			return fmt.Errorf("stkr: train node %d is listed twice (positions %d and %d)", i, p, t)
		}
		seen[i] = t
		for j, v := range y.RawRowView(t) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("stkr: y[%d][%d] = %v (train node %d) is not finite", t, j, v, i)
			}
		}
	}
	return nil
}

// fitJob carries one Fit's state.
type fitJob struct {
	r      *Regressor
	m      counted
	N      int
	radius float64
	train  []int
	alpha  *mat.Dense
	y      *mat.Dense
	u      *mat.Dense
	iters  []int
	resid  []float64
	solver string
	done   bool // u holds a usable (possibly not converged) solution
	mu     sync.Mutex
}

func (j *fitJob) tol(def float64) float64 {
	if j.r.Tol > 0 {
		return j.r.Tol
	}
	return def
}

func (j *fitJob) maxIter() int {
	if j.r.Iterations > 0 {
		return j.r.Iterations
	}
	if j.r.MaxIter > 0 {
		return j.r.MaxIter
	}
	return DefaultMaxIter
}

func (j *fitJob) settings(col int, tol float64) krylov.Settings {
	s := krylov.Settings{Tol: tol, MaxIter: j.maxIter(), Restart: j.r.Restart}
	if s.Restart == 0 {
		s.Restart = DefaultRestart
	}
	if p := j.r.Progress; p != nil {
		s.Progress = func(it int, res float64) {
			j.mu.Lock()
			defer j.mu.Unlock()
			p(col, it, res)
		}
	}
	return s
}

// columns runs solve for every output column, concurrently on up to
// GOMAXPROCS goroutines, and returns the first error by column order.
func (j *fitJob) columns(solve func(col int) error) error {
	_, c := j.y.Dims()
	errs := make([]error, c)
	next := atomic.Int64{}
	workers := min(parallel.Workers(), c)
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for {
				col := int(next.Add(1)) - 1
				if col >= c {
					return
				}
				errs[col] = solve(col)
			}
		}()
	}
	wg.Wait()
	for col, err := range errs {
		if err != nil {
			return fmt.Errorf("stkr: %s, output column %d: %w", j.solver, col, err)
		}
	}
	return nil
}

// minresColumns solves a X = b by krylov.MINRESColumns (each column's
// MINRES, one block product per iteration for all columns) and records
// every column's iterations and residual. ok[col] says whether column col of
// x holds a usable iterate; the error is, as columns returns it, the first
// column's by column order.
func (j *fitJob) minresColumns(ctx context.Context, a linop.Operator, b, x *mat.Dense, tol float64) (ok []bool, err error) {
	res, err := krylov.MINRESColumns(ctx, a, b, x, j.settings(-1, tol))
	return j.minresOutcome(res, err)
}

// minresRows is minresColumns with b given by its nonzero rows
// (krylov.MINRESColumnsRows: the same iterates, no N×c block for b).
func (j *fitJob) minresRows(ctx context.Context, a linop.Operator, b krylov.RowBlock, x *mat.Dense, tol float64) (ok []bool, err error) {
	res, err := krylov.MINRESColumnsRows(ctx, a, b, x, j.settings(-1, tol))
	return j.minresOutcome(res, err)
}

// minresBatches is minresRows into j.u with the columns solved in batches
// of the width classBatch gives (fused says the operator takes MINRES's
// columns as they are, krylov.ColumnsOperator), the batches sharing one
// set of solver blocks. Each column's iterates are those of the one-batch
// solve, bitwise (krylov.MINRESColumnsRowsWith); the counters are merged
// column by column, the products added up.
func (j *fitJob) minresBatches(ctx context.Context, a linop.Operator, b krylov.RowBlock, tol float64, fused bool) (ok []bool, err error) {
	_, c := j.u.Dims()
	width := j.r.classBatch(j.N, c, fused)
	if width >= c {
		return j.minresRows(ctx, a, b, j.u, tol)
	}
	all := krylov.BlockResult{Iterations: make([]int, c), Residual: make([]float64, c)}
	errs := make([]error, c)
	failed := false
	var work krylov.MINRESBlocks
	for lo := 0; lo < c; lo += width {
		hi := min(lo+width, c)
		batch := krylov.RowBlock{Rows: b.Rows, Values: b.Values.Slice(0, len(b.Rows), lo, hi).(*mat.Dense)}
		res, err := krylov.MINRESColumnsRowsWith(ctx, a, batch, j.u.Slice(0, j.N, lo, hi).(*mat.Dense), j.settings(-1, tol), &work)
		var ce *krylov.ColumnErrors
		if err != nil && !errors.As(err, &ce) {
			return j.minresOutcome(all, err) // cancelled: the batches so far are in j.u
		}
		copy(all.Iterations[lo:hi], res.Iterations)
		copy(all.Residual[lo:hi], res.Residual)
		all.Products += res.Products
		if ce != nil {
			copy(errs[lo:hi], ce.Err)
			failed = true
		}
	}
	if failed {
		err = &krylov.ColumnErrors{Method: "MINRESColumns", Err: errs}
	}
	return j.minresOutcome(all, err)
}

// minresBlocks is the number of N×w float64 blocks the inverse Laplacian's
// MINRES solve of w columns holds beside θ: MINRESColumns' four (r1, r2 and
// two of the w's) and the product's input, when the system takes the
// columns as they are (fused: a graph kernel, lapColumns); otherwise its
// six (v and y = A·v besides).
func minresBlocks(fused bool) int64 {
	if fused {
		return 5
	}
	return 6
}

// classBatch returns how many of the c output columns the inverse
// Laplacian's MINRES solves at once on N nodes: c unless MaxMemory is set
// and θ with one batch of c columns passes it, then the widest batch
// whose blocks fit beside θ, made even (c split into the same number of
// batches, widths differing by at most one), and 1 when none fits
// (InverseLaplacianBytes then reports more than MaxMemory).
func (r *Regressor) classBatch(N, c int, fused bool) int {
	if r.MaxMemory <= 0 || c <= 1 {
		return max(c, 1)
	}
	n, per := int64(N), 8*minresBlocks(fused)
	free := r.MaxMemory - 8*n*int64(c)
	w := int64(c)
	if n > 0 {
		w = min(w, free/(per*n))
	}
	if w < 1 {
		return 1
	}
	k := (int64(c) + w - 1) / w
	return int((int64(c) + k - 1) / k)
}

// InverseLaplacianBytes returns the bytes of the N×c float64 blocks an
// inverse-Laplacian fit of a graph kernel by block MINRES holds at once on
// N nodes with c output columns, with the columns in the batches MaxMemory
// allows: θ (8Nc) and the solver's blocks, 8N·w·5 for batches of w
// columns (four for MINRES, one for the product's input). The graph, the
// O(N) vectors, the product's per-task rows and the right-hand side (its
// labelled rows only) are not counted.
func (r *Regressor) InverseLaplacianBytes(N, c int) int64 {
	w := r.classBatch(N, c, true)
	return 8*int64(N)*int64(c) + 8*minresBlocks(true)*int64(N)*int64(w)
}

// minresOutcome records the per-column counters of a MINRESColumns solve
// and sorts its columns into usable ones and the first error.
func (j *fitJob) minresOutcome(res krylov.BlockResult, err error) (ok []bool, _ error) {
	ok = make([]bool, len(res.Iterations))
	var ce *krylov.ColumnErrors
	if err != nil && !errors.As(err, &ce) {
		return ok, fmt.Errorf("stkr: %s: %w", j.solver, err)
	}
	copy(j.iters, res.Iterations)
	copy(j.resid, res.Residual)
	var first error
	for col := range ok {
		var e error
		if ce != nil {
			e = j.early(ce.Err[col])
		}
		ok[col] = usable(e)
		if e != nil && first == nil {
			first = fmt.Errorf("stkr: %s, output column %d: %w", j.solver, col, e)
		}
	}
	return ok, first
}

// copyColumns copies the columns col of src with ok[col] into dst.
func copyColumns(dst, src *mat.Dense, ok []bool) {
	r, _ := src.Dims()
	for i := 0; i < r; i++ {
		drow, srow := dst.RawRowView(i), src.RawRowView(i)
		for col, good := range ok {
			if good {
				drow[col] = srow[col]
			}
		}
	}
}

// early drops the "not converged" error of a solve stopped by
// Regressor.Iterations: reaching the iteration count is then the intended
// outcome, not a failure.
func (j *fitJob) early(err error) error {
	var nc *krylov.NotConvergedError
	if j.r.Iterations > 0 && errors.As(err, &nc) {
		return nil
	}
	return err
}

// usable reports whether a solver error still leaves a best iterate in x.
func usable(err error) bool {
	var nc *krylov.NotConvergedError
	var bd *krylov.BreakdownError
	return err == nil || errors.As(err, &nc) || errors.As(err, &bd) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
