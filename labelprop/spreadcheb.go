package labelprop

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/laplacian"
)

// spreadingChebyshev is the Chebyshev semi-iteration (Saad, "Iterative
// Methods for Sparse Linear Systems", 2nd ed., Alg. 12.1) on
// (I − aS) X = B, S = D^{-1/2} W D^{-1/2}. The eigenvalues of S lie in
// [−1, 1] for every graph (isolated nodes give 0), so those of I − aS lie
// in [1 − a, 1 + a]: the centre θ = 1 and half-width δ = a are known
// exactly, no eigenvalue estimate is needed, and the residual obeys
//
//	‖r_k‖ ≤ ‖r_0‖ / T_k(1/a)
//
// (T_k the Chebyshev polynomial), a factor (√κ − 1)/(√κ + 1) per iteration
// with κ = (1 + a)/(1 − a), as for CG. With x_{k+1} = x_k + d_k and
//
//	d_0 = r_0/θ,   ρ_0 = δ/θ,   ρ_k = 1/(2θ/δ − ρ_{k−1}),
//	d_k = ρ_k ρ_{k−1} d_{k−1} + (2ρ_k/δ) r_k,
//
// the step is the three-term recurrence
//
//	x_{k+1} = x_k + ρ_k ρ_{k−1} (x_k − x_{k−1}) + (2ρ_k/δ)(b − A x_k),
//
// which needs no inner product: an iteration is ONE row pass. The iterates
// are stored scaled, z = t∘x with t_i = d_i^{-1/2} (1 for an isolated node),
// so that row i of the residual is
//
//	r_i = b_i − u_i z_i + a t'_i (W z)_i,   u = 1/t,  t' = d^{-1/2} (0 isolated),
//
// a product with W itself (only the pattern of an unweighted graph is
// read). The pass computes r_i from z_k, adds r_i² to its chunk's column
// sums and writes z_{k+1,i} over z_{k−1,i} (row i of z_{k−1} is read only
// there), so two n×c blocks and the graph are all it streams; B enters
// through its nonzero rows only (the labelled nodes).
//
// The residual of every pass is the true residual b − A x_k, not a
// recursively updated one, so the stopping test cannot be fooled by
// rounding drift (the concern of Gutknecht and Röllin's stable variants).
// All classes share the polynomial; the iteration stops at the first k at
// which every class has ‖r_k‖ ≤ Tol·‖b‖ and returns x_k (classes that got
// there earlier keep improving until then).
type spreadingChebyshev struct {
	g   *graph.CSR
	a   float64
	s   krylov.Settings
	res krylov.BlockResult
	x   *mat.Dense // the caller's initial guess, and the answer

	// z = t∘x and x = u∘z: t_i = d_i^{-1/2}, u_i = d_i^{1/2} (both 1 for an
	// isolated node, whose row of W is empty, so that a·t_i·(W z)_i is its
	// zero row of aS whatever t_i).
	t, u     []float64
	cur, prv []float64 // z_k and z_{k−1} (then z_{k+1}), n×c row-major

	// cur and prv as matrices (the products read curM). For widths other
	// than 3 and 7: the scaling that makes ScaledMulBlockRowsInto give r − b,
	// and a pool of spreadRowChunk×c scratch blocks for its rows (one per
	// running chunk, not an n×c block).
	curM, prvM *mat.Dense
	op         graph.Scaling
	qs         parallel.FreeList[*mat.Dense]

	// stop, when not nil, is the label rule (Spreading.Stop = StopLabels).
	stop *labelWatch

	// For 3 and 7 columns: ids[i] = i (the rows of the first pass from
	// x_0 = 0, which needs no product), zeros its row sums, and bPos[i] the
	// index in bRows of row i, −1 for a zero row of B (the rows come in the
	// SELL copy's order, not increasing).
	ids   []int32
	zeros []float64
	bPos  []int32

	// The nonzero rows of B in increasing order, their c values each, and
	// for every row chunk the index in bRows of its first nonzero row.
	bRows  []int
	bVals  []float64
	bChunk []int

	bnorm, rr []float64
	rowPasses
}

// newSpreadingChebyshev prepares a solve of (I − aS) X = B for the graph g
// of W, with x the initial guess (overwritten by the answer).
func newSpreadingChebyshev(g *graph.CSR, a float64, b, x *mat.Dense, s krylov.Settings) (*spreadingChebyshev, error) {
	n := g.Nodes()
	br, c := b.Dims()
	if xr, xc := x.Dims(); br != n || xr != n || xc != c {
		return nil, fmt.Errorf("labelprop: spreading Chebyshev: graph has %d nodes, B is %d×%d, X is %d×%d", n, br, c, xr, xc)
	}
	return newChebyshevRHS(g, a, denseRHS(b), x, s)
}

