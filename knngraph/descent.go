package knngraph

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/parallel"
)

// Descent is the approximate search by NN-descent (Dong, Charikar & Li,
// "Efficient k-nearest neighbor graph construction for generic similarity
// measures", WWW 2011): start from random neighbour lists and repeatedly
// compare the neighbours of each point with each other ("a neighbour of a
// neighbour is likely a neighbour"), keeping the closest. Every random choice
// comes from Seed; the result does not depend on the number of goroutines.
// The zero value is ready to use.
type Descent struct {
	// Seed of the random initial lists and samples.
	Seed uint64

	// ListSize is the number of neighbours each point keeps while
	// searching; the K best are returned. 0 means K + K/2 (at least K + 5).
	// Larger lists raise recall and cost.
	ListSize int

	// Sample is the fraction ρ of a list's new entries joined per
	// iteration, in (0, 1]; 0 means 0.5.
	Sample float64

	// MaxIterations bounds the iterations; 0 means 30.
	MaxIterations int

	// Delta stops the iterations once fewer than Delta·N·ListSize list
	// entries change in one; 0 means 0.001.
	Delta float64

	// Trees is the number of random-projection trees whose leaves seed the
	// lists (all pairs within a leaf are compared); 0 means 4, negative
	// means none (random initial lists only).
	Trees int

	// LeafSize is the largest leaf of those trees; 0 means max(2·ListSize, 32).
	LeafSize int

	// Progress, when not nil, is called after each iteration with its number
	// (from 1) and the number of list entries that changed.
	Progress func(iteration, updates int)
}

// Validate checks the settings.
func (s *Descent) Validate() error {
	switch {
	case s.ListSize < 0:
		return fmt.Errorf("knngraph: Descent.ListSize = %d is invalid: it must be ≥ 0 (0 means K + K/2)", s.ListSize)
	case !(s.Sample >= 0 && s.Sample <= 1):
		return fmt.Errorf("knngraph: Descent.Sample = %v is invalid: it must be in (0, 1] (0 means 0.5)", s.Sample)
	case s.LeafSize < 0:
		return fmt.Errorf("knngraph: Descent.LeafSize = %d is invalid: it must be ≥ 0 (0 means max(2·ListSize, 32))", s.LeafSize)
	case s.MaxIterations < 0:
		return fmt.Errorf("knngraph: Descent.MaxIterations = %d is invalid: it must be ≥ 0 (0 means 30)", s.MaxIterations)
	case !(s.Delta >= 0 && s.Delta < 1):
		return fmt.Errorf("knngraph: Descent.Delta = %v is invalid: it must be in [0, 1) (0 means 0.001)", s.Delta)
	}
	return nil
}

// Approximate returns approximate K nearest other points of every row of x
// by NN-descent. The distances reported are exact (SquaredDistance) and each
// row is sorted by them, ties by index; only membership is approximate.
// Memory is O(n·d) for a float32 copy of x plus O(n·ListSize); time is about
// O(n·ListSize²·d) per iteration. s may be nil.
func Approximate(ctx context.Context, x *mat.Dense, k int, s *Descent) (*Neighbors, error) {
	if s == nil {
		s = &Descent{}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	n, d, err := checkPoints("point", x)
	if err != nil {
		return nil, err
	}
	if err := checkK(k, n-1, true); err != nil {
		return nil, err
	}
	L := s.ListSize
	if L == 0 {
		L = max(k+k/2, k+5)
	}
	L = min(max(L, k), n-1)
	rho := s.Sample
	if rho == 0 {
		rho = 0.5
	}
	maxIter := s.MaxIterations
	if maxIter == 0 {
		maxIter = 30
	}
	delta := s.Delta
	if delta == 0 {
		delta = 0.001
	}

	trees := s.Trees
	if trees == 0 {
		trees = 4
	}
	leafSize := max(s.LeafSize, 0)
	if leafSize == 0 {
		leafSize = max(2*L, 32)
	}
	nd := newDescentState(x, n, d, L)
	rng := rand.New(rand.NewPCG(s.Seed, 0x6e6e2d64657363)) // "nn-desc"
	if err := nd.initTrees(ctx, s.Seed, trees, leafSize); err != nil {
		return nil, fmt.Errorf("knngraph: NN-descent stopped while building trees: %w", err)
	}
	nd.fillRandom(rng)

	sampleN := max(1, int(math.Ceil(rho*float64(L))))
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("knngraph: NN-descent stopped at iteration %d: %w", it, err)
		}
		nd.candidates(rng, sampleN)
		updates := nd.join(ctx)
		if s.Progress != nil {
			s.Progress(it, updates)
		}
		if float64(updates) < delta*float64(n*L) {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("knngraph: NN-descent stopped: %w", err)
	}
	return nd.result(k), nil
}

