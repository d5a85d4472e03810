package labelprop

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/krylov"
)

// Class batches of the block CG solve (Spreading.MaxMemory).
//
// Label spreading's columns are c independent systems (I − aS)f_j = b_j,
// and block CG runs one recursion per column in lockstep: column j's
// scalars α_j, β_j and its stopping test read column j only, and every
// row pass sums a column over fixed chunks of rows in row order whatever
// the block's width. So solving the columns a batch at a time gives
// each column the iterates of the one-batch solve, bitwise, with one
// exception: when every column of a batch has met the tolerance by its
// recursive residual, the solve bounds or recomputes the true residual
// (resbound.go) and restarts the columns that do not meet it; a batch reaches that check at its own
// last column, the whole block at the last of all, so a restarted column
// may take other iterations (both answers meet the tolerance).
//
// Memory, with n nodes, c classes and batches of w columns, beside F (8nc)
// and the 53n bytes of every fit (Spreading.MemoryBytes; the degrees and
// the scalings t, u and −a·t of spreadingCG are 32n of them):
//
//	one batch (w = c)   24nc + S               r, p and q (and n/8: the
//	                                           bits of p̃'s nonzero rows)
//	batches of w < c    32nw + S               the batch's x, r, p and q (n/8)
//
// plus 32n (64n) for the float32 copy of p̃ (gather32.go) when a batch has
// 5 to 8 (9 to 16) columns; S is the SELL-4-σ copy of the graph (graph.CSR.SlicedCost)
// when another batch (the last one included) or a column panel of the CG
// blocks (spreadPanels) has at most 4 columns (at most 8 for a panel), or the column segments of the product
// (graph.CSR.SegmentsBytes) when the first batch's block is split into
// them (spreadSegments). Batching trades time for
// memory: every batch reads the whole graph once per iteration, and it
// saves memory for w < 3c/4 (less when the SELL copy comes with it), down
// to 8nc + 32n + S with F at w = 1.

// batchExtra is the memory of a batched CG solve of width w beyond F and
// the 53n bytes of every fit.
func batchExtra(g *graph.CSR, n, c, w int64) int64 {
	sliced, gather := int64(0), int64(0)
	if k := spreadSegments(int(n), int(min(w, c))); k > 1 && len(spreadPanels(int(n), int(min(w, c)), 0)) == 1 {
		sliced = g.SegmentsBytes(k) // every product by the segments, which every batch shares
	} else {
		for _, bw := range []int64{min(w, c), c % w} { // a batch, and the last one
			panels := spreadPanels(int(n), int(bw), 0)
			switch {
			case bw == 0:
			case gather32Stride(int(bw), len(panels), false) > 0:
				gather = max(gather, 4*int64(gather32Stride(int(bw), len(panels), false))*n) // p32
			case bw <= 8 || panels[0].w <= 8: // a batch or panel of at most 8 columns
				sliced = g.SlicedCost()
			}
		}
	}
	if w >= c {
		return 24*n*c + n/8 + sliced + gather
	}
	return 32*n*w + n/8 + sliced + gather
}

// classBatch returns the number of the c classes that CG solves at once
// on g: c unless MaxMemory is set and the one-batch fit passes it, then
// the widest batch whose fit fits, or 1 when none does (MemoryBytes then
// reports more than MaxMemory and Fit refuses).
func (m *Spreading) classBatch(g *graph.CSR, c int) int {
	if m.MaxMemory <= 0 || c <= 1 {
		return max(c, 1)
	}
	n := int64(g.Nodes())
	base := 8*n*int64(c) + 53*n
	if base+batchExtra(g, n, int64(c), int64(c)) <= m.MaxMemory {
		return c
	}
	for w := c - 1; w > 1; w-- {
		if base+batchExtra(g, n, int64(c), int64(w)) <= m.MaxMemory {
			return w
		}
	}
	return 1
}

// checkMemory refuses a fit of c classes on g whose memory (MemoryBytes
// with Classes = c) passes MaxMemory.
func (m *Spreading) checkMemory(g *graph.CSR, c int) error {
	if m.MaxMemory <= 0 {
		return nil
	}
	if need := m.memoryBytes(g, c); need > m.MaxMemory {
		return fmt.Errorf("labelprop: label spreading of %d classes on %d nodes needs %d bytes beyond the graph, above MaxMemory = %d", c, g.Nodes(), need, m.MaxMemory)
	}
	return nil
}

// columns returns the columns [lo, hi) of r, with the same rows (a row
// whose values there are zero included, so that each column's residual
// adds the same terms as in the whole block).
func (r sparseRHS) columns(lo, hi int) sparseRHS {
	w := hi - lo
	out := sparseRHS{c: w, rows: r.rows, vals: make([]float64, len(r.rows)*w), reached: r.reached}
	for p := range r.rows {
		copy(out.vals[p*w:p*w+w], r.vals[p*r.c+lo:p*r.c+hi])
	}
	return out
}

// workBlock returns the k-th block of size entries of work (zeroed by the
// caller), or a new block when work is nil.
func workBlock(work []float64, k, size int) []float64 {
	if work == nil {
		return newBlock(size)
	}
	return work[k*size : (k+1)*size : (k+1)*size]
}

// spreadCGBatches is spreadCG on the columns of B in batches of width
// columns, each solved in one reused work area (x, r, p and q of the batch)
// and copied into F's columns; f holds the initial guess (zero when zero
// is true). With width ≥ c it is spreadCG. The counters add up: Products
// over the batches, Iterations and Residual the largest, ClassIterations
// per class. A batch that fails stops the solve with F holding every batch
// solved so far and that batch's last iterate; the error names its
// classes. area, when not nil, is the storage of r, p and q of a solve in
// one batch (3·n·c zeros).
func spreadCGBatches(ctx context.Context, g *graph.CSR, a float64, b sparseRHS, f *mat.Dense, s krylov.Settings, width int, zero bool, area []float64) (Details, error) {
	c := b.c
	if width >= c {
		return spreadCG(ctx, g, a, b, f, s, zero, area)
	}
	n := g.Nodes()
	xbuf, work := newBlock(n*width), newBlock(3*n*width)
	info := Details{ClassIterations: make([]int, c)}
	var prev *spreadingCG // the scalings, computed once
	for lo := 0; lo < c; lo += width {
		hi := min(lo+width, c)
		w := hi - lo
		x := mat.NewDense(n, w, xbuf[:n*w])
		x.Copy(f.Slice(0, n, lo, hi))
		if lo > 0 {
			clear(work[:3*n*w]) // the previous batch's r, p and q
		}
		cg, err := newCGWork(g, a, b.columns(lo, hi), x, s, work[:3*n*w], prev)
		if err != nil {
			return info, err
		}
		prev = cg
		res, err := cg.run(ctx)
		f.Slice(0, n, lo, hi).(*mat.Dense).Copy(x)
		d := blockInfo(res)
		copy(info.ClassIterations[lo:hi], d.ClassIterations)
		info.Iterations = max(info.Iterations, d.Iterations)
		info.Residual = max(info.Residual, d.Residual)
		info.Products += d.Products
		if err != nil {
			what := fmt.Sprintf("label spreading (block CG, classes %d to %d of %d)", lo, hi-1, c)
			return info, wrapSolverError(what, d, s.Tol, err)
		}
	}
	return info, nil
}
