package stkr

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/hugepage"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/linop"
)

// polySystem is the n×n operator a ↦ (G_s[n,n] + nβI)a of Algorithm 1, with
// G_s[n,n]a = N·(s(M)[a; 0])[train] by Horner (q products with M). It owns
// scratch space: one per goroutine.
type polySystem struct {
	m        linop.Operator
	s        Polynomial
	train    []int
	N        float64
	nbeta    float64
	x, t, mt []float64
}

func newPolySystem(m linop.Operator, s Polynomial, train []int, beta float64) *polySystem {
	N := m.Dim()
	return &polySystem{m: m, s: s, train: train, N: float64(N), nbeta: float64(len(train)) * beta,
		x: make([]float64, N), t: make([]float64, N), mt: make([]float64, N)}
}

func (p *polySystem) Dim() int          { return len(p.train) }
func (p *polySystem) IsSymmetric() bool { return true }

// hornerInner sets p.t = Σ_{p≥1} π_p M^{p−1} x (q−1 products): the stored
// vector u of the predictor when x = [α; 0].
func (p *polySystem) hornerInner(x []float64) []float64 {
	q := p.s.Degree()
	c := p.s.Coeffs
	for i, v := range x {
		p.t[i] = c[q-1] * v
	}
	for k := q - 1; k >= 1; k-- {
		p.m.MulVecTo(p.mt, p.t)
		for i, v := range x {
			p.t[i] = p.mt[i] + c[k-1]*v
		}
	}
	return p.t
}

func (p *polySystem) scatter(a []float64) {
	for i := range p.x {
		p.x[i] = 0
	}
	for t, i := range p.train {
		p.x[i] = a[t]
	}
}

// MulVecTo sets dst = N·(s(M)[a;0])[train] + nβ·a.
func (p *polySystem) MulVecTo(dst, a []float64) {
	linop.CheckVec("stkr: polynomial system", len(p.train), dst, a)
	p.scatter(a)
	t := p.hornerInner(p.x)
	p.m.MulVecTo(p.mt, t)
	for k, i := range p.train {
		dst[k] = p.N*p.mt[i] + p.nbeta*a[k]
	}
}

// polyBlock is polySystem for n×k blocks, k ≤ its width c, all columns
// sharing each pass over M: block CG on it costs q block products per
// iteration, and so does an iteration of krylov.MINRESColumns, which
// multiplies only the columns still iterating.
type polyBlock struct {
	m        counted
	s        Polynomial
	train    []int
	N, nbeta float64
	width    int
	buf      [3][]float64 // backing of the N×k blocks x, t, mt
	x        *mat.Dense   // [a; 0] of the last scatter
}

func newPolyBlock(m counted, s Polynomial, train []int, beta float64, c int) *polyBlock {
	N := m.Dim()
	p := &polyBlock{m: m, s: s, train: train, N: float64(N), nbeta: float64(len(train)) * beta, width: c}
	for i := range p.buf {
		p.buf[i] = make([]float64, N*c)
	}
	return p
}

func (p *polyBlock) Dim() int          { return len(p.train) }
func (p *polyBlock) IsSymmetric() bool { return true }

// MulVecTo is the single-column product (used by BlockCG's checks).
func (p *polyBlock) MulVecTo(dst, a []float64) {
	newPolySystem(p.m, p.s, p.train, p.nbeta/float64(len(p.train))).MulVecTo(dst, a)
}

// block returns scratch block b as N×k.
func (p *polyBlock) block(b, k int) *mat.Dense {
	if k > p.width {
		panic(fmt.Sprintf("stkr: polynomial system: block of %d columns, the system holds %d", k, p.width))
	}
	N := p.m.Dim()
	return mat.NewDense(N, k, p.buf[b][:N*k])
}

// scatter sets p.x = [a; 0] (N×k for an n×k block a).
func (p *polyBlock) scatter(a *mat.Dense) {
	_, k := a.Dims()
	p.x = p.block(0, k)
	p.x.Zero()
	for t, i := range p.train {
		copy(p.x.RawRowView(i), a.RawRowView(t)[:k])
	}
}

