package knngraph

import (
	"cmp"
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
	// searching; the K best are returned. 0 means K + 2. Larger lists raise
	// recall and cost.
	ListSize int

	// Sample is the sampling rate ρ: each iteration joins at most
	// ⌈ρ·ListSize⌉ new and as many old candidates of each point, drawn at
	// random from its list and its reverse list together (pynndescent's
	// max_candidates); in (0, 1]; 0 means 1.
	Sample float64

	// MaxIterations bounds the iterations; 0 means 30.
	MaxIterations int

	// Delta stops the iterations once fewer than Delta·N·ListSize list
	// entries change in one; 0 means 0.001.
	Delta float64

	// Trees is the number of random-projection trees whose leaves seed the
	// lists (all pairs within a leaf are compared); 0 means 8, negative
	// means none (random initial lists only).
	Trees int

	// LeafSize is the largest leaf of those trees; 0 means max(24, ListSize + 1).
	LeafSize int

	// Progress, when not nil, is called after each iteration with its number
	// (from 1) and the number of list entries that changed.
	Progress func(iteration, updates int)
}

// Validate checks the settings.
func (s *Descent) Validate() error {
	switch {
	case s.ListSize < 0:
		return fmt.Errorf("knngraph: Descent.ListSize = %d is invalid: it must be ≥ 0 (0 means K + 2)", s.ListSize)
	case !(s.Sample >= 0 && s.Sample <= 1):
		return fmt.Errorf("knngraph: Descent.Sample = %v is invalid: it must be in (0, 1] (0 means 1)", s.Sample)
	case s.LeafSize < 0:
		return fmt.Errorf("knngraph: Descent.LeafSize = %d is invalid: it must be ≥ 0 (0 means max(24, ListSize + 1))", s.LeafSize)
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
// Memory is O(n·d) for a float32 copy of x (a byte copy when every
// coordinate is a byte) plus O(n·ListSize); time is about
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
	return s.run(ctx, newDescentState(x, n, d, s.listSize(k, n)), k)
}

// ApproximateBytes is Approximate for points whose coordinates are bytes,
// given as the rows of b with d bytes each (images): it returns what
// Approximate returns for the same points in a matrix, bit for bit, without
// converting them to float64 and back. s may be nil.
func ApproximateBytes(ctx context.Context, b []uint8, d, k int, s *Descent) (*Neighbors, error) {
	if s == nil {
		s = &Descent{}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if d < 1 || len(b) == 0 || len(b)%d != 0 {
		return nil, fmt.Errorf("knngraph: %d bytes do not make points of %d coordinates: need a positive multiple of d ≥ 1", len(b), d)
	}
	n := len(b) / d
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("knngraph: %d points; at most %d are supported (int32 indices)", n, math.MaxInt32)
	}
	if err := checkK(k, n-1, true); err != nil {
		return nil, err
	}
	if d > maxByteDim {
		x := mat.NewDense(n, d, nil)
		for i, v := range b {
			x.RawMatrix().Data[i] = float64(v)
		}
		return s.run(ctx, newDescentState(x, n, d, s.listSize(k, n)), k)
	}
	sc := scanBytes(b, n, d)
	return s.run(ctx, newByteState(sc, s.listSize(k, n)), k)
}

// listSize is the length of the working lists for K neighbours of n points.
func (s *Descent) listSize(k, n int) int {
	L := s.ListSize
	if L == 0 {
		L = k + defaultListExtra
	}
	return min(max(L, k), n-1)
}

// run seeds the lists of nd, improves them by local joins and returns the
// k best of each.
func (s *Descent) run(ctx context.Context, nd *descentState, k int) (*Neighbors, error) {
	n, L := nd.n, nd.L
	rho := cmp.Or(s.Sample, 1)
	maxIter := cmp.Or(s.MaxIterations, 30)
	delta := cmp.Or(s.Delta, 0.001)
	trees := cmp.Or(s.Trees, defaultTrees)
	leafSize := cmp.Or(s.LeafSize, max(defaultLeafSize, L+1))
	if err := nd.initTrees(ctx, s.Seed, trees, leafSize); err != nil {
		return nil, fmt.Errorf("knngraph: NN-descent stopped while building trees: %w", err)
	}
	nd.fillRandom(rand.New(rand.NewPCG(s.Seed, 0x6e6e2d64657363))) // "nn-desc"

	c := max(1, int(math.Ceil(rho*float64(L))))
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("knngraph: NN-descent stopped at iteration %d: %w", it, err)
		}
		nd.candidates(s.Seed, it, c)
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

// Defaults of Descent: lists of K + defaultListExtra entries, defaultTrees
// trees with leaves of at most defaultLeafSize points (more when the lists
// are longer).
const (
	defaultListExtra = 2
	defaultTrees     = 8
	defaultLeafSize  = 24
)

// descentState holds the working lists: point i's entries are at
// [i*L, (i+1)*L), unsorted, with the largest distance tracked in worst.
type descentState struct {
	x      *mat.Dense
	n, L   int
	stride int       // row length of pts or u8, a multiple of 16 or 32
	pts    []float32 // points in float32, zero-padded to stride, or nil
	sqnorm []float32 // ‖point‖² in float32 (with pts)
	// u8 holds byte-valued points, or is nil: point i at
	// u8[i*rowLen : (i+1)*rowLen], its tables (u8Tables, tab bytes) first,
	// its coordinates zero-padded to stride at offset hdr.
	u8               []uint8
	tab, hdr, rowLen int
	prefix           []uint8 // the first splitLen bytes of each point while the trees grow
	// exactInt: every coordinate is an integer of magnitude at most 2048,
	// so a float32 squared distance below 2²⁴ is the exact integer (see
	// result).
	exactInt bool
	// list[i*L : i*L+count[i]] are point i's entries, unsorted; isNew
	// flags them alike.
	list  []entry
	isNew []bool
	worst []float32 // largest distance in each list, +Inf while not full
	count []int32   // entries in each list (L once filled)
	// candidate lists of the current iteration, cap each
	cap          int
	newC, oldC   []int32
	newCn, oldCn []int32
	rev          csr // list positions p = i*L + slot that name each point
	// order is the order of the local joins: the leaf order of the first
	// tree, so that consecutive points share candidates and their
	// coordinates are still in cache; nil means 0, 1, …, n−1.
	order []int32
	// leafOf[i*trees+t] is the leaf of point i in tree t: a pair that shares
	// a leaf was compared when the lists were seeded, and comparing it again
	// cannot change a list (lists only improve).
	leafOf []int32
	trees  int
	// leafKey holds the leaves' low 16 bits, four trees to a word: point
	// i's words are leafKey[i*keyWords:(i+1)*keyWords], tree t in bits
	// 16(t mod 4) of word t/4. When every leaf number is below 2¹⁶
	// (leafExact), equal keys are equal leaves and leafOf is not kept.
	leafKey   []uint64
	keyWords  int
	leafExact bool
}

// exactIntLimit bounds the coordinates for which float32 squared distances
// below 2²⁴ are exact: differences are at most 4096 in magnitude, so every
// square is an integer of at most 2²⁴, and every partial sum of such
// non-negative integers is at most the total.
const exactIntLimit = 2048

// maxByteDim is the largest dimension searched on a byte copy: the byte
// kernels' 32-bit lanes hold sums of up to 2¹⁵ squares of bytes.
const maxByteDim = 1 << 15

func newDescentState(x *mat.Dense, n, d, L int) *descentState {
	raw := x.RawMatrix()
	sc := scanPoints(raw, n, d, d <= maxByteDim)
	if sc.bytes != nil {
		return newByteState(sc, L)
	}
	nd := newLists(n, L)
	nd.x, nd.exactInt = x, sc.integer
	nd.stride = (d + 15) / 16 * 16
	nd.pts, nd.sqnorm = make([]float32, n*nd.stride), make([]float32, n)
	zero := make([]float32, nd.stride)
	parallel.For(n, 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst := nd.pts[i*nd.stride : i*nd.stride+d]
			for t, v := range row(raw.Data, raw.Stride, d, i) {
				dst[t] = float32(v)
			}
			nd.sqnorm[i] = gemm.SqDist16(nd.pts[i*nd.stride:(i+1)*nd.stride], zero)
		}
	})
	return nd
}

