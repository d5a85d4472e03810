package krylov

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/linop"
)

// ColumnErrors is the error of a solve over the columns of a block when some
// columns failed. Err[j] is column j's error, the one the single-vector
// method returns for that column (a *NotConvergedError, a *BreakdownError or
// a wrapped context error), or nil when column j converged. errors.Is and
// errors.As see every column's error.
type ColumnErrors struct {
	Method string
	Err    []error
}

func (e *ColumnErrors) Error() string {
	failed, first := 0, -1
	for j, err := range e.Err {
		if err != nil {
			failed++
			if first < 0 {
				first = j
			}
		}
	}
	if failed == 1 {
		return fmt.Sprintf("krylov: %s: column %d of %d failed: %v", e.Method, first, len(e.Err), e.Err[first])
	}
	return fmt.Sprintf("krylov: %s: %d of %d columns failed; the first, column %d: %v", e.Method, failed, len(e.Err), first, e.Err[first])
}

// Unwrap returns the columns' errors.
func (e *ColumnErrors) Unwrap() []error {
	var out []error
	for _, err := range e.Err {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}

// MINRESColumns solves A X = B for symmetric, possibly indefinite,
// non-singular A and an n×c block B by running MINRES on every column at
// once. It is not a block Krylov method: the c recurrences are independent,
// and each column's scalars, vectors, restarts, stopping rule, iteration
// count and final residual are those of MINRES on (A, b_j, x_j) — bitwise on
// amd64 when A's block product equals its vector product column by column
// (the graph kernels' block products do), otherwise to rounding. What the
// columns share is the products: each iteration multiplies the Lanczos
// vectors of all iterating columns by A in one call of MulBlockTo (one pass
// over a sparse A for every column) when A is a linop.BlockOperator, and
// through linop.MulBlock, column by column, otherwise.
//
// X is the initial guess on entry. A column with b_j = 0 gets x_j = 0 at
// once; a column that converges, or fails, stops and keeps the iterate that
// MINRES would return for it (on failure its best one), while the others go
// on. The products are over the iterating columns only: the block v that A
// multiplies is rewritten from scratch every iteration and the block A·v is
// read column by column by the next pass anyway, so packing the iterating
// columns costs no extra pass, and finished columns cost nothing (nor count
// among the products). A preconditioner (Settings.Preconditioner, symmetric
// positive definite) is applied to every column of the block each iteration.
// Settings.Progress, when set, is called once per iteration with the
// iteration count (that of every column still iterating) and the largest
// recurrence residual among them.
//
// BlockResult gives each column's iterations and final true relative
// residual, and counts block products with A (each over at most c columns,
// residual checks included). If some columns fail the error is a
// *ColumnErrors with each failed column's error as MINRES reports it, its
// Method naming the column; the error of a cancelled context wraps ctx.Err().
//
// Memory: MINRES keeps 7 n-vectors (r1, r2, y, v, w, w1, w2) and a copy of
// its best iterate; MINRESColumns keeps 6 n×c row-major blocks (r1, r2, v,
// y = A·v and two of MINRES's three w, the new one overwriting the oldest in
// place; y = M·r2 is r2 itself without a preconditioner), 7 with a
// preconditioner (M·r2), and for a column whose best iterate is not its last
// (after a restart, until the recurrence overtakes the iterate it restarted
// from) one n-vector copy of it. When A is a ColumnsOperator and there is no
// preconditioner it keeps 4: A forms v from r2 itself and hands A·v over by
// row ranges, which go straight into r1's block (y − (β/β_old)·r1 is taken
// row by row, and r1 is not read again), and the passes that read v take
// r2/β again, the same numbers.
func MINRESColumns(ctx context.Context, a linop.Operator, b, x *mat.Dense, s Settings) (BlockResult, error) {
	const method = "MINRESColumns"
	n := a.Dim()
	br, c := b.Dims()
	xr, xc := x.Dims()
	if br != n || xr != n || xc != c {
		return BlockResult{}, fmt.Errorf("krylov: %s: operator is %d×%d, B is %d×%d, X is %d×%d: %w", method, n, n, br, c, xr, xc, ErrDimension)
	}
	if err := finiteBlock(method, "B", b); err != nil {
		return BlockResult{}, err
	}
	return minresColumns(ctx, method, a, rhsBlock{dense: b}, x, s, nil)
}

// RowBlock is an n×c block given by its nonzero rows: row Rows[t] of the
// block is row t of Values, every other row is zero. Rows are distinct, in
// any order.
type RowBlock struct {
	Rows   []int
	Values *mat.Dense
}

// MINRESColumnsRows is MINRESColumns with B given by its nonzero rows: it
// holds no n×c block for B (a right-hand side on a few labelled rows of a
// large system), and each column's iterates, iteration count and residual
// are bitwise those of MINRESColumns on the dense B.
func MINRESColumnsRows(ctx context.Context, a linop.Operator, b RowBlock, x *mat.Dense, s Settings) (BlockResult, error) {
	return MINRESColumnsRowsWith(ctx, a, b, x, s, nil)
}

// MINRESBlocks holds the work blocks of MINRESColumnsRowsWith between
// solves. A caller solving the columns of one system in batches (to bound
// its memory) passes the same MINRESBlocks to every batch: the batches
// then share one set of blocks, sized for the widest, where each would
// otherwise allocate its own and leave the last batch's to the collector.
// The zero value is ready to use; a MINRESBlocks is not safe for
// concurrent solves.
type MINRESBlocks struct{ buf []float64 }

// take returns m zeroed entries of the shared storage, growing it if needed.
func (w *MINRESBlocks) take(m int) []float64 {
	if cap(w.buf) < m {
		w.buf = nil // let the old storage go before the new is allocated
		w.buf = make([]float64, m)
	}
	b := w.buf[:m]
	clear(b)
	return b
}

// MINRESColumnsRowsWith is MINRESColumnsRows with its work blocks (6·n·c
// entries, 7·n·c with a preconditioner, 4·n·c for a ColumnsOperator
// without one) taken from work when it is not nil.
// X may be a view of wider storage (a batch of columns of a larger block,
// mat.Dense.Slice). Each column's iterates are bitwise those of
// MINRESColumnsRows on the same columns alone or in any batch.
func MINRESColumnsRowsWith(ctx context.Context, a linop.Operator, b RowBlock, x *mat.Dense, s Settings, work *MINRESBlocks) (BlockResult, error) {
	const method = "MINRESColumnsRows"
	n := a.Dim()
	if b.Values == nil {
		return BlockResult{}, fmt.Errorf("krylov: %s: B's Values is nil: %w", method, ErrDimension)
	}
	br, c := b.Values.Dims()
	xr, xc := x.Dims()
	if br != len(b.Rows) || xr != n || xc != c {
		return BlockResult{}, fmt.Errorf("krylov: %s: operator is %d×%d, B has %d rows of %d values for %d row numbers, X is %d×%d: %w", method, n, n, br, c, len(b.Rows), xr, xc, ErrDimension)
	}
	if err := finiteBlock(method, "B's Values", b.Values); err != nil {
		return BlockResult{}, err
	}
	// The rows in increasing order: the norms of B's columns are then
	// summed in the dense block's order.
	order := make([]int, len(b.Rows))
	for t := range order {
		order[t] = t
	}
	slices.SortFunc(order, func(p, q int) int { return b.Rows[p] - b.Rows[q] })
	for u, t := range order {
		if i := b.Rows[t]; i < 0 || i >= n {
			return BlockResult{}, fmt.Errorf("krylov: %s: B's row number Rows[%d] = %d is outside [0, %d)", method, t, i, n)
		}
		if u > 0 && b.Rows[order[u-1]] == b.Rows[t] {
			return BlockResult{}, fmt.Errorf("krylov: %s: B's row %d is given twice (Rows[%d] and Rows[%d])", method, b.Rows[t], order[u-1], t)
		}
	}
	return minresColumns(ctx, method, a, rhsBlock{rows: b.Rows, vals: b.Values, order: order}, x, s, work)
}

// rhsBlock is the right-hand side of MINRESColumns: a dense n×c block, or
// its nonzero rows (rows[t] holding vals' row t; order lists the t by
// increasing row).
type rhsBlock struct {
	dense *mat.Dense
	rows  []int
	vals  *mat.Dense
	order []int
}

// norms sets dst[j] to the norm of column j.
func (b rhsBlock) norms(dst []float64, all []int, n int) {
	if b.dense != nil {
		bm := b.dense.RawMatrix()
		colNorms2(dst, bm.Data, bm.Stride, all, n)
		return
	}
	st := make([]normState, len(all))
	for t := range st {
		st[t] = newNormState()
	}
	for _, t := range b.order {
		row := b.vals.RawRowView(t)
		for u, j := range all {
			st[u].add(row[j])
		}
	}
	for t := range st {
		dst[t] = st[t].norm()
	}
}

// minresColumns is MINRESColumns on a checked right-hand side, with its
// blocks from work when it is not nil.
func minresColumns(ctx context.Context, method string, a linop.Operator, b rhsBlock, x *mat.Dense, s Settings, work *MINRESBlocks) (BlockResult, error) {
	n := a.Dim()
	_, c := x.Dims()
	s, err := withDefaults(method, a, s, true)
	if err != nil {
		return BlockResult{}, err
	}
	if err := finiteBlock(method, "initial guess X", x); err != nil {
		return BlockResult{}, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	res := BlockResult{Iterations: make([]int, c), Residual: make([]float64, c)}
	if n == 0 || c == 0 {
		return res, nil
	}
	m := &minresCols{
		a: a, pre: s.Preconditioner, b: b, x: x, n: n, c: c, tol: s.Tol, max: s.MaxIter, progress: s.Progress,
		res: res, errs: make([]error, c), col: make([]minresCol, c),
	}
	bn := make([]float64, c)
	all := make([]int, c)
	for j := range all {
		all[j] = j
	}
	b.norms(bn, all, n)
	live := false
	for j := range m.col {
		cl := &m.col[j]
		cl.bnorm, cl.bestRes = bn[j], math.Inf(1)
		if cl.bnorm == 0 {
			zeroCol(x, j)
			continue
		}
		cl.state = colCheck
		live = true
	}
	if !live {
		return m.res, nil
	}
	// The product: fused when A forms its own input from the columns
	// (ColumnsOperator) and no preconditioner needs v kept, else v and y =
	// A·v in two blocks of the solver's.
	fused, isCols := a.(ColumnsOperator)
	blocks := 4
	if !isCols || m.pre != nil {
		blocks += 2
	}
	if m.pre != nil {
		blocks++
	}
	if work == nil {
		work = new(MINRESBlocks)
	}
	buf := work.take(blocks * n * c)
	block := func(k int) []float64 { return buf[k*n*c : (k+1)*n*c : (k+1)*n*c] }
	m.r1 = mat.NewDense(n, c, block(0))
	m.r2 = mat.NewDense(n, c, block(1))
	m.wo = mat.NewDense(n, c, block(2))
	m.wn = mat.NewDense(n, c, block(3))
	if isCols && m.pre == nil {
		m.op = fused
	} else {
		mp := &materialized{a: a, n: n, vbuf: block(4), ybuf: block(5)}
		m.op = mp
		if m.pre != nil {
			m.z = mat.NewDense(n, c, block(6))
			m.kept = mp // v must outlive the new z = M·r2: read it from v's block
		}
	}
	return m.run(ctx)
}

// finiteBlock returns an error naming the first entry of m that is not
// finite.
func finiteBlock(method, name string, m *mat.Dense) error {
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for j, v := range m.RawRowView(i)[:c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("krylov: %s: %s[%d][%d] = %v is not finite", method, name, i, j, v)
			}
		}
	}
	return nil
}