// newChebyshevRHS is newSpreadingChebyshev with B given by its nonzero rows
// (no n×c block for B).
func newChebyshevRHS(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, s krylov.Settings) (*spreadingChebyshev, error) {
	n := g.Nodes()
	c := b.c
	if xr, xc := x.Dims(); xr != n || xc != c {
		return nil, fmt.Errorf("labelprop: spreading Chebyshev: graph has %d nodes, B has %d columns, X is %d×%d", n, c, xr, xc)
	}
	if !(a > 0 && a < 1) {
		return nil, fmt.Errorf("labelprop: spreading Chebyshev: a = %v is invalid: it must be inside the open interval (0, 1)", a)
	}
	deg, err := laplacian.NewDegrees(g, laplacian.Options{Isolated: laplacian.IsolatedZero})
	if err != nil {
		return nil, fmt.Errorf("labelprop: %w", err)
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if s.MaxIter == 0 {
		s.MaxIter = min(2*chebyshevBound(a, s.Tol)+100, DefaultMaxIter)
	}
	ch := &spreadingChebyshev{
		g: g, a: a, s: s, x: x,
		res:   krylov.BlockResult{Iterations: make([]int, c), Residual: make([]float64, c)},
		t:     deg.InvSqrtD,
		u:     deg.SqrtD,
		prv:   newBlock(n * c),
		bnorm: make([]float64, c),
		rr:    make([]float64, c),
		// one pass reads the graph and two blocks
		rowPasses: newRowPasses(n, c, g.NNZ()+n*c),
	}
	for i := range ch.t {
		if ch.u[i] == 0 { // isolated: z_i = x_i
			ch.t[i], ch.u[i] = 1, 1
		}
	}
	ch.bRows, ch.bVals = b.rows, b.vals
	ch.bnorm, ch.bChunk = b.norms(), b.chunks(n)
	// z_0 = t∘x_0 is written over x itself when its rows are contiguous (the
	// answer goes back there in finish), so the solver holds one n×c block
	// of its own, prv.
	if xm := x.RawMatrix(); xm.Stride == c {
		ch.cur = xm.Data[:n*c]
	} else {
		ch.cur = newBlock(n * c)
	}
	ch.curM, ch.prvM = mat.NewDense(n, c, ch.cur), mat.NewDense(n, c, ch.prv)
	if c == 3 || c == 7 {
		ch.ids, ch.bPos = make([]int32, n), make([]int32, n)
		for i := range ch.ids {
			ch.ids[i], ch.bPos[i] = int32(i), -1
		}
		for p, i := range ch.bRows {
			ch.bPos[i] = int32(p)
		}
		ch.zeros = make([]float64, 8*graph.RowBatch)
	} else {
		ch.qs.New = func() *mat.Dense { return mat.NewDense(spreadRowChunk, c, nil) }
		diag, left := make([]float64, n), make([]float64, n)
		for i := range diag {
			diag[i], left[i] = -ch.u[i], a*ch.t[i]
		}
		ch.op = graph.Scaling{Diag: diag, Left: left}
	}
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i)[:c] {
			if ch.bnorm[j] == 0 { // the solution of a zero column is zero
				v = 0
			}
			ch.cur[i*c+j] = ch.t[i] * v
		}
	}
	return ch, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pass computes r = B − (I − aS)x_k from z_k = cur (gather false: z_k = 0,
// so r = B) and sets prv ← ω·(cur − prv) + cur + γ·t∘r, which is z_{k+1}
// when prv held z_{k−1}. It leaves ‖r_j‖² in rr.
func (ch *spreadingChebyshev) pass(omega, gamma float64, gather bool) {
	c := ch.c
	if c == 3 {
		ch.passes(ch.rr, func(_, lo, hi int, acc []float64) {
			ch.chunk(gather, lo, hi, func(rows []int32, sums []float64) {
				ch.rows3(omega, gamma, rows, sums, acc)
			})
		})
		return
	}
	if c == 7 {
		ch.passes(ch.rr, func(_, lo, hi int, acc []float64) {
			ch.chunk(gather, lo, hi, func(rows []int32, sums []float64) {
				ch.rows7(omega, gamma, rows, sums, acc)
			})
		})
		return
	}
	// Other widths: the product rows of the chunk by graph's unrolled
	// kernels into q (q = −u∘z + a·t∘(W z) = r − b), then a flat loop over
	// the chunk's entries while they are in cache.
	ch.passes(ch.rr, func(k, lo, hi int, acc []float64) {
		qm := ch.qs.Get()
		defer ch.qs.Put(qm)
		if gather {
			ch.g.ScaledMulBlockRowsInto(qm.Slice(0, hi-lo, 0, c).(*mat.Dense), ch.curM, ch.op, lo, hi)
		}
		cur, prv, q := ch.cur[lo*c:hi*c], ch.prv[lo*c:hi*c], qm.RawMatrix().Data[:(hi-lo)*c]
		prv, q = prv[:len(cur)], q[:len(cur)]
		t, u := ch.t, ch.u
		bk := ch.bChunk[k]
		nextB := hi
		if bk < len(ch.bRows) {
			nextB = ch.bRows[bk]
		}
		i, j := lo, 0
		ti := t[lo]
		for e, z := range cur {
			var r float64
			if gather {
				r = q[e]
			} else {
				r = -u[i] * z
			}
			if i == nextB {
				r += ch.bVals[bk*c+j]
			}
			acc[j] += r * r
			prv[e] = z + omega*(z-prv[e]) + gamma*(ti*r)
			if j++; j == c {
				j, i = 0, i+1
				if i < hi {
					ti = t[i]
				}
				if i > nextB {
					bk++
					nextB = hi
					if bk < len(ch.bRows) {
						nextB = ch.bRows[bk]
					}
				}
			}
		}
	})
}

// chunk runs rows over the rows [lo, hi) of a chunk, batch by batch, with
// each row's sums (W z_k)_i: from graph.CSR.MulBlockRowsFunc (the SELL-4-σ
// kernels where the CPU has them; the rows of each window of
// graph.RowWindow come in the copy's order), or zero when gather is false
// (z_k = 0). The sums are in L1 when rows uses them, and are bitwise those
// of a row loop over the CSR arrays (graph adds each row's terms in column
// order into one accumulator), so z_{k+1} does not depend on the path; the
// ‖r‖² sums of the chunk are added in the batches' row order, fixed for a
// given graph and CPU and the same for any number of goroutines.
func (ch *spreadingChebyshev) chunk(gather bool, lo, hi int, rows func(rows []int32, sums []float64)) {
	if gather {
		ch.g.MulBlockRowsFunc(ch.curM, lo, hi, rows)
		return
	}
	for r := lo; r < hi; r += graph.RowBatch {
		e := min(r+graph.RowBatch, hi)
		rows(ch.ids[r:e:e], ch.zeros)
	}
}

// rows3 is the body of pass for three columns (PubMed): for each row i of
// rows (skipping negative slots) with its sums s = (W z_k)_i in
// sums[8t:8t+3], the residual row r_i = b_i − u_i z_i + a t_i s, its squares
// added to acc, and z_{k+1,i} written over prv.
func (ch *spreadingChebyshev) rows3(omega, gamma float64, rows []int32, sums []float64, acc []float64) {
	cur, prv, t, u, a, bPos, bVals := ch.cur, ch.prv, ch.t, ch.u, ch.a, ch.bPos, ch.bVals
	q0, q1, q2 := acc[0], acc[1], acc[2]
	for k, r := range rows {
		if r < 0 {
			continue
		}
		i := int(r)
		s := sums[8*k : 8*k+3 : 8*k+3]
		o := i * 3
		zi, pi := cur[o:o+3:o+3], prv[o:o+3:o+3]
		ui, ti := u[i], t[i]
		li := a * ti
		r0 := li*s[0] - ui*zi[0]
		r1 := li*s[1] - ui*zi[1]
		r2 := li*s[2] - ui*zi[2]
		if p := int(bPos[i]); p >= 0 {
			bi := bVals[p*3 : p*3+3 : p*3+3]
			r0 += bi[0]
			r1 += bi[1]
			r2 += bi[2]
		}
		q0 += r0 * r0
		q1 += r1 * r1
		q2 += r2 * r2
		gt := gamma * ti
		pi[0] = zi[0] + omega*(zi[0]-pi[0]) + gt*r0
		pi[1] = zi[1] + omega*(zi[1]-pi[1]) + gt*r1
		pi[2] = zi[2] + omega*(zi[2]-pi[2]) + gt*r2
	}
	acc[0], acc[1], acc[2] = q0, q1, q2
}

// rows7 is rows3 for 7 columns (Cora).
func (ch *spreadingChebyshev) rows7(omega, gamma float64, rows []int32, sums []float64, acc []float64) {
	cur, prv, t, u, a, bPos, bVals := ch.cur, ch.prv, ch.t, ch.u, ch.a, ch.bPos, ch.bVals
	q0, q1, q2, q3, q4, q5, q6 := acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6]
	for k, r := range rows {
		if r < 0 {
			continue
		}
		i := int(r)
		s := sums[8*k : 8*k+7 : 8*k+7]
		o := i * 7
		zi, pi := cur[o:o+7:o+7], prv[o:o+7:o+7]
		ui, ti := u[i], t[i]
		li := a * ti
		r0 := li*s[0] - ui*zi[0]
		r1 := li*s[1] - ui*zi[1]
		r2 := li*s[2] - ui*zi[2]
		r3 := li*s[3] - ui*zi[3]
		r4 := li*s[4] - ui*zi[4]
		r5 := li*s[5] - ui*zi[5]
		r6 := li*s[6] - ui*zi[6]
		if p := int(bPos[i]); p >= 0 {
			bi := bVals[p*7 : p*7+7 : p*7+7]
			r0 += bi[0]
			r1 += bi[1]
			r2 += bi[2]
			r3 += bi[3]
			r4 += bi[4]
			r5 += bi[5]
			r6 += bi[6]
		}
		q0 += r0 * r0
		q1 += r1 * r1
		q2 += r2 * r2
		q3 += r3 * r3
		q4 += r4 * r4
		q5 += r5 * r5
		q6 += r6 * r6
		gt := gamma * ti
		pi[0] = zi[0] + omega*(zi[0]-pi[0]) + gt*r0
		pi[1] = zi[1] + omega*(zi[1]-pi[1]) + gt*r1
		pi[2] = zi[2] + omega*(zi[2]-pi[2]) + gt*r2
		pi[3] = zi[3] + omega*(zi[3]-pi[3]) + gt*r3
		pi[4] = zi[4] + omega*(zi[4]-pi[4]) + gt*r4
		pi[5] = zi[5] + omega*(zi[5]-pi[5]) + gt*r5
		pi[6] = zi[6] + omega*(zi[6]-pi[6]) + gt*r6
	}
	acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6] = q0, q1, q2, q3, q4, q5, q6
}

