package knngraph

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/parallel"
)

// selfJoin is Exact in float32: the K nearest other points of every base
// point. The Gram matrix of the points is symmetric, so each tile above the
// diagonal is computed once and its distances are offered to the candidate
// lists of both its rows and its columns.
//
// Work is split into row blocks of queryBlock points; block I computes
// its rows against every point from its own first row on (its diagonal
// tiles offer to rows only, the tiles to its right to rows and columns).
// Each worker keeps candidate lists for all n points, so that no list is
// shared; the lists of a point are merged after the scan. A list keeps the
// m smallest (approximate distance, index) pairs offered to it, a set that
// does not depend on the order of the offers, and every pair is offered to
// exactly one worker's list of each of its two points, so the merged lists
// — and with them the result — are the same for every number of workers.
func selfJoin(ctx context.Context, ix *index, k int, s *Settings) (*Neighbors, error) {
	n := ix.n
	m := s.Candidates
	if m == 0 {
		m = k + max(k, 16)
	}
	m = min(max(m, k), n-1)
	lists := scanBlocks(ctx, ix, m, s.Progress)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("knngraph: exact search stopped: %w", err)
	}
	nb := mergeAndRerank(ix, lists, k, m)
	if s.Progress != nil {
		s.Progress(n, n)
	}
	return nb, nil
}

// scanBlocks runs the row blocks of the join on the workers, each into its
// own candidate lists of m pairs for every point, and returns the lists of
// the workers that ran. It stops early when ctx is done.
func scanBlocks(ctx context.Context, ix *index, m int, progress func(done, total int)) []*candLists {
	n := ix.n
	const rb = queryBlock
	items := (n + rb - 1) / rb
	// work of item I: its rows times the points from its first row on
	total := 0
	for I := 0; I < items; I++ {
		total += (n - I*rb) * (min(n, (I+1)*rb) - I*rb)
	}
	var next atomic.Int64
	var failed atomic.Bool
	var mu sync.Mutex
	doneWork := 0
	workers := parallel.Workers()
	lists := make([]*candLists, workers)
	parallel.For(workers, 1, func(lo, hi int) {
		for wi := lo; wi < hi; wi++ {
			c := newCandLists(n, m)
			lists[wi] = c
			sc := newJoinScratch(ix.kd)
			for !failed.Load() {
				I := int(next.Add(1)) - 1
				if I >= items {
					break
				}
				if ctx.Err() != nil {
					failed.Store(true)
					break
				}
				rlo, rhi := I*rb, min(n, (I+1)*rb)
				sc.scan(ix, c, rlo, rhi)
				if progress != nil {
					mu.Lock()
					doneWork += (n - rlo) * (rhi - rlo)
					// The scan is most of the time; the points are only
					// final after the merge, reported as the last one.
					progress(min(n-1, int(float64(n)*float64(doneWork)/float64(total))), n)
					mu.Unlock()
				}
			}
		}
	})
	live := lists[:0]
	for _, c := range lists {
		if c != nil {
			live = append(live, c)
		}
	}
	return live
}

// mergeAndRerank merges each point's candidate lists, keeps their m
// smallest pairs and reranks them by exact distances into the k nearest
// (a full scan where the bound does not certify them).
func mergeAndRerank(ix *index, live []*candLists, k, m int) *Neighbors {
	n := ix.n
	nb := newNeighbors(n, k)
	var rescanned atomic.Int64
	parallel.For(n, 64, func(lo, hi int) {
		rs := newRerankScratch(len(live)*m, k)
		for i := lo; i < hi; i++ {
			// the union of the workers' lists, then its m smallest pairs
			cnt := 0
			for _, c := range live {
				l := int(c.cnt[i])
				copy(rs.a32[cnt:], c.dist[i*m:i*m+l])
				copy(rs.i32[cnt:], c.idx[i*m:i*m+l])
				cnt += l
			}
			if len(live) > 1 && cnt > m {
				sortPairs(rs.a32[:cnt], rs.i32[:cnt])
				cnt = m
			}
			for c := 0; c < cnt; c++ {
				rs.ca[c] = float64(rs.a32[c])
			}
			idx, dist := nb.Row(i)
			if !ix.rerank(ix.point(i), rs.ca[:cnt], rs.i32[:cnt], k, m, n-1, rs, idx, dist) {
				ix.fullScan(ix.point(i), int32(i), k, idx, dist)
				rescanned.Add(1)
			}
		}
	})
	nb.Rescanned = int(rescanned.Load())
	return nb
}

