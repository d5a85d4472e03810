package propagate

import (
	"context"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/loaders"
)

// powerRowsSparse is PowerRowsSeries for a sparse X from the sparse rows
// of the powers of S at the listed nodes: for a listed node i, v_0 = e_i
// and v_j = S v_{j−1} (S is symmetric: v_jᵀ is row i of S^j), held as a
// dense accumulator and the list of its non-zero entries (rowWalk); row i
// of S^k X is Σ_l v_k[l]·X_l, scattered from X's CSR rows. Each listed row
// is computed on its own, so the rows for one k do not depend on the other
// ks nor on the number of workers, and the k = 0 rows are X's.
func powerRowsSparse(ctx context.Context, a *Adjacency, x *loaders.Sparse, ks, rows []int) ([]*mat.Dense, error) {
	n := a.Dim()
	for _, i := range rows {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("propagate: row %d is outside [0, %d)", i, n)
		}
	}
	out := make([]*mat.Dense, len(ks))
	for t := range out {
		out[t] = mat.NewDense(len(rows), x.Cols, nil)
	}
	top := 0
	for _, k := range ks {
		top = max(top, k)
	}
	walks := sync.Pool{New: func() any { return newRowWalk(n) }}
	parallel.For(len(rows), 16, func(lo, hi int) {
		w := walks.Get().(*rowWalk)
		defer walks.Put(w)
		for r := lo; r < hi && ctx.Err() == nil; r++ {
			w.start(rows[r])
			for j := 0; ; j++ {
				for t, k := range ks {
					if k == j {
						w.scatterTo(out[t].RawRowView(r), x)
					}
				}
				if j == top {
					break
				}
				w.step(a)
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("propagate: powers of the listed rows stopped: %w", err)
	}
	return out, nil
}

// rowWalk is a sparse vector v of length n (a row of a power of S): its
// values in a dense array, its non-zero positions in order of discovery,
// and the scratch of the next power.
type rowWalk struct {
	cur, next      []float64
	supp, nextSupp []int32
	seen           []bool // positions in nextSupp
}

func newRowWalk(n int) *rowWalk {
	return &rowWalk{cur: make([]float64, n), next: make([]float64, n), seen: make([]bool, n)}
}

// start sets v = e_i.
func (w *rowWalk) start(i int) {
	for _, l := range w.supp {
		w.cur[l] = 0
	}
	w.supp = append(w.supp[:0], int32(i))
	w.cur[i] = 1
}

// step sets v = S_σ v: for each l in v's support, its self-loop term
// σ t_l² v_l and for each neighbour m of l the term t_m W_ml t_l v_l.
func (w *rowWalk) step(a *Adjacency) {
	for _, l := range w.supp {
		vl := w.cur[l]
		tl := a.t[l]
		if a.loop != 0 {
			w.add(l, a.loop*tl*tl*vl)
		}
		cols, ws := a.g.Row(int(l))
		for k, m := range cols {
			wt := 1.0
			if ws != nil {
				wt = ws[k]
			}
			w.add(m, a.t[m]*wt*tl*vl)
		}
	}
	for _, l := range w.supp {
		w.cur[l] = 0
	}
	for _, m := range w.nextSupp {
		w.seen[m] = false
	}
	w.cur, w.next = w.next, w.cur
	w.supp, w.nextSupp = w.nextSupp, w.supp[:0]
}

func (w *rowWalk) add(m int32, v float64) {
	if !w.seen[m] {
		w.seen[m] = true
		w.nextSupp = append(w.nextSupp, m)
	}
	w.next[m] += v
}

// scatterTo sets row = Σ_l v_l X_l over v's support.
func (w *rowWalk) scatterTo(row []float64, x *loaders.Sparse) {
	for _, l := range w.supp {
		scatter(row, x, int(l), w.cur[l])
	}
}

// sparseRowsCheaper reports whether powerRowsSparse costs fewer operations
// than the block products (powerRowsOfX, or those of E_R) for r listed rows
// of a sparse X, both estimated at K = 2 (SGC's default) so that the
// choice does not depend on the powers asked for: per listed row, the
// walk's two steps cost about deg + deg·deg₂ entries of S and the scatter
// deg·deg₂·x̄ entries of X, where deg = nnz(S)/n, deg₂ = Σ_j deg_j²/Σ_j deg_j
// (the degree of a neighbour, which hubs raise) and x̄ = nnz(X)/n; each
// support at most n. The block routes cost, as in PowerRowsSeries, the
// first product from X's rows and the last at the listed rows (products of
// X), or two products of r columns and one with X (products of E_R).
func sparseRowsCheaper(a *Adjacency, x *loaders.Sparse, r int) bool {
	n := a.Dim()
	if n == 0 || r == 0 {
		return false
	}
	nf, rf := float64(n), float64(r)
	var sum, sq float64
	for i := 0; i < n; i++ {
		cols, _ := a.g.Row(i)
		dg := float64(len(cols)) + 1 // with the self loop
		sum += dg
		sq += dg * dg
	}
	deg, deg2, xbar := sum/nf, sq/sum, float64(len(x.Indices))/nf
	support := math.Min(nf, deg*deg2)
	walk := rf * (deg + support + support*xbar)
	viaX := sum*xbar + sum*float64(x.Cols)*rf/nf
	viaE := 2*sum*rf + xbar*nf*rf
	return walk < math.Min(viaX, viaE)
}
