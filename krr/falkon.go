package krr

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/dense"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/linop"
)

// DefaultIterations is the number of CG iterations of Falkon when
// Iterations is 0 (and gssl falkon's --max-iter): t of the order of log n
// suffices for the statistical rate (Rudi, Carratino & Rosasco 2017), and
// it is the setting of bench/krr.sh (and of falkon's MNIST example).
const DefaultIterations = 10

// stallTol is the relative residual below which a column of FALKON's CG is
// considered solved when Tol is 0 (rounding prevents going further, and
// another step could divide by a zero pᵀAp).
const stallTol = 1e-14

// entryCost is the cost of the kernel function of one entry of K_nM (an
// exp and its surroundings), in multiply-adds of the GEMM kernel.
const entryCost = 100

// Products selects how FALKON applies K_nMᵀK_nM.
type Products int

const (
	// AutoProducts picks the cheaper of the two below by a cost model in
	// multiply-adds of the GEMM kernel: Streamed costs about
	// t·nM·(e + d + 4c) (t iterations, d dimensions, c columns of Y, e =
	// 100 for the kernel function of one entry, measured: an exp costs as
	// much as about 100 multiply-adds), NormalMatrix about nM·(e + d) +
	// nM²/2, so NormalMatrix is chosen when M < 2t·(e + d + 4c).
	AutoProducts Products = iota
	// Streamed evaluates K_nM in row blocks at every CG iteration:
	// O(nMd) time per iteration, as in FALKON's Algorithm 1.
	Streamed
	// NormalMatrix accumulates the M×M matrix K_nMᵀK_nM once, in one
	// blocked pass (O(nMd + nM²) time); iterations then cost O(M²).
	NormalMatrix
)

// String returns "auto", "streamed" or "normal-matrix".
func (p Products) String() string {
	switch p {
	case AutoProducts:
		return "auto"
	case Streamed:
		return "streamed"
	case NormalMatrix:
		return "normal-matrix"
	}
	return fmt.Sprintf("Products(%d)", int(p))
}

// Falkon is FALKON (see the package documentation): Nyström kernel ridge
// regression solved by conjugate gradient with the preconditioner
// B = T^{−1}A^{−1}. Memory O(nd + M²), K_nM never stored whole.
type Falkon struct {
	// Kernel is required.
	Kernel kernel.Kernel
	// Lambda is the ridge parameter λ > 0.
	Lambda float64
	// Centres chooses the M centres; the zero value draws min(n, 1000)
	// uniformly with seed 0.
	Centres Centres
	// Iterations is the number t of CG iterations; 0 means
	// DefaultIterations.
	Iterations int
	// Tol stops a column early once the relative residual of its
	// preconditioned system is ≤ Tol, in [0, 1); 0 means run all
	// Iterations (Algorithm 1). With Tol > 0, not reaching it within
	// Iterations is an error (the fitted model is still usable).
	Tol float64
	// Jitter is ε in K_MM + εMI; 0 means DefaultJitter. It is raised
	// tenfold (up to 1e-4) while K_MM + εMI does not factor or the
	// preconditioned system proves numerically indefinite (a nearly
	// singular K_MM for this λ); FalkonInfo reports the ε used. With
	// AutoProducts an indefinite system first makes FALKON switch from the
	// normal matrix to the streamed products, whose rounding errors are
	// those of K_nM instead of K_nMᵀK_nM.
	Jitter float64
	// Precision of the kernel inner products; the zero value is Float64.
	Precision kernel.Precision
	// BlockRows is the number of rows of K_nM evaluated at once; 0 means
	// kernel.DefaultBlockRows.
	BlockRows int
	// Products chooses how K_nMᵀK_nM is applied; the zero value picks.
	Products Products
	// Progress, if set, is called after every CG iteration with the
	// iteration and the largest relative residual of the active columns.
	Progress func(iteration int, residual float64)

	fit  expansion
	info FalkonInfo
}