// States of a column of MINRESColumns.
const (
	colDone   = iota // converged or failed; x_j is final
	colActive        // iterating
	colCheck         // wants the true residual of x_j: at the start, or when the recurrence says it has converged
	colFail          // stopping (cause): wants its best iterate back in x_j and that iterate's true residual
)

// minresCol is one column's MINRES: the scalars of MINRES's recurrence
// (named as there) and its bookkeeping.
type minresCol struct {
	state int
	bnorm float64
	iters int
	k     int // iterations since the last (re)start
	// The recurrence.
	oldb, beta, dbar, epsln, phibar, cs, sn, scale float64
	// The iteration in progress.
	alfa, oldeps, delta, gamma, phi, est float64
	// The best iterate, as MINRES's remember keeps it: bestRes is the
	// smallest residual seen, hasBest says one was, and bestIsX that x_j is
	// that iterate, so that a copy (best) is made only when x_j moves away
	// from it.
	bestRes          float64
	hasBest, bestIsX bool
	best             []float64
	// rel is the true relative residual of x_j, valid when resKnown.
	rel      float64
	resKnown bool
	cause    error // why a colFail column stops; nil for the iteration cap
}

// minresCols is the state of one MINRESColumns solve. The blocks are n×c and
// row-major, column j belonging to column j of B; v and y = A·v are packed
// over the iterating columns (n×k views of vbuf and ybuf).
type minresCols struct {
	a, pre   linop.Operator
	b        rhsBlock
	x        *mat.Dense
	n, c     int
	tol      float64
	max      int
	progress func(int, float64)

	res   BlockResult
	errs  []error
	col   []minresCol
	steps int

	r1, r2 *mat.Dense
	wo, wn *mat.Dense // w_{k−2} (overwritten by w_k) and w_{k−1}
	z      *mat.Dense // M·r2; nil without a preconditioner
	op     ColumnsOperator
	kept   *materialized // with a preconditioner: the product's v, read back by the passes

	// Per-iteration scratch, one entry per iterating column.
	act         []int
	sc, a1, a2  []float64
	later       []bool // the iterating column is past its first iteration
	upd         []int  // positions in act of the columns that update x
	lanes, dots []float64
	vrow        []float64
}