// hornerInner returns Σ_p π_p M^{p−1} p.x.
func (p *polyBlock) hornerInner() *mat.Dense {
	t, _ := p.horner()
	return t
}

// horner returns Σ_p π_p M^{p−1} p.x and the other scratch block.
func (p *polyBlock) horner() (t, spare *mat.Dense) {
	q := p.s.Degree()
	co := p.s.Coeffs
	_, k := p.x.Dims()
	t, mt := p.block(1, k), p.block(2, k)
	t.Scale(co[q-1], p.x)
	for d := q - 1; d >= 1; d-- {
		p.m.MulBlockTo(mt, t)
		if co[d-1] == 0 {
			t, mt = mt, t
			continue
		}
		tr, mr, xr := t.RawMatrix(), mt.RawMatrix(), p.x.RawMatrix()
		for i := range tr.Data {
			tr.Data[i] = mr.Data[i] + co[d-1]*xr.Data[i]
		}
	}
	return t, mt
}

// MulBlockTo sets dst = N·(s(M)[a;0])[train] + nβ·a for n×k blocks.
func (p *polyBlock) MulBlockTo(dst, a *mat.Dense) {
	p.scatter(a)
	t, mt := p.horner()
	p.m.MulBlockTo(mt, t)
	for k, i := range p.train {
		drow, arow, mrow := dst.RawRowView(k), a.RawRowView(k), mt.RawRowView(i)
		for c := range drow {
			drow[c] = p.N*mrow[c] + p.nbeta*arow[c]
		}
	}
}

func (j *fitJob) polynomial(ctx context.Context, s Polynomial) error {
	solver := j.polySolver(s)
	j.solver = fmt.Sprintf("%s on the n×n system (%s)", solver, s)
	tol := j.tol(DefaultTol)
	switch {
	case solver == SolverRichardson:
		j.solver = fmt.Sprintf("Richardson, Algorithm 1 (%s)", s)
		// Algorithm 1's step: the eigenvalues of G_s[n,n] + nβI lie in
		// [nβ + N·min s, nβ + N·max s] ⊂ [nβ − N·S, nβ + N·S], S = Σ|π_p| r^p;
		// for s ≥ 0 the optimal step for that interval is 2/(N·S + 2nβ).
		gamma := 2 / (float64(j.N)*s.maxAbs(j.radius) + 2*float64(len(j.train))*j.r.Beta)
		err := j.algorithm1(ctx, s, gamma, tol)
		j.done = usable(err)
		if err != nil {
			return fmt.Errorf("stkr: %s: %w", j.solver, err)
		}
		return nil
	case solver == SolverCG:
		return j.polyBlockCG(ctx, s, tol)
	case solver == SolverMINRES && !j.r.columnByColumn:
		_, c := j.y.Dims()
		sys := newPolyBlock(j.m, s, j.train, j.r.Beta, c)
		alpha := mat.NewDense(len(j.train), c, nil)
		ok, err := j.minresColumns(ctx, sys, j.y, alpha, tol)
		sys.scatter(alpha)
		copyColumns(j.alpha, alpha, ok)
		copyColumns(j.u, sys.hornerInner(), ok)
		j.done = usable(err)
		return err
	}
	err := j.polyColumns(ctx, s, solver, tol)
	j.done = usable(err)
	return err
}

// polySolver resolves SolverAuto for a polynomial transform: Richardson
// (Algorithm 1) under early stopping, CG when s ≥ 0 (the system is then
// positive definite), MINRES otherwise.
func (j *fitJob) polySolver(s Polynomial) Solver {
	switch {
	case j.r.Solver != SolverAuto:
		return j.r.Solver
	case j.r.Iterations > 0:
		return SolverRichardson // early stopping: the paper's Algorithm 1
	case s.nonNegative():
		return SolverCG
	}
	return SolverMINRES
}