// FalkonInfo describes the last fit in FALKON's own terms (Details); Info
// has the shared fields.
type FalkonInfo struct {
	Centres        []int    // rows of the training X used as centres
	DroppedCentres []int    // rows chosen as centres but equal to an earlier centre, left out
	Iterations     int      // CG iterations run (of the last attempt)
	Residual       float64  // largest final true relative residual of the preconditioned system
	Jitter         float64  // ε used in K_MM + εMI
	JitterRaises   int      // tenfold increases of ε after a numerical failure
	Products       Products // how K_nMᵀK_nM was applied
}

// Validate reports a hyperparameter outside its valid range (the data
// dependent ones, such as M ≤ n, are checked by Fit).
func (f *Falkon) Validate() error {
	if err := checkKernel(f.Kernel); err != nil {
		return err
	}
	if err := checkLambda(f.Lambda); err != nil {
		return err
	}
	if f.Centres.M < 0 {
		return fmt.Errorf("krr: M=%d is invalid: it must be ≥ 1 (0 means min(n, %d))", f.Centres.M, DefaultM)
	}
	if f.Iterations < 0 {
		return fmt.Errorf("krr: Iterations=%d is invalid: it must be ≥ 1 (0 means %d)", f.Iterations, DefaultIterations)
	}
	if !(f.Tol >= 0 && f.Tol < 1) {
		return fmt.Errorf("krr: Tol=%v is invalid: it must be in [0, 1) (0 means run all iterations)", f.Tol)
	}
	if f.Products < AutoProducts || f.Products > NormalMatrix {
		return fmt.Errorf("krr: Products=%v is invalid", f.Products)
	}
	if f.BlockRows < 0 {
		return fmt.Errorf("krr: BlockRows=%d is invalid: it must be ≥ 0 (0 means %d)", f.BlockRows, kernel.DefaultBlockRows)
	}
	return nil
}