// newByteState stores byte-valued points (a scan with its bytes): a quarter
// of the memory traffic of float32, and exact integer distances. The
// coordinates are stored by decreasing variance and constant ones are left
// out (neither changes a distance), so that a partial sum reaches a bound
// early (d2Below).
func newByteState(sc pointScan, L int) *descentState {
	n, d := sc.n, sc.d
	nd := newLists(n, L)
	nd.exactInt = true
	cols := sc.byVariance()
	nd.stride = max(32, (len(cols)+31)/32*32)
	// Rows start at cache lines, the tables in the first.
	nd.tab = 8 * len(u8Checks(nd.stride))
	nd.hdr = (nd.tab + 63) / 64 * 64
	nd.rowLen = (nd.hdr + nd.stride + 63) / 64 * 64
	nd.u8 = make([]uint8, n*nd.rowLen)
	parallel.For(n, 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row, tab := nd.bytes(int32(i))
			src := sc.bytes[i*d : (i+1)*d]
			for t, c := range cols {
				row[t] = src[c]
			}
			if hasU8VNNI { // the tables only the dot-product kernel reads
				u8Tables(tab, row)
			}
		}
	})
	return nd
}

// newLists allocates n empty lists of L entries.
func newLists(n, L int) *descentState {
	nd := &descentState{n: n, L: L,
		list: make([]entry, n*L), isNew: make([]bool, n*L), worst: make([]float32, n), count: make([]int32, n)}
	for i := range nd.worst {
		nd.worst[i] = float32(math.Inf(1))
	}
	return nd
}