// run iterates until every column's relative residual is at most Tol, the
// context is done or MaxIter iterations have run; x receives the last
// iterate whose residual is known (x_k after pass k) in every case.
func (ch *spreadingChebyshev) run(ctx context.Context) (krylov.BlockResult, error) {
	c := ch.c
	gather := !isZeroBlock(ch.curM) // z_0 = t∘x_0, zero columns cleared
	if gather {
		ch.res.Products++
	}
	// θ = 1, δ = a: σ₁ = θ/δ = 1/a.
	sigma := 1 / ch.a
	rho := 1 / sigma
	omega, gamma := 0.0, 1.0 // d_0 = r_0/θ
	converged := make([]bool, c)
	for k := 0; ; k++ {
		ch.pass(omega, gamma, gather || k > 0)
		left, worst := 0, 0.0
		for j := 0; j < c; j++ {
			rel := 0.0
			if ch.bnorm[j] > 0 {
				rel = math.Sqrt(ch.rr[j]) / ch.bnorm[j]
			}
			ch.res.Residual[j] = rel
			if rel <= ch.s.Tol {
				if !converged[j] {
					converged[j], ch.res.Iterations[j] = true, k
				}
				continue
			}
			converged[j] = false
			ch.res.Iterations[j] = k
			left++
			worst = math.Max(worst, rel)
		}
		if k > 0 && ch.s.Progress != nil {
			ch.s.Progress(k, slices.Max(ch.res.Residual))
		}
		if left == 0 {
			return ch.finish(nil)
		}
		if ch.stop != nil && ch.stop.steady(slices.Max(ch.res.Residual), func(labels *[]int32) int {
			return argmaxChanged(ch.cur, c, labels)
		}) {
			return ch.finish(nil)
		}
		if err := ctx.Err(); err != nil {
			return ch.finish(fmt.Errorf("labelprop: spreading Chebyshev stopped after %d iterations: %w", k, err))
		}
		if k == ch.s.MaxIter {
			worstCol := 0
			for j := range ch.res.Residual {
				if ch.res.Residual[j] > ch.res.Residual[worstCol] {
					worstCol = j
				}
			}
			return ch.finish(&krylov.NotConvergedError{Method: fmt.Sprintf("spreading Chebyshev (column %d)", worstCol), Iterations: k, Residual: ch.res.Residual[worstCol], Tol: ch.s.Tol})
		}
		if !(worst < math.Inf(1)) {
			return ch.finish(&krylov.BreakdownError{Method: "spreading Chebyshev", Iterations: k, Reason: fmt.Sprintf("relative residual %g is not finite", worst)})
		}
		// prv holds z_{k+1}; the next pass reads it as z_k.
		ch.cur, ch.prv = ch.prv, ch.cur
		ch.curM, ch.prvM = ch.prvM, ch.curM
		ch.res.Products++
		next := 1 / (2*sigma - rho)
		omega, gamma = next*rho, 2*next/ch.a
		rho = next
	}
}

