package labelprop

import (
	"context"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/hugepage"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/laplacian"
)

// spreadingChebyshev32 is spreadingChebyshev with the iterates z_k and
// z_{k−1} stored in float32 (Spreading.Float32): half the memory of the two
// n×c blocks, and half the bytes of every gather. Everything else is in
// float64: the products (graph.CSR.MulBlock32RowsInto sums W_ij·z_j in
// float64), the residual r = b − u∘z + a·t∘(W z), its norms and the
// recurrence z_{k+1} = z_k + ω(z_k − z_{k−1}) + γ·t∘r, whose result alone is
// rounded to float32. The rounding of z (relative 2^-24 ≈ 6·10^-8) puts a
// floor under the true relative residual of about 2^-24·(1 + a)/(1 − a)
// (10^-6 at a = 0.9, 10^-5 at a = 0.99), so DefaultTol32 is looser than
// DefaultTol. The answer x = u∘z is returned in float64.
type spreadingChebyshev32 struct {
	g *graph.CSR
	a float64
	s krylov.Settings
	x *mat.Dense // the caller's initial guess, and the answer

	res      krylov.BlockResult
	t, u     []float64                     // as in spreadingChebyshev
	cur, prv []float32                     // z_k and z_{k−1} (then z_{k+1}), n×c row-major
	qs       parallel.FreeList[*[]float64] // *[]float64 of spreadRowChunk·c: the rows of W z_k of a chunk
	b        sparseRHS
	bChunk   []int
	stop     *labelWatch

	// inX says that cur and prv are the two halves of x's own storage (x
	// has contiguous rows: its 8nc bytes hold both float32 blocks), so the
	// solve allocates no block; start says that z_0 is not zero.
	inX, start bool

	bnorm, rr []float64
	rowPasses
}

// DefaultTol32 is the tolerance Spreading.Float32 uses when Tol is 0: the
// float32 iterates cannot reach a relative residual much below
// 2^-24·(1 + a)/(1 − a) (see Spreading.Float32).
const DefaultTol32 = 1e-5

// newChebyshev32 prepares a float32 solve of (I − aS) X = B.
func newChebyshev32(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, s krylov.Settings) (*spreadingChebyshev32, error) {
	n, c := g.Nodes(), b.c
	if xr, xc := x.Dims(); xr != n || xc != c {
		return nil, fmt.Errorf("labelprop: spreading Chebyshev (float32): graph has %d nodes, B has %d columns, X is %d×%d", n, c, xr, xc)
	}
	if !(a > 0 && a < 1) {
		return nil, fmt.Errorf("labelprop: spreading Chebyshev (float32): a = %v is invalid: it must be inside the open interval (0, 1)", a)
	}
	deg, err := laplacian.NewDegrees(g, laplacian.Options{Isolated: laplacian.IsolatedZero})
	if err != nil {
		return nil, fmt.Errorf("labelprop: %w", err)
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol32
	}
	if s.MaxIter == 0 {
		s.MaxIter = min(2*chebyshevBound(a, s.Tol)+100, DefaultMaxIter)
	}
	ch := &spreadingChebyshev32{
		g: g, a: a, s: s, x: x, b: b,
		res:       krylov.BlockResult{Iterations: make([]int, c), Residual: make([]float64, c)},
		t:         deg.InvSqrtD,
		u:         deg.SqrtD,
		bnorm:     b.norms(),
		bChunk:    b.chunks(n),
		rr:        make([]float64, c),
		rowPasses: newRowPasses(n, c, g.NNZ()+n*c),
	}
	ch.qs.New = func() *[]float64 { q := make([]float64, spreadRowChunk*c); return &q }
	for i := range ch.t {
		if ch.u[i] == 0 {
			ch.t[i], ch.u[i] = 1, 1
		}
	}
	if xm := x.RawMatrix(); xm.Stride == c {
		// z_0 into the first half of x's storage, row by row upwards: row i
		// of z_0 (bytes 4ci…) overwrites rows of x numbered at most i/2,
		// already read; each row is read whole before it is written.
		both := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(xm.Data))), 2*n*c)
		ch.cur, ch.prv, ch.inX = both[:n*c:n*c], both[n*c:], true
		row := make([]float64, c)
		for i := 0; i < n; i++ {
			copy(row, xm.Data[i*c:i*c+c])
			ch.setStart(i, row)
		}
		clear(ch.prv) // z_{−1} is multiplied by ω_0 = 0, but it must not hold NaN bits
		return ch, nil
	}
	ch.cur, ch.prv = hugepage.Float32s(n*c), hugepage.Float32s(n*c)
	for i := 0; i < n; i++ {
		ch.setStart(i, x.RawRowView(i)[:c])
	}
	return ch, nil
}