// rowGrain is the least number of rows per goroutine of the element-wise
// passes.
const rowGrain = 2048

func (m *minresCols) run(ctx context.Context) (BlockResult, error) {
	for {
		m.settle()
		m.act = m.act[:0]
		for j := range m.col {
			if m.col[j].state == colActive {
				m.act = append(m.act, j)
			}
		}
		if len(m.act) == 0 {
			break
		}
		m.step(ctx)
	}
	for _, err := range m.errs {
		if err != nil {
			return m.res, &ColumnErrors{Method: "MINRESColumns", Err: m.errs}
		}
	}
	return m.res, nil
}

// settle brings every column that wants a true residual (colCheck, colFail)
// to colActive or colDone, as MINRES does between iterations: a column whose
// residual meets the tolerance is done; one at the iteration cap fails;
// others restart from their true residual.
func (m *minresCols) settle() {
	var need, restart []int
	for {
		need = need[:0]
		for j := range m.col {
			cl := &m.col[j]
			switch cl.state {
			case colFail:
				if cl.hasBest && !cl.bestIsX {
					m.restoreBest(j)
				}
				if !cl.resKnown {
					need = append(need, j)
				}
			case colCheck:
				need = append(need, j)
			}
		}
		if len(need) > 0 {
			m.residuals(need)
		}
		restart = restart[:0]
		pending := false
		for t, j := range need {
			cl := &m.col[j]
			if cl.state != colCheck {
				continue
			}
			// MINRES: the true residual of x; done, out of iterations, or a restart.
			m.res.Residual[j] = cl.rel
			cl.remember(cl.rel)
			switch {
			case cl.rel <= m.tol:
				cl.state = colDone
			case cl.iters >= m.max:
				cl.fail(nil)
				pending = true
			default:
				restart = append(restart, t)
			}
		}
		if len(restart) > 0 {
			m.restart(need, restart)
		}
		for j := range m.col {
			cl := &m.col[j]
			if cl.state == colFail {
				if cl.resKnown && (!cl.hasBest || cl.bestIsX) {
					m.finish(j)
				} else {
					pending = true
				}
			}
		}
		if !pending {
			return
		}
	}
}

