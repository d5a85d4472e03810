package labelprop

import (
	"context"
	"fmt"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/hugepage"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/laplacian"
)

// spreadSystem is label spreading's (I − aS)X = B, S = D^{-1/2} W D^{-1/2},
// as krylov.Chebyshev sees it. The iterates are stored scaled,
// z = t∘x with t_i = d_i^{-1/2} (1 for an isolated node), so that row i of
// the residual is
//
//	r_i = b_i − u_i z_i + a t'_i (W z)_i,   u = 1/t,  t' = d^{-1/2} (0 isolated),
//
// a product with W itself (only the pattern of an unweighted graph is
// read); B enters through its nonzero rows only (the labelled nodes). With
// x_0 = 0 the first pass needs no product. An isolated node's row of W is
// empty, so a·t_i·(W z)_i is its zero row of aS whatever t_i.
type spreadSystem struct {
	g     *graph.CSR
	a     float64
	n, c  int
	t, u  []float64
	b     sparseRHS
	bnorm []float64
	// bChunk[k] is the index in b.rows of the first nonzero row of row
	// chunk k (chunks of spreadRowChunk rows).
	bChunk []int
}

// newSpreadSystem checks the sizes (x is n×c) and a, and computes the
// scalings; what names the solver in errors.
func newSpreadSystem(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, what string) (spreadSystem, error) {
	n, c := g.Nodes(), b.c
	if xr, xc := x.Dims(); xr != n || xc != c {
		return spreadSystem{}, fmt.Errorf("labelprop: %s: graph has %d nodes, B has %d columns, X is %d×%d", what, n, c, xr, xc)
	}
	if !(a > 0 && a < 1) {
		return spreadSystem{}, fmt.Errorf("labelprop: %s: a = %v is invalid: it must be inside the open interval (0, 1)", what, a)
	}
	deg, err := laplacian.NewDegrees(g, laplacian.Options{Isolated: laplacian.IsolatedZero})
	if err != nil {
		return spreadSystem{}, fmt.Errorf("labelprop: %w", err)
	}
	sp := spreadSystem{g: g, a: a, n: n, c: c, t: deg.InvSqrtD, u: deg.SqrtD,
		b: b, bnorm: b.norms(), bChunk: b.chunks(n)}
	for i := range sp.t {
		if sp.u[i] == 0 { // isolated: z_i = x_i
			sp.t[i], sp.u[i] = 1, 1
		}
	}
	return sp, nil
}

// start returns entry j of row i of z_0 = t∘x_0 for the value v of x_0
// (zero in a zero column of B, whose solution is zero).
func (sp *spreadSystem) start(i, j int, v float64) float64 {
	if sp.bnorm[j] == 0 {
		return 0
	}
	return sp.t[i] * v
}

// settings returns the krylov settings of a solve with s, passes and the
// label rule stop (nil for none).
func settings[T krylov.Float](sp *spreadSystem, s krylov.Settings, method string, zero bool, passes *krylov.RowPasses, stop *labelWatch) krylov.ChebyshevSettings[T] {
	cs := krylov.ChebyshevSettings[T]{Settings: s, Method: method, BNorm: sp.bnorm, Scale: sp.t, Zero: zero, Passes: passes}
	if stop != nil {
		cs.Stop = func(_ int, worst float64, z []T) bool {
			return stop.steady(worst, func(labels *[]int32) int { return argmaxChanged(z, sp.c, labels) })
		}
	}
	return cs
}

// addB adds the nonzero rows of B among [lo, hi) to r (row i at (i−lo)·c).
func (sp *spreadSystem) addB(r []float64, lo, hi int) {
	c, b := sp.c, sp.b
	for p := sp.bChunk[lo/spreadRowChunk]; p < len(b.rows) && b.rows[p] < hi; p++ {
		if b.rows[p] < lo { // a range inside the chunk (wide blocks)
			continue
		}
		o := (b.rows[p] - lo) * c
		for j, v := range b.vals[p*c : p*c+c] {
			r[o+j] += v
		}
	}
}