// entry is one neighbour in a list: its index and squared distance side by
// side, so that insert reads a list in one or two cache lines.
type entry struct {
	idx  int32
	dist float32
}

func (nd *descentState) point(i int32) []float32 {
	return nd.pts[int(i)*nd.stride : int(i+1)*nd.stride]
}

// bytes returns the coordinates of byte-valued point i and its tables.
func (nd *descentState) bytes(i int32) (row, tab []uint8) {
	r := nd.u8[int(i)*nd.rowLen : int(i+1)*nd.rowLen]
	return r[nd.hdr : nd.hdr+nd.stride], r[:nd.tab]
}

// d2U8 returns the squared distance of byte-valued points a and b, or a
// partial sum ≥ bound (sqDistU8Below).
func (nd *descentState) d2U8(a, b int32, bound uint32) uint32 {
	ra, ta := nd.bytes(a)
	rb, tb := nd.bytes(b)
	return sqDistU8Dot(ra, rb, ta, tb, bound)
}

// d2Below returns the squared distance of points a and b as d2 does, or
// some value ≥ bound once a partial sum of the bytes' terms reaches bound
// (the terms are non-negative, so the whole sum would too).
func (nd *descentState) d2Below(a, b int32, bound float32) float32 {
	if nd.u8 == nil {
		return nd.d2(a, b)
	}
	ub := uint32(math.MaxUint32)
	if bound < math.MaxUint32 {
		ub = uint32(math.Ceil(float64(bound))) // the sums are integers
	}
	return float32(nd.d2U8(a, b, ub))
}

// d2 returns the squared distance of points a and b as stored: exact for
// bytes, float32 otherwise.
func (nd *descentState) d2(a, b int32) float32 {
	if nd.u8 != nil {
		return float32(nd.d2U8(a, b, math.MaxUint32))
	}
	return gemm.SqDist16(nd.point(a), nd.point(b))
}

// fillRandom completes every list that is not full with distinct random
// other points.
func (nd *descentState) fillRandom(rng *rand.Rand) {
	n, L := nd.n, nd.L
	start := make([]int32, n)
	for i := 0; i < n; i++ {
		list := nd.list[i*L : (i+1)*L]
		c := int(nd.count[i])
		start[i] = int32(c)
		for c < L {
			j := int32(rng.IntN(n - 1))
			if int(j) >= i {
				j++ // skip i itself
			}
			if !slices.ContainsFunc(list[:c], func(e entry) bool { return e.idx == j }) {
				list[c].idx = j
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
				nd.list[p].dist = nd.d2(int32(i), nd.list[p].idx)
				nd.isNew[p] = true
			}
			var w float32
			for _, e := range nd.list[i*L : (i+1)*L] {
				w = max(w, e.dist)
			}
			nd.worst[i], nd.count[i] = w, int32(L)
		}
	})
}

// priority is the random rank of list position p in iteration it: a
// splitmix64 hash, so every candidate list can be drawn independently and
// in parallel with the same result.
func priority(seed uint64, it, p int) uint64 {
	z := seed ^ uint64(it)*0x9e3779b97f4a7c15 ^ uint64(p)*0xd1b54a32d192ed03
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	return z ^ z>>31
}

