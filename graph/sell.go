package graph

import "github.com/gssl/gssl/internal/parallel"

// sellC is the chunk height C of the sliced copy: C rows advance in lockstep,
// one accumulator each (four float64 lanes fill an AVX2 register).
const sellC = 4

// sellSigma is the sorting window σ of the sliced copy, in rows: rows are
// sorted by decreasing length within windows of σ consecutive rows, so a
// chunk holds rows of nearly equal length and little padding. 1024 rows keep
// the sorted rows close to their neighbours in the original order (dst stays
// cache-friendly) while PubMed pads by 3.3 % (see BenchmarkSliced; σ = 128
// pads 16 %, σ = n 0.3 %, at no measurable gain).
const sellSigma = 1024

// maxSliced is the widest block the SELL-4-σ kernels multiply: their row
// sums have a stride of 8. Wider blocks use the CSR kernels.
const maxSliced = 8

// sliced is a SELL-C-σ copy of a CSR graph (M. Kreutzer, G. Hager, G. Wellein,
// H. Fehske and A. R. Bishop, "A unified sparse matrix data format for
// efficient general sparse matrix-vector multiplication on modern processors
// with wide SIMD units", SIAM J. Sci. Comput. 36(5), C401–C423, 2014). Rows are
// sorted by decreasing length within windows of sellSigma rows and packed in
// chunks of sellC rows stored column by column: entry j of the chunk's slot r
// is at off[k] + j·C + r, each chunk padded to its longest row. Padding
// entries have column 0 and weight 0 and are never added: the kernels stop
// each row at its own length, so every row is summed in its CSR order with
// one accumulator, and the products are bitwise those of the CSR kernels.
type sliced struct {
	off     []int     // len chunks+1: first entry of chunk k; also the work prefix for parallel.Balanced
	rows    []int32   // len chunks·C: the graph row held by each slot, −1 for an empty slot (last chunk)
	lens    []int32   // len chunks·C: row length of each slot, decreasing within a chunk
	indices []int32   // len off[chunks]: column of each entry, chunk-column-major
	weights []float64 // like indices; nil for a graph with unit weights
	sigma   int       // the sorting window, in rows
}

// chunks returns the number of chunks.
func (s *sliced) chunks() int { return len(s.off) - 1 }

// bytes returns the memory held by the sliced copy.
func (s *sliced) bytes() int {
	return 8*len(s.off) + 4*len(s.rows) + 4*len(s.lens) + 4*cap(s.indices) + 8*len(s.weights)
}

// newSliced builds the SELL-C-σ copy of g in O(n log σ + nnz), in parallel:
// the windows are sorted, the slots filled and the chunks copied on
// disjoint ranges (each entry written by one goroutine, the offsets summed
// in order), so the copy is the same on any number of workers.
func newSliced(g *CSR, sigma int) *sliced {
	n := g.n
	chunks := (n + sellC - 1) / sellC
	s := &sliced{
		sigma: sigma,
		off:   make([]int, chunks+1),
		rows:  make([]int32, chunks*sellC),
		lens:  make([]int32, chunks*sellC),
	}
	order := sortWindowsByLength(g, sigma)
	parallel.For(len(s.rows), slicedSlotGrain, func(lo, hi int) {
		for slot := lo; slot < hi; slot++ {
			s.rows[slot] = -1
			if slot < n {
				s.rows[slot] = order[slot]
				s.lens[slot] = int32(g.RowLen(int(order[slot])))
			}
		}
	})
	for k := 0; k < chunks; k++ {
		s.off[k+1] = s.off[k] + sellC*int(s.lens[k*sellC]) // slot 0 is the longest
	}
	// the kernels read the indices up to sellIndexPad entries past the end
	s.indices = make([]int32, s.off[chunks]+sellIndexPad)[:s.off[chunks]]
	if !g.unitWeights {
		s.weights = make([]float64, s.off[chunks])
	}
	parallel.Balanced(s.off, minSlicedParallelWork, func(lo, hi int) {
		s.fillChunks(g, lo, hi)
	})
	return s
}

// sellIndexPad is how many zero indices the sliced copy keeps past its
// last entry (in the capacity of indices): the AVX2 kernels' lockstep
// prefetches the block rows of the entries 8 steps (32 entries) ahead
// (gen_sell.go), and so reads indices up to 31 entries past the last one.
const sellIndexPad = 32