// FitTargets runs FALKON's Algorithm 1 on all columns of Y at once (c CG
// recursions in lockstep sharing every pass over K_nM).
func (f *Falkon) FitTargets(ctx context.Context, x, y *mat.Dense) error {
	if err := f.Validate(); err != nil {
		return err
	}
	st, err := prepare(ctx, f.Kernel, f.Lambda, f.Centres, f.Jitter, f.Precision, f.BlockRows, x, y)
	if err != nil {
		return err
	}
	iters := f.Iterations
	if iters == 0 {
		iters = DefaultIterations
	}
	m := st.m
	_, d := x.Dims()
	prod := f.Products
	if prod == AutoProducts {
		prod = Streamed
		if m < 2*iters*(entryCost+d+4*st.c) {
			prod = NormalMatrix
		}
	}
	var kty *mat.Dense
	var normal func(dst, v *mat.Dense)
	if prod == NormalMatrix {
		g, ky, err := st.normal(ctx, y)
		if err != nil {
			return fmt.Errorf("krr: %w", err)
		}
		kty = ky
		normal = dense.PackSym(g).MulTo
	} else {
		kty = mat.NewDense(m, st.c, nil)
		st.km.TMulTo(kty, y)
		normal = st.km.NormalTo
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	tol := f.Tol
	if tol == 0 {
		tol = stallTol
	}
	for {
		alpha, res, err, failed := f.solve(ctx, st, kty, normal, tol, iters)
		if failed != "" {
			if f.Products == AutoProducts && prod == NormalMatrix {
				// Forming K_nMᵀK_nM squares the conditioning: its rounding
				// errors, amplified by T^{-1}, can make the system
				// indefinite when K_MM is nearly singular. The streamed
				// products keep them at the level of K_nM's.
				prod, normal = Streamed, st.km.NormalTo
				continue
			}
			// K_MM is numerically rank deficient for this λ: more jitter
			if err := st.refactor("Falkon: " + failed); err != nil {
				return err
			}
			continue
		}
		var notConverged *krylov.NotConvergedError
		if err != nil && !errors.As(err, &notConverged) {
			return fmt.Errorf("krr: Falkon: %w", err)
		}
		f.fit = expansion{k: f.Kernel, centres: st.centres, alpha: alpha, prec: f.Precision, blockRows: f.BlockRows}
		f.info = FalkonInfo{Centres: st.idx, DroppedCentres: st.dropped, Iterations: slices.Max(res.Iterations),
			Residual: res.MaxResidual(), Jitter: st.jitter, JitterRaises: st.raised, Products: prod}
		if f.Tol > 0 && err != nil {
			return &estimator.NotConvergedError{Model: "krr: Falkon", Method: "preconditioned CG", Iterations: slices.Max(res.Iterations),
				Residual: res.MaxResidual(), Tol: f.Tol, Hint: "raise Iterations or Tol; the fitted model is usable", Err: err}
		}
		return nil
	}
}

// solve runs Algorithm 1 with the current T: A = chol(T Tᵀ/M + λI), t CG
// iterations on BHB from r = A^{−T}T^{−T}K_nMᵀY/n, and α = T^{−1}A^{−1}β. It
// returns a description in failed when the preconditioned system proved
// numerically indefinite (A does not factor, or CG met pᵀAp ≤ 0).
func (f *Falkon) solve(ctx context.Context, st *setup, kty *mat.Dense, normal func(dst, v *mat.Dense), tol float64, iters int) (alpha *mat.Dense, res krylov.BlockResult, err error, failed string) {
	m, nf := st.m, float64(st.n)
	tt := dense.Gram(st.t, 1/float64(m)).RawSymmetric()
	for i := 0; i < m; i++ {
		tt.Data[i*tt.Stride+i] += f.Lambda
	}
	a, ok := dense.CholeskyInPlace(tt.Data, m)
	if !ok {
		return nil, res, nil, fmt.Sprintf("T Tᵀ/M + λI (λ=%v) is not numerically positive definite", f.Lambda)
	}
	op := &bhb{m: m, t: packTri(st.t), a: packTri(a), lambda: f.Lambda, n: nf, normal: normal}
	// r = A^{-T} T^{-T} K_nMᵀ Y / n
	r := mat.DenseCopyOf(kty)
	r.Scale(1/nf, r)
	op.t.solve(true, r)
	op.a.solve(true, r)
	beta := mat.NewDense(m, st.c, nil)
	// Algorithm 1 runs exactly t iterations: with MaxIter = t, not reaching
	// the tolerance is the expected outcome, and BlockCG then leaves its
	// last iterate (the best in the A-norm of the error) in beta.
	res, err = krylov.BlockCG(ctx, op, r, beta, krylov.Settings{Tol: tol, MaxIter: iters, Progress: f.Progress})
	var breakdown *krylov.BreakdownError
	if errors.As(err, &breakdown) {
		return nil, res, err, "the preconditioned system is not numerically positive definite (" + breakdown.Reason + ")"
	}
	// α = T^{-1} A^{-1} β
	op.a.solve(false, beta)
	op.t.solve(false, beta)
	return beta, res, err, ""
}

// PredictTargets returns f(x) for each row of x.
func (f *Falkon) PredictTargets(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	return f.fit.predict(ctx, x)
}

// Coefficients returns α (M×c), or nil before Fit.
func (f *Falkon) Coefficients() *mat.Dense { return f.fit.alpha }

// Details describes the last fit: the centres, the jitter and how the
// normal matrix was applied besides the iterations and the residual.
func (f *Falkon) Details() FalkonInfo { return f.info }

// Info reports the last fit under the shared names: the CG iterations and
// the largest final relative residual.
func (f *Falkon) Info() estimator.Info {
	return estimator.Info{Iterations: f.info.Iterations, Residual: f.info.Residual}
}

// bhb is FALKON's preconditioned operator
// BHB(u) = A^{−T} [ T^{−T} (K_nMᵀ K_nM T^{−1} A^{−1} u) / n + λ A^{−1} u ].
type bhb struct {
	m      int
	t, a   triFactor
	lambda float64
	n      float64
	normal func(dst, v *mat.Dense) // dst = K_nMᵀ K_nM v
}

var _ linop.BlockOperator = (*bhb)(nil)

func (o *bhb) Dim() int          { return o.m }
func (o *bhb) IsSymmetric() bool { return true }

func (o *bhb) MulVecTo(dst, x []float64) {
	linop.CheckVec("krr.bhb", o.m, dst, x)
	o.MulBlockTo(mat.NewDense(o.m, 1, dst), mat.NewDense(o.m, 1, append([]float64(nil), x...)))
}

// MulBlockTo applies BHB to the columns of u. The triangular solves, one
// goroutine's work for FALKON's few columns, run on column groups in
// parallel: each column is solved alone (dense.TriSolve's result for a
// column does not depend on the others), so dst does not depend on the
// number of goroutines.
func (o *bhb) MulBlockTo(dst, u *mat.Dense) {
	if isZero(u) {
		dst.Zero()
		return
	}
	_, c := u.Dims()
	v := mat.DenseCopyOf(u)
	w := mat.NewDense(o.m, c, nil)
	z := mat.NewDense(o.m, c, nil)
	byColumns(c, func(q0, q1 int) {
		vq, wq := columnsOf(v, q0, q1), columnsOf(w, q0, q1)
		o.a.solve(false, vq) // A^{-1} u
		wq.Copy(vq)
		o.t.solve(false, wq) // T^{-1} A^{-1} u
	})
	o.normal(z, w)
	byColumns(c, func(q0, q1 int) {
		zq := columnsOf(z, q0, q1)
		zq.Scale(1/o.n, zq)
		o.t.solve(true, zq)
		zq.Add(zq, scaled(o.lambda, columnsOf(v, q0, q1)))
		o.a.solve(true, zq)
	})
	dst.Copy(z)
}

// packTriMax is the largest M for which FALKON packs its triangular factors
// once for the CG's solves: the packed T and A, both orientations, take
// 16·M² bytes (16 MB at M = 1000, 64 MB at 2048, 400 MB at 5000). Above
// it the solves pack on every call, as dense.TriSolve does; the packing
// then weighs less against the kernel products, which grow as n·M.
const packTriMax = 2048

// triFactor is an upper triangular factor of FALKON's preconditioner, with
// its packed forms for R X = B and Rᵀ X = B when M ≤ packTriMax. Both
// solve bitwise as dense.TriSolve.
type triFactor struct {
	r      *mat.TriDense
	no, tr *dense.PackedTri
}

func packTri(r *mat.TriDense) triFactor {
	f := triFactor{r: r}
	if n, _ := r.Triangle(); n <= packTriMax {
		f.no, f.tr = dense.PackTri(r, false), dense.PackTri(r, true)
	}
	return f
}

// solve overwrites b with op(R)^{−1} b, op(R) = R or Rᵀ (when trans).
func (f triFactor) solve(trans bool, b *mat.Dense) {
	p := f.no
	if trans {
		p = f.tr
	}
	if p == nil {
		dense.TriSolve(f.r, trans, b)
		return
	}
	p.Solve(b)
}

// byColumns calls fn on contiguous groups [q0, q1) of c columns in
// parallel.
func byColumns(c int, fn func(q0, q1 int)) { parallel.For(c, 1, fn) }

// columnsOf returns the view of columns [q0, q1) of a.
func columnsOf(a *mat.Dense, q0, q1 int) *mat.Dense {
	r, _ := a.Dims()
	return a.Slice(0, r, q0, q1).(*mat.Dense)
}

func scaled(s float64, a *mat.Dense) *mat.Dense {
	var out mat.Dense
	out.Scale(s, a)
	return &out
}

func isZero(a *mat.Dense) bool {
	raw := a.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			if v != 0 {
				return false
			}
		}
	}
	return true
}
