package krylov

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/linop"
)

// TestColumnKernelsMatchFloats: the row-pass reductions of MINRESColumns
// are bitwise gonum's floats.Dot, floats.AddScaled and floats.Norm on
// vectors of every length modulo the lanes, with zeros, tiny and huge
// entries, Inf and NaN.
func TestColumnKernelsMatchFloats(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 100, 1001, 1002, 1003} {
		for trial := 0; trial < 20; trial++ {
			u, v := make([]float64, n), make([]float64, n)
			for i := range u {
				u[i], v[i] = rng.NormFloat64(), rng.NormFloat64()
				switch rng.IntN(10) {
				case 0:
					u[i] = 0
				case 1:
					u[i] *= 1e-200
				case 2:
					u[i] *= 1e200
				}
			}
			if n > 0 && trial == 18 {
				u[rng.IntN(n)] = math.Inf(1)
			}
			if n > 0 && trial == 19 {
				u[rng.IntN(n)] = math.NaN()
			}
			lanes := make([]float64, dotLanes)
			n4 := n - n%dotLanes
			ns := newNormState()
			for i := range u {
				lanes[laneOf(i, n4)] = dotAdd(lanes[laneOf(i, n4)], u[i], v[i])
				ns.add(u[i])
			}
			assert.Equal(t, math.Float64bits(floats.Dot(u, v)), math.Float64bits(laneSum(lanes)), "Dot, n=%d trial %d", n, trial)
			if want := floats.Norm(u, 2); math.IsNaN(want) {
				assert.True(t, math.IsNaN(ns.norm()), "Norm, n=%d trial %d", n, trial) // any NaN
			} else {
				assert.Equal(t, math.Float64bits(want), math.Float64bits(ns.norm()), "Norm, n=%d trial %d", n, trial)
			}
			a := rng.NormFloat64()
			want := append([]float64(nil), v...)
			floats.AddScaled(want, a, u)
			for i := range v {
				assert.Equal(t, math.Float64bits(want[i]), math.Float64bits(axpy(v[i], a, u[i])), "AddScaled, n=%d", n)
			}
		}
	}
}

// indefinite returns a random symmetric n×n matrix Q diag(λ) Qᵀ with
// eigenvalues of both signs, |λ| in [lo, 2], and its eigenvectors Q.
func indefinite(n int, seed uint64) (*mat.Dense, *mat.Dense) { return indefiniteIn(n, seed, 0.1) }

func indefiniteIn(n int, seed uint64, lo float64) (*mat.Dense, *mat.Dense) {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	d := mat.NewDiagDense(n, nil)
	for i := 0; i < n; i++ {
		l := lo + (2-lo)*rng.Float64()
		if i%2 == 1 {
			l = -l
		}
		d.SetDiag(i, l)
	}
	var a, t mat.Dense
	t.Mul(&q, d)
	a.Mul(&t, q.T())
	for i := 0; i < n; i++ { // exactly symmetric
		for j := 0; j < i; j++ {
			v := (a.At(i, j) + a.At(j, i)) / 2
			a.Set(i, j, v)
			a.Set(j, i, v)
		}
	}
	return &a, &q
}

// columnProblem returns B (n×c) and an initial guess X: random columns,
// column 1 zero (when c > 1), column 2 a combination of two eigenvectors
// (MINRES converges in two iterations), column 0 starting from a non-zero
// guess.
func columnProblem(q *mat.Dense, c int, seed uint64) (b, x *mat.Dense) {
	n, _ := q.Dims()
	rng := rand.New(rand.NewPCG(seed, 11))
	b = mat.NewDense(n, c, nil)
	x = mat.NewDense(n, c, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < c; j++ {
			b.Set(i, j, rng.NormFloat64())
		}
		x.Set(i, 0, 0.1*rng.NormFloat64())
	}
	if c > 1 {
		for i := 0; i < n; i++ {
			b.Set(i, 1, 0)
		}
	}
	if c > 2 {
		for i := 0; i < n; i++ {
			b.Set(i, 2, q.At(i, 0)+0.5*q.At(i, 1))
		}
	}
	return b, x
}