// descentState holds the working lists: point i's entries are at
// [i*L, (i+1)*L), unsorted, with the largest distance tracked in worst.
type descentState struct {
	x      *mat.Dense
	n, L   int
	stride int       // float32 row length, a multiple of 16
	pts    []float32 // points in float32, zero-padded to stride
	dist   []float32
	idx    []int32
	isNew  []bool
	worst  []float32 // largest distance in each list, +Inf while not full
	count  []int32   // entries in each list (L once filled)
	// candidate lists of the current iteration, capacity cap each
	cap          int
	newC, oldC   []int32
	newCn, oldCn []int32
}

func newDescentState(x *mat.Dense, n, d, L int) *descentState {
	stride := (d + 15) / 16 * 16
	nd := &descentState{x: x, n: n, L: L, stride: stride, pts: make([]float32, n*stride),
		dist: make([]float32, n*L), idx: make([]int32, n*L), isNew: make([]bool, n*L), worst: make([]float32, n), count: make([]int32, n)}
	for i := range nd.worst {
		nd.worst[i] = float32(math.Inf(1))
	}
	raw := x.RawMatrix()
	parallel.For(n, 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst := nd.pts[i*stride : i*stride+d]
			for t, v := range row(raw.Data, raw.Stride, d, i) {
				dst[t] = float32(v)
			}
		}
	})
	return nd
}

func (nd *descentState) point(i int32) []float32 {
	return nd.pts[int(i)*nd.stride : int(i+1)*nd.stride]
}

// fillRandom completes every list that is not full with distinct random
// other points.
func (nd *descentState) fillRandom(rng *rand.Rand) {
	n, L := nd.n, nd.L
	start := make([]int32, n)
	for i := 0; i < n; i++ {
		list := nd.idx[i*L : (i+1)*L]
		c := int(nd.count[i])
		start[i] = int32(c)
		for c < L {
			j := int32(rng.IntN(n - 1))
			if int(j) >= i {
				j++ // skip i itself
			}
			if !slices.Contains(list[:c], j) {
				list[c] = j
				c++
			}
		}
	}
	parallel.For(n, 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if int(start[i]) == L {
				continue
			}
			for p := i*L + int(start[i]); p < (i+1)*L; p++ {
				nd.dist[p] = gemm.SqDist16(nd.point(int32(i)), nd.point(nd.idx[p]))
				nd.isNew[p] = true
			}
			var w float32
			for _, v := range nd.dist[i*L : (i+1)*L] {
				w = max(w, v)
			}
			nd.worst[i], nd.count[i] = w, int32(L)
		}
	})
}