// slicedSlotGrain is the least number of slots per task of newSliced.
const slicedSlotGrain = 1 << 15

// fillChunks copies the entries of the rows held by chunks [lo, hi) from
// g, column by column of each chunk (the padding stays zero).
func (s *sliced) fillChunks(g *CSR, lo, hi int) {
	for slot := lo * sellC; slot < hi*sellC; slot++ {
		row := s.rows[slot]
		if row < 0 {
			continue
		}
		p := s.off[slot/sellC] + slot%sellC
		cols, ws := g.Row(int(row))
		for j, c := range cols {
			s.indices[p+j*sellC] = c
			if s.weights != nil {
				s.weights[p+j*sellC] = ws[j]
			}
		}
	}
}

// sortWindowsByLength returns the rows of g, window of sigma rows by
// window, ordered by decreasing length and, among rows of equal length, by
// increasing index: a stable counting sort on the length per window,
// O(sigma + the window's longest row) each, O(n + nnz) in all. Windows are
// sorted in parallel, each into its own rows of the result.
func sortWindowsByLength(g *CSR, sigma int) []int32 {
	n := g.n
	order := make([]int32, n)
	windows := (n + sigma - 1) / sigma
	parallel.For(windows, max(slicedSlotGrain/sigma, 1), func(wlo, whi int) {
		var start []int
		for w := wlo; w < whi; w++ {
			start = sortWindow(g, order, w*sigma, min((w+1)*sigma, n), start)
		}
	})
	return order
}