// perColumn runs MINRES on every column of b from the guess x.
func perColumn(t *testing.T, a linop.Operator, b, x *mat.Dense, s Settings) (*mat.Dense, []Result, []error) {
	t.Helper()
	n, c := b.Dims()
	out := mat.NewDense(n, c, nil)
	res := make([]Result, c)
	errs := make([]error, c)
	for j := 0; j < c; j++ {
		xj := mat.Col(nil, j, x)
		res[j], errs[j] = MINRES(context.Background(), a, mat.Col(nil, j, b), xj, s)
		out.SetCol(j, xj)
	}
	return out, res, errs
}

// vecOnly hides an operator's block product, so that MINRESColumns goes
// through linop.MulBlock's column-by-column products: bitwise MINRES's.
type vecOnly struct{ linop.Operator }

// colsOnly is a ColumnsOperator made of an operator's vector products: it
// forms V itself, multiplies column by column (bitwise MINRES's products)
// and hands the rows over in chunks of uneven sizes, last chunk first and
// concurrently, as a parallel operator may.
type colsOnly struct {
	linop.Operator
	formed *int // V's entries formed, over all calls
}

func (o colsOnly) MulColumnsRows(z *mat.Dense, cols []int, s []float64, rows func(lo, hi int, y []float64)) {
	n, k := o.Dim(), len(cols)
	y := make([]float64, n*k)
	v, yc := make([]float64, n), make([]float64, n)
	for t, j := range cols {
		for i := 0; i < n; i++ {
			v[i] = z.At(i, j)
			if s != nil {
				v[i] = s[t] * z.At(i, j)
			}
		}
		*o.formed += n
		o.MulVecTo(yc, v)
		for i := 0; i < n; i++ {
			y[i*k+t] = yc[i]
		}
	}
	var wg sync.WaitGroup
	for hi := n; hi > 0; {
		lo := max(0, hi-1-hi/3)
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			rows(lo, hi, y[lo*k:hi*k])
		}(lo, hi)
		hi = lo
	}
	wg.Wait()
}

// minresColumnsTol is the agreement, relative to max|x|, of MINRESColumns
// with MINRES when A's block product (gonum's Mul) sums in another order
// than its vector product (MulVec): a well-conditioned system (|λ| in
// [0.5, 2]), so that MINRES converges in far fewer than n iterations and
// rounding differences are not amplified (on the |λ| ≥ 0.1 system, past n
// iterations, they reach 1e-10 and one iteration).
const minresColumnsTol = 1e-12

func TestMINRESColumnsMatchesMINRES(t *testing.T) {
	const n = 120
	am, q := indefinite(n, 3)
	dense, err := linop.NewDense(am)
	require.NoError(t, err)
	wellm, wellq := indefiniteIn(n, 4, 0.5)
	well, err := linop.NewDense(wellm)
	require.NoError(t, err)
	pre := make(linop.Diagonal, n)
	for i := range pre {
		pre[i] = 0.5 + float64(i%7)/7
	}
	for _, c := range []int{1, 3, 10} {
		for _, tc := range []struct {
			name    string
			a       linop.Operator
			q       *mat.Dense
			pre     linop.Operator
			bitwise bool
		}{
			{"vector products", vecOnly{dense}, q, nil, true},
			{"vector products, preconditioned", vecOnly{dense}, q, pre, true},
			{"columns operator", colsOnly{dense, new(int)}, q, nil, true},
			{"columns operator, preconditioned", colsOnly{dense, new(int)}, q, pre, true},
			{"block products", well, wellq, nil, false},
		} {
			b, x0 := columnProblem(tc.q, c, uint64(c))
			s := Settings{Tol: 1e-10, Preconditioner: tc.pre}
			want, wres, werrs := perColumn(t, tc.a, b, x0, s)
			x := mat.DenseCopyOf(x0)
			var steps int
			s.Progress = func(it int, _ float64) { steps = it }
			got, err := MINRESColumns(context.Background(), tc.a, b, x, s)
			require.NoError(t, err, "c=%d %s", c, tc.name)
			for j := 0; j < c; j++ {
				require.NoError(t, werrs[j])
				assert.Equal(t, wres[j].Iterations, got.Iterations[j], "c=%d %s column %d: iterations", c, tc.name, j)
				if tc.bitwise {
					assert.Equal(t, math.Float64bits(wres[j].Residual), math.Float64bits(got.Residual[j]), "c=%d %s column %d: residual", c, tc.name, j)
					for i := 0; i < n; i++ {
						require.Equal(t, math.Float64bits(want.At(i, j)), math.Float64bits(x.At(i, j)), "c=%d %s x[%d][%d]", c, tc.name, i, j)
					}
				} else {
					assert.LessOrEqual(t, got.Residual[j], s.Tol, "c=%d %s column %d: residual", c, tc.name, j)
				}
			}
			assert.LessOrEqual(t, maxAbsDiff(x, want), minresColumnsTol*maxAbs(want), "c=%d %s", c, tc.name)
			most := 0
			for _, it := range got.Iterations {
				most = max(most, it)
			}
			assert.Equal(t, most, steps, "progress reports every iteration")
			if c >= 3 {
				assert.Zero(t, got.Iterations[1], "zero column")
				assert.Zero(t, mat.Norm(x.ColView(1), 2), "zero column")
				if tc.pre == nil {
					assert.LessOrEqual(t, got.Iterations[2], 3, "two eigenvectors: two iterations")
					assert.Greater(t, got.Iterations[0], 5*got.Iterations[2], "the early column stops early")
				}
			}
			t.Logf("c=%d %s: iterations %v, %d block products", c, tc.name, got.Iterations, got.Products)
		}
	}
}