// candidates builds this iteration's new and old candidate lists: up to
// sampleN new entries of each list (then marked old), all old entries, and
// up to sampleN of each kind from the reverse lists.
func (nd *descentState) candidates(rng *rand.Rand, sampleN int) {
	n, L := nd.n, nd.L
	nd.cap = L + 2*sampleN
	if nd.newC == nil {
		nd.newC = make([]int32, n*nd.cap)
		nd.oldC = make([]int32, n*nd.cap)
		nd.newCn = make([]int32, n)
		nd.oldCn = make([]int32, n)
	}
	// Forward lists.
	pos := make([]int, 0, L)
	for i := 0; i < n; i++ {
		nn, on := 0, 0
		newC := nd.newC[i*nd.cap : (i+1)*nd.cap]
		oldC := nd.oldC[i*nd.cap : (i+1)*nd.cap]
		pos = pos[:0]
		for p := i * L; p < (i+1)*L; p++ {
			if nd.isNew[p] {
				pos = append(pos, p)
			} else {
				oldC[on] = nd.idx[p]
				on++
			}
		}
		// Sample sampleN of the new entries by a partial Fisher–Yates shuffle.
		for c := 0; c < len(pos) && c < sampleN; c++ {
			r := c + rng.IntN(len(pos)-c)
			pos[c], pos[r] = pos[r], pos[c]
			newC[nn] = nd.idx[pos[c]]
			nn++
			nd.isNew[pos[c]] = false
		}
		nd.newCn[i], nd.oldCn[i] = int32(nn), int32(on)
	}
	// Reverse lists, in CSR form, from the forward candidates.
	revNew := reverse(n, nd.newC, nd.newCn, nd.cap)
	revOld := reverse(n, nd.oldC, nd.oldCn, nd.cap)
	for i := 0; i < n; i++ {
		nd.addSample(rng, i, revNew, nd.newC, nd.newCn, sampleN)
		nd.addSample(rng, i, revOld, nd.oldC, nd.oldCn, sampleN)
	}
}

// csr is a compact adjacency: the entries of node i are adj[ptr[i]:ptr[i+1]].
type csr struct {
	ptr []int
	adj []int32
}

// reverse builds the lists of nodes that name each node in lists.
func reverse(n int, lists []int32, counts []int32, cap int) csr {
	ptr := make([]int, n+1)
	for i := 0; i < n; i++ {
		for _, j := range lists[i*cap : i*cap+int(counts[i])] {
			ptr[j+1]++
		}
	}
	for i := 0; i < n; i++ {
		ptr[i+1] += ptr[i]
	}
	adj := make([]int32, ptr[n])
	next := append([]int(nil), ptr[:n]...)
	for i := 0; i < n; i++ {
		for _, j := range lists[i*cap : i*cap+int(counts[i])] {
			adj[next[j]] = int32(i)
			next[j]++
		}
	}
	return csr{ptr, adj}
}

// addSample appends up to sampleN entries of node i's reverse list to its
// candidate list, skipping ones already there.
func (nd *descentState) addSample(rng *rand.Rand, i int, rev csr, lists []int32, counts []int32, sampleN int) {
	r := rev.adj[rev.ptr[i]:rev.ptr[i+1]]
	list := lists[i*nd.cap : (i+1)*nd.cap]
	c := int(counts[i])
	for s := 0; s < len(r) && s < sampleN && c < nd.cap; s++ {
		p := s + rng.IntN(len(r)-s)
		r[s], r[p] = r[p], r[s]
		j := r[s]
		if !slices.Contains(list[:c], j) {
			list[c] = j
			c++
		}
	}
	counts[i] = int32(c)
}

// proposal says: point a may have b as a neighbour at distance dist.
type proposal struct {
	a, b int32
	dist float32
}

// joinChunk is the number of points whose local joins run before their
// proposals are applied; it bounds the proposal buffers.
const joinChunk = 1024

// join runs the local joins of every point and applies the proposals, in
// chunks of points. It returns the number of list entries replaced.
func (nd *descentState) join(ctx context.Context) int {
	return nd.chunked(ctx, nd.n, nd.localJoins)
}

// Work units of the two phases of chunked: points (or leaves) per join
// piece, and list owners per apply group. Both are claimed dynamically, so a
// goroutine that the operating system descheduled does not hold the others
// up at a barrier.
const (
	joinPiece  = 64
	applyGroup = 512
)