// remember records a residual of the current x_j, as MINRES's remember does.
func (cl *minresCol) remember(rel float64) {
	if rel < cl.bestRes {
		cl.bestRes, cl.hasBest, cl.bestIsX = rel, true, true
	}
}

func (cl *minresCol) fail(cause error) {
	cl.state, cl.cause = colFail, cause
}

// finish ends a failed column with the error MINRES returns for it.
func (m *minresCols) finish(j int) {
	cl := &m.col[j]
	m.res.Residual[j] = cl.rel
	name := fmt.Sprintf("MINRES (column %d)", j)
	var bd *BreakdownError
	switch {
	case cl.cause == nil:
		m.errs[j] = &NotConvergedError{Method: name, Iterations: cl.iters, Residual: cl.rel, Tol: m.tol}
	case errors.As(cl.cause, &bd):
		m.errs[j] = cl.cause
	default:
		m.errs[j] = fmt.Errorf("krylov: %s stopped after %d iterations (relative residual %.3g): %w", name, cl.iters, cl.rel, cl.cause)
	}
	cl.state = colDone
}

// view returns the first n·k entries of buf as an n×k block.
func view(buf []float64, n, k int) *mat.Dense { return mat.NewDense(n, k, buf[:n*k]) }

// ColumnsOperator is a linop.Operator that multiplies scaled columns of a
// block without the caller forming them, and hands the product over by row
// ranges. MINRESColumns uses it, when A implements it and there is no
// preconditioner, in place of forming the Lanczos vectors v and the product
// y = A·v in two blocks of its own: an operator that makes a copy of its
// input anyway (a graph product gathering from a scaled copy) then costs
// one n×k block where it cost three.
type ColumnsOperator interface {
	linop.Operator
	// MulColumnsRows computes Y = A·V for the n×k block V whose column t
	// is s[t]·(column cols[t] of z), each entry the product s[t]*z[i][cols[t]]
	// (column cols[t] itself when s is nil), so that Y is bitwise
	// MulBlockTo's product with V formed first. It calls rows(lo, hi, y)
	// for disjoint row ranges covering [0, n), possibly concurrently, with
	// y holding rows lo … hi−1 of Y row-major ((hi−lo)×k); y is valid during
	// the call only.
	MulColumnsRows(z *mat.Dense, cols []int, s []float64, rows func(lo, hi int, y []float64))
}

