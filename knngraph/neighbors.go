package knngraph

import (
	"fmt"
	"sort"
)

// Neighbors holds the K nearest neighbours of each of N points. Row i lists
// the indices of its neighbours in Index[i*K:(i+1)*K] by increasing squared
// distance Dist2 (ties by smaller index). Indices refer to the searched
// (base) points; the query points are the rows.
type Neighbors struct {
	N, K  int
	Index []int32
	Dist2 []float64

	// Rescanned counts the rows of an exact search whose reduced-precision
	// candidates could not be certified and which were recomputed by a full
	// scan in float64 (see Settings.Candidates). Zero for approximate search.
	Rescanned int
}

// Row returns the neighbours of row i and their squared distances, as views.
func (nb *Neighbors) Row(i int) (index []int32, dist2 []float64) {
	lo, hi := i*nb.K, (i+1)*nb.K
	return nb.Index[lo:hi:hi], nb.Dist2[lo:hi:hi]
}

// newNeighbors allocates n rows of k neighbours.
func newNeighbors(n, k int) *Neighbors {
	return &Neighbors{N: n, K: k, Index: make([]int32, n*k), Dist2: make([]float64, n*k)}
}

// checkK validates the number of neighbours against the number of eligible
// points (n − 1 when a point may not be its own neighbour).
func checkK(k, eligible int, self bool) error {
	switch {
	case k <= 0:
		return fmt.Errorf("knngraph: k = %d is invalid: it must be at least 1", k)
	case k > eligible && self:
		return fmt.Errorf("knngraph: k = %d is invalid for %d points: a point's neighbours are the other points, so k must be at most n − 1 = %d", k, eligible+1, eligible)
	case k > eligible:
		return fmt.Errorf("knngraph: k = %d is invalid for %d base points: it must be at most %d", k, eligible, eligible)
	}
	return nil
}

// maxHeap keeps the m smallest (dist, index) pairs seen, largest on top.
type maxHeap struct {
	dist []float64
	idx  []int32
	m    int
}

func newMaxHeap(m int) maxHeap {
	return maxHeap{dist: make([]float64, 0, m), idx: make([]int32, 0, m), m: m}
}

func (h *maxHeap) reset() { h.dist, h.idx = h.dist[:0], h.idx[:0] }

func (h *maxHeap) full() bool { return len(h.dist) == h.m }

// top returns the largest kept distance, or +Inf while the heap is not full.
func (h *maxHeap) threshold() float64 {
	if len(h.dist) < h.m {
		return inf
	}
	return h.dist[0]
}

// push offers (d, j); the caller has checked d < threshold().
func (h *maxHeap) push(d float64, j int32) {
	if len(h.dist) < h.m {
		h.dist = append(h.dist, d)
		h.idx = append(h.idx, j)
		// sift up
		c := len(h.dist) - 1
		for c > 0 {
			p := (c - 1) / 2
			if !less(h.dist[p], h.idx[p], h.dist[c], h.idx[c]) {
				break
			}
			h.dist[p], h.dist[c] = h.dist[c], h.dist[p]
			h.idx[p], h.idx[c] = h.idx[c], h.idx[p]
			c = p
		}
		return
	}
	h.dist[0], h.idx[0] = d, j
	// sift down
	p, n := 0, len(h.dist)
	for {
		l := 2*p + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && less(h.dist[l], h.idx[l], h.dist[r], h.idx[r]) {
			c = r
		}
		if !less(h.dist[p], h.idx[p], h.dist[c], h.idx[c]) {
			break
		}
		h.dist[p], h.dist[c] = h.dist[c], h.dist[p]
		h.idx[p], h.idx[c] = h.idx[c], h.idx[p]
		p = c
	}
}

// less orders pairs by distance, then index.
func less(d1 float64, i1 int32, d2 float64, i2 int32) bool {
	return d1 < d2 || (d1 == d2 && i1 < i2)
}

// sortPairs sorts (dist, idx) ascending by distance then index: by
// insertion for the short candidate lists of a search, else by sort.Sort.
func sortPairs[T float32 | float64](dist []T, idx []int32) {
	if len(dist) > 64 {
		sort.Sort(pairs[T]{dist, idx})
		return
	}
	for a := 1; a < len(dist); a++ {
		d, j := dist[a], idx[a]
		b := a
		for b > 0 && (d < dist[b-1] || (d == dist[b-1] && j < idx[b-1])) {
			dist[b], idx[b] = dist[b-1], idx[b-1]
			b--
		}
		dist[b], idx[b] = d, j
	}
}

type pairs[T float32 | float64] struct {
	d []T
	i []int32
}

func (p pairs[T]) Len() int { return len(p.d) }
func (p pairs[T]) Less(a, b int) bool {
	return p.d[a] < p.d[b] || (p.d[a] == p.d[b] && p.i[a] < p.i[b])
}
func (p pairs[T]) Swap(a, b int) {
	p.d[a], p.d[b] = p.d[b], p.d[a]
	p.i[a], p.i[b] = p.i[b], p.i[a]
}