// polyBlockCG solves the n×n system for every column at once by block CG.
func (j *fitJob) polyBlockCG(ctx context.Context, s Polynomial, tol float64) error {
	j.solver = fmt.Sprintf("block CG on the n×n system (%s)", s)
	_, c := j.y.Dims()
	sys := newPolyBlock(j.m, s, j.train, j.r.Beta, c)
	alpha := mat.NewDense(len(j.train), c, nil)
	res, err := krylov.BlockCG(ctx, sys, j.y, alpha, j.settings(-1, tol))
	err = j.early(err)
	copy(j.iters, res.Iterations)
	copy(j.resid, res.Residual)
	if !usable(err) {
		return fmt.Errorf("stkr: %s: %w", j.solver, err)
	}
	j.alpha.Copy(alpha)
	sys.scatter(alpha)
	j.u.Copy(sys.hornerInner())
	j.done = true
	if err != nil {
		return fmt.Errorf("stkr: %s: %w", j.solver, err)
	}
	return nil
}

// polyColumns solves the n×n system column by column (MINRES or GMRES).
func (j *fitJob) polyColumns(ctx context.Context, s Polynomial, solver Solver, tol float64) error {
	return j.columns(func(col int) error {
		sys := newPolySystem(j.m, s, j.train, j.r.Beta)
		b := mat.Col(nil, col, j.y)
		alpha := make([]float64, len(j.train))
		st := j.settings(col, tol)
		var res krylov.Result
		var err error
		switch solver {
		case SolverMINRES:
			res, err = krylov.MINRES(ctx, sys, b, alpha, st)
		case SolverGMRES:
			res, err = krylov.GMRES(ctx, sys, b, alpha, st)
		}
		err = j.early(err)
		j.iters[col], j.resid[col] = res.Iterations, res.Residual
		if !usable(err) {
			return err
		}
		j.alpha.SetCol(col, alpha)
		sys.scatter(alpha)
		j.u.SetCol(col, sys.hornerInner(sys.x))
		return err
	})
}

var (
	_ linop.BlockOperator = (*polyBlock)(nil)
	_ linop.BlockOperator = (*lapSystem)(nil)
)

// lapSystem is the N×N inverse-Laplacian system in one of two forms. Other
// rows are ((I − ηM)θ)_i in both; train rows are
//
//	symmetric:   ((I − ηM)θ)_i − c θ_i,  c = N/(N − ηnβ)   (MINRES)
//	as written:  N(Mθ)_i + nβ((I − ηM)θ)_i                (paper eq. 20; GMRES)
//
// It owns scratch space: one per goroutine.
type lapSystem struct {
	m         linop.Operator
	eta       float64
	symmetric bool
	c         float64 // symmetric form
	N, nbeta  float64 // as written
	isTr      []bool
	mt        []float64
}

func (l *lapSystem) Dim() int          { return l.m.Dim() }
func (l *lapSystem) IsSymmetric() bool { return l.symmetric }
func (l *lapSystem) MulVecTo(dst, x []float64) {
	linop.CheckVec("stkr: inverse Laplacian system", l.m.Dim(), dst, x)
	l.m.MulVecTo(l.mt, x)
	for i, v := range x {
		d := v - l.eta*l.mt[i]
		switch {
		case !l.isTr[i]:
		case l.symmetric:
			d -= l.c * v
		default:
			d = l.N*l.mt[i] + l.nbeta*d
		}
		dst[i] = d
	}
}

// MulBlockTo is MulVecTo for N×k blocks, with one block product with M.
func (l *lapSystem) MulBlockTo(dst, x *mat.Dense) {
	linop.MulBlock(l.m, dst, x)
	r, c := x.Dims()
	dm, xm := dst.RawMatrix(), x.RawMatrix()
	parallel.For(r, lapRowGrain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			drow, xrow := dm.Data[i*dm.Stride:i*dm.Stride+c], xm.Data[i*xm.Stride:i*xm.Stride+c]
			tr := l.isTr[i]
			for k, v := range xrow {
				mt := drow[k]
				d := v - l.eta*mt
				switch {
				case !tr:
				case l.symmetric:
					d -= l.c * v
				default:
					d = l.N*mt + l.nbeta*d
				}
				drow[k] = d
			}
		}
	})
}