// materialized is the ColumnsOperator of any operator: V and Y = A·V formed
// in two n×k blocks (packed views of vbuf and ybuf).
type materialized struct {
	a          linop.Operator
	n, k       int
	vbuf, ybuf []float64
}

func (p *materialized) Dim() int                  { return p.n }
func (p *materialized) MulVecTo(dst, x []float64) { p.a.MulVecTo(dst, x) }

func (p *materialized) MulColumnsRows(z *mat.Dense, cols []int, s []float64, rows func(lo, hi int, y []float64)) {
	n, k := p.n, len(cols)
	p.k = k
	zm := z.RawMatrix()
	vd := p.vbuf
	parallel.For(n, rowGrain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			zr := zm.Data[i*zm.Stride:]
			vr := vd[i*k : i*k+k]
			if s == nil {
				for t, j := range cols {
					vr[t] = zr[j]
				}
				continue
			}
			for t, j := range cols {
				vr[t] = s[t] * zr[j]
			}
		}
	})
	linop.MulBlock(p.a, view(p.ybuf, n, k), view(vd, n, k))
	yd := p.ybuf
	parallel.For(n, rowGrain, func(lo, hi int) { rows(lo, hi, yd[lo*k:hi*k]) })
}

// vRow returns row i of the Lanczos block v of the iterating columns act:
// v_t = sc[t]·z_{i,act[t]} computed into buf from z (row-major, stride zs),
// or, with a preconditioner, row i of the block the product kept.
func (m *minresCols) vRow(buf []float64, z []float64, zs int, act []int, sc []float64, i int) []float64 {
	if m.kept != nil {
		k := len(act)
		return m.kept.vbuf[i*k : i*k+k]
	}
	zr := z[i*zs:]
	for t, j := range act {
		buf[t] = float64(sc[t] * zr[j])
	}
	return buf[:len(act)]
}

// residuals sets, for the columns need, column j of r2 to b_j − A x_j and
// the relative residual rel of each column, with one block product. The
// columns of need start afresh or stop, so their r2 is free.
func (m *minresCols) residuals(need []int) {
	n, c := m.n, m.c
	r2 := m.r2.RawMatrix().Data
	dense := m.b.dense
	m.op.MulColumnsRows(m.x, need, nil, func(lo, hi int, y []float64) {
		k := len(need)
		if dense != nil {
			bm := dense.RawMatrix()
			for i := lo; i < hi; i++ {
				br, yr, rr := bm.Data[i*bm.Stride:], y[(i-lo)*k:(i-lo)*k+k], r2[i*c:i*c+c]
				for t, j := range need {
					rr[j] = br[j] - yr[t]
				}
			}
			return
		}
		// 0 − y on every row, then b + (0 − y) on B's rows: IEEE
		// subtraction is the addition of the negated operand, so these are
		// the dense path's b − y bit for bit (+0 where b = y, as there).
		for i := lo; i < hi; i++ {
			yr, rr := y[(i-lo)*k:(i-lo)*k+k], r2[i*c:i*c+c]
			for t, j := range need {
				rr[j] = 0 - yr[t]
			}
		}
	})
	m.res.Products++
	if dense == nil {
		for t, i := range m.b.rows {
			br, rr := m.b.vals.RawRowView(t), r2[i*c:i*c+c]
			for _, j := range need {
				rr[j] = br[j] + rr[j]
			}
		}
	}
	nrm := m.scratch(&m.dots, len(need))
	colNorms2(nrm, r2, c, need, n)
	for t, j := range need {
		cl := &m.col[j]
		cl.rel, cl.resKnown = nrm[t]/cl.bnorm, true
	}
}