// sortWindow writes rows [lo, hi) of g into order[lo:hi] by decreasing
// length, stably; start is scratch, returned for reuse.
func sortWindow(g *CSR, order []int32, lo, hi int, start []int) []int {
	longest := 0
	for i := lo; i < hi; i++ {
		longest = max(longest, g.RowLen(i))
	}
	start = append(start[:0], make([]int, longest+2)...)
	for i := lo; i < hi; i++ {
		start[longest-g.RowLen(i)+1]++ // key 0 is the longest row
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	for i := lo; i < hi; i++ {
		key := longest - g.RowLen(i)
		order[lo+start[key]] = int32(i)
		start[key]++
	}
	return start
}

// SlicedBytes returns the memory held by the SELL-C-σ copy that vector and
// block products build on CPUs with AVX2 (see ScaledMulVecTo), 0 until it is
// built: with Bytes, every copy of the graph is accounted for.
func (g *CSR) SlicedBytes() int {
	if s := g.sell.Load(); s != nil {
		return s.bytes()
	}
	return 0
}

// sliced returns g's SELL-C-σ copy, building it on first use. Concurrent
// first calls wait for one build.
func (g *CSR) sliced() *sliced {
	if s := g.sell.Load(); s != nil {
		return s
	}
	g.sellMu.Lock()
	defer g.sellMu.Unlock()
	if s := g.sell.Load(); s != nil {
		return s
	}
	s := newSliced(g, sellSigma)
	g.sell.Store(s)
	return s
}

// sellBlockBatch is the number of chunks whose block row sums are computed
// before they are scaled and written: 16 chunks · 4 rows · 8 columns of
// float64 stay in L1.
const sellBlockBatch = 16

// sellBatch is the number of chunks whose row sums are computed before they
// are scaled and written to dst: the sums stay in L1.
const sellBatch = 64

// mulVec sets dst = diag(sc.Diag)·x + diag(sc.Left)·W·diag(sc.Right)·x for
// the rows held by chunks [lo, hi), with the same operations in the same order
// as CSR.scaledRows.
func (s *sliced) mulVec(dst, x []float64, sc Scaling, lo, hi int) {
	s.mulVecKernel(false, dst, x, nil, sc, lo, hi)
}

// mulVecRX is mulVec for a graph with unit weights, given rx = r∘x
// (rx_j = Right_j·x_j): the terms (1·r_j)·x_j of CSR.scaledRows are exactly
// rx_j, so the kernel gathers rx once instead of r and x.
func (s *sliced) mulVecRX(dst, x, rx []float64, sc Scaling, lo, hi int) {
	s.mulVecKernel(false, dst, x, rx, sc, lo, hi)
}

// mulVecKernel is mulVec (or mulVecRX when rx is not nil), with the portable
// row-sum kernel when portable is true (for tests and benchmarks).
func (s *sliced) mulVecKernel(portable bool, dst, x, rx []float64, sc Scaling, lo, hi int) {
	var buf [sellBatch * sellC]float64
	src, right := x, sc.Right
	if rx != nil {
		src, right = rx, nil
	}
	for k := lo; k < hi; k += sellBatch {
		e := min(k+sellBatch, hi)
		if portable {
			s.chunkSumsGo(buf[:], src, right, k, e)
		} else {
			s.chunkSums(buf[:], src, right, k, e)
		}
		finishVec(dst, x, sc, buf[:], s.rows[k*sellC:e*sellC])
	}
}

// finishVec writes dst_i = Diag_i·x_i + Left_i·sums_t for the row i held by
// each slot t of rows (skipping empty slots), as CSR.scaledRows does.
func finishVec(dst, x []float64, sc Scaling, sums []float64, rows []int32) {
	sums = sums[:len(rows)]
	switch {
	case sc.Left == nil && sc.Diag == nil:
		for t, i := range rows {
			if i >= 0 {
				dst[i] = sums[t]
			}
		}
	case sc.Diag == nil:
		for t, i := range rows {
			if i >= 0 {
				dst[i] = float64(sums[t] * sc.Left[i])
			}
		}
	default:
		for t, i := range rows {
			if i >= 0 {
				sum := sums[t]
				if sc.Left != nil {
					sum = float64(sum * sc.Left[i])
				}
				dst[i] = sum + float64(sc.Diag[i]*x[i])
			}
		}
	}
}

// chunkSumsGo sets sums[(k−lo)·C + r] to the unscaled row sum
// Σ_j W_ij·r_j·x_j (r_j = 1 when right is nil) of slot r of chunk k, for the
// chunks [lo, hi), adding each row's terms in its CSR order into one
// accumulator. It is the portable kernel; the AVX2 one agrees with it bit for
// bit. Products are rounded (float64 conversions) before they are added, as
// in the CSR kernels and the assembly, so that no build fuses them.
func (s *sliced) chunkSumsGo(sums []float64, x, right []float64, lo, hi int) {
	off, lens, indices, weights := s.off, s.lens, s.indices, s.weights
	for k := lo; k < hi; k++ {
		p := off[k]
		ln := lens[k*sellC : k*sellC+sellC : k*sellC+sellC]
		var a0, a1, a2, a3 float64
		// All C rows run in lockstep up to the shortest (the last slot)...
		m := int(ln[sellC-1])
		idx := indices[p : p+m*sellC]
		switch {
		case weights == nil && right == nil:
			for q := 0; q+3 < len(idx); q += sellC {
				a0 += x[idx[q]]
				a1 += x[idx[q+1]]
				a2 += x[idx[q+2]]
				a3 += x[idx[q+3]]
			}
		case right == nil:
			ws := weights[p : p+len(idx)]
			for q := 0; q+3 < len(idx); q += sellC {
				a0 += float64(ws[q] * x[idx[q]])
				a1 += float64(ws[q+1] * x[idx[q+1]])
				a2 += float64(ws[q+2] * x[idx[q+2]])
				a3 += float64(ws[q+3] * x[idx[q+3]])
			}
		default:
			for q := 0; q+3 < len(idx); q += sellC {
				c0, c1, c2, c3 := idx[q], idx[q+1], idx[q+2], idx[q+3]
				a0 += float64(s.weight(p+q) * right[c0] * x[c0])
				a1 += float64(s.weight(p+q+1) * right[c1] * x[c1])
				a2 += float64(s.weight(p+q+2) * right[c2] * x[c2])
				a3 += float64(s.weight(p+q+3) * right[c3] * x[c3])
			}
		}
		a := [sellC]float64{a0, a1, a2, a3}
		// ...then the longer rows continue one by one.
		for r := 0; r < sellC-1; r++ {
			for j := m; j < int(ln[r]); j++ {
				q := p + j*sellC + r
				c := indices[q]
				if right == nil {
					a[r] += float64(s.weight(q) * x[c])
				} else {
					a[r] += float64(s.weight(q) * right[c] * x[c])
				}
			}
		}
		copy(sums[(k-lo)*sellC:(k-lo+1)*sellC], a[:])
	}
}

// weight returns the weight of entry q: 1 for a graph with unit weights.
func (s *sliced) weight(q int) float64 {
	if s.weights == nil {
		return 1
	}
	return s.weights[q]
}