// lapColumns is the symmetric inverse-Laplacian system of a GraphKernel as
// a krylov.ColumnsOperator: MINRESColumns hands it the columns it
// multiplies (v_t = s_t·z_{·,cols[t]}) instead of forming them, and takes
// the product by row ranges, so that the solve holds one N×k block for the
// product, the input the graph gathers from, where it held three (v, its
// copy scaled by D^{-1/2} and y = A·v). The input is formed as
// graph.CSR.ScaledMulBlockTo forms it, rx_i = d_i^{-1/2}·v_i on a 0/1 graph
// (one random read per stored entry instead of two) and v itself on a
// weighted one (scaled inside the kernels), and the rows as the whole
// product computes them (graph.CSR.ScaledMulBlockRowsInto), so every
// product is bitwise lapSystem.MulBlockTo's on the formed v. The input
// block is read at random, one row per stored entry, so it is allocated by
// internal/hugepage: with 4 KiB pages every gather from a block far larger
// than the TLB's reach also walks the page tables (on the 10 M-node graph
// of BENCHMARKS.md's graph stack section, an 800 MB block).
type lapColumns struct {
	*lapSystem
	cnt   counted
	g     *graph.CSR
	inv   []float64
	unit  bool
	buf   []float64                     // the input block, N×k, one for the solve
	parts parallel.FreeList[*[]float64] // the tasks' output rows
}

var _ krylov.ColumnsOperator = (*lapColumns)(nil)

// newLapColumns returns the lapColumns of sys, whose kernel is m, or nil
// when m is not a GraphKernel.
func newLapColumns(sys *lapSystem, m counted) *lapColumns {
	gk, ok := m.m.(*GraphKernel)
	if !ok {
		return nil
	}
	return &lapColumns{lapSystem: sys, cnt: m, g: gk.Graph(), inv: gk.s.Degrees().InvSqrtD, unit: gk.Graph().UnitWeights(),
		parts: parallel.FreeList[*[]float64]{New: func() *[]float64 { return new([]float64) }}}
}

// lapColumnsRows is the number of rows of a task of lapColumns' product:
// a multiple of graph.RowWindow (so that the SELL-4-σ copy serves the
// ranges), whose (rows × k) output stays in the L2 cache for k ≤ 16.
const lapColumnsRows = 2 * graph.RowWindow

// MulColumnsRows computes the system's product with v (v_t =
// s_t·z_{·,cols[t]}, z's column when s is nil) row range by row range.
func (l *lapColumns) MulColumnsRows(z *mat.Dense, cols []int, s []float64, rows func(lo, hi int, y []float64)) {
	n, k := l.Dim(), len(cols)
	if cap(l.buf) < n*k {
		l.buf = nil
		l.buf = hugepage.Float64s(n * k) // gathered from at random: huge pages
	}
	in := l.buf[:n*k]
	zm := z.RawMatrix()
	inv, unit := l.inv, l.unit
	// v_t = s_t·z (as MINRESColumns forms it), and on a 0/1 graph
	// d^{-1/2}·v (as ScaledMulBlockTo's prescaled copy).
	parallel.For(n, lapRowGrain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			zr, ir := zm.Data[i*zm.Stride:], in[i*k:i*k+k]
			for t, j := range cols {
				v := zr[j]
				if s != nil {
					v = float64(s[t] * v)
				}
				if unit {
					v = float64(inv[i] * v)
				}
				ir[t] = v
			}
		}
	})
	sc := graph.Scaling{Left: inv, Right: inv}
	if unit {
		sc.Right = nil
	}
	x := mat.NewDense(n, k, in)
	parallel.Chunks(n, lapColumnsRows, func(_, lo, hi int) {
		p := l.parts.Get()
		if cap(*p) < lapColumnsRows*k {
			*p = make([]float64, lapColumnsRows*k)
		}
		y := (*p)[:(hi-lo)*k]
		l.g.ScaledMulBlockRowsInto(mat.NewDense(hi-lo, k, y), x, sc, lo, hi)
		for i := lo; i < hi; i++ {
			yr, zr := y[(i-lo)*k:(i-lo)*k+k], zm.Data[i*zm.Stride:]
			tr := l.isTr[i]
			for t, j := range cols {
				v := zr[j]
				if s != nil {
					v = float64(s[t] * v)
				}
				d := v - l.eta*yr[t]
				if tr {
					d -= l.c * v
				}
				yr[t] = d
			}
		}
		rows(lo, hi, y)
		l.parts.Put(p)
	})
	l.cnt.n.Add(int64(k))
}