// chunked runs gen on chunks of [0, items) in parallel and applies the
// proposals after each chunk. The proposals of a chunk are ordered by piece,
// then sorted stably by owner group, and each group's lists are changed by
// one goroutine in that order, so the result does not depend on timing or on
// the number of goroutines. It returns the number of list entries changed.
func (nd *descentState) chunked(ctx context.Context, items int, gen func(lo, hi int, out []proposal) []proposal) int {
	workers := parallel.Workers()
	groups := (nd.n + applyGroup - 1) / applyGroup
	bufs := make([][]proposal, (joinChunk+joinPiece-1)/joinPiece)
	bounds := make([]int, groups+1)
	next := make([]int, groups)
	var sorted []proposal
	updates := 0
	for lo := 0; lo < items && ctx.Err() == nil; lo += joinChunk {
		hi := min(lo+joinChunk, items)
		pieces := (hi - lo + joinPiece - 1) / joinPiece
		var claim atomic.Int64
		parallel.For(workers, 1, func(wlo, whi int) {
			for range whi - wlo {
				for p := int(claim.Add(1)) - 1; p < pieces; p = int(claim.Add(1)) - 1 {
					a := lo + p*joinPiece
					bufs[p] = gen(a, min(a+joinPiece, hi), bufs[p][:0])
				}
			}
		})
		// Stable counting sort by owner group.
		clear(bounds)
		for _, buf := range bufs[:pieces] {
			for _, p := range buf {
				bounds[int(p.a)/applyGroup+1]++
			}
		}
		for g := 0; g < groups; g++ {
			bounds[g+1] += bounds[g]
		}
		sorted = slices.Grow(sorted[:0], bounds[groups])[:bounds[groups]]
		copy(next, bounds[:groups])
		for _, buf := range bufs[:pieces] {
			for _, p := range buf {
				g := int(p.a) / applyGroup
				sorted[next[g]] = p
				next[g]++
			}
		}
		var claimG, changed atomic.Int64
		parallel.For(workers, 1, func(wlo, whi int) {
			for range whi - wlo {
				for g := int(claimG.Add(1)) - 1; g < groups; g = int(claimG.Add(1)) - 1 {
					c := 0
					for _, p := range sorted[bounds[g]:bounds[g+1]] {
						if nd.insert(p.a, p.b, p.dist) {
							c++
						}
					}
					changed.Add(int64(c))
				}
			}
		})
		updates += int(changed.Load())
	}
	return updates
}

// localJoins compares, for each point v in [lo, hi), its new candidates with
// each other and with its old ones, and appends the proposals that would
// improve a list as it was before this chunk.
func (nd *descentState) localJoins(lo, hi int, out []proposal) []proposal {
	for v := lo; v < hi; v++ {
		newC := nd.newC[v*nd.cap : v*nd.cap+int(nd.newCn[v])]
		oldC := nd.oldC[v*nd.cap : v*nd.cap+int(nd.oldCn[v])]
		for x, a := range newC {
			pa := nd.point(a)
			for _, b := range newC[x+1:] {
				out = nd.propose(out, a, b, gemm.SqDist16(pa, nd.point(b)))
			}
			for _, b := range oldC {
				if a != b {
					out = nd.propose(out, a, b, gemm.SqDist16(pa, nd.point(b)))
				}
			}
		}
	}
	return out
}

func (nd *descentState) propose(out []proposal, a, b int32, d float32) []proposal {
	if d < nd.worst[a] {
		out = append(out, proposal{a, b, d})
	}
	if d < nd.worst[b] {
		out = append(out, proposal{b, a, d})
	}
	return out
}

// insert puts b into a's list at distance d if the list is not full yet or
// d beats its worst entry, and b is not already listed; it reports whether
// it did.
func (nd *descentState) insert(a, b int32, d float32) bool {
	if d >= nd.worst[a] || a == b {
		return false
	}
	lo := int(a) * nd.L
	c := int(nd.count[a])
	idx, dist := nd.idx[lo:lo+c], nd.dist[lo:lo+c]
	w := 0
	for p, j := range idx {
		if j == b {
			return false
		}
		if dist[p] > dist[w] {
			w = p
		}
	}
	if c < nd.L {
		nd.idx[lo+c], nd.dist[lo+c], nd.isNew[lo+c] = b, d, true
		nd.count[a]++
		if c+1 == nd.L {
			m := d
			for _, v := range dist {
				m = max(m, v)
			}
			nd.worst[a] = m
		}
		return true
	}
	idx[w], dist[w], nd.isNew[lo+w] = b, d, true
	var m float32
	for _, v := range dist {
		m = max(m, v)
	}
	nd.worst[a] = m
	return true
}