// restart starts MINRES afresh for the columns need[t], t in ts, from the
// residuals that residuals left in their columns of r2: r1 = r2 = r,
// y = M r (z), β₁ = √(rᵀMr), w = w2 = 0.
func (m *minresCols) restart(need, ts []int) {
	n, c, k := m.n, m.c, len(need)
	r1, r2, wo, wn := m.r1.RawMatrix().Data, m.r2.RawMatrix().Data, m.wo.RawMatrix().Data, m.wn.RawMatrix().Data
	var pd, zd []float64 // M·r, packed over need (v's block), and z
	if m.pre != nil {
		// r packed into y's block, M·r into v's.
		yd := m.kept.ybuf
		parallel.For(n, rowGrain, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				rr, yr := r2[i*c:i*c+c], yd[i*k:i*k+k]
				for t, j := range need {
					yr[t] = rr[j]
				}
			}
		})
		linop.MulBlock(m.pre, view(m.kept.vbuf, n, k), view(yd, n, k))
		pd, zd = m.kept.vbuf, m.z.RawMatrix().Data
	}
	lanes := m.scratch(&m.lanes, dotLanes*len(ts))
	n4 := n - n%dotLanes
	for i := 0; i < n; i++ {
		l := laneOf(i, n4)
		rr := r2[i*c : i*c+c]
		for u, t := range ts {
			r := rr[need[t]]
			p := r
			if pd != nil {
				p = pd[i*k+t]
			}
			lanes[u*dotLanes+l] = dotAdd(lanes[u*dotLanes+l], r, p)
		}
	}
	parallel.For(n, rowGrain, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			o := i * c
			for _, t := range ts {
				j := need[t]
				r1[o+j] = r2[o+j]
				wo[o+j], wn[o+j] = 0, 0
				if zd != nil {
					zd[o+j] = pd[i*k+t]
				}
			}
		}
	})
	for u, t := range ts {
		j := need[t]
		cl := &m.col[j]
		beta1 := laneSum(lanes[u*dotLanes : (u+1)*dotLanes])
		if !(beta1 > 0) {
			cl.fail(&BreakdownError{Method: fmt.Sprintf("MINRES (column %d)", j), Iterations: cl.iters, Reason: fmt.Sprintf("rᵀMr = %g ≤ 0: the preconditioner is not positive definite", beta1)})
			continue
		}
		beta1 = math.Sqrt(beta1)
		cl.scale = cl.rel / beta1
		cl.oldb, cl.beta = 0, beta1
		cl.dbar, cl.epsln = 0, 0
		cl.phibar = beta1
		cl.cs, cl.sn = -1, 0
		cl.k = 1
		cl.state = colActive
	}
}

// step is one MINRES iteration of every iterating column, with one block
// product.
func (m *minresCols) step(ctx context.Context) {
	sc, a1 := m.stepScales()
	m.applyA(sc, a1)
	a2 := m.alphas(sc)
	lanes := m.nextResiduals(a2)
	m.rotate(lanes)
	m.updateX(sc)
	if len(m.upd) == 0 {
		return
	}
	m.endStep(ctx)
}

// stepScales returns, for the iterating columns, the scales 1/β of v and
// the coefficients −β/β_old of r1 (from the second iteration on, as later
// records).
func (m *minresCols) stepScales() (sc, a1 []float64) {
	k := len(m.act)
	sc = m.scratch(&m.sc, k)
	a1 = m.scratch(&m.a1, k)
	m.later = m.later[:0]
	for t, j := range m.act {
		cl := &m.col[j]
		sc[t] = 1 / cl.beta
		m.later = append(m.later[:t], cl.k >= 2) // no r1 term in the first iteration
		if cl.k >= 2 {
			a1[t] = -cl.beta / cl.oldb
		}
	}
	return sc, a1
}

// lanczosBlock is the block v is formed from: z = M r2, or r2 itself
// without a preconditioner.
func (m *minresCols) lanczosBlock() *mat.Dense {
	if m.z != nil {
		return m.z
	}
	return m.r2
}