// maxAbs is max |a_ij|.
func maxAbs(a *mat.Dense) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for _, v := range a.RawRowView(i)[:c] {
			m = math.Max(m, math.Abs(v))
		}
	}
	return m
}

// maxAbsDiff is max |a_ij − b_ij|.
func maxAbsDiff(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return maxAbs(&d)
}

// TestMINRESColumnsRestart: at a tolerance near rounding on a system with
// condition number 1e3 the recurrence's estimate falls below the true
// residual and MINRES restarts, with and without a preconditioner, some
// columns then converging and some reaching the cap (and restoring the
// iterate they restarted from); the columns do exactly the same.
func TestMINRESColumnsRestart(t *testing.T) {
	const n = 60
	rng := rand.New(rand.NewPCG(5, 5))
	_, q := indefinite(n, 9)
	d := mat.NewDiagDense(n, nil)
	for i := 0; i < n; i++ {
		l := math.Pow(10, -3*rng.Float64())
		if i%3 == 0 {
			l = -l
		}
		d.SetDiag(i, l)
	}
	var am, tmp mat.Dense
	tmp.Mul(q, d)
	am.Mul(&tmp, q.T())
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			v := (am.At(i, j) + am.At(j, i)) / 2
			am.Set(i, j, v)
			am.Set(j, i, v)
		}
	}
	dense, err := linop.NewDense(&am)
	require.NoError(t, err)
	a := vecOnly{dense}
	b, x0 := columnProblem(q, 4, 21)
	pre := make(linop.Diagonal, n)
	for i := range pre {
		pre[i] = 1 + float64(i%5)
	}
	restarts := 0
	for _, tc := range []struct {
		tol  float64
		pre  linop.Operator
		cols bool // the operator as a ColumnsOperator
	}{{1e-12, nil, false}, {1e-14, nil, false}, {3e-15, nil, false}, {1e-12, pre, false}, {1e-14, pre, false}, {3e-15, pre, false},
		{1e-12, nil, true}, {1e-14, nil, true}, {3e-15, nil, true}} {
		tol := tc.tol
		s := Settings{Tol: tol, MaxIter: 300, Preconditioner: tc.pre}
		want, wres, werrs := perColumn(t, a, b, x0, s)
		x := mat.DenseCopyOf(x0)
		var op linop.Operator = a
		if tc.cols {
			op = colsOnly{a, new(int)}
		}
		got, err := MINRESColumns(context.Background(), op, b, x, s)
		var ce *ColumnErrors
		if err != nil {
			require.ErrorAs(t, err, &ce)
		}
		for j := 0; j < 4; j++ {
			if j == 1 {
				continue // zero column: no products
			}
			// MatVecs = 1 (start) + iterations + 1 (final check, or the
			// residual at failure) without a restart; each restart adds the
			// check and MINRES's recomputation.
			if wres[j].MatVecs > wres[j].Iterations+2 {
				restarts++
			}
			assert.Equal(t, wres[j].Iterations, got.Iterations[j], "tol %g column %d", tol, j)
			assert.Equal(t, math.Float64bits(wres[j].Residual), math.Float64bits(got.Residual[j]), "tol %g column %d", tol, j)
			for i := 0; i < n; i++ {
				require.Equal(t, math.Float64bits(want.At(i, j)), math.Float64bits(x.At(i, j)), "tol %g x[%d][%d]", tol, i, j)
			}
			if werrs[j] == nil {
				assert.True(t, ce == nil || ce.Err[j] == nil, "tol %g column %d converged in MINRES", tol, j)
			} else {
				require.NotNil(t, ce, "tol %g column %d", tol, j)
				var nc *NotConvergedError
				require.ErrorAs(t, ce.Err[j], &nc)
				assert.Equal(t, wres[j].Iterations, nc.Iterations)
			}
		}
	}
	t.Logf("%d of 27 solves restart in MINRES", restarts)
	assert.GreaterOrEqual(t, restarts, 9, "the test should reach MINRES's restart path")
}