// lapRowGrain is the least number of rows per goroutine of lapSystem's
// element-wise pass.
const lapRowGrain = 4096

// minScaleGap is how far N − ηnβ must stay from 0, relative to N, for the
// symmetric form: its train rows are divided by N/η − nβ.
const minScaleGap = 1e-8

func (j *fitJob) inverseLaplacian(ctx context.Context, s InverseLaplacian) error {
	eta := s.Eta
	var err error
	switch solver := j.lapSolver(eta); solver {
	case SolverCG:
		return fmt.Errorf("stkr: inverse Laplacian: CG does not apply: the system is indefinite; use minres (default), gmres or richardson")
	case SolverMINRES, SolverGMRES:
		err = j.lapKrylov(ctx, eta, solver)
	case SolverRichardson:
		j.solver = "Richardson, Algorithm 2 (coupled α/θ iteration)"
		if err = j.algorithm2(ctx, eta, j.tol(DefaultLapTol)); err != nil {
			err = fmt.Errorf("stkr: %s: %w", j.solver, err)
		}
	default:
		return fmt.Errorf("stkr: inverse Laplacian: unknown solver %v", solver)
	}
	j.done = usable(err)
	if j.done {
		// α = ((I − ηM)θ)[train] (M's products not counted: bookkeeping,
		// not part of the solve).
		mt := trainRows(j.m.m, j.u, j.train)
		for t := range j.train {
			arow, urow, mrow := j.alpha.RawRowView(t), j.u.RawRowView(j.train[t]), mt.RawRowView(t)
			for col := range arow {
				arow[col] = urow[col] - eta*mrow[col]
			}
		}
	}
	return err
}

// lapSolver resolves SolverAuto for the inverse Laplacian at η: Richardson
// (Algorithm 2) under early stopping, GMRES where the symmetric form would
// divide by N/η − nβ = 0, MINRES otherwise.
func (j *fitJob) lapSolver(eta float64) Solver {
	N, n := float64(j.N), float64(len(j.train))
	switch {
	case j.r.Solver != SolverAuto:
		return j.r.Solver
	case j.r.Iterations > 0:
		return SolverRichardson // early stopping: the paper's Algorithm 2
	case math.Abs(N-eta*n*j.r.Beta) < minScaleGap*N:
		return SolverGMRES // the symmetric form divides by N/η − nβ = 0
	}
	return SolverMINRES
}

// lapKrylov solves the inverse-Laplacian system by MINRES (symmetrised) or
// GMRES (as written): MINRES on every column side by side unless the
// Regressor asks for columns one by one, GMRES column by column.
func (j *fitJob) lapKrylov(ctx context.Context, eta float64, solver Solver) error {
	N, n := float64(j.N), float64(len(j.train))
	isTr := make([]bool, j.N)
	for _, i := range j.train {
		isTr[i] = true
	}
	tol := j.tol(DefaultLapTol)
	sys := lapSystem{m: j.m, eta: eta, N: N, nbeta: n * j.r.Beta, isTr: isTr}
	method, rhsScale := krylov.GMRES, 1.0
	j.solver = "GMRES on the N×N system as written (paper eq. 20)"
	if solver == SolverMINRES {
		j.solver = "MINRES on the symmetrised N×N system"
		gap := N - eta*sys.nbeta
		if math.Abs(gap) < minScaleGap*N {
			return fmt.Errorf("stkr: inverse Laplacian: η·n·β = %g equals N = %g, so the symmetric form is undefined; change eta or beta, or use the gmres solver", eta*sys.nbeta, N)
		}
		sys.symmetric, sys.c = true, N/gap
		method, rhsScale = krylov.MINRES, -1/(N/eta-sys.nbeta)
	}
	if solver == SolverMINRES && !j.r.columnByColumn {
		return j.lapMINRESColumns(ctx, &sys, rhsScale, tol)
	}
	return j.columns(func(col int) error {
		op := sys
		op.mt = make([]float64, j.N)
		b := make([]float64, j.N)
		for t, i := range j.train {
			b[i] = rhsScale * j.y.At(t, col)
		}
		theta := make([]float64, j.N)
		res, err := method(ctx, &op, b, theta, j.settings(col, tol))
		err = j.early(err)
		j.iters[col], j.resid[col] = res.Iterations, res.Residual
		if usable(err) {
			j.u.SetCol(col, theta)
		}
		return err
	})
}