// spread64 is spreadSystem on float64 iterates. For widths other than 3
// and 7 its residual rows come from graph's unrolled kernels with the
// scaling op (−u∘z + a·t∘(W z) = r − b); for 3 and 7 columns it does the
// whole step itself (Step), fused with the SELL kernels' row sums.
type spread64 struct {
	spreadSystem
	op graph.Scaling
	// blocks wraps the two iterate blocks as matrices for the products.
	blocks [2]*mat.Dense

	// For 3 and 7 columns: ids[i] = i (the rows of the first pass from
	// x_0 = 0, which needs no product), zeros its row sums, and bPos[i] the
	// index in b.rows of row i, −1 for a zero row of B (the rows come in
	// the SELL copy's order, not increasing).
	ids   []int32
	zeros []float64
	bPos  []int32
}

var (
	_ krylov.ChebyshevSystem[float64]  = (*spread64)(nil)
	_ krylov.ChebyshevStepper[float64] = (*spread64)(nil)
)

func newSpread64(sp spreadSystem, cur, prv []float64) *spread64 {
	s := &spread64{spreadSystem: sp, blocks: [2]*mat.Dense{mat.NewDense(sp.n, sp.c, cur), mat.NewDense(sp.n, sp.c, prv)}}
	if s.Handled() {
		s.ids, s.bPos = make([]int32, sp.n), make([]int32, sp.n)
		for i := range s.ids {
			s.ids[i], s.bPos[i] = int32(i), -1
		}
		for p, i := range sp.b.rows {
			s.bPos[i] = int32(p)
		}
		s.zeros = make([]float64, 8*graph.RowBatch)
		return s
	}
	diag, left := make([]float64, sp.n), make([]float64, sp.n)
	for i := range diag {
		diag[i], left[i] = -sp.u[i], sp.a*sp.t[i]
	}
	s.op = graph.Scaling{Diag: diag, Left: left}
	return s
}

// block returns z as an n×c matrix.
func (s *spread64) block(z []float64) *mat.Dense {
	if &s.blocks[0].RawMatrix().Data[0] == &z[0] {
		return s.blocks[0]
	}
	return s.blocks[1]
}

// Residual sets the rows [lo, hi) of r = B − (I − aS)x.
func (s *spread64) Residual(r []float64, z []float64, lo, hi int) {
	if z == nil {
		clear(r)
	} else {
		s.g.ScaledMulBlockRowsInto(mat.NewDense(hi-lo, s.c, r), s.block(z), s.op, lo, hi)
	}
	s.addB(r, lo, hi)
}

// Handled reports whether Step is used: for 3 and 7 columns (PubMed, Cora).
func (s *spread64) Handled() bool { return s.c == 3 || s.c == 7 }

// Step is the fused pass for 3 and 7 columns: each batch of rows from
// graph.CSR.MulBlockRowsFunc (the SELL-4-σ kernels where the CPU has them;
// the rows of each window of graph.RowWindow come in the copy's order), or
// of zero sums when zero is true (z_k = 0), is stepped while its sums are in
// L1. The sums are bitwise those of a row loop over the CSR arrays (graph
// adds each row's terms in column order into one accumulator), so z_{k+1}
// does not depend on the path; the ‖r‖² sums of the chunk are added in the
// batches' row order, fixed for a given graph and CPU and the same for any
// number of goroutines.
func (s *spread64) Step(_, lo, hi int, acc []float64, cur, prv []float64, omega, gamma float64, zero bool) {
	rows := func(rows []int32, sums []float64) { s.rows7(cur, prv, omega, gamma, rows, sums, acc) }
	if s.c == 3 {
		rows = func(rows []int32, sums []float64) { s.rows3(cur, prv, omega, gamma, rows, sums, acc) }
	}
	if !zero {
		s.g.MulBlockRowsFunc(s.block(cur), lo, hi, rows)
		return
	}
	for r := lo; r < hi; r += graph.RowBatch {
		e := min(r+graph.RowBatch, hi)
		rows(s.ids[r:e:e], s.zeros)
	}
}