// candLists holds one worker's candidate lists: for point i, a max-heap of
// at most m (float32 approximate distance, index) pairs in
// dist[i·m:(i+1)·m], idx[i·m:(i+1)·m], with cnt[i] entries, and thr[i] the
// largest kept distance once the heap is full (+Inf before).
type candLists struct {
	m    int
	dist []float32
	idx  []int32
	cnt  []int32
	thr  []float32
}

func newCandLists(n, m int) *candLists {
	c := &candLists{m: m, dist: make([]float32, n*m), idx: make([]int32, n*m), cnt: make([]int32, n), thr: make([]float32, n)}
	inf32 := float32(math.Inf(1))
	for i := range c.thr {
		c.thr[i] = inf32
	}
	return c
}

// offer adds (d, j) to the list of point i if it is among the m smallest
// pairs seen; the caller has checked d ≤ thr[i].
func (c *candLists) offer(i int, d float32, j int32) {
	m := c.m
	dist, idx := c.dist[i*m:(i+1)*m], c.idx[i*m:(i+1)*m]
	n := int(c.cnt[i])
	if n < m {
		// sift up
		p := n
		for p > 0 {
			q := (p - 1) / 2
			if !less32(dist[q], idx[q], d, j) {
				break
			}
			dist[p], idx[p] = dist[q], idx[q]
			p = q
		}
		dist[p], idx[p] = d, j
		n++
		c.cnt[i] = int32(n)
		if n == m {
			c.thr[i] = dist[0]
		}
		return
	}
	if !less32(d, j, dist[0], idx[0]) {
		return // a tie at the threshold with a larger index
	}
	// sift down from the root
	p := 0
	for {
		l := 2*p + 1
		if l >= n {
			break
		}
		q := l
		if r := l + 1; r < n && less32(dist[l], idx[l], dist[r], idx[r]) {
			q = r
		}
		if !less32(d, j, dist[q], idx[q]) {
			break
		}
		dist[p], idx[p] = dist[q], idx[q]
		p = q
	}
	dist[p], idx[p] = d, j
	c.thr[i] = dist[0]
}

func less32(d1 float32, i1 int32, d2 float32, i2 int32) bool {
	return d1 < d2 || (d1 == d2 && i1 < i2)
}

// joinScratch is one worker's packed row block and kernel tile.
type joinScratch struct {
	apack *gemm.Panels[float32]
	tile  []float32
	buf   []float64 // a compacted row (index.packRow)
}

func newJoinScratch(d int) *joinScratch {
	return &joinScratch{apack: gemm.NewPanels[float32](queryBlock, d, gemm.MR, nil), tile: make([]float32, gemm.MR*gemm.NR32), buf: make([]float64, d)}
}