// lapMINRESColumns solves the symmetrised system for every column side by
// side (krylov.MINRESColumns through minresBatches); a column that fails is
// zeroed in j.u.
func (j *fitJob) lapMINRESColumns(ctx context.Context, sys *lapSystem, rhsScale, tol float64) error {
	// b is nonzero on the train rows only: given by those rows.
	_, c := j.y.Dims()
	b := mat.NewDense(len(j.train), c, nil)
	for t := range j.train {
		brow := b.RawRowView(t)
		for col, v := range j.y.RawRowView(t) {
			brow[col] = rhsScale * v
		}
	}
	// A graph kernel's system takes MINRES's columns as they are
	// (lapColumns: one N×k block for the product instead of three).
	var a linop.Operator = sys
	fused := false
	if lc := newLapColumns(sys, j.m); lc != nil {
		a, fused = lc, true
	}
	ok, err := j.minresBatches(ctx, a, krylov.RowBlock{Rows: j.train, Values: b}, tol, fused)
	for col, good := range ok {
		if !good {
			zeroColumn(j.u, col) // no N-vector of zeros beside the solver's blocks
		}
	}
	return err
}

// trainRows returns the rows rows of M·u (row t for rows[t]): for a
// GraphKernel from the rows of its graph, M_ij = w_ij d_i^{-1/2} d_j^{-1/2}
// (O(their edges·c), no N×c block), otherwise from one block product.
func trainRows(m linop.Operator, u *mat.Dense, rows []int) *mat.Dense {
	_, c := u.Dims()
	out := mat.NewDense(len(rows), c, nil)
	gk, ok := m.(*GraphKernel)
	if !ok {
		mu := mat.NewDense(m.Dim(), c, nil)
		linop.MulBlock(m, mu, u)
		for t, i := range rows {
			out.SetRow(t, mu.RawRowView(i))
		}
		return out
	}
	g, inv := gk.s.Graph(), gk.s.Degrees().InvSqrtD
	for t, i := range rows {
		orow := out.RawRowView(t)
		cols, ws := g.Row(i)
		for e, j := range cols {
			w, urow := ws[e]*inv[j], u.RawRowView(int(j))
			for col, v := range urow {
				orow[col] += w * v
			}
		}
		for col := range orow {
			orow[col] *= inv[i]
		}
	}
	return out
}

// richardsonDivergence is the growth of the residual over its initial value
// at which a Richardson iteration is declared divergent (as
// krylov.Richardson does).
const richardsonDivergence = 1e12

// richardsonLoop is one of the paper's Richardson iterations, run on all
// output columns at once so that each step costs one pass over M for every
// class (block products, as stkr.py does). residual sets r (n×c) to the
// residual of the current iterate; step updates the iterate from it; save
// and restore keep the iterate with the smallest residual.
type richardsonLoop struct {
	method         string
	residual, step func(r *mat.Dense)
	save, restore  func()
	divergenceHint string
}