// candidates builds this iteration's new and old candidate lists as
// pynndescent does: every entry j of i's list offers j to i and i to j, as
// a new or an old candidate by the entry's flag, with a random priority;
// each point keeps the c offers of each kind with the smallest priorities
// (no point twice). The new entries of a list that became candidates of
// their own point are then marked old.
func (nd *descentState) candidates(seed uint64, it, c int) {
	n, L := nd.n, nd.L
	if nd.newC == nil || nd.cap != c {
		nd.cap = c
		nd.newC = make([]int32, n*c)
		nd.oldC = make([]int32, n*c)
		nd.newCn = make([]int32, n)
		nd.oldCn = make([]int32, n)
	}
	nd.rev = reversePositions(n, L, nd.list, nd.rev)
	parallel.For(n, 256, func(lo, hi int) {
		var nh, oh candHeap
		nh.pr, oh.pr = make([]uint64, c), make([]uint64, c)
		for v := lo; v < hi; v++ {
			nh.reset(nd.newC[v*c : (v+1)*c])
			oh.reset(nd.oldC[v*c : (v+1)*c])
			rev := nd.rev.adj[nd.rev.ptr[v]:nd.rev.ptr[v+1]]
			for p := v * L; p < (v+1)*L; p++ {
				if nd.isNew[p] {
					nh.push(priority(seed, it, p), nd.list[p].idx)
				}
			}
			for _, p := range rev {
				if nd.isNew[p] {
					nh.push(priority(seed, it, int(p)), p/int32(L))
				}
			}
			// The old candidates are joined only with new ones: without
			// those (most points once few lists change) they are not drawn.
			for p := v * L; p < (v+1)*L && nh.n > 0; p++ {
				if !nd.isNew[p] {
					oh.push(priority(seed, it, p), nd.list[p].idx)
				}
			}
			for _, p := range rev {
				if nh.n > 0 && !nd.isNew[p] {
					oh.push(priority(seed, it, int(p)), p/int32(L))
				}
			}
			nd.newCn[v], nd.oldCn[v] = int32(nh.n), int32(oh.n)
		}
	})
	parallel.For(n, 256, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			cand := nd.newC[v*c : v*c+int(nd.newCn[v])]
			for p := v * L; p < (v+1)*L; p++ {
				if nd.isNew[p] && slices.Contains(cand, nd.list[p].idx) {
					nd.isNew[p] = false
				}
			}
		}
	})
}

// candHeap keeps the entries with the c smallest priorities offered, each
// point once.
type candHeap struct {
	pr  []uint64
	idx []int32
	n   int
	top int // position of the largest priority once full
}

func (h *candHeap) reset(idx []int32) { h.idx, h.n, h.top = idx, 0, 0 }

func (h *candHeap) push(pr uint64, j int32) {
	full := h.n == len(h.idx)
	if full && pr >= h.pr[h.top] {
		return
	}
	if slices.Contains(h.idx[:h.n], j) {
		return
	}
	if !full {
		h.pr[h.n], h.idx[h.n] = pr, j
		h.n++
		if h.n < len(h.idx) {
			return
		}
	} else {
		h.pr[h.top], h.idx[h.top] = pr, j
	}
	h.top = 0
	for t, v := range h.pr[:h.n] {
		if v > h.pr[h.top] {
			h.top = t
		}
	}
}

// csr is a compact adjacency: the entries of node i are adj[ptr[i]:ptr[i+1]].
type csr struct {
	ptr []int
	adj []int32
}

// reversePositions lists, for every point j, the positions p = i*L + slot
// of the lists that name j, in increasing order of p. It reuses r's memory.
func reversePositions(n, L int, list []entry, r csr) csr {
	if len(r.ptr) != n+1 {
		r.ptr = make([]int, n+1)
		r.adj = make([]int32, n*L)
	}
	clear(r.ptr)
	for _, e := range list[:n*L] {
		r.ptr[e.idx+1]++
	}
	for i := 0; i < n; i++ {
		r.ptr[i+1] += r.ptr[i]
	}
	next := append([]int(nil), r.ptr[:n]...)
	for p, e := range list[:n*L] {
		r.adj[next[e.idx]] = int32(p)
		next[e.idx]++
	}
	return r
}

// proposal says: point a may have b as a neighbour at distance dist.
type proposal struct {
	a, b int32
	dist float32
}