// finish writes x_k = u∘z_k into x: in place when z_k is held in x's
// storage, else from the other block (as when z_k sits in prv's storage).
func (ch *spreadingChebyshev) finish(err error) (krylov.BlockResult, error) {
	c := ch.c
	parallel.For(ch.n, spreadRowChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := ch.x.RawRowView(i)[:c]
			zi := ch.cur[i*c : i*c+c]
			for j := range row {
				row[j] = ch.u[i] * zi[j]
			}
		}
	})
	return ch.res, err
}

// chebyshevOptions are the Spreading settings that only the Chebyshev
// solver has.
type chebyshevOptions struct {
	float32 bool        // spreadingChebyshev32
	stop    *labelWatch // StopLabels, nil for StopResidual
}

// spreadChebyshevOpts solves (I − aS) F = B, B by its nonzero rows, by
// spreadingChebyshev or spreadingChebyshev32, F holding the initial guess.
// It also returns the storage of an n×c block the solve no longer needs
// (nil when it has none), for the caller's probabilities.
func spreadChebyshevOpts(ctx context.Context, g *graph.CSR, a float64, b sparseRHS, f *mat.Dense, s krylov.Settings, o chebyshevOptions) (Info, []float64, error) {
	var spare []float64
	var res krylov.BlockResult
	var err error
	what := "label spreading (Chebyshev)"
	if o.float32 {
		what = "label spreading (Chebyshev, float32)"
		var ch *spreadingChebyshev32
		if ch, err = newChebyshev32(g, a, b, f, s); err != nil {
			return Info{}, nil, err
		}
		ch.stop = o.stop
		res, err = ch.run(ctx)
	} else {
		var ch *spreadingChebyshev
		if ch, err = newChebyshevRHS(g, a, b, f, s); err != nil {
			return Info{}, nil, err
		}
		ch.stop = o.stop
		res, err = ch.run(ctx)
		// the iterates swap storage each step: the spare one is whichever
		// is not F's (finish has put the answer into F)
		spare = ch.prv
		if fd := f.RawMatrix().Data; len(fd) > 0 && len(spare) > 0 && &spare[0] == &fd[0] {
			spare = ch.cur
		}
	}
	info := blockInfo(res)
	return info, spare, wrapSolverError(what, info, s.Tol, err)
}