// richardson runs l until every column's relative residual ‖r_c‖/‖y_c‖ is at
// most tol (the stopping rule of stkr.py), reporting divergence (growth by
// 1e12) as a *krylov.BreakdownError and the iteration cap as a
// *krylov.NotConvergedError; on failure the best iterate is restored. With
// Regressor.Iterations = k > 0 it runs exactly k steps, ignoring tol, and
// keeps the k-th iterate (early stopping); divergence is still an error.
func (j *fitJob) richardson(ctx context.Context, tol float64, l richardsonLoop) error {
	n, c := j.y.Dims()
	ynorm := make([]float64, c)
	for col := range ynorm {
		ynorm[col] = mat.Norm(j.y.ColView(col), 2)
		if ynorm[col] == 0 {
			ynorm[col] = 1 // a zero column converges at once: its residual is 0 at α = 0
		}
	}
	r := mat.NewDense(n, c, nil)
	first, best := math.NaN(), math.Inf(1)
	var bestRel []float64
	finish := func(it int, rel []float64, err error) error {
		for col := range j.iters {
			j.iters[col] = it
		}
		if err != nil {
			l.restore()
			rel = bestRel
		}
		copy(j.resid, rel)
		return err
	}
	for it := 0; ; it++ {
		l.residual(r)
		rel := make([]float64, c)
		worst := 0.0
		for col := range rel {
			rel[col] = mat.Norm(r.ColView(col), 2) / ynorm[col]
			worst = math.Max(worst, rel[col])
		}
		if math.IsNaN(rel[0]) {
			worst = math.NaN()
		}
		if it == 0 {
			first = worst
		}
		if worst < best {
			best, bestRel = worst, rel
			l.save()
		}
		fixed := j.r.Iterations
		switch {
		case math.IsNaN(worst) || worst > richardsonDivergence*first:
			return finish(it, rel, &krylov.BreakdownError{Method: l.method, Iterations: it,
				Reason: fmt.Sprintf("diverged: relative residual grew from %.3g to %.3g; %s", first, worst, l.divergenceHint)})
		case fixed > 0 && it == fixed:
			return finish(it, rel, nil)
		case fixed == 0 && worst <= tol:
			return finish(it, rel, nil)
		case it >= j.maxIter():
			return finish(it, rel, &krylov.NotConvergedError{Method: l.method, Iterations: it, Residual: best, Tol: tol})
		}
		if err := ctx.Err(); err != nil {
			return finish(it, rel, fmt.Errorf("%s stopped after %d iterations: %w", l.method, it, err))
		}
		if p := j.r.Progress; p != nil {
			p(-1, it+1, worst)
		}
		l.step(r)
	}
}

// algorithm1 is the paper's Algorithm 1, α ← α − γ((G_s[n,n] + nβI)α − y),
// with q block products per iteration.
func (j *fitJob) algorithm1(ctx context.Context, s Polynomial, gamma, tol float64) error {
	n, c := j.y.Dims()
	sys := newPolyBlock(j.m, s, j.train, j.r.Beta, c)
	alpha := mat.NewDense(n, c, nil)
	best := mat.NewDense(n, c, nil)
	err := j.richardson(ctx, tol, richardsonLoop{
		method: "Richardson (Algorithm 1)",
		residual: func(r *mat.Dense) {
			sys.MulBlockTo(r, alpha)
			r.Sub(r, j.y)
		},
		step: func(r *mat.Dense) {
			r.Scale(gamma, r)
			alpha.Sub(alpha, r)
		},
		save:           func() { best.Copy(alpha) },
		restore:        func() { alpha.Copy(best) },
		divergenceHint: fmt.Sprintf("step γ = %.3g; the system is indefinite (s < 0 on part of the spectrum) or γ too large — use the minres solver", gamma),
	})
	if !usable(err) {
		return err
	}
	j.alpha.Copy(alpha)
	sys.scatter(alpha)
	j.u.Copy(sys.hornerInner())
	return err
}

// algorithm2 is the paper's Algorithm 2 as stkr.py reads it, on all columns
// at once:
//
//	α ← α − γ (N (Mθ)_n + nβ α − y),   θ ← η M θ + [α; 0],
//	γ = 1/(N/(1 − η) + nβ),
//
// stopped when ‖N(Mθ)_n + nβα − y‖/‖y‖ ≤ tol. One block product with M per
// iteration. It converges for large β and diverges for small β.
func (j *fitJob) algorithm2(ctx context.Context, eta, tol float64) error {
	n, c := j.y.Dims()
	N, nbeta := float64(j.N), float64(n)*j.r.Beta
	gamma := 1 / (N/(1-eta) + nbeta)
	theta := mat.NewDense(j.N, c, nil)
	mt := mat.NewDense(j.N, c, nil)
	alpha := mat.NewDense(n, c, nil)
	best := mat.NewDense(j.N, c, nil)
	err := j.richardson(ctx, tol, richardsonLoop{
		method: "Richardson (Algorithm 2)",
		residual: func(r *mat.Dense) {
			j.m.MulBlockTo(mt, theta)
			for t, i := range j.train {
				rr, mr, ar, yr := r.RawRowView(t), mt.RawRowView(i), alpha.RawRowView(t), j.y.RawRowView(t)
				for k := range rr {
					rr[k] = N*mr[k] + nbeta*ar[k] - yr[k]
				}
			}
		},
		step: func(r *mat.Dense) {
			r.Scale(gamma, r)
			alpha.Sub(alpha, r)
			theta.Scale(eta, mt)
			for t, i := range j.train {
				tr, ar := theta.RawRowView(i), alpha.RawRowView(t)
				for k := range tr {
					tr[k] += ar[k]
				}
			}
		},
		save:           func() { best.Copy(theta) },
		restore:        func() { theta.Copy(best) },
		divergenceHint: fmt.Sprintf("η=%g, β=%g: the non-symmetric system has eigenvalues with negative real part for small β — use the minres solver", eta, j.r.Beta),
	})
	if usable(err) {
		j.u.Copy(theta)
	}
	return err
}