// TestMINRESColumnsNotConverged: at the iteration cap every unfinished
// column reports MINRES's *NotConvergedError (iterations, residual) and
// keeps MINRES's iterate; finished columns report nothing.
func TestMINRESColumnsNotConverged(t *testing.T) {
	const n, c = 80, 4
	am, q := indefinite(n, 4)
	dense, err := linop.NewDense(am)
	require.NoError(t, err)
	a := vecOnly{dense}
	b, x0 := columnProblem(q, c, 8)
	s := Settings{Tol: 1e-10, MaxIter: 7}
	want, wres, werrs := perColumn(t, a, b, x0, s)
	x := mat.DenseCopyOf(x0)
	got, err := MINRESColumns(context.Background(), a, b, x, s)
	var ce *ColumnErrors
	require.ErrorAs(t, err, &ce)
	var nc *NotConvergedError
	require.ErrorAs(t, err, &nc, "errors.As sees the columns' errors")
	assert.Contains(t, err.Error(), "2 of 4 columns failed")
	for j := 0; j < c; j++ {
		assert.Equal(t, wres[j].Iterations, got.Iterations[j])
		assert.Equal(t, math.Float64bits(wres[j].Residual), math.Float64bits(got.Residual[j]))
		if j == 1 || j == 2 { // zero, and two eigenvectors
			assert.NoError(t, ce.Err[j], "column %d", j)
			continue
		}
		var want1, got1 *NotConvergedError
		require.ErrorAs(t, werrs[j], &want1)
		require.ErrorAs(t, ce.Err[j], &got1, "column %d", j)
		assert.Equal(t, want1.Iterations, got1.Iterations)
		assert.Equal(t, want1.Residual, got1.Residual)
		assert.Equal(t, 7, got1.Iterations)
		assert.Contains(t, got1.Error(), "column")
	}
	assert.Zero(t, maxAbsDiff(x, want))
}