// result re-ranks every list by exact distance and keeps the k best.
func (nd *descentState) result(k int) *Neighbors {
	nb := newNeighbors(nd.n, k)
	raw := nd.x.RawMatrix()
	L := nd.L
	parallel.For(nd.n, 256, func(lo, hi int) {
		cd := make([]float64, L)
		ci := make([]int32, L)
		for i := lo; i < hi; i++ {
			xi := row(raw.Data, raw.Stride, raw.Cols, i)
			copy(ci, nd.idx[i*L:(i+1)*L])
			for p, j := range ci {
				cd[p] = SquaredDistance(xi, row(raw.Data, raw.Stride, raw.Cols, int(j)))
			}
			sortPairs(cd, ci)
			idx, d2 := nb.Row(i)
			copy(idx, ci[:k])
			copy(d2, cd[:k])
		}
	})
	return nb
}

// initTrees seeds the lists from random-projection trees: each tree splits
// the points recursively by the hyperplane half-way between two random
// points until at most leafSize remain, and all pairs within a leaf are
// compared. Tree t draws from its own stream (seed, t), so the trees can be
// built in parallel.
func (nd *descentState) initTrees(ctx context.Context, seed uint64, trees, leafSize int) error {
	if trees <= 0 {
		return nil
	}
	type forest struct {
		perm   []int32
		leaves []int // leaf boundaries in perm
	}
	fs := make([]forest, trees)
	parallel.For(trees, 1, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			rng := rand.New(rand.NewPCG(seed, 0x7270747265650000+uint64(t))) // "rptree"
			perm := make([]int32, nd.n)
			for i := range perm {
				perm[i] = int32(i)
			}
			leaves := []int{0}
			nd.split(rng, perm, 0, leafSize, &leaves)
			fs[t] = forest{perm, leaves}
		}
	})
	// Leaves of all trees, in tree order, as (tree, leaf) pairs.
	type leaf struct{ t, l int }
	var all []leaf
	for t, f := range fs {
		for l := 1; l < len(f.leaves); l++ {
			all = append(all, leaf{t, l})
		}
	}
	nd.chunked(ctx, len(all), func(lo, hi int, out []proposal) []proposal {
		for _, lf := range all[lo:hi] {
			f := fs[lf.t]
			pts := f.perm[f.leaves[lf.l-1]:f.leaves[lf.l]]
			for x, a := range pts {
				pa := nd.point(a)
				for _, b := range pts[x+1:] {
					out = append(out, proposal{a, b, 0}, proposal{b, a, 0})
					d := gemm.SqDist16(pa, nd.point(b))
					out[len(out)-2].dist, out[len(out)-1].dist = d, d
				}
			}
		}
		return out
	})
	return ctx.Err()
}

// split partitions perm (points) recursively and appends leaf ends.
func (nd *descentState) split(rng *rand.Rand, perm []int32, offset, leafSize int, leaves *[]int) {
	if len(perm) <= leafSize {
		*leaves = append(*leaves, offset+len(perm))
		return
	}
	a := nd.point(perm[rng.IntN(len(perm))])
	b := nd.point(perm[rng.IntN(len(perm))])
	normal := make([]float32, nd.stride)
	var off float32
	for t := range normal {
		normal[t] = a[t] - b[t]
		off += normal[t] * (a[t] + b[t]) / 2
	}
	// Partition: points with normal·x < off first.
	lo, hi := 0, len(perm)
	for lo < hi {
		if dot32(normal, nd.point(perm[lo])) < off {
			lo++
		} else {
			hi--
			perm[lo], perm[hi] = perm[hi], perm[lo]
		}
	}
	if lo == 0 || lo == len(perm) { // degenerate (duplicates): split by a random order
		for i := len(perm) - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		lo = len(perm) / 2
	}
	nd.split(rng, perm[:lo], offset, leafSize, leaves)
	nd.split(rng, perm[lo:], offset+lo, leafSize, leaves)
}

// dot32 returns Σ a_t b_t.
func dot32(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	t := 0
	for ; t+4 <= len(a); t += 4 {
		s0 += a[t] * b[t]
		s1 += a[t+1] * b[t+1]
		s2 += a[t+2] * b[t+2]
		s3 += a[t+3] * b[t+3]
	}
	for ; t < len(a); t++ {
		s0 += a[t] * b[t]
	}
	return (s0 + s1) + (s2 + s3)
}