// scan offers the distances of rows [rlo, rhi) (rlo a multiple of
// queryBlock, hence of gemm.NR32) to every point j ≥ rlo: to the rows'
// lists and, for j ≥ rhi, to the lists of j. gemm.DistMask32 marks the
// entries of a tile below the current thresholds, so that only those are
// looked at; thresholds only fall, so a marked entry is tested again.
func (w *joinScratch) scan(ix *index, c *candLists, rlo, rhi int) {
	const mr, nr = gemm.MR, gemm.NR32
	n, d := ix.n, ix.kd
	clear(w.apack.Data)
	for r := rlo; r < rhi; r++ {
		ix.packRow(w.apack, r-rlo, r, w.buf)
	}
	rows := rhi - rlo
	apanels := (rows + mr - 1) / mr
	tile := w.tile
	ninf := float32(math.Inf(-1))
	var an, rthr [mr]float32
	var cthr [nr]float32
	var mask [mr]uint16
	for p := rlo / nr; p < ix.packed.Count(); p++ {
		bp := ix.packed.Panel(p)
		base := p * nr
		ncol := min(nr, n-base)
		bnorm := ix.norm32[base : base+nr] // zero past n
		diag := base < rhi
		cols := uint16(1<<ncol - 1) // mask bits of the columns before n
		for j := range cthr {
			cthr[j] = ninf // diagonal tiles offer to rows only; no column past n
		}
		for a := 0; a < apanels; a++ {
			gemm.Kernel32(d, w.apack.Panel(a), bp, tile)
			r0 := rlo + a*mr
			ra := min(mr, rhi-r0)
			for i := 0; i < mr; i++ {
				an[i], rthr[i] = 0, ninf
				if i < ra {
					an[i], rthr[i] = ix.norm32[r0+i], c.thr[r0+i]
				}
			}
			if !diag {
				copy(cthr[:ncol], c.thr[base:base+ncol])
			}
			gemm.DistMask32(tile, an[:], bnorm, rthr[:], cthr[:], &mask)
			for i := 0; i < ra; i++ {
				r := r0 + i
				for mk := mask[i] & cols; mk != 0; mk &= mk - 1 {
					j := bits.TrailingZeros16(mk)
					dd := tile[i*nr+j]
					if diag {
						if dd <= c.thr[r] && base+j != r {
							c.offer(r, dd, int32(base+j))
						}
						continue
					}
					if dd <= c.thr[r] {
						c.offer(r, dd, int32(base+j))
					}
					if dd <= c.thr[base+j] {
						c.offer(base+j, dd, int32(r))
					}
				}
			}
		}
	}
}

// rerankScratch is the scratch space of rerank (and of the merge of
// selfJoin's lists).
type rerankScratch struct {
	a32  []float32
	i32  []int32
	ca   []float64
	lb   []float64
	li   []int32
	topd []float64
	topi []int32
}

func newRerankScratch(m, k int) *rerankScratch {
	return &rerankScratch{a32: make([]float32, m), i32: make([]int32, m), ca: make([]float64, m),
		lb: make([]float64, m), li: make([]int32, m), topd: make([]float64, k), topi: make([]int32, k)}
}

// rerank writes to idx and dist the k nearest of the candidates ci of
// query qrow, by exact distance, from their approximate distances ca
// (scaled units, the m smallest of all eligible points, or fewer when some
// were not finite). It reports whether they are certified to be the k
// nearest of all eligible points; when not, idx and dist are unspecified.
//
// Only the candidates whose lower bound, approximate distance minus the
// rounding-error bound coef·(‖q‖ + ‖y‖)², does not exceed the k-th exact
// distance found so far can be among the k nearest; they are visited by
// increasing lower bound, so the exact distances of the others are never
// computed.
func (ix *index) rerank(qrow []float64, ca []float64, ci []int32, k, m, eligible int, rs *rerankScratch, idx []int32, dist []float64) bool {
	count := len(ca)
	if count < m || count < k {
		// Some approximate distances were not finite (a query far outside
		// the range of the base points overflowed float32).
		return false
	}
	var qn float64
	for t, v := range qrow {
		c := (v - ix.mean[t]) * ix.scale
		qn += c * c
	}
	qn = math.Sqrt(qn)
	tau := math.Inf(-1) // the largest approximate distance kept
	lb, li := rs.lb[:count], rs.li[:count]
	for c, a := range ca {
		tau = max(tau, a)
		e := qn + ix.norms[ci[c]]
		lb[c], li[c] = a-ix.coef*e*e, ci[c]
	}
	sortPairs(lb, li)
	s2 := ix.scale * ix.scale
	topd, topi := rs.topd[:k], rs.topi[:k]
	got := 0
	for c, l := range lb {
		if got == k && l > topd[k-1]*s2 {
			break
		}
		j := li[c]
		dd := SquaredDistance(qrow, ix.point(int(j)))
		if got == k && !less(dd, j, topd[k-1], topi[k-1]) {
			continue
		}
		// insert into the sorted top list
		p := min(got, k-1)
		for p > 0 && less(dd, j, topd[p-1], topi[p-1]) {
			topd[p], topi[p] = topd[p-1], topi[p-1]
			p--
		}
		topd[p], topi[p] = dd, j
		got = min(got+1, k)
	}
	if m < eligible {
		e := qn + ix.maxNorm
		if !(topd[k-1]*s2 < tau-ix.coef*e*e) {
			return false
		}
	}
	copy(idx, topi)
	copy(dist, topd)
	return true
}