// proposals holds proposals by the group of their owner a: group g is
// points [g·applyGroup, (g+1)·applyGroup).
type proposals [][]proposal

func (ps proposals) add(a, b int32, d float32) {
	g := int(a) / applyGroup
	ps[g] = append(ps[g], proposal{a, b, d})
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
// up at a barrier. A piece of 64 consecutive points shares more candidates
// in its core's caches than one of 16: on the MNIST benchmark
// (bench/knn-side.py, two goroutines) the search took about 6 % less CPU
// time at the same wall time. The pieces do not change the result.
const (
	joinPiece  = 64
	applyGroup = 512
)

// chunked runs gen on chunks of [0, items) in parallel and applies the
// proposals after each chunk. Each piece of a chunk files its proposals by
// owner group; each group's lists are then changed by one goroutine, piece
// by piece in order, so the result does not depend on timing or on the
// number of goroutines. It returns the number of list entries changed.
func (nd *descentState) chunked(ctx context.Context, items int, gen func(lo, hi int, out proposals)) int {
	workers := parallel.Workers()
	groups := (nd.n + applyGroup - 1) / applyGroup
	bufs := make([]proposals, (joinChunk+joinPiece-1)/joinPiece)
	for p := range bufs {
		bufs[p] = make(proposals, groups)
	}
	updates := 0
	for lo := 0; lo < items && ctx.Err() == nil; lo += joinChunk {
		hi := min(lo+joinChunk, items)
		pieces := (hi - lo + joinPiece - 1) / joinPiece
		var claim atomic.Int64
		parallel.For(workers, 1, func(wlo, whi int) {
			for range whi - wlo {
				for p := int(claim.Add(1)) - 1; p < pieces; p = int(claim.Add(1)) - 1 {
					for g := range bufs[p] {
						bufs[p][g] = bufs[p][g][:0]
					}
					a := lo + p*joinPiece
					gen(a, min(a+joinPiece, hi), bufs[p])
				}
			}
		})
		var claimG, changed atomic.Int64
		parallel.For(workers, 1, func(wlo, whi int) {
			for range whi - wlo {
				for g := int(claimG.Add(1)) - 1; g < groups; g = int(claimG.Add(1)) - 1 {
					c := 0
					for _, buf := range bufs[:pieces] {
						for _, p := range buf[g] {
							if nd.insert(p.a, p.b, p.dist) {
								c++
							}
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
func (nd *descentState) localJoins(lo, hi int, out proposals) {
	for pos := lo; pos < hi; pos++ {
		v := nd.joinPoint(pos)
		newC := nd.newC[v*nd.cap : v*nd.cap+int(nd.newCn[v])]
		oldC := nd.oldC[v*nd.cap : v*nd.cap+int(nd.oldCn[v])]
		if len(newC) > 0 {
			nd.prefetchRows(newC)
			nd.prefetchRows(oldC)
		}
		for x, a := range newC {
			nd.joinPairs(out, a, newC[x+1:], nd.trees)
			nd.joinPairs(out, a, oldC, nd.trees)
		}
	}
}

// joinPoint is the point whose local join is pos-th.
func (nd *descentState) joinPoint(pos int) int {
	if nd.order != nil {
		return int(nd.order[pos])
	}
	return pos
}

// joinPairs compares point a with each point b of bs, in order, but a
// itself and the points that share a leaf of one of the first trees trees
// with it, and appends the proposals that would improve a list, or with a
// nil out inserts them at once (only a and bs may be in use elsewhere).
// Both give the same lists: a proposal skipped because a list had improved
// in the meantime is one that insert would reject.
func (nd *descentState) joinPairs(out proposals, a int32, bs []int32, trees int) {
	if nd.u8 == nil || !nd.leafExact || nd.keyWords != 2 {
		for _, b := range bs {
			if a != b && !nd.sharesLeaf(a, b, trees) {
				nd.propose(out, a, b, nd.d2Below(a, b, max(nd.worst[a], nd.worst[b])))
			}
		}
		return
	}
	wa := nd.worst[a]
	// Bytes and at most 8 trees: sharesLeaf and d2Below for a fixed a.
	const ones = 0x0001000100010001
	m0, m1 := laneMask(trees), laneMask(trees-4)
	keys, worst := nd.leafKey, nd.worst
	k0, k1 := keys[2*int(a)], keys[2*int(a)+1]
	ra, ta := nd.bytes(a)
	for _, b := range bs {
		kb := keys[2*int(b) : 2*int(b)+2]
		x0, x1 := k0^kb[0], k1^kb[1]
		if (x0-ones)&^x0&m0|(x1-ones)&^x1&m1 != 0 || a == b {
			continue
		}
		wb := worst[b]
		bound := wa // max(wa, wb) without the NaN and signed-zero cases, which distances do not have
		if wb > bound {
			bound = wb
		}
		ub := uint32(math.MaxUint32)
		if bound < math.MaxUint32 {
			ub = uint32(bound) // the ceiling: the sums are integers
			if float32(ub) < bound {
				ub++
			}
		}
		rb, tb := nd.bytes(b)
		d := float32(sqDistU8Dot(ra, rb, ta, tb, ub))
		if out == nil {
			if d < wa {
				nd.insert(a, b, d)
				wa = worst[a]
			}
			if d < wb {
				nd.insert(b, a, d)
			}
			continue
		}
		if d < wa {
			out.add(a, b, d)
		}
		if d < wb {
			out.add(b, a, d)
		}
	}
}

// laneMask is the top bits of the first r 16-bit lanes of a word (all four
// for r ≥ 4, none for r ≤ 0).
func laneMask(r int) uint64 {
	const tops = 0x8000800080008000
	switch {
	case r >= 4:
		return tops
	case r <= 0:
		return 0
	}
	return tops & (1<<(16*r) - 1)
}

// sharesLeaf reports whether points a and b share a leaf of one of the
// first trees trees. It compares four trees at once: a 16-bit lane of
// x = key_a XOR key_b is zero exactly when the keys agree, and
// (x − 0x0001…) AND NOT x AND 0x8000… has a lane's top bit set for the
// lowest zero lane (and maybe for lanes above it, never below), so that a
// masked result is non-zero exactly when one of the masked lanes is zero.
func (nd *descentState) sharesLeaf(a, b int32, trees int) bool {
	const ones, tops = 0x0001000100010001, 0x8000800080008000
	w := nd.keyWords
	ka, kb := nd.leafKey[int(a)*w:int(a)*w+w], nd.leafKey[int(b)*w:int(b)*w+w]
	for i := 0; 4*i < trees; i++ {
		x := ka[i] ^ kb[i]
		z := (x - ones) &^ x & tops
		if r := trees - 4*i; r < 4 {
			z &= 1<<(16*r) - 1
		}
		if z != 0 {
			return nd.leafExact || nd.sharesLeafOf(a, b, trees)
		}
	}
	return false
}

// sharesLeafOf is sharesLeaf by the full leaf numbers.
func (nd *descentState) sharesLeafOf(a, b int32, trees int) bool {
	la, lb := nd.leafOf[int(a)*nd.trees:int(a)*nd.trees+trees], nd.leafOf[int(b)*nd.trees:int(b)*nd.trees+trees]
	for t, l := range la {
		if lb[t] == l {
			return true
		}
	}
	return false
}

// propose appends the proposals of a pair at distance d that would improve
// a list, or with a nil out inserts them at once.
func (nd *descentState) propose(out proposals, a, b int32, d float32) {
	if out == nil {
		nd.insert(a, b, d)
		nd.insert(b, a, d)
		return
	}
	if d < nd.worst[a] {
		out.add(a, b, d)
	}
	if d < nd.worst[b] {
		out.add(b, a, d)
	}
}

// insert puts b into a's list at distance d if the list is not full yet or
// d beats its worst entry, and b is not already listed; it reports whether
// it did. A full list's worst distance is worst[a]: d replaces its first
// entry at that distance, and the largest of the others, with d, is the new
// worst. The distances are compared as their bits, which order non-negative
// floats as their values, so that the maxima take no branches.
func (nd *descentState) insert(a, b int32, d float32) bool {
	wa := nd.worst[a]
	if d >= wa || a == b {
		return false
	}
	lo := int(a) * nd.L
	c := int(nd.count[a])
	list := nd.list[lo : lo+c]
	for _, e := range list {
		if e.idx == b {
			return false
		}
	}
	if c < nd.L {
		nd.list[lo+c], nd.isNew[lo+c] = entry{b, d}, true
		nd.count[a]++
		if c+1 == nd.L {
			nd.worst[a] = maxDist(nd.list[lo:lo+c+1], 0)
		}
		return true
	}
	w := 0
	for list[w].dist != wa {
		w++
	}
	list[w], nd.isNew[lo+w] = entry{b, d}, true
	nd.worst[a] = maxDist(list, 0)
	return true
}

// maxDist returns the largest of m and the distances of list, all ≥ 0.
func maxDist(list []entry, m float32) float32 {
	mb := math.Float32bits(m)
	for _, e := range list {
		mb = max(mb, math.Float32bits(e.dist))
	}
	return math.Float32frombits(mb)
}

// result re-ranks every list by exact distance and keeps the k best. A
// float32 distance of integer points (exactInt) below 2²⁴ is already the
// exact integer SquaredDistance returns: every difference, square and
// partial sum is then an integer below 2²⁴, which float32 holds exactly,
// and a sum that reached 2²⁴ cannot be rounded back below it (the terms are
// non-negative and rounding is monotone). Other distances are recomputed in
// float64.
func (nd *descentState) result(k int) *Neighbors {
	nb := newNeighbors(nd.n, k)
	L := nd.L
	const exactBelow = 1 << 24
	parallel.For(nd.n, 256, func(lo, hi int) {
		cd := make([]float64, L)
		ci := make([]int32, L)
		for i := lo; i < hi; i++ {
			for p, e := range nd.list[i*L : (i+1)*L] {
				ci[p] = e.idx
				if nd.exactInt && e.dist < exactBelow {
					cd[p] = float64(e.dist)
				} else {
					cd[p] = nd.exact(int32(i), e.idx)
				}
			}
			sortPairs(cd, ci)
			idx, d2 := nb.Row(i)
			copy(idx, ci[:k])
			copy(d2, cd[:k])
		}
	})
	return nb
}

// exact returns SquaredDistance of points a and b: the exact integer
// computed on the bytes, or on the rows of x.
func (nd *descentState) exact(a, b int32) float64 {
	if nd.u8 != nil {
		return float64(nd.d2U8(a, b, math.MaxUint32))
	}
	raw := nd.x.RawMatrix()
	return SquaredDistance(row(raw.Data, raw.Stride, raw.Cols, int(a)), row(raw.Data, raw.Stride, raw.Cols, int(b)))
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
	if nd.u8 != nil {
		// A compact copy of the coordinates that split (splitLen of each
		// point): the trees read it in random order, and it is small
		// enough to stay in cache.
		m := min(nd.stride, splitLen)
		nd.prefix = make([]uint8, nd.n*m)
		for i := 0; i < nd.n; i++ {
			row, _ := nd.bytes(int32(i))
			copy(nd.prefix[i*m:(i+1)*m], row)
		}
		defer func() { nd.prefix = nil }()
	}
	parallel.For(trees, 1, func(lo, hi int) {
		scratch := splitScratch{normal: make([]float32, nd.stride), weights: make([]int16, min(nd.stride, splitLen))}
		for t := lo; t < hi; t++ {
			rng := rand.New(rand.NewPCG(seed, 0x7270747265650000+uint64(t))) // "rptree"
			perm := make([]int32, nd.n)
			for i := range perm {
				perm[i] = int32(i)
			}
			leaves := []int{0}
			nd.split(rng, perm, 0, leafSize, &leaves, &scratch)
			fs[t] = forest{perm, leaves}
		}
	})
	nd.order = fs[0].perm
	nd.setLeaves(trees, func(t int) (perm []int32, leaves []int) { return fs[t].perm, fs[t].leaves })
	// The leaves of one tree are disjoint, so each goroutine changes the
	// lists of its leaves' points directly: every list sees the proposals
	// of its leaf in each tree in turn, in the order the pairs are
	// compared, whatever the number of goroutines.
	for t, f := range fs {
		if ctx.Err() != nil {
			break
		}
		parallel.For(len(f.leaves)-1, 16, func(lo, hi int) {
			for l := lo + 1; l <= hi; l++ {
				// A cancelled search stops within 64 leaves, not a tree.
				if (l-lo)%64 == 0 && ctx.Err() != nil {
					return
				}
				pts := f.perm[f.leaves[l-1]:f.leaves[l]]
				nd.prefetchRows(pts)
				for x, a := range pts {
					// A pair that shares a leaf of an earlier tree was compared there.
					nd.joinPairs(nil, a, pts[x+1:], t)
				}
			}
		})
	}
	return ctx.Err()
}

// prefetchRows asks for the byte rows of points pts to be loaded into the
// cache, so that their misses overlap rather than stall the kernel one row
// after another (the first comparisons of a leaf or a local join read rows
// from memory). On the MNIST benchmark, one goroutine, the leaf joins took
// 50 ms instead of 61 and the whole search about 290 ms instead of 320
// (4 Dec 2026).
func (nd *descentState) prefetchRows(pts []int32) {
	if nd.u8 == nil {
		return
	}
	for _, i := range pts {
		prefetchLines(&nd.u8[int(i)*nd.rowLen], nd.rowLen/64)
	}
}

// setLeaves records the leaf of every point in each of the trees, whose
// points perm are cut into leaves at the ends leaves[1:].
func (nd *descentState) setLeaves(trees int, tree func(t int) (perm []int32, leaves []int)) {
	nd.trees, nd.keyWords, nd.leafExact = trees, max(2, (trees+3)/4), true
	nd.leafOf, nd.leafKey = make([]int32, nd.n*trees), make([]uint64, nd.n*nd.keyWords)
	for t := range trees {
		perm, leaves := tree(t)
		nd.leafExact = nd.leafExact && len(leaves) <= 1<<16
		for l := 1; l < len(leaves); l++ {
			for _, i := range perm[leaves[l-1]:leaves[l]] {
				nd.leafOf[int(i)*trees+t] = int32(l)
				nd.leafKey[int(i)*nd.keyWords+t/4] |= uint64(uint16(l)) << (16 * (t % 4))
			}
		}
	}
	if nd.leafExact {
		nd.leafOf = nil
	}
}

// splitScratch is the hyperplane of one split: normal for float32
// points, weights for bytes.
type splitScratch struct {
	normal  []float32 // nd.stride
	weights []int16   // the first splitLen bytes
}

// split partitions perm (points) recursively and appends leaf ends. A point
// x goes left when it is closer to a than to b (the hyperplane half-way
// between them). For float32 points that is u·x < (‖a‖² − ‖b‖²)/2 for
// u = a − b, with 2u·x = ‖u‖² + ‖x‖² − ‖u − x‖² from one vectorised squared
// distance. For bytes it is 2x·(b − a) < ‖b‖² − ‖a‖² on the first splitLen
// coordinates, in integers (exactly ‖x − a‖² < ‖x − b‖² there), from one
// vectorised dot product with 16-bit weights b − a.
func (nd *descentState) split(rng *rand.Rand, perm []int32, offset, leafSize int, leaves *[]int, sc *splitScratch) {
	if len(perm) <= leafSize {
		*leaves = append(*leaves, offset+len(perm))
		return
	}
	ia, ib := perm[rng.IntN(len(perm))], perm[rng.IntN(len(perm))]
	var left func(j int32) bool
	if nd.u8 != nil {
		m := len(sc.weights)
		u8 := func(i int32) []uint8 { return nd.prefix[int(i)*m : int(i+1)*m] }
		a, b := u8(ia), u8(ib)
		var thr int32 // ‖b‖² − ‖a‖²
		for t := range sc.weights {
			sc.weights[t] = int16(b[t]) - int16(a[t])
			thr += int32(b[t])*int32(b[t]) - int32(a[t])*int32(a[t])
		}
		left = func(j int32) bool { return 2*dotU8I16(u8(j), sc.weights) < thr }
	} else {
		a, b := nd.point(ia), nd.point(ib)
		var uu float32
		for t := range sc.normal {
			sc.normal[t] = a[t] - b[t]
			uu += sc.normal[t] * sc.normal[t]
		}
		off := nd.sqnorm[ia] - nd.sqnorm[ib]
		left = func(j int32) bool { return uu+nd.sqnorm[j]-gemm.SqDist16(sc.normal, nd.point(j)) < off }
	}
	lo, hi := 0, len(perm)
	for lo < hi {
		if left(perm[lo]) {
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
	nd.split(rng, perm[:lo], offset, leafSize, leaves, sc)
	nd.split(rng, perm[lo:], offset+lo, leafSize, leaves, sc)
}

// splitLen is the number of byte coordinates (those of most variance) whose
// hyperplanes split the random-projection trees: the leaves, and the recall
// of the search at the MNIST benchmark (bench/knn-side.py), are as good as
// with all 784, at a sixth of the cost.
const splitLen = 128