// minEigenvalue is the smallest eigenvalue, relative to the largest, that
// kernel PCA divides by when extending ψ_k = k(x)ᵀu_k/(√N λ_k); below it the
// feature would be dominated by rounding.
const minEigenvalue = 1e-10

func (j *fitJob) topD(ctx context.Context, s TopD) error {
	N, n := j.N, len(j.train)
	if s.D > N {
		return fmt.Errorf("stkr: kernel PCA: d=%d is larger than the number of visible nodes N=%d", s.D, N)
	}
	eig := j.r.Eigen
	if eig == nil {
		eig = LanczosEigen{}
	}
	j.solver = fmt.Sprintf("kernel PCA (%T) + ridge probe", eig)
	vals, vecs, err := eig.Largest(ctx, j.m, s.D)
	if err != nil {
		return fmt.Errorf("stkr: kernel PCA: %w", err)
	}
	if len(vals) != s.D {
		return fmt.Errorf("stkr: kernel PCA: eigensolver returned %d eigenvalues, want %d", len(vals), s.D)
	}
	if r, c := vecs.Dims(); r != N || c != s.D {
		return fmt.Errorf("stkr: kernel PCA: eigensolver returned %d×%d eigenvectors, want %d×%d", r, c, N, s.D)
	}
	for k, l := range vals {
		if !(l > minEigenvalue*math.Abs(vals[0])) {
			return fmt.Errorf("stkr: kernel PCA: the %d-th largest eigenvalue of M is %.3g, not positive: d=%d exceeds the number of positive eigenvalues; choose d ≤ %d", k+1, l, s.D, k)
		}
	}
	sq := math.Sqrt(float64(N))
	psi := mat.NewDense(n, s.D, nil) // Ψ = √N U[train, :]
	for t, i := range j.train {
		for k := 0; k < s.D; k++ {
			psi.Set(t, k, sq*vecs.At(i, k))
		}
	}
	var gram mat.SymDense
	gram.SymOuterK(1, psi.T())
	for k := 0; k < s.D; k++ {
		gram.SetSym(k, k, gram.At(k, k)+float64(n)*j.r.Beta)
	}
	var ch mat.Cholesky
	if !ch.Factorize(&gram) {
		return fmt.Errorf("stkr: kernel PCA: ridge system ΨᵀΨ + nβI is not positive definite (β=%g)", j.r.Beta)
	}
	var rhs, w mat.Dense
	rhs.Mul(psi.T(), j.y)
	if err := ch.SolveTo(&w, &rhs); err != nil {
		return fmt.Errorf("stkr: kernel PCA: ridge solve: %w", err)
	}
	// u = U Λ^{-1} w / √N
	for k := 0; k < s.D; k++ {
		row := w.RawRowView(k)
		for c := range row {
			row[c] /= vals[k] * sq
		}
	}
	j.u.Mul(vecs, &w)
	j.done = true
	return nil
}

// zeroColumn sets column col of a to zero.
func zeroColumn(a *mat.Dense, col int) {
	r, _ := a.Dims()
	for i := 0; i < r; i++ {
		a.Set(i, col, 0)
	}
}