// rows3 is the step for three columns: for each row i of rows (skipping
// negative slots) with its sums s = (W z_k)_i in sums[8t:8t+3], the residual
// row r_i = b_i − u_i z_i + a t_i s, its squares added to acc, and z_{k+1,i}
// written over prv.
func (s *spread64) rows3(cur, prv []float64, omega, gamma float64, rows []int32, sums []float64, acc []float64) {
	t, u, a, bPos, bVals := s.t, s.u, s.a, s.bPos, s.b.vals
	q0, q1, q2 := acc[0], acc[1], acc[2]
	for k, r := range rows {
		if r < 0 {
			continue
		}
		i := int(r)
		sm := sums[8*k : 8*k+3 : 8*k+3]
		o := i * 3
		zi, pi := cur[o:o+3:o+3], prv[o:o+3:o+3]
		ui, ti := u[i], t[i]
		li := a * ti
		r0 := li*sm[0] - ui*zi[0]
		r1 := li*sm[1] - ui*zi[1]
		r2 := li*sm[2] - ui*zi[2]
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

// rows7 is rows3 for 7 columns.
func (s *spread64) rows7(cur, prv []float64, omega, gamma float64, rows []int32, sums []float64, acc []float64) {
	t, u, a, bPos, bVals := s.t, s.u, s.a, s.bPos, s.b.vals
	q0, q1, q2, q3, q4, q5, q6 := acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6]
	for k, r := range rows {
		if r < 0 {
			continue
		}
		i := int(r)
		sm := sums[8*k : 8*k+7 : 8*k+7]
		o := i * 7
		zi, pi := cur[o:o+7:o+7], prv[o:o+7:o+7]
		ui, ti := u[i], t[i]
		li := a * ti
		r0 := li*sm[0] - ui*zi[0]
		r1 := li*sm[1] - ui*zi[1]
		r2 := li*sm[2] - ui*zi[2]
		r3 := li*sm[3] - ui*zi[3]
		r4 := li*sm[4] - ui*zi[4]
		r5 := li*sm[5] - ui*zi[5]
		r6 := li*sm[6] - ui*zi[6]
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

// spread32 is spreadSystem on float32 iterates (Spreading.Float32): half
// the memory of the two n×c blocks, and half the bytes of every gather.
// Everything else is in float64: the products (graph.CSR.MulBlock32RowsInto
// sums W_ij·z_j in float64), the residual, its norms and the recurrence,
// whose result alone krylov.Chebyshev rounds to float32. The rounding of z
// (relative 2^-24 ≈ 6·10^-8) puts a floor under the true relative residual
// of about 2^-24·(1 + a)/(1 − a) (10^-6 at a = 0.9, 10^-5 at a = 0.99), so
// DefaultTol32 is looser than DefaultTol.
type spread32 struct{ spreadSystem }

var _ krylov.ChebyshevSystem[float32] = (*spread32)(nil)

// Residual sets the rows [lo, hi) of r = B − (I − aS)x.
func (s *spread32) Residual(r []float64, z []float32, lo, hi int) {
	if z == nil {
		clear(r)
		s.addB(r, lo, hi)
		return
	}
	c := s.c
	s.g.MulBlock32RowsInto(r, z, c, lo, hi)
	zc := z[lo*c : hi*c]
	r = r[:len(zc)]
	i, j := lo, 0
	li, ui := s.a*s.t[lo], s.u[lo]
	for e, zf := range zc {
		r[e] = li*r[e] - ui*float64(zf)
		if j++; j == c {
			j, i = 0, i+1
			if i < hi {
				li, ui = s.a*s.t[i], s.u[i]
			}
		}
	}
	s.addB(r, lo, hi)
}

// DefaultTol32 is the tolerance Spreading.Float32 uses when Tol is 0: the
// float32 iterates cannot reach a relative residual much below
// 2^-24·(1 + a)/(1 − a) (see Spreading.Float32).
const DefaultTol32 = 1e-5

// spreadingChebyshev solves (I − aS)X = B by krylov.Chebyshev on
// spreadSystem, in float64 or (f32) float32, writing the answer into x,
// which holds the initial guess.
type spreadingChebyshev struct {
	sp   spreadSystem
	x    *mat.Dense
	s    krylov.Settings
	stop *labelWatch // StopLabels, nil for StopResidual
	// serial runs the passes, and the final x = u∘z, on the calling
	// goroutine (set by tests and benchmarks; run also sets it when the
	// work is below spreadParallelWork).
	serial bool

	// The float64 iterates z_k and z_{k−1}, n×c row-major: cur is x's own
	// storage when its rows are contiguous.
	cur, prv []float64
	// With f32, the float32 iterates; inX says that they are the two halves
	// of x's own storage (x has contiguous rows: its 8nc bytes hold both
	// float32 blocks), so the solve allocates no block.
	f32        bool
	cur32      []float32
	prv32      []float32
	inX, start bool
}

// method names the solver in errors.
func (ch *spreadingChebyshev) method() string {
	if ch.f32 {
		return "spreading Chebyshev (float32)"
	}
	return "spreading Chebyshev"
}

// newSpreadingChebyshev prepares a float64 solve of (I − aS)X = B for the
// graph g of W, with x the initial guess (overwritten by the answer).
func newSpreadingChebyshev(g *graph.CSR, a float64, b, x *mat.Dense, s krylov.Settings) (*spreadingChebyshev, error) {
	rhs, err := checkedRHS(g, b, x, "spreading Chebyshev")
	if err != nil {
		return nil, err
	}
	return newChebyshevRHS(g, a, rhs, x, s)
}

// newChebyshevRHS is newSpreadingChebyshev with B given by its nonzero rows
// (no n×c block for B).
func newChebyshevRHS(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, s krylov.Settings) (*spreadingChebyshev, error) {
	ch := &spreadingChebyshev{x: x}
	sp, err := newSpreadSystem(g, a, b, x, ch.method())
	if err != nil {
		return nil, err
	}
	ch.sp, ch.s = sp, chebyshevDefaults(s, a, DefaultTol)
	n, c := sp.n, sp.c
	// z_0 = t∘x_0 is written over x itself when its rows are contiguous (the
	// answer goes back there in finish), so the solver holds one n×c block
	// of its own, prv.
	ch.prv = newBlock(n * c)
	if xm := x.RawMatrix(); xm.Stride == c {
		ch.cur = xm.Data[:n*c]
	} else {
		ch.cur = newBlock(n * c)
	}
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i)[:c] {
			z := sp.start(i, j, v)
			ch.start = ch.start || z != 0
			ch.cur[i*c+j] = z
		}
	}
	return ch, nil
}

// newChebyshev32 prepares a float32 solve of (I − aS)X = B.
func newChebyshev32(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, s krylov.Settings) (*spreadingChebyshev, error) {
	ch := &spreadingChebyshev{x: x, f32: true}
	sp, err := newSpreadSystem(g, a, b, x, ch.method())
	if err != nil {
		return nil, err
	}
	ch.sp, ch.s = sp, chebyshevDefaults(s, a, DefaultTol32)
	n, c := sp.n, sp.c
	if xm := x.RawMatrix(); xm.Stride == c {
		// z_0 into the first half of x's storage, row by row upwards: row i
		// of z_0 (bytes 4ci…) overwrites rows of x numbered at most i/2,
		// already read; each row is read whole before it is written.
		both := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(xm.Data))), 2*n*c)
		ch.cur32, ch.prv32, ch.inX = both[:n*c:n*c], both[n*c:], true
		row := make([]float64, c)
		for i := 0; i < n; i++ {
			copy(row, xm.Data[i*c:i*c+c])
			ch.setStart32(i, row)
		}
		clear(ch.prv32) // z_{−1} is multiplied by ω_0 = 0, but it must not hold NaN bits
		return ch, nil
	}
	ch.cur32, ch.prv32 = hugepage.Float32s(n*c), hugepage.Float32s(n*c)
	for i := 0; i < n; i++ {
		ch.setStart32(i, x.RawRowView(i)[:c])
	}
	return ch, nil
}