// applyA forms v = y/β, y = M r2 (r2 itself without a preconditioner), and
// puts A·v into r1's block, less (β/β_old) r1 from the second iteration on
// (r1 is not read again).
func (m *minresCols) applyA(sc, a1 []float64) {
	c, act := m.c, m.act
	k := len(act)
	r1 := m.r1.RawMatrix().Data
	later := m.later
	m.op.MulColumnsRows(m.lanczosBlock(), act, sc, func(lo, hi int, y []float64) {
		for i := lo; i < hi; i++ {
			yr, rr := y[(i-lo)*k:(i-lo)*k+k], r1[i*c:i*c+c]
			for t, j := range act {
				yv := yr[t]
				if later[t] {
					yv = axpy(yv, a1[t], rr[j])
				}
				rr[j] = yv
			}
		}
	})
	m.res.Products++
}

// alphas sets α = vᵀy of the iterating columns, the sums taken row after
// row, in floats.Dot's order, and returns the coefficients −α/β of r2.
func (m *minresCols) alphas(sc []float64) []float64 {
	n, c, act := m.n, m.c, m.act
	k := len(act)
	zm := m.lanczosBlock().RawMatrix()
	r1 := m.r1.RawMatrix().Data
	n4 := n - n%dotLanes
	lanes := m.scratch(&m.lanes, dotLanes*k)
	vrow := m.scratch(&m.vrow, k)
	for i := 0; i < n; i++ {
		l := laneOf(i, n4)
		vr, rr := m.vRow(vrow, zm.Data, zm.Stride, act, sc, i), r1[i*c:i*c+c]
		for t, j := range act {
			lanes[t*dotLanes+l] = dotAdd(lanes[t*dotLanes+l], vr[t], rr[j])
		}
	}
	a2 := m.scratch(&m.a2, k)
	for t, j := range act {
		cl := &m.col[j]
		cl.alfa = laneSum(lanes[t*dotLanes : (t+1)*dotLanes])
		a2[t] = -cl.alfa / cl.beta
	}
	return a2
}

// nextResiduals subtracts (α/β) r2 from y in r1's block, swaps the blocks
// (r1 ← r2, r2 ← y), sets z = M r2 with a preconditioner, and returns the
// lanes of the sums β² = r2ᵀ M r2.
func (m *minresCols) nextResiduals(a2 []float64) []float64 {
	n, c, act := m.n, m.c, m.act
	k := len(act)
	n4 := n - n%dotLanes
	r1, r2 := m.r1.RawMatrix().Data, m.r2.RawMatrix().Data
	lanes := m.scratch(&m.lanes, dotLanes*k)
	for i := 0; i < n; i++ {
		l := laneOf(i, n4)
		nr, or := r1[i*c:i*c+c], r2[i*c:i*c+c]
		for t, j := range act {
			yv := axpy(nr[j], a2[t], or[j])
			nr[j] = yv
			if m.z == nil {
				lanes[t*dotLanes+l] = dotAdd(lanes[t*dotLanes+l], yv, yv)
			}
		}
	}
	m.r1, m.r2 = m.r2, m.r1
	if m.z != nil {
		linop.MulBlock(m.pre, m.z, m.r2)
		r2, zd := m.r2.RawMatrix().Data, m.z.RawMatrix().Data
		for i := 0; i < n; i++ {
			l := laneOf(i, n4)
			rr, zr := r2[i*c:i*c+c], zd[i*c:i*c+c]
			for t, j := range act {
				lanes[t*dotLanes+l] = dotAdd(lanes[t*dotLanes+l], rr[j], zr[j])
			}
		}
	}
	return lanes
}

// rotate takes β from its lanes, applies the previous rotation and computes
// the next one for every iterating column, and records in upd the columns
// that go on to update x (not those that broke down).
func (m *minresCols) rotate(lanes []float64) {
	upd := m.upd[:0]
	for t, j := range m.act {
		cl := &m.col[j]
		cl.oldb = cl.beta
		beta := laneSum(lanes[t*dotLanes : (t+1)*dotLanes])
		if beta < 0 {
			cl.fail(&BreakdownError{Method: fmt.Sprintf("MINRES (column %d)", j), Iterations: cl.iters, Reason: "the preconditioner is not positive definite"})
			continue
		}
		beta = math.Sqrt(beta)
		cl.beta = beta
		// Apply the previous rotation, then compute the next one.
		cl.oldeps = cl.epsln
		cl.delta = cl.cs*cl.dbar + cl.sn*cl.alfa
		gbar := cl.sn*cl.dbar - cl.cs*cl.alfa
		cl.epsln = cl.sn * beta
		cl.dbar = -cl.cs * beta
		cl.gamma = math.Max(math.Hypot(gbar, beta), 1e-300)
		cl.cs = gbar / cl.gamma
		cl.sn = beta / cl.gamma
		cl.phi = cl.cs * cl.phibar
		cl.phibar = cl.sn * cl.phibar
		cl.est = cl.phibar * cl.scale
		// MINRES keeps a copy of the best iterate; x_j is about to move
		// away from it unless the new one is better.
		if !(cl.est < cl.bestRes) && cl.hasBest && cl.bestIsX {
			m.saveBest(j)
		}
		upd = append(upd, t)
	}
	m.upd = upd
}