// spreadChebyshev solves (I − aS) F = B by spreadingChebyshev, F holding
// the initial guess; g is the graph of W.
func spreadChebyshev(ctx context.Context, g *graph.CSR, a float64, b, f *mat.Dense, s krylov.Settings) (Info, error) {
	ch, err := newSpreadingChebyshev(g, a, b, f, s)
	if err != nil {
		return Info{}, err
	}
	res, err := ch.run(ctx)
	info := blockInfo(res)
	return info, wrapSolverError("label spreading (Chebyshev)", info, s.Tol, err)
}

// chebyshevBound returns the smallest k with T_k(1/a) ≥ 1/tol, T_k the
// Chebyshev polynomial (T_k(x) = cosh(k·acosh x) for x ≥ 1): in exact
// arithmetic the semi-iteration on I − aS from x_0 = 0 has
// ‖r_k‖ ≤ ‖b‖/T_k(1/a), so it reaches a relative residual tol within that
// many iterations (32 for a = 0.9 and tol = 1e-6, 104 for a = 0.99). The
// result saturates at DefaultMaxIter (a so close to 1 that 1/a rounds to 1
// would divide by acosh(1) = 0).
func chebyshevBound(a, tol float64) int {
	k := math.Ceil(math.Acosh(1/tol) / math.Acosh(1/a))
	if !(k < DefaultMaxIter) {
		return DefaultMaxIter
	}
	return int(k)
}