// setStart32 writes row i of z_0 = t∘x_0 into cur32 from row i of x_0.
func (ch *spreadingChebyshev) setStart32(i int, x []float64) {
	c := ch.sp.c
	for j, v := range x[:c] {
		z := float32(ch.sp.start(i, j, v))
		ch.start = ch.start || z != 0
		ch.cur32[i*c+j] = z
	}
}

// chebyshevDefaults fills in Tol (0 means tol) and MaxIter (0 means twice
// the Chebyshev bound plus 100, at most DefaultMaxIter).
func chebyshevDefaults(s krylov.Settings, a, tol float64) krylov.Settings {
	if s.Tol == 0 {
		s.Tol = tol
	}
	if s.MaxIter == 0 {
		s.MaxIter = min(2*chebyshevBound(a, s.Tol)+100, DefaultMaxIter)
	}
	return s
}

// run iterates until every column's relative residual is at most Tol, the
// context is done or MaxIter iterations have run; x receives the last
// iterate whose residual is known (x_k after pass k) in every case.
func (ch *spreadingChebyshev) run(ctx context.Context) (krylov.BlockResult, error) {
	sp := &ch.sp
	passes := krylov.NewRowPasses(sp.n, sp.c, sp.g.NNZ()+sp.n*sp.c) // one pass reads the graph and two blocks
	passes.Serial = passes.Serial || ch.serial
	ch.serial = passes.Serial
	if ch.f32 {
		z, res, err := krylov.Chebyshev(ctx, &spread32{*sp}, sp.a, ch.cur32, ch.prv32, settings[float32](sp, ch.s, ch.method(), !ch.start, passes, ch.stop))
		ch.cur32, ch.prv32 = z, other(z, ch.cur32, ch.prv32)
		ch.finish32()
		return res, err
	}
	z, res, err := krylov.Chebyshev(ctx, newSpread64(*sp, ch.cur, ch.prv), sp.a, ch.cur, ch.prv, settings[float64](sp, ch.s, ch.method(), !ch.start, passes, ch.stop))
	ch.cur, ch.prv = z, other(z, ch.cur, ch.prv)
	// x_k = u∘z_k into x: in place when z_k is held in x's storage, else
	// from the other block.
	c := sp.c
	ch.rows(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := ch.x.RawRowView(i)[:c]
			zi := ch.cur[i*c : i*c+c]
			for j := range row {
				row[j] = sp.u[i] * zi[j]
			}
		}
	})
	return res, err
}