// updateX sets w = (v − ε w_{k−2} − δ w_{k−1})/γ into w_{k−2}'s block and
// x += φ w for the columns upd. v is the old r2's (now r1's) or the
// preconditioned z's kept copy.
func (m *minresCols) updateX(sc []float64) {
	n, c, act, upd := m.n, m.c, m.act, m.upd
	k := len(act)
	wo, wn, xm := m.wo.RawMatrix().Data, m.wn.RawMatrix().Data, m.x.RawMatrix()
	col := m.col
	vsrc := m.r1.RawMatrix()
	parallel.For(n, rowGrain, func(lo, hi int) {
		buf := make([]float64, k)
		for i := lo; i < hi; i++ {
			vr := m.vRow(buf, vsrc.Data, vsrc.Stride, act, sc, i)
			or, nr := wo[i*c:i*c+c], wn[i*c:i*c+c]
			xr := xm.Data[i*xm.Stride:]
			for _, t := range upd {
				j := act[t]
				cl := &col[j]
				w := (vr[t] - cl.oldeps*or[j] - cl.delta*nr[j]) / cl.gamma
				or[j] = w
				xr[j] = axpy(xr[j], cl.phi, w)
			}
		}
	})
	m.wo, m.wn = m.wn, m.wo
}

// endStep counts the iteration of the columns upd, reports progress, and
// moves the columns that stop (cancelled, converged by the recurrence, at
// the iteration cap) on.
func (m *minresCols) endStep(ctx context.Context) {
	act, upd := m.act, m.upd
	m.steps++
	worst := 0.0
	for _, t := range upd {
		cl := &m.col[act[t]]
		cl.iters++
		cl.k++
		cl.resKnown = false
		cl.remember(cl.est)
		worst = math.Max(worst, cl.est)
		m.res.Iterations[act[t]] = cl.iters
	}
	if m.progress != nil {
		m.progress(m.steps, worst)
	}
	if err := ctx.Err(); err != nil {
		for _, t := range upd {
			m.col[act[t]].fail(err)
		}
		return
	}
	for _, t := range upd {
		cl := &m.col[act[t]]
		switch {
		case cl.est <= m.tol || cl.beta == 0:
			cl.state = colCheck
		case cl.iters >= m.max:
			cl.fail(nil)
		}
	}
}

// saveBest copies x_j, the best iterate so far, aside.
func (m *minresCols) saveBest(j int) {
	cl := &m.col[j]
	if cl.best == nil {
		cl.best = make([]float64, m.n)
	}
	mat.Col(cl.best, j, m.x)
	cl.bestIsX = false
}

// restoreBest puts the best iterate back into x_j.
func (m *minresCols) restoreBest(j int) {
	cl := &m.col[j]
	m.x.SetCol(j, cl.best)
	cl.bestIsX, cl.resKnown = true, false
}

// scratch returns (*buf)[:k] zeroed, growing it if needed.
func (m *minresCols) scratch(buf *[]float64, k int) []float64 {
	if cap(*buf) < k {
		*buf = make([]float64, k)
	}
	*buf = (*buf)[:k]
	clear(*buf)
	return *buf
}

// colNorms2 sets dst[t] = floats.Norm(column cols[t] of the n-row block data
// with row stride s, 2), in one pass over the rows.
func colNorms2(dst, data []float64, s int, cols []int, n int) {
	st := make([]normState, len(cols))
	for t := range st {
		st[t] = newNormState()
	}
	for i := 0; i < n; i++ {
		row := data[i*s:]
		for t, j := range cols {
			st[t].add(row[j])
		}
	}
	for t := range st {
		dst[t] = st[t].norm()
	}
}
