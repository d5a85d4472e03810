package labelprop

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/laplacian"
)

// spreadRowChunk is the number of rows per task of the fused CG and
// Chebyshev passes (krylov.RowPasses).
const spreadRowChunk = krylov.RowChunk

// spreadParallelWork is the work, in stored entries of the graph plus
// entries of an n×c block, below which the fused passes run on the calling
// goroutine (krylov.ParallelWork).
const spreadParallelWork = krylov.ParallelWork

// spreadingCG is block conjugate gradients on (I − aS) F = B,
// S = D^{-1/2} W D^{-1/2}, specialised for label spreading. It runs the same
// recurrences as krylov.BlockCG (one CG per column in lockstep, a column
// stopping at relative residual Tol; the same iterates in exact arithmetic,
// checked against it in the tests) with three differences that make an
// iteration cost little more than its product with W:
//
//   - S is never formed. The search directions are stored scaled, p̃ = t∘p
//     with t_i = d_i^{-1/2} (1 for an isolated node), so that
//     (I − aS)p = u∘p̃ − a t'∘(W p̃) with u = 1/t and t' = d^{-1/2} (0 for an
//     isolated node): a product with W itself, which reads only the pattern
//     of an unweighted graph (graph.CSR.UnitWeights).
//   - Three row passes per iteration, each reading the rows once: the
//     product fused with pᵀAp on the rows just computed; r ← r − αAp with
//     ‖r‖²; and x ← x + αp fused with p ← r + βp.
//   - No vector is allocated per iteration (only the small closures of the
//     passes), and the passes run on one goroutine when the problem is too
//     small for a second one to pay.
type spreadingCG struct {
	g   *graph.CSR
	s   krylov.Settings
	res krylov.BlockResult

	t, u []float64     // p̃ = t∘p, p = u∘p̃
	op   graph.Scaling // Diag u, Left −a·d^{-1/2}: (I − aS)p = op applied to p̃

	b       sparseRHS  // B by its nonzero rows
	bChunk  []int      // per row chunk, the index in b.rows of its first row
	x, r, p *mat.Dense // p holds p̃
	q       *mat.Dense // (I − aS)p

	bnorm, rz, alpha, beta, on []float64

	n, c int
	*krylov.RowPasses
}

// newSpreadingCG prepares a solve of (I − aS) X = B for the graph g of W,
// with x the initial guess.
func newSpreadingCG(g *graph.CSR, a float64, b, x *mat.Dense, s krylov.Settings) (*spreadingCG, error) {
	n := g.Nodes()
	br, c := b.Dims()
	if xr, xc := x.Dims(); br != n || xr != n || xc != c {
		return nil, fmt.Errorf("labelprop: spreading CG: graph has %d nodes, B is %d×%d, X is %d×%d", n, br, c, xr, xc)
	}
	return newCGRHS(g, a, denseRHS(b), x, s)
}