// TestMINRESColumnsCancel: a context cancelled during the solve stops every
// iterating column at that iteration with MINRES's iterate and an error
// wrapping context.Canceled.
func TestMINRESColumnsCancel(t *testing.T) {
	const n, c, stop = 80, 3, 4
	am, q := indefinite(n, 6)
	dense, err := linop.NewDense(am)
	require.NoError(t, err)
	a := vecOnly{dense}
	b, x0 := columnProblem(q, c, 9)
	b.Set(0, 1, 1) // no zero column: all three are cut off
	for i := 0; i < n; i++ {
		b.Set(i, 2, float64(i%5)-2)
	}
	want := mat.NewDense(n, c, nil)
	for j := 0; j < c; j++ {
		ctx, cancel := context.WithCancel(context.Background())
		xj := mat.Col(nil, j, x0)
		_, err := MINRES(ctx, a, mat.Col(nil, j, b), xj, Settings{Progress: func(it int, _ float64) {
			if it == stop {
				cancel()
			}
		}})
		require.ErrorIs(t, err, context.Canceled)
		want.SetCol(j, xj)
		cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	x := mat.DenseCopyOf(x0)
	got, err := MINRESColumns(ctx, a, b, x, Settings{Progress: func(it int, _ float64) {
		if it == stop {
			cancel()
		}
	}})
	require.ErrorIs(t, err, context.Canceled)
	var ce *ColumnErrors
	require.ErrorAs(t, err, &ce)
	for j := 0; j < c; j++ {
		assert.Equal(t, stop, got.Iterations[j])
		assert.ErrorIs(t, ce.Err[j], context.Canceled, "column %d", j)
	}
	assert.Zero(t, maxAbsDiff(x, want))

	// Already cancelled: one iteration, as MINRES.
	x = mat.DenseCopyOf(x0)
	got, err = MINRESColumns(ctx, a, b, x, Settings{})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []int{1, 1, 1}, got.Iterations)
}

