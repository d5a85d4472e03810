package labelprop

import (
	"context"
	"fmt"
	"slices"

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
// S = D^{-1/2} W D^{-1/2}: krylov.BlockCGWith, the one block CG recursion
// (one CG per column in lockstep, a column stopping at relative residual
// Tol; the iterates of krylov.BlockCG on I − aS in exact arithmetic,
// checked against it in the tests), run on passes (krylov.BlockCGPasses)
// specialised for label spreading, which make an iteration cost little
// more than its product with W:
//
//   - S is never formed. The search directions are stored scaled, p̃ = t∘p
//     with t_i = d_i^{-1/2} (1 for an isolated node), so that
//     (I − aS)p = u∘p̃ − a t'∘(W p̃) with u = 1/t and t' = d^{-1/2} (0 for an
//     isolated node): a product with W itself, which reads only the pattern
//     of an unweighted graph (graph.CSR.UnitWeights).
//   - Three row passes per iteration, each reading the rows once: the
//     product fused with pᵀAp on the rows just computed (Product); r ← r −
//     αAp with ‖r‖² (Update); and x ← x + αp fused with p ← r + βp (Step).
//   - No vector is allocated per iteration (only the small closures of the
//     passes), and the passes run on one goroutine when the problem is too
//     small for a second one to pay.
type spreadingCG struct {
	g *graph.CSR
	s krylov.Settings

	t, u []float64     // p̃ = t∘p, p = u∘p̃
	op   graph.Scaling // Diag u, Left −a·d^{-1/2}: (I − aS)p = op applied to p̃

	b       sparseRHS  // B by its nonzero rows
	bChunk  []int      // per row chunk, the index in b.rows of its first row
	x, r, p *mat.Dense // p holds p̃
	q       *mat.Dense // (I − aS)p

	bnorm []float64

	n, c int
	*krylov.RowPasses
}

// newSpreadingCG prepares a solve of (I − aS) X = B for the graph g of W,
// with x the initial guess.
func newSpreadingCG(g *graph.CSR, a float64, b, x *mat.Dense, s krylov.Settings) (*spreadingCG, error) {
	rhs, err := checkedRHS(g, b, x, "spreading CG")
	if err != nil {
		return nil, err
	}
	return newCGRHS(g, a, rhs, x, s)
}

// checkedRHS returns the nonzero rows of b after checking that b and x are
// n×c for the n nodes of g; what names the solver in the error.
func checkedRHS(g *graph.CSR, b, x *mat.Dense, what string) (sparseRHS, error) {
	n := g.Nodes()
	br, c := b.Dims()
	if xr, xc := x.Dims(); br != n || xr != n || xc != c {
		return sparseRHS{}, fmt.Errorf("labelprop: %s: graph has %d nodes, B is %d×%d, X is %d×%d", what, n, br, c, xr, xc)
	}
	return denseRHS(b), nil
}

// newCGRHS is newSpreadingCG with B given by its nonzero rows (no n×c block
// for B).
func newCGRHS(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, s krylov.Settings) (*spreadingCG, error) {
	return newCGWork(g, a, b, x, s, nil, nil)
}

// newCGWork is newCGRHS with the storage of r, p and q taken from work
// (3·n·c entries, zeroed) when it is not nil, and the scalings of prev (a
// solve on the same graph and a) when it is not nil.
func newCGWork(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, s krylov.Settings, work []float64, prev *spreadingCG) (*spreadingCG, error) {
	n, c := g.Nodes(), b.c
	if xr, xc := x.Dims(); xr != n || xc != c {
		return nil, fmt.Errorf("labelprop: spreading CG: graph has %d nodes, B has %d columns, X is %d×%d", n, c, xr, xc)
	}
	if x.RawMatrix().Stride != c {
		return nil, fmt.Errorf("labelprop: spreading CG: X has stride %d, want contiguous rows (stride %d)", x.RawMatrix().Stride, c)
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if s.MaxIter == 0 {
		s.MaxIter = min(2*n+100, DefaultMaxIter)
	}
	cg := &spreadingCG{
		g: g, s: s,
		b: b, bChunk: b.chunks(n), x: x,
		// huge pages when large: every product gathers rows of p at random
		r: mat.NewDense(n, c, workBlock(work, 0, n*c)), p: mat.NewDense(n, c, workBlock(work, 1, n*c)), q: mat.NewDense(n, c, workBlock(work, 2, n*c)),
		bnorm: b.norms(),
		n:     n, c: c,
		RowPasses: krylov.NewRowPasses(n, c, g.NNZ()+n*c),
	}
	if prev != nil {
		cg.t, cg.u, cg.op = prev.t, prev.u, prev.op
	} else {
		deg, err := laplacian.NewDegrees(g, laplacian.Options{Isolated: laplacian.IsolatedZero})
		if err != nil {
			return nil, fmt.Errorf("labelprop: %w", err)
		}
		cg.t, cg.u = deg.InvSqrtD, deg.SqrtD
		left := make([]float64, n)
		for i := range left {
			left[i] = -a * cg.t[i]
			if cg.u[i] == 0 { // isolated: a zero row of S, p̃_i = p_i
				cg.t[i], cg.u[i] = 1, 1
			}
		}
		cg.op = graph.Scaling{Diag: cg.u, Left: left}
	}
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

// Update applies r ← r − α∘q and sets ‖r_j‖² in rr.
func (cg *spreadingCG) Update(rr, alpha []float64) {
	c := cg.c
	rd, qd := cg.r.RawMatrix().Data, cg.q.RawMatrix().Data
	cg.Run(rr, func(_, lo, hi int, acc []float64) {
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

// Step applies x ← x + α∘p and then p ← on∘(r + β∘p), on the scaled p̃.
func (cg *spreadingCG) Step(alpha, beta, on []float64) {
	c, t, u := cg.c, cg.t, cg.u
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

var _ krylov.BlockCGPasses = (*spreadingCG)(nil)

// run solves by krylov.BlockCGWith; on failure x holds the last iterate.
func (cg *spreadingCG) run(ctx context.Context) (krylov.BlockResult, error) {
	return krylov.BlockCGWith(ctx, cg, cg.bnorm, cg.s, "spreading CG")
}

// Precondition sets rz = rr: there is no preconditioner (Z = R).
func (cg *spreadingCG) Precondition(rz, rr []float64) { copy(rz, rr) }

// Product sets q = (I − aS)p from the scaled p̃ and pap = pᵀq per column.
func (cg *spreadingCG) Product(pap []float64) { cg.product(pap) }

// Residual sets R = B − (I − aS)X (R = B without a product when first and
// X is zero) and rr_j = ‖r_j‖²; it returns the products taken.
func (cg *spreadingCG) Residual(rr []float64, first bool) int {
	xZero := first && !slices.ContainsFunc(cg.x.RawMatrix().Data[:cg.n*cg.c], func(v float64) bool { return v != 0 })
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
	if xZero {
		return 0
	}
	return 1
}

// Restart sets p̃ = on∘(t∘r), without reading p.
func (cg *spreadingCG) Restart(on []float64) {
	c, t := cg.c, cg.t
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