// setStart writes row i of z_0 = t∘x_0 into cur from row i of x_0.
func (ch *spreadingChebyshev32) setStart(i int, x []float64) {
	c := ch.c
	for j, v := range x[:c] {
		if ch.bnorm[j] == 0 { // the solution of a zero column is zero
			v = 0
		}
		z := float32(ch.t[i] * v)
		ch.start = ch.start || z != 0
		ch.cur[i*c+j] = z
	}
}

// pass is spreadingChebyshev.pass: r = B − (I − aS)x_k from z_k = cur (gather
// false: z_k = 0), prv ← z_{k+1}, ‖r_j‖² in rr.
func (ch *spreadingChebyshev32) pass(omega, gamma float64, gather bool) {
	c := ch.c
	ch.passes(ch.rr, func(k, lo, hi int, acc []float64) {
		qp := ch.qs.Get()
		defer ch.qs.Put(qp)
		q := (*qp)[:(hi-lo)*c]
		if gather {
			ch.g.MulBlock32RowsInto(q, ch.cur, c, lo, hi)
		} else {
			clear(q)
		}
		bk := ch.bChunk[k]
		for i := lo; i < hi; i++ {
			zi, pi, qi := ch.cur[i*c:i*c+c], ch.prv[i*c:i*c+c], q[(i-lo)*c:(i-lo)*c+c]
			pi, qi = pi[:len(zi)], qi[:len(zi)]
			var bi []float64
			if bk < len(ch.b.rows) && ch.b.rows[bk] == i {
				bi = ch.b.vals[bk*c : bk*c+c]
				bk++
			}
			ti, ui := ch.t[i], ch.u[i]
			li, gt := ch.a*ti, gamma*ti
			for j, zf := range zi {
				z := float64(zf)
				r := li*qi[j] - ui*z
				if bi != nil {
					r += bi[j]
				}
				acc[j] += r * r
				pi[j] = float32(z + omega*(z-float64(pi[j])) + gt*r)
			}
		}
	})
}

// run is spreadingChebyshev.run on the float32 iterates.
func (ch *spreadingChebyshev32) run(ctx context.Context) (krylov.BlockResult, error) {
	c := ch.c
	gather := ch.start
	if gather {
		ch.res.Products++
	}
	sigma := 1 / ch.a
	rho := 1 / sigma
	omega, gamma := 0.0, 1.0
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
			return ch.finish(fmt.Errorf("labelprop: spreading Chebyshev (float32) stopped after %d iterations: %w", k, err))
		}
		if k == ch.s.MaxIter {
			worstCol := 0
			for j := range ch.res.Residual {
				if ch.res.Residual[j] > ch.res.Residual[worstCol] {
					worstCol = j
				}
			}
			return ch.finish(&krylov.NotConvergedError{Method: fmt.Sprintf("spreading Chebyshev float32 (column %d)", worstCol), Iterations: k, Residual: ch.res.Residual[worstCol], Tol: ch.s.Tol})
		}
		if !(worst < math.Inf(1)) {
			return ch.finish(&krylov.BreakdownError{Method: "spreading Chebyshev (float32)", Iterations: k, Reason: fmt.Sprintf("relative residual %g is not finite", worst)})
		}
		ch.cur, ch.prv = ch.prv, ch.cur
		ch.res.Products++
		next := 1 / (2*sigma - rho)
		omega, gamma = next*rho, 2*next/ch.a
		rho = next
	}
}

// finish writes x_k = u∘z_k into x in float64.
func (ch *spreadingChebyshev32) finish(err error) (krylov.BlockResult, error) {
	c := ch.c
	if ch.inX {
		ch.finishInX()
		return ch.res, err
	}
	parallel.For(ch.n, spreadRowChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := ch.x.RawRowView(i)[:c]
			zi := ch.cur[i*c : i*c+c]
			for j := range row {
				row[j] = ch.u[i] * float64(zi[j])
			}
		}
	})
	return ch.res, err
}

// finishInX is finish when z_k lives in a half of x's own storage. Row i of
// x (bytes 8ci…8c(i+1)) covers rows 2i and 2i+1 of the first half and rows
// 2i−n and 2i−n+1 of the second: with z_k in the first half the rows are
// written downwards (a row written only covers rows of z_k above it, already
// read), in the second half upwards; each row of z_k is read whole first.
func (ch *spreadingChebyshev32) finishInX() {
	n, c := ch.n, ch.c
	data := ch.x.RawMatrix().Data
	first := unsafe.SliceData(ch.cur) == (*float32)(unsafe.Pointer(unsafe.SliceData(data)))
	row := make([]float64, c)
	put := func(i int) {
		zi := ch.cur[i*c : i*c+c]
		for j, z := range zi {
			row[j] = ch.u[i] * float64(z)
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