// rows calls body on chunks of the rows, on the calling goroutine when the
// passes run there (a hand-off costs more than a pass of a small problem).
func (ch *spreadingChebyshev) rows(body func(lo, hi int)) {
	if ch.serial {
		body(0, ch.sp.n)
		return
	}
	parallel.For(ch.sp.n, spreadRowChunk, body)
}

// other returns whichever of a and b is not z.
func other[T any](z, a, b []T) []T {
	if len(z) > 0 && &z[0] == &a[0] {
		return b
	}
	return a
}

// finish32 writes x_k = u∘z_k into x in float64.
func (ch *spreadingChebyshev) finish32() {
	c, u := ch.sp.c, ch.sp.u
	if ch.inX {
		ch.finishInX()
		return
	}
	ch.rows(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := ch.x.RawRowView(i)[:c]
			zi := ch.cur32[i*c : i*c+c]
			for j := range row {
				row[j] = u[i] * float64(zi[j])
			}
		}
	})
}

// finishInX is finish32 when z_k lives in a half of x's own storage. Row i
// of x (bytes 8ci…8c(i+1)) covers rows 2i and 2i+1 of the first half and
// rows 2i−n and 2i−n+1 of the second: with z_k in the first half the rows
// are written downwards (a row written only covers rows of z_k above it,
// already read), in the second half upwards; each row of z_k is read whole
// first.
func (ch *spreadingChebyshev) finishInX() {
	n, c := ch.sp.n, ch.sp.c
	data := ch.x.RawMatrix().Data
	first := unsafe.SliceData(ch.cur32) == (*float32)(unsafe.Pointer(unsafe.SliceData(data)))
	row := make([]float64, c)
	put := func(i int) {
		zi := ch.cur32[i*c : i*c+c]
		for j, z := range zi {
			row[j] = ch.sp.u[i] * float64(z)
		}
		copy(data[i*c:i*c+c], row)
	}
	if first {
		for i := n - 1; i >= 0; i-- {
			put(i)
		}
		return
	}
	for i := 0; i < n; i++ {
		put(i)
	}
}

// chebyshevOptions are the Spreading settings that only the Chebyshev
// solver has.
type chebyshevOptions struct {
	float32 bool        // float32 iterates
	stop    *labelWatch // StopLabels, nil for StopResidual
}

// spreadChebyshevOpts solves (I − aS) F = B, B by its nonzero rows, by
// spreadingChebyshev, F holding the initial guess.
func spreadChebyshevOpts(ctx context.Context, g *graph.CSR, a float64, b sparseRHS, f *mat.Dense, s krylov.Settings, o chebyshevOptions) (Details, error) {
	newCh, what := newChebyshevRHS, "label spreading (Chebyshev)"
	if o.float32 {
		newCh, what = newChebyshev32, "label spreading (Chebyshev, float32)"
	}
	ch, err := newCh(g, a, b, f, s)
	if err != nil {
		return Details{}, err
	}
	ch.stop = o.stop
	res, err := ch.run(ctx)
	info := blockInfo(res)
	return info, wrapSolverError(what, info, ch.s.Tol, err)
}

// chebyshevBound is krylov.ChebyshevBound saturating at DefaultMaxIter.
func chebyshevBound(a, tol float64) int { return krylov.ChebyshevBound(a, tol, DefaultMaxIter) }