func TestMINRESColumnsRefuses(t *testing.T) {
	am, _ := indefinite(5, 1)
	dense, err := linop.NewDense(am)
	require.NoError(t, err)
	b := mat.NewDense(5, 2, nil)
	_, err = MINRESColumns(context.Background(), dense, b, mat.NewDense(5, 3, nil), Settings{})
	assert.True(t, errors.Is(err, ErrDimension), "%v", err)
	_, err = MINRESColumns(context.Background(), dense, b, mat.NewDense(5, 2, nil), Settings{Tol: 2})
	assert.ErrorContains(t, err, "tolerance")
	b.Set(3, 1, math.NaN())
	_, err = MINRESColumns(context.Background(), dense, b, mat.NewDense(5, 2, nil), Settings{})
	assert.ErrorContains(t, err, "B[3][1]")
	ns := mat.DenseCopyOf(am)
	ns.Set(0, 1, ns.At(0, 1)+1)
	nsOp, err := linop.NewDense(ns)
	require.NoError(t, err)
	_, err = MINRESColumns(context.Background(), nsOp, mat.NewDense(5, 2, nil), mat.NewDense(5, 2, nil), Settings{})
	assert.ErrorContains(t, err, "symmetric")
	// All-zero B: x = 0 without a product.
	x := mat.NewDense(5, 2, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	res, err := MINRESColumns(context.Background(), dense, mat.NewDense(5, 2, nil), x, Settings{})
	require.NoError(t, err)
	assert.Zero(t, res.Products)
	assert.Zero(t, mat.Norm(x, 1))
}

// TestMINRESColumnsWorkers: the row passes split the rows among goroutines
// only where every entry is computed on its own, and the sums run in one
// goroutine, so the result is bitwise the same for any number of workers.
func TestMINRESColumnsWorkers(t *testing.T) {
	const n, c = 3 * rowGrain, 3 // enough rows for parallel passes
	// A tridiagonal, indefinite: 2·(−1)^i on the diagonal, 1 off it.
	a := linop.Func{N: n, F: func(dst, x []float64) {
		for i := range dst {
			d := 2.0
			if i%2 == 1 {
				d = -2
			}
			v := d * x[i]
			if i > 0 {
				v += x[i-1]
			}
			if i < n-1 {
				v += x[i+1]
			}
			dst[i] = v
		}
	}}
	rng := rand.New(rand.NewPCG(3, 3))
	b := mat.NewDense(n, c, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < c; j++ {
			b.Set(i, j, rng.NormFloat64())
		}
	}
	defer func(cfg parallel.Config) { require.NoError(t, parallel.Configure(cfg)) }(parallel.Current())
	var first *mat.Dense
	var firstRes BlockResult
	for _, w := range []int{1, 2, 8} {
		require.NoError(t, parallel.Configure(parallel.Config{Workers: w}))
		x := mat.NewDense(n, c, nil)
		res, err := MINRESColumns(context.Background(), a, b, x, Settings{Tol: 1e-10})
		require.NoError(t, err)
		if first == nil {
			first, firstRes = x, res
			continue
		}
		assert.Equal(t, firstRes, res, "workers %d", w)
		assert.True(t, mat.Equal(first, x), "workers %d: not bitwise the one-worker solution", w)
	}
}

// TestMINRESColumnsRowsMatchesDense: B given by its nonzero rows (a third
// of the rows, listed out of order, one column zero) gives bitwise the
// iterates, iterations, residuals and errors of MINRESColumns on the dense
// B, with and without a preconditioner and restarts (a low MaxIter makes
// columns fail); bad row lists are refused with the row named.
func TestMINRESColumnsRowsMatchesDense(t *testing.T) {
	const n, c = 90, 4
	a, b, x0 := indefiniteColumns(t, n, c, 5)
	rng := rand.New(rand.NewPCG(8, 1))
	var rows []int
	for _, i := range rng.Perm(n) {
		if i%3 == 0 {
			rows = append(rows, i)
		}
	}
	vals := mat.NewDense(len(rows), c, nil)
	keep := mat.NewDense(n, c, nil)
	for t, i := range rows {
		vals.SetRow(t, b.RawRowView(i))
		keep.SetRow(i, b.RawRowView(i))
	}
	pre := make(linop.Diagonal, n)
	for i := range pre {
		pre[i] = 0.5 + float64(i%5)/5
	}
	for _, s := range []Settings{
		{Tol: 1e-10},
		{Tol: 1e-10, Preconditioner: pre},
		{Tol: 1e-12, MaxIter: 15},
	} {
		xd, xs := mat.DenseCopyOf(x0), mat.DenseCopyOf(x0)
		rd, errd := MINRESColumns(context.Background(), a, keep, xd, s)
		rs, errs := MINRESColumnsRows(context.Background(), a, RowBlock{Rows: rows, Values: vals}, xs, s)
		assert.Equal(t, rd.Iterations, rs.Iterations)
		assert.Equal(t, rd.Products, rs.Products)
		for j := range rd.Residual {
			assert.Equal(t, math.Float64bits(rd.Residual[j]), math.Float64bits(rs.Residual[j]), "residual of column %d", j)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < c; j++ {
				require.Equal(t, math.Float64bits(xd.At(i, j)), math.Float64bits(xs.At(i, j)), "x[%d][%d], settings %+v", i, j, s)
			}
		}
		if s.MaxIter == 0 {
			require.NoError(t, errd)
			assert.NoError(t, errs)
		} else {
			require.Error(t, errs)
			assert.Equal(t, errd.Error(), errs.Error())
		}
	}
	_, err := MINRESColumnsRows(context.Background(), a, RowBlock{Rows: []int{3, n}, Values: mat.NewDense(2, c, nil)}, mat.NewDense(n, c, nil), Settings{})
	assert.ErrorContains(t, err, "Rows[1] = 90 is outside [0, 90)")
	_, err = MINRESColumnsRows(context.Background(), a, RowBlock{Rows: []int{7, 3, 7}, Values: mat.NewDense(3, c, nil)}, mat.NewDense(n, c, nil), Settings{})
	assert.ErrorContains(t, err, "B's row 7 is given twice (Rows[0] and Rows[2])")
	bad := mat.NewDense(2, c, nil)
	bad.Set(1, 2, math.NaN())
	_, err = MINRESColumnsRows(context.Background(), a, RowBlock{Rows: []int{1, 2}, Values: bad}, mat.NewDense(n, c, nil), Settings{})
	assert.ErrorContains(t, err, "B's Values[1][2] = NaN is not finite")
}

// TestMINRESColumnsRowsBatches solves the columns in batches of every width
// through MINRESColumnsRowsWith, each batch's X a view into the whole block
// and the batches sharing one MINRESBlocks: every column's iterate,
// iteration count and residual are bitwise those of the one-batch solve,
// with and without a preconditioner, and the shared storage is that of the
// widest batch.
func TestMINRESColumnsRowsBatches(t *testing.T) {
	const n, c = 90, 5
	a, b, x0 := indefiniteColumns(t, n, c, 7)
	var rows []int
	for i := 0; i < n; i += 4 {
		rows = append(rows, i)
	}
	vals := mat.NewDense(len(rows), c, nil)
	for t, i := range rows {
		vals.SetRow(t, b.RawRowView(i))
	}
	pre := make(linop.Diagonal, n)
	for i := range pre {
		pre[i] = 0.5 + float64(i%3)/3
	}
	for _, s := range []Settings{{Tol: 1e-10}, {Tol: 1e-10, Preconditioner: pre}} {
		want := mat.DenseCopyOf(x0)
		wres, err := MINRESColumnsRows(context.Background(), a, RowBlock{Rows: rows, Values: vals}, want, s)
		require.NoError(t, err)
		blocks := 6
		if s.Preconditioner != nil {
			blocks = 7
		}
		for w := 1; w < c; w++ {
			x := mat.DenseCopyOf(x0)
			var work MINRESBlocks
			for lo := 0; lo < c; lo += w {
				hi := min(lo+w, c)
				res, err := MINRESColumnsRowsWith(context.Background(), a,
					RowBlock{Rows: rows, Values: vals.Slice(0, len(rows), lo, hi).(*mat.Dense)},
					x.Slice(0, n, lo, hi).(*mat.Dense), s, &work)
				require.NoError(t, err)
				assert.Equal(t, wres.Iterations[lo:hi], res.Iterations, "width %d, columns [%d, %d)", w, lo, hi)
				for j, r := range res.Residual {
					assert.Equal(t, math.Float64bits(wres.Residual[lo+j]), math.Float64bits(r), "width %d, residual of column %d", w, lo+j)
				}
			}
			assert.Equal(t, blocks*n*w, cap(work.buf), "width %d: one set of blocks for the widest batch", w)
			for i := 0; i < n; i++ {
				for j := 0; j < c; j++ {
					require.Equal(t, math.Float64bits(want.At(i, j)), math.Float64bits(x.At(i, j)), "width %d: x[%d][%d]", w, i, j)
				}
			}
		}
	}
}

// indefiniteColumns is an indefinite n×n operator (indefinite(n, seed)) with
// a c-column right-hand side and initial guess (columnProblem(…, seed+1)).
func indefiniteColumns(t *testing.T, n, c int, seed uint64) (linop.Operator, *mat.Dense, *mat.Dense) {
	t.Helper()
	am, q := indefinite(n, seed)
	a, err := linop.NewDense(am)
	require.NoError(t, err)
	b, x0 := columnProblem(q, c, seed+1)
	return a, b, x0
}

// TestMINRESColumnsBlocks: the work blocks MINRESColumnsRowsWith takes are
// four n×c blocks for a ColumnsOperator (r1, r2 and two w's: no v, no
// y = A·v), six for another operator and seven with a preconditioner, and
// the columns operator is handed the Lanczos columns to form itself.
func TestMINRESColumnsBlocks(t *testing.T) {
	const n, c = 90, 3
	am, q := indefinite(n, 6)
	dense, err := linop.NewDense(am)
	require.NoError(t, err)
	b, _ := columnProblem(q, c, 4)
	rows := []int{3, 17, 40, 41, 88}
	vals := mat.NewDense(len(rows), c, nil)
	for t, i := range rows {
		vals.SetRow(t, b.RawRowView(i))
	}
	pre := make(linop.Diagonal, n)
	for i := range pre {
		pre[i] = 1 + float64(i%3)
	}
	formed := new(int)
	for _, tc := range []struct {
		name   string
		a      linop.Operator
		pre    linop.Operator
		blocks int
	}{{"columns operator", colsOnly{dense, formed}, nil, 4}, {"vector products", vecOnly{dense}, nil, 6}, {"preconditioned", colsOnly{dense, new(int)}, pre, 7}} {
		var work MINRESBlocks
		x := mat.NewDense(n, c, nil)
		res, err := MINRESColumnsRowsWith(context.Background(), tc.a, RowBlock{Rows: rows, Values: vals}, x, Settings{Tol: 1e-10, Preconditioner: tc.pre}, &work)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.blocks*n*c, len(work.buf), tc.name)
		assert.Greater(t, res.Products, 3, tc.name)
	}
	assert.Positive(t, *formed, "the columns operator formed V")
}