// newCGRHS is newSpreadingCG with B given by its nonzero rows (no n×c block
// for B).
func newCGRHS(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, s krylov.Settings) (*spreadingCG, error) {
	n, c := g.Nodes(), b.c
	if xr, xc := x.Dims(); xr != n || xc != c {
		return nil, fmt.Errorf("labelprop: spreading CG: graph has %d nodes, B has %d columns, X is %d×%d", n, c, xr, xc)
	}
	if x.RawMatrix().Stride != c {
		return nil, fmt.Errorf("labelprop: spreading CG: X has stride %d, want contiguous rows (stride %d)", x.RawMatrix().Stride, c)
	}
	deg, err := laplacian.NewDegrees(g, laplacian.Options{Isolated: laplacian.IsolatedZero})
	if err != nil {
		return nil, fmt.Errorf("labelprop: %w", err)
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if s.MaxIter == 0 {
		s.MaxIter = min(2*n+100, DefaultMaxIter)
	}
	cg := &spreadingCG{
		g: g, s: s,
		res: krylov.BlockResult{Iterations: make([]int, c), Residual: make([]float64, c)},
		t:   deg.InvSqrtD, u: deg.SqrtD,
		b: b, bChunk: b.chunks(n), x: x,
		// huge pages when large: every product gathers rows of p at random
		r: mat.NewDense(n, c, newBlock(n*c)), p: mat.NewDense(n, c, newBlock(n*c)), q: mat.NewDense(n, c, newBlock(n*c)),
		bnorm: b.norms(), rz: make([]float64, c), alpha: make([]float64, c),
		beta: make([]float64, c), on: make([]float64, c),
		n: n, c: c,
		RowPasses: krylov.NewRowPasses(n, c, g.NNZ()+n*c),
	}
	left := make([]float64, n)
	for i := range left {
		left[i] = -a * cg.t[i]
		if cg.u[i] == 0 { // isolated: a zero row of S, p̃_i = p_i
			cg.t[i], cg.u[i] = 1, 1
		}
	}
	cg.op = graph.Scaling{Diag: cg.u, Left: left}
	// The solution of a zero column of B is zero; such a column never moves
	// again (its α stays 0).
	for j, nb := range cg.bnorm {
		if nb != 0 {
			continue
		}
		xd := x.RawMatrix().Data
		for i := 0; i < n; i++ {
			xd[i*c+j] = 0
		}
	}
	return cg, nil
}

// product sets q = (I − aS)p from the scaled p̃ and returns pᵀq per column in
// dst.
func (cg *spreadingCG) product(dst []float64) []float64 {
	c, u := cg.c, cg.u
	pd, qd := cg.p.RawMatrix().Data, cg.q.RawMatrix().Data
	return cg.Run(dst, func(_, lo, hi int, acc []float64) {
		cg.g.ScaledMulBlockRowsTo(cg.q, cg.p, cg.op, lo, hi)
		if len(acc) == 0 {
			return
		}
		// Flat loops over the rows' c·(hi−lo) entries, j cycling over the
		// columns: per-row slicing cost more than the arithmetic.
		p, q := pd[lo*c:hi*c], qd[lo*c:hi*c]
		q = q[:len(p)]
		i, j, ui := lo, 0, u[lo]
		for k, pk := range p {
			acc[j] += ui * pk * q[k]
			if j++; j == c {
				j, i = 0, i+1
				if i < hi {
					ui = u[i]
				}
			}
		}
	})
}

// residualStep applies r ← r − α∘q and returns ‖r_j‖² in dst.
func (cg *spreadingCG) residualStep(dst []float64) []float64 {
	c, alpha := cg.c, cg.alpha
	rd, qd := cg.r.RawMatrix().Data, cg.q.RawMatrix().Data
	return cg.Run(dst, func(_, lo, hi int, acc []float64) {
		alpha := alpha[:len(acc)]
		r, q := rd[lo*c:hi*c], qd[lo*c:hi*c]
		q = q[:len(r)]
		j := 0
		for k, rk := range r {
			v := rk - alpha[j]*q[k]
			r[k] = v
			acc[j] += v * v
			if j++; j == c {
				j = 0
			}
		}
	})
}

// step applies x ← x + α∘p and then p ← on∘(r + β∘p), on the scaled p̃.
func (cg *spreadingCG) step() {
	c, alpha, beta, on, t, u := cg.c, cg.alpha, cg.beta, cg.on, cg.t, cg.u
	xd, rd, pd := cg.x.RawMatrix().Data, cg.r.RawMatrix().Data, cg.p.RawMatrix().Data
	cg.Run(nil, func(_, lo, hi int, _ []float64) {
		alpha, beta, on := alpha[:c], beta[:c], on[:c]
		x, r, p := xd[lo*c:hi*c], rd[lo*c:hi*c], pd[lo*c:hi*c]
		r, p = r[:len(x)], p[:len(x)]
		i, j, ti, ui := lo, 0, t[lo], u[lo]
		for k := range x {
			pk := p[k]
			x[k] += alpha[j] * (ui * pk)
			p[k] = on[j] * (ti*r[k] + beta[j]*pk)
			if j++; j == c {
				j, i = 0, i+1
				if i < hi {
					ti, ui = t[i], u[i]
				}
			}
		}
	})
}

// run solves; on failure x holds the last iterate.
func (cg *spreadingCG) run(ctx context.Context) (krylov.BlockResult, error) {
	rr := make([]float64, cg.c)
	pap := make([]float64, cg.c)
	if cg.trueResidual(isZeroBlock(cg.x), rr) == 0 {
		return cg.res, nil
	}
	cg.restart(rr)
	for iter := 1; iter <= cg.s.MaxIter; iter++ {
		cg.product(pap)
		cg.res.Products++
		for j := 0; j < cg.c; j++ {
			cg.alpha[j] = 0
			if cg.on[j] == 0 {
				continue
			}
			if !(pap[j] > 0) {
				return cg.fail(&krylov.BreakdownError{Method: "spreading CG", Iterations: iter, Reason: fmt.Sprintf("column %d: pᵀAp = %g ≤ 0: I − aS is not positive definite", j, pap[j])}, rr)
			}
			cg.alpha[j] = cg.rz[j] / pap[j]
		}
		cg.residualStep(rr)
		left, worst := 0, 0.0
		for j := 0; j < cg.c; j++ {
			cg.beta[j] = 0
			if cg.on[j] == 0 {
				continue
			}
			cg.res.Iterations[j] = iter
			rel := math.Sqrt(rr[j]) / cg.bnorm[j]
			if rel <= cg.s.Tol {
				cg.on[j] = 0
				continue
			}
			worst = math.Max(worst, rel)
			left++
			cg.beta[j] = rr[j] / cg.rz[j]
			cg.rz[j] = rr[j]
		}
		// x += αp for every column that moved (finished ones included),
		// then the next directions (zero for finished columns).
		cg.step()
		if cg.s.Progress != nil {
			cg.s.Progress(iter, worst)
		}
		if err := ctx.Err(); err != nil {
			return cg.fail(err, rr)
		}
		if left == 0 {
			if cg.trueResidual(false, rr) == 0 {
				return cg.res, nil
			}
			cg.restart(rr)
		}
	}
	return cg.fail(nil, rr)
}

// trueResidual sets R = B − (I − aS)X (R = B when xZero), records each
// column's relative residual and marks the columns above the tolerance as
// iterating. It returns how many are; rr receives ‖r_j‖².
func (cg *spreadingCG) trueResidual(xZero bool, rr []float64) int {
	c, t := cg.c, cg.t
	xd, rd, pd, qd := cg.x.RawMatrix().Data, cg.r.RawMatrix().Data, cg.p.RawMatrix().Data, cg.q.RawMatrix().Data
	if !xZero {
		// p̃ = t∘x is scratch here: restart rebuilds p from r.
		cg.Run(nil, func(_, lo, hi int, _ []float64) {
			x, p := xd[lo*c:hi*c], pd[lo*c:hi*c]
			p = p[:len(x)]
			i, j, ti := lo, 0, t[lo]
			for k, v := range x {
				p[k] = ti * v
				if j++; j == c {
					j, i = 0, i+1
					if i < hi {
						ti = t[i]
					}
				}
			}
		})
		cg.product(nil)
		cg.res.Products++
	}
	cg.Run(rr, func(k, lo, hi int, acc []float64) {
		r := rd[lo*c : hi*c]
		if xZero {
			clear(r)
		} else {
			q := qd[lo*c : hi*c]
			q = q[:len(r)]
			for e, v := range q {
				r[e] = -v
			}
		}
		b := cg.b
		for p := cg.bChunk[k]; p < len(b.rows) && b.rows[p] < hi; p++ {
			o := (b.rows[p] - lo) * c
			for j, v := range b.vals[p*c : p*c+c] {
				r[o+j] += v
			}
		}
		j := 0
		for _, v := range r {
			acc[j] += v * v
			if j++; j == c {
				j = 0
			}
		}
	})
	left := 0
	for j := 0; j < cg.c; j++ {
		cg.on[j] = 0
		if cg.bnorm[j] == 0 { // x_j = 0 from the start, so r_j = 0
			cg.res.Residual[j] = 0
			continue
		}
		rel := math.Sqrt(rr[j]) / cg.bnorm[j]
		cg.res.Residual[j] = rel
		if rel > cg.s.Tol {
			cg.on[j] = 1
			left++
		}
	}
	return left
}

// restart sets p̃ = t∘r for the iterating columns (zero for the others),
// without reading p, and rz = ‖r‖² from rr.
func (cg *spreadingCG) restart(rr []float64) {
	copy(cg.rz, rr)
	c, on, t := cg.c, cg.on, cg.t
	rd, pd := cg.r.RawMatrix().Data, cg.p.RawMatrix().Data
	cg.Run(nil, func(_, lo, hi int, _ []float64) {
		on := on[:c]
		r, p := rd[lo*c:hi*c], pd[lo*c:hi*c]
		p = p[:len(r)]
		i, j, ti := lo, 0, t[lo]
		for k, v := range r {
			p[k] = on[j] * (ti * v)
			if j++; j == c {
				j, i = 0, i+1
				if i < hi {
					ti = t[i]
				}
			}
		}
	})
}

func (cg *spreadingCG) fail(cause error, rr []float64) (krylov.BlockResult, error) {
	cg.trueResidual(false, rr)
	worst, it := 0, 0
	for j := 0; j < cg.c; j++ {
		if cg.res.Residual[j] > cg.res.Residual[worst] {
			worst = j
		}
		it = max(it, cg.res.Iterations[j])
	}
	if cause != nil {
		return cg.res, fmt.Errorf("labelprop: spreading CG stopped after %d iterations: %w", it, cause)
	}
	return cg.res, &krylov.NotConvergedError{Method: fmt.Sprintf("spreading CG (column %d)", worst), Iterations: it, Residual: cg.res.Residual[worst], Tol: cg.s.Tol}
}

// isZeroBlock reports whether every entry of x is zero.
func isZeroBlock(x *mat.Dense) bool {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		for _, v := range x.RawRowView(i)[:c] {
			if v != 0 {
				return false
			}
		}
	}
	return true
}
