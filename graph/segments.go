package graph

import (
	"fmt"
	"sort"

	"github.com/gssl/gssl/internal/parallel"
)

// ColumnSegments is a copy of a graph's stored entries split by column into
// consecutive ranges of nodes, for products whose block does not fit the
// last-level cache: a pass over every row with the entries of one range
// gathers its rows of the block from a part of the block that does fit
// (the cache-blocking of sparse products, e.g. S. Williams et al.,
// "Optimization of sparse matrix–vector multiplication on emerging
// multicore platforms", SC 2007, §4.2), so the block is read from memory
// about once per product instead of once per stored entry.
//
// The rows of each segment keep their column order, so a row summed
// segment by segment, each segment continuing from the sums of the ones
// before (AddBlockRowsTo), adds the same terms in the same order as one
// pass over the row: the products are bitwise those of ScaledMulBlockTo.
// The copy holds 4 bytes per stored entry (12 with weights) and 8 bytes
// per node and segment (Bytes).
type ColumnSegments struct {
	g      *CSR
	bounds []int  // len k+1: segment s holds the columns [bounds[s], bounds[s+1])
	parts  []*CSR // per segment, the entries of its columns (n rows; only indptr, indices and weights are set)
}

// segmentRows is the number of rows per task of the segments' build.
const segmentRows = 4096

// ColumnSegments splits g's entries into k ranges of ⌊n/k⌋ or ⌈n/k⌉
// consecutive columns, in O(nnz + k·n) time, in parallel.
func (g *CSR) ColumnSegments(k int) (*ColumnSegments, error) {
	n := g.n
	if k < 1 || k > max(n, 1) {
		return nil, fmt.Errorf("graph: ColumnSegments: %d segments of %d columns: want 1 to %d", k, n, max(n, 1))
	}
	cs := &ColumnSegments{g: g, bounds: make([]int, k+1), parts: make([]*CSR, k)}
	for s := range cs.bounds {
		cs.bounds[s] = s * n / k
	}
	// split[s·(n+1)+i] is the first entry of row i in segment s (found by
	// binary search in the sorted row), then each segment's row pointer.
	for s := range cs.parts {
		cs.parts[s] = &CSR{n: n, indptr: make([]int, n+1), unitWeights: g.unitWeights}
	}
	parallel.For(n, segmentRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := g.indices[g.indptr[i]:g.indptr[i+1]]
			start := 0
			for s, p := range cs.parts {
				end := len(row)
				if s+1 < k {
					b := int32(cs.bounds[s+1])
					end = start + sort.Search(len(row)-start, func(j int) bool { return row[start+j] >= b })
				}
				p.indptr[i+1] = end - start
				start = end
			}
		}
	})
	for _, p := range cs.parts {
		for i := 0; i < n; i++ {
			p.indptr[i+1] += p.indptr[i]
		}
		p.indices = make([]int32, p.indptr[n])
		if !g.unitWeights {
			p.weights = make([]float64, p.indptr[n])
		}
	}
	parallel.For(n, segmentRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a := g.indptr[i]
			for _, p := range cs.parts {
				m := p.indptr[i+1] - p.indptr[i]
				copy(p.indices[p.indptr[i]:p.indptr[i+1]], g.indices[a:a+m])
				if p.weights != nil {
					copy(p.weights[p.indptr[i]:p.indptr[i+1]], g.weights[a:a+m])
				}
				a += m
			}
		}
	})
	return cs, nil
}

// Len returns the number of segments.
func (cs *ColumnSegments) Len() int { return len(cs.parts) }

// Columns returns the columns [lo, hi) of segment s.
func (cs *ColumnSegments) Columns(s int) (lo, hi int) { return cs.bounds[s], cs.bounds[s+1] }

// Bytes returns the memory the copy holds.
func (cs *ColumnSegments) Bytes() int {
	b := 8 * len(cs.bounds)
	for _, p := range cs.parts {
		b += 8*cap(p.indptr) + 4*cap(p.indices) + 8*cap(p.weights)
	}
	return b
}

// SegmentsBytes returns the memory ColumnSegments(k) would hold, without
// building it.
func (g *CSR) SegmentsBytes(k int) int64 {
	per := int64(4)
	if !g.unitWeights {
		per = 12
	}
	return per*int64(len(g.indices)) + 8*int64(k)*int64(g.n+1) + 8*int64(k+1)
}

// AddBlockRowsTo adds the terms of segment s to rows [lo, hi) of the
// unscaled product: dst_i += Σ_j W_ij x_j over the columns j of segment s,
// in their order, with dst_i taken as zero when s is 0 (dst's earlier
// contents are then ignored). x is n×c and dst n×c, both row-major with
// row strides xs and ds; they must not overlap. Calling it for s = 0, 1,
// …, Len()−1 on the same rows leaves in dst the sums Σ_j W_ij x_j that
// one pass of the graph's block kernels forms, bit for bit; FinishRows
// then applies a Scaling as ScaledMulBlockTo does. It runs on the calling
// goroutine.
func (cs *ColumnSegments) AddBlockRowsTo(dst []float64, ds int, x []float64, xs, c, s, lo, hi int) {
	n := cs.g.n
	if lo < 0 || hi > n || lo > hi || s < 0 || s >= len(cs.parts) || c < 1 || ds < c || xs < c ||
		len(x) < (n-1)*xs+c || len(dst) < (hi-1)*ds+c {
		panic(fmt.Sprintf("graph: AddBlockRowsTo: segment %d of %d, rows [%d, %d) of %d, %d columns, strides %d and %d, lengths %d and %d",
			s, len(cs.parts), lo, hi, n, c, ds, xs, len(dst), len(x)))
	}
	if lo == hi {
		return
	}
	p := cs.parts[s]
	if c <= maxUnrolled {
		blockAddKernels[c](p, dst, ds, x, xs, s == 0, lo, hi)
		return
	}
	acc := make([]float64, c)
	for i := lo; i < hi; i++ {
		d := dst[i*ds : i*ds+c]
		if s == 0 {
			clear(acc)
		} else {
			copy(acc, d)
		}
		for k := p.indptr[i]; k < p.indptr[i+1]; k++ {
			xr := x[int(p.indices[k])*xs : int(p.indices[k])*xs+c]
			if p.weights == nil {
				for t, v := range xr {
					acc[t] += v
				}
			} else {
				w := p.weights[k]
				for t, v := range xr {
					acc[t] += float64(w * v)
				}
			}
		}
		copy(d, acc)
	}
}

// FinishRows turns the unscaled sums in rows [lo, hi) of dst into the rows
// of ScaledMulBlockTo with Scaling sc (Right must be nil): dst_i =
// Diag_i·x_i + Left_i·dst_i, with the kernels' roundings.
func (cs *ColumnSegments) FinishRows(dst []float64, ds int, x []float64, xs, c int, sc Scaling, lo, hi int) {
	cs.g.checkScaling(sc)
	if sc.Right != nil {
		panic("graph: FinishRows: a Right scaling is not supported")
	}
	for i := lo; i < hi; i++ {
		d := dst[i*ds : i*ds+c]
		l := 1.0
		if sc.Left != nil {
			l = sc.Left[i]
		}
		if sc.Diag != nil {
			di := sc.Diag[i]
			xi := x[i*xs : i*xs+c]
			xi = xi[:len(d)]
			for t := range d {
				d[t] = float64(di*xi[t]) + float64(l*d[t])
			}
		} else if sc.Left != nil {
			for t := range d {
				d[t] = l * d[t]
			}
		}
	}
}
