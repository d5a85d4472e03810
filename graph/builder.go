package graph

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gssl/gssl/internal/parallel"
)

// Builder assembles a CSR from an edge list by counting, in two passes over
// the input and without per-edge structures of its own:
//
//  1. CountChunk(src, dst) for every edge: the length of every row;
//  2. FillChunk(src, dst, w) for the same edges, in any order and any
//     chunking: each entry is written to its place in its row;
//  3. Build: each row is sorted in place by (column, weight), repeated
//     entries are merged by the DuplicatePolicy, directed input is
//     symmetrised, and the graph is returned.
//
// CountChunk calls may run concurrently with each other, and so may FillChunk
// calls (each locks the row ranges it writes, a few hundred in all); every CountChunk must
// return before the first FillChunk starts, and every FillChunk before Build.
// The result does not depend on the order or chunking of the fill: rows are
// sorted by column and then weight, so repeats summed by DuplicateSum are
// always added in increasing order of weight.
//
// Directed input (every Symmetrization but Undirected) stores each arc
// (u, v) twice, as a forward entry in row u and as a tagged backward entry
// (the column's bitwise complement) in row v; Build merges, per row i and
// column j, the forward entries into A_ij and the backward ones into A_ji and
// writes W_ij = f(A_ij, A_ji). No transpose is formed.
//
// Memory. With E stored input entries (two per edge or arc between distinct
// nodes, one per self loop kept) and b bytes per entry, 4 for a graph built
// without weights and 12 with them, the Builder holds
//
//	8(n+1) + k·n + b·E + h·E/8   bytes
//
// (row pointers, fill cursors of k = 4 bytes, or 8 when E ≥ 2^32, the
// entries, and from 2^22 entries on the entries FillChunk holds by row range
// before it writes them, h = 8 bytes each, 16 with weights: an eighth of
// E). Build merges in place; when the merged graph keeps fewer than
// half the entries it is copied into arrays of its own size (peak
// 8(n+1) + k·n + 1.5·b·E), otherwise the arrays are kept. The graph adds its
// degrees (8n) and, with unit weights, a slice of ones as long as the
// longest row. For undirected input without repeats E is the graph's NNZ,
// so the peak is the final graph plus k·n − 8n + h·E/8 bytes (a quarter of
// a 0/1 graph's bytes at most);
// for directed input whose arcs are all reciprocated E is twice the NNZ.
//
// A builder without weights (weighted false in NewBuilder) stores no weight
// per entry when the policies cannot make a weight other than 1
// (DuplicateError or DuplicateMax with Undirected, DirectedMax or
// DirectedMutual); with DuplicateSum, DirectedSum or DirectedMean it stores
// them and Build drops them again if they all end up 1.
//
// After a method returns an error the Builder is unusable.
type Builder struct {
	n        int
	opt      Options
	directed bool
	weighted bool // FillChunk may be given weights
	// indptr counts row lengths at indptr[i+1] while counting, then holds
	// the row starts.
	indptr []int
	// cursor[i] is where the fill writes row i's next entry (then, in
	// Build, the merged row's length). When every position fits 32 bits
	// the cursors are cursor32 instead (cursor is nil): at scale each entry
	// of the fill reads and writes a random cursor, and at half the bytes
	// more of them stay in the last-level cache.
	cursor   []int
	cursor32 []uint32
	// FillChunk writes the rows of range p = i>>partShift holding parts[p].
	partShift uint
	parts     []parallel.Mutex
	cols      []int32
	ws        []float64                       // nil when every weight is 1
	scratches parallel.FreeList[*fillScratch] // FillChunk's scratch, one per concurrent call
	// held[p] and heldW[p] (with weights) are the entries of range p that
	// wait to be written, nil below minHeld entries (see hold).
	held  [][]fillEntry
	heldW [][]float64
	fill  sync.Once
	state atomic.Int32
	err   error // of the fill set-up
}

const (
	counting int32 = iota
	filling
	built
)

// NewBuilder returns a Builder of a graph on n nodes. weighted says whether
// FillChunk will be given weights (without them every weight is 1).
func NewBuilder(n int, weighted bool, opt Options) (*Builder, error) {
	if err := checkN(n); err != nil {
		return nil, err
	}
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	b := &Builder{
		n:        n,
		opt:      opt,
		directed: opt.Symmetrize != Undirected,
		weighted: weighted,
		indptr:   make([]int, n+1),
	}
	b.scratches.New = func() *fillScratch { return new(fillScratch) }
	return b, nil
}

// addInt atomically adds d to *p and returns the new value.
func addInt(p *int, d int) int {
	if unsafe.Sizeof(*p) == 8 {
		return int(atomic.AddInt64((*int64)(unsafe.Pointer(p)), int64(d)))
	}
	return int(atomic.AddInt32((*int32)(unsafe.Pointer(p)), int32(d)))
}

// checkArc validates one input edge against the node range and the
// self-loop policy; it reports whether the edge is stored.
func (b *Builder) checkArc(u, v int32) (bool, error) {
	switch {
	case u < 0 || int(u) >= b.n:
		return false, fmt.Errorf("graph: edge (%d, %d): node %d out of range [0, %d)", u, v, u, b.n)
	case v < 0 || int(v) >= b.n:
		return false, fmt.Errorf("graph: edge (%d, %d): node %d out of range [0, %d)", u, v, v, b.n)
	case u == v && b.opt.SelfLoops == SelfLoopError:
		return false, fmt.Errorf("graph: self loop on node %d (self-loop policy: error)", u)
	case u == v && b.opt.SelfLoops == SelfLoopDrop:
		return false, nil
	}
	return true, nil
}

// CountChunk counts the edges (src[k], dst[k]) (arcs, for directed input).
// It is safe for concurrent use. It panics if the slices differ in length or
// a fill has started.
func (b *Builder) CountChunk(src, dst []int32) error {
	if len(src) != len(dst) {
		panic(fmt.Sprintf("graph: Builder.CountChunk: %d sources and %d destinations", len(src), len(dst)))
	}
	if b.state.Load() != counting {
		panic("graph: Builder.CountChunk after FillChunk or Build")
	}
	for k, u := range src {
		v := dst[k]
		ok, err := b.checkArc(u, v)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		addInt(&b.indptr[u+1], 1)
		if u != v {
			addInt(&b.indptr[v+1], 1)
		}
	}
	return nil
}

// CountRow adds k entries to row i, for callers that counted the rows
// themselves (in another numbering of the nodes, say): CountChunk of an edge
// (u, v) is CountRow(u, 1) and, when u ≠ v, CountRow(v, 1); a self loop the
// policy drops counts nothing. It is safe for concurrent use. It panics if i
// is out of range, k < 0, or a fill has started.
func (b *Builder) CountRow(i int32, k int) {
	if i < 0 || int(i) >= b.n || k < 0 {
		panic(fmt.Sprintf("graph: Builder.CountRow(%d, %d) outside [0, %d)", i, k, b.n))
	}
	if b.state.Load() != counting {
		panic("graph: Builder.CountRow after FillChunk or Build")
	}
	addInt(&b.indptr[i+1], k)
}

// DuplicateEdgeError is the error of Build for a repeated entry under
// DuplicateError: the smallest (row, column) of W, for directed input of
// the arcs A, that the input gives more than once.
type DuplicateEdgeError struct {
	U, V     int
	Directed bool
}

func (e *DuplicateEdgeError) Error() string {
	msg := fmt.Sprintf("graph: duplicate edge (%d, %d) (duplicate policy: error; choose sum or max to merge)", e.U, e.V)
	if e.Directed {
		msg += " (arcs of directed input)"
	}
	return msg
}

// storesWeights reports whether the entries need a weight each.
// maxCursor32 is the most entries a Builder fills with 32-bit cursors
// (tests lower it to run the wide path).
var maxCursor32 uint64 = math.MaxUint32

func (b *Builder) storesWeights() bool {
	return b.weighted || b.opt.Duplicates == DuplicateSum ||
		b.opt.Symmetrize == DirectedSum || b.opt.Symmetrize == DirectedMean
}

// startFill turns the counts into row starts and allocates the entries.
func (b *Builder) startFill() {
	b.state.Store(filling)
	p := b.indptr
	for i := 0; i < b.n; i++ {
		if p[i+1] > math.MaxInt32 {
			b.err = fmt.Errorf("graph: node %d has %d entries, more than %d", i, p[i+1], math.MaxInt32)
			return
		}
		p[i+1] += p[i]
	}
	if uint64(p[b.n]) <= maxCursor32 {
		b.cursor32 = make([]uint32, b.n)
		for i, v := range p[:b.n] {
			b.cursor32[i] = uint32(v)
		}
	} else {
		b.cursor = make([]int, b.n)
		copy(b.cursor, p[:b.n])
	}
	for b.n>>b.partShift >= maxFillParts {
		b.partShift++
	}
	b.parts = make([]parallel.Mutex, b.n>>b.partShift+1)
	b.cols = make([]int32, p[b.n])
	if b.storesWeights() {
		b.ws = make([]float64, p[b.n])
	}
	if p[b.n] >= minHeld {
		parts := len(b.parts)
		per := max(1, p[b.n]/heldShare/parts)
		b.held = emptySlices[fillEntry](parts, per)
		if b.ws != nil {
			b.heldW = emptySlices[float64](parts, per)
		}
	}
}

// emptySlices returns k empty slices of capacity c each, over one array.
func emptySlices[T any](k, c int) [][]T {
	all := make([]T, k*c)
	s := make([][]T, k)
	for q := range s {
		s[q] = all[q*c : q*c : (q+1)*c]
	}
	return s
}

// minHeld is the fewest entries from which FillChunk holds entries by row
// range before it writes them (hold): below, the entries and cursors stay
// in the caches anyway. Tests lower it.
var minHeld = 1 << 22

// heldShare: the held entries take 1/heldShare of the entries' count (8
// bytes each, 16 with weights), so that a range's held entries, written
// together, are about two for each cache line of the range's columns.
var heldShare = 8

// FillChunk stores the edges (src[k], dst[k]) with weights w[k]; w nil means
// weight 1. It must see exactly the edges CountChunk counted, in any order.
// It is safe for concurrent use. It panics if the slices differ in length,
// if w is not nil for a builder made without weights, or after Build.
func (b *Builder) FillChunk(src, dst []int32, w []float64) error {
	if len(src) != len(dst) || (w != nil && len(w) != len(src)) {
		panic(fmt.Sprintf("graph: Builder.FillChunk: %d sources, %d destinations and %d weights", len(src), len(dst), len(w)))
	}
	if w != nil && !b.weighted {
		panic("graph: Builder.FillChunk: weights given to a builder made without weights")
	}
	b.fill.Do(b.startFill)
	if b.err != nil {
		return b.err
	}
	if b.state.Load() != filling {
		panic("graph: Builder.FillChunk after Build")
	}
	sc := b.scratches.Get()
	defer b.scratches.Put(sc)
	for lo := 0; lo < len(src); lo += fillBatch {
		hi := min(lo+fillBatch, len(src))
		var wk []float64
		if w != nil {
			wk = w[lo:hi]
		}
		if err := b.fillSome(sc, src[lo:hi], dst[lo:hi], wk); err != nil {
			return err
		}
	}
	return nil
}

// fillBatch is the most edges FillChunk sorts by row range at a time: its
// scratch (32 bytes an edge, 256 KiB) stays in the L2 cache, and each of
// up to maxFillParts ranges gets about 64 entries a lock. The size is the
// fastest of those tried on the 100M-edge load of scripts/bench-scale.sh.
const fillBatch = 8192

// fillSome is FillChunk for at most fillBatch edges.
func (b *Builder) fillSome(sc *fillScratch, src, dst []int32, w []float64) error {
	if err := b.collect(sc, src, dst, w); err != nil {
		return err
	}
	// Sort the entries by row range, then write each range's entries
	// holding its lock.
	sorted, sortedW, ends := b.sortByRange(sc)
	// Concurrent fills visit the ranges from different starts (the first
	// entry's), so that they seldom meet at one range's lock.
	start := 0
	if len(sc.entries) > 0 {
		start = int(sc.entries[0].row >> b.partShift)
	}
	parts := len(b.parts)
	for q := range parts {
		p := (start + q) % parts
		lo, hi := int32(0), ends[p]
		if p > 0 {
			lo = ends[p-1]
		}
		if hi > lo {
			var ws []float64
			if sortedW != nil {
				ws = sortedW[lo:hi]
			}
			b.parts[p].Lock()
			err := b.hold(p, sorted[lo:hi], ws)
			b.parts[p].Unlock()
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// collect checks the edges (src[k], dst[k]) with weights w[k] (nil: 1) and
// sets sc.entries (and sc.weights, when the Builder stores weights) to
// their entries: one for a self loop, else one in each row.
func (b *Builder) collect(sc *fillScratch, src, dst []int32, w []float64) error {
	// The scratch grows to the largest call (two entries an edge), so that
	// a small graph's fill allocates in proportion to its edges.
	if need := 2 * len(src); cap(sc.entries) < need {
		sc.entries, sc.sorted = make([]fillEntry, 0, need), make([]fillEntry, need)
	}
	if need := 2 * len(src); b.ws != nil && cap(sc.weights) < need {
		sc.weights, sc.sortedW = make([]float64, 0, need), make([]float64, need)
	}
	es, xs := sc.entries[:0], sc.weights[:0]
	for k, u := range src {
		v := dst[k]
		ok, err := b.checkArc(u, v)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		x := 1.0
		if w != nil {
			x = w[k]
			if err := checkEdgeWeight(u, v, x); err != nil {
				return err
			}
		}
		es = append(es, fillEntry{row: u, col: v})
		if b.ws != nil {
			xs = append(xs, x)
		}
		if u != v {
			t := u
			if b.directed {
				t = ^u // a backward entry: arc (u, v) seen from row v
			}
			es = append(es, fillEntry{row: v, col: t})
			if b.ws != nil {
				xs = append(xs, x)
			}
		}
	}
	sc.entries, sc.weights = es, xs
	return nil
}

// checkEdgeWeight returns an error unless the weight x of edge (u, v) is
// finite and non-negative.
func checkEdgeWeight(u, v int32, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("graph: edge (%d, %d): weight %v is not finite", u, v, x)
	}
	if x < 0 {
		return fmt.Errorf("graph: edge (%d, %d): weight %v is negative; weights must be ≥ 0", u, v, x)
	}
	return nil
}

// sortByRange sorts sc's entries (and weights) by row range, by a counting
// sort into sc.sorted (and sc.sortedW, nil without weights), and returns
// them with the ranges' ends: range p's entries are sorted[ends[p−1]:ends[p]]
// (from 0 for p = 0).
func (b *Builder) sortByRange(sc *fillScratch) (sorted []fillEntry, sortedW []float64, ends []int32) {
	es, xs := sc.entries, sc.weights
	parts := len(b.parts)
	if cap(sc.ends) < parts+1 {
		sc.ends = make([]int32, parts+1)
	}
	ends = sc.ends[:parts+1]
	clear(ends)
	for _, e := range es {
		ends[e.row>>b.partShift+1]++
	}
	for p := 1; p <= parts; p++ {
		ends[p] += ends[p-1]
	}
	sorted = sc.sorted[:len(es)]
	if b.ws != nil {
		sortedW = sc.sortedW[:len(es)]
		for k, e := range es {
			p := e.row >> b.partShift
			sorted[ends[p]], sortedW[ends[p]] = e, xs[k]
			ends[p]++
		}
	} else {
		for _, e := range es {
			p := e.row >> b.partShift
			sorted[ends[p]] = e
			ends[p]++
		}
	}
	return sorted, sortedW, ends
}

// fillEntry is one entry of a FillChunk call on its way to its row (its
// weight, if the Builder stores weights, travels beside it).
type fillEntry struct {
	row, col int32
}

// fillScratch is a FillChunk call's scratch: its entries and weights, the
// same sorted by row range, and the ranges' ends.
type fillScratch struct {
	entries, sorted  []fillEntry
	weights, sortedW []float64
	ends             []int32
}

// hold adds the entries es of range p (weights ws, nil without) to the
// range's held entries, and writes those when they fill their share; the
// caller holds the range's lock. At scale, writing an entry at once costs
// two cache misses, on its row's cursor and on its column's place: the
// cursors of a range take 4·n/256 bytes and its columns 4·nnz/256, so
// written together its held entries find the cursors in the second-level
// cache and about two entries to each line of columns fetched.
func (b *Builder) hold(p int, es []fillEntry, ws []float64) error {
	if b.held == nil {
		return b.put(es, ws)
	}
	for len(es) > 0 {
		h := b.held[p]
		k := min(len(es), cap(h)-len(h))
		b.held[p] = append(h, es[:k]...)
		if b.heldW != nil {
			b.heldW[p] = append(b.heldW[p], ws[:k]...)
			ws = ws[k:]
		}
		es = es[k:]
		if len(b.held[p]) == cap(b.held[p]) {
			if err := b.writeHeld(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeHeld writes the held entries of range p and empties them.
func (b *Builder) writeHeld(p int) error {
	var ws []float64
	if b.heldW != nil {
		ws = b.heldW[p]
		b.heldW[p] = ws[:0]
	}
	err := b.put(b.held[p], ws)
	b.held[p] = b.held[p][:0]
	return err
}

// maxFillParts is the largest number of row ranges FillChunk locks
// separately: enough that concurrent fills rarely wait for each other,
// few enough that a chunk of a few thousand edges has several entries per
// range.
const maxFillParts = 256

// put writes each entry to the next free place of its row. The caller holds
// the lock of the entries' row range, so the cursors need no atomic
// operations: a fill at scale is a random write per entry, and plain
// increments let the processor overlap the cache misses of consecutive
// entries, which locked read-modify-writes serialise. The cursor holds the
// position itself, so an entry costs a read of the cursors and of the
// row's end (both lines of the range, in cache) and one write of the
// entries. A row filled with more entries than were counted is an error
// here, before it would reach the next row's places (which may belong to
// another range, written under another lock); Build finds the rows filled
// short.
// The entries' weights are xs (nil when the Builder stores none).
func (b *Builder) put(es []fillEntry, xs []float64) error {
	if b.cursor32 != nil {
		return put(b.cursor32, b.indptr[1:], b.cols, b.ws, es, xs)
	}
	return put(b.cursor, b.indptr[1:], b.cols, b.ws, es, xs)
}

// put is Builder.put with the cursors in either width; ends[i] is the end
// of row i's places.
func put[P uint32 | int](cursor []P, ends []int, cols []int32, ws []float64, es []fillEntry, xs []float64) error {
	for k, e := range es {
		p := cursor[e.row]
		if int(p) >= ends[e.row] {
			return fmt.Errorf("graph: Builder: node %d is filled with more entries than were counted", e.row)
		}
		cursor[e.row] = p + 1
		cols[p] = e.col
		if ws != nil {
			ws[p] = xs[k]
		}
	}
	return nil
}

// cursorAt returns cursor i, whichever array holds it.
func (b *Builder) cursorAt(i int) int {
	if b.cursor32 != nil {
		return int(b.cursor32[i])
	}
	return b.cursor[i]
}

// setCursor sets cursor i to v (v fits the array: it is at most the
// cursor's value during the fill).
func (b *Builder) setCursor(i, v int) {
	if b.cursor32 != nil {
		b.cursor32[i] = uint32(v)
		return
	}
	b.cursor[i] = v
}

// mergeWork is the number of entries per task of Build's row merge.
const mergeWork = 1 << 14

// Build sorts and merges the rows and returns the graph. It fails when the
// fill did not match the count, on a repeated entry under DuplicateError
// (a *DuplicateEdgeError), and for the
// reasons of CountChunk and FillChunk.
func (b *Builder) Build() (*CSR, error) {
	b.fill.Do(b.startFill)
	if b.err != nil {
		return nil, b.err
	}
	if !b.state.CompareAndSwap(filling, built) {
		panic("graph: Builder.Build called twice")
	}
	if err := b.writeAllHeld(); err != nil {
		return nil, err
	}
	n, indptr := b.n, b.indptr
	for i := 0; i < n; i++ {
		if c := b.cursorAt(i); c != indptr[i+1] {
			return nil, fmt.Errorf("graph: Builder: node %d was counted with %d entries and filled with %d", i, indptr[i+1]-indptr[i], c-indptr[i])
		}
	}
	selfLoops, shrank, err := b.mergeRows()
	if err != nil {
		return nil, err
	}
	out := indptr[n]
	if shrank {
		out = b.closeGaps()
	}
	cols, ws := b.cols[:out], b.ws
	if ws != nil {
		ws = ws[:out]
	}
	if out < len(b.cols)/2 {
		cols = slices.Clone(cols)
		if ws != nil {
			ws = slices.Clone(ws)
		}
	}
	b.cursor, b.cursor32, b.cols, b.ws, b.indptr = nil, nil, nil, nil, nil
	return finishLoops(n, indptr, cols, ws, selfLoops), nil
}

// writeAllHeld writes the entries every row range still holds and drops
// the held buffers.
func (b *Builder) writeAllHeld() error {
	if b.held == nil {
		return nil
	}
	errs := make([]error, len(b.held))
	parallel.Chunks(len(b.held), 1, func(p, _, _ int) { errs[p] = b.writeHeld(p) })
	b.held, b.heldW = nil, nil
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// mergeRows sorts and merges every row in place, its new length going to
// its cursor. It returns the number of self loops of the merged rows, and
// whether some row merged repeated entries (shrank); under DuplicateError a
// repeat is a *DuplicateEdgeError for the lowest row with one.
func (b *Builder) mergeRows() (selfLoops int, shrank bool, err error) {
	indptr := b.indptr
	var mu sync.Mutex
	dupRow, dupCol := -1, int32(-1)
	var loopCount atomic.Int64 // counted on the merged rows, while in cache
	var anyShrank atomic.Bool  // some row merged repeated entries
	parallel.Balanced(indptr, mergeWork, func(lo, hi int) {
		loops, shrankHere := 0, false
		defer func() {
			loopCount.Add(int64(loops))
			if shrankHere {
				anyShrank.Store(true)
			}
		}()
		for i := lo; i < hi; i++ {
			m, col, dup := b.mergeRow(i)
			b.setCursor(i, m)
			shrankHere = shrankHere || m != indptr[i+1]-indptr[i]
			for _, c := range b.cols[indptr[i] : indptr[i]+m] {
				if int(c) == i {
					loops++
				}
			}
			if dup {
				mu.Lock()
				if dupRow < 0 || i < dupRow {
					dupRow, dupCol = i, col
				}
				mu.Unlock()
				return // rows after i in this task cannot be the first
			}
		}
	})
	if dupRow >= 0 {
		return 0, false, &DuplicateEdgeError{U: dupRow, V: int(dupCol), Directed: b.directed}
	}
	return int(loopCount.Load()), anyShrank.Load(), nil
}

// closeGaps moves the merged rows (row i's length in its cursor) together,
// rows moving only towards the start, updates indptr and returns the
// number of entries.
func (b *Builder) closeGaps() int {
	n, indptr := b.n, b.indptr
	out := 0
	for i := 0; i < n; i++ {
		lo, m := indptr[i], b.cursorAt(i)
		indptr[i] = out
		if out != lo {
			copy(b.cols[out:out+m], b.cols[lo:lo+m])
			if b.ws != nil {
				copy(b.ws[out:out+m], b.ws[lo:lo+m])
			}
		}
		out += m
	}
	indptr[n] = out
	return out
}

// mergeRow sorts row i and merges it in place. It returns the merged length
// and, for a repeat under DuplicateError, the column repeated.
func (b *Builder) mergeRow(i int) (m int, dupCol int32, dup bool) {
	lo, hi := b.indptr[i], b.indptr[i+1]
	cols := b.cols[lo:hi]
	var ws []float64
	if b.ws != nil {
		ws = b.ws[lo:hi]
	}
	if !b.directed {
		sortEntries(cols, ws, false)
		return b.mergeUndirected(cols, ws)
	}
	sortEntries(cols, ws, true)
	return b.mergeDirected(i, cols, ws)
}

// mergeUndirected merges repeated columns of a sorted row.
func (b *Builder) mergeUndirected(cols []int32, ws []float64) (int, int32, bool) {
	out := 0
	for p, c := range cols {
		if out > 0 && cols[out-1] == c {
			switch b.opt.Duplicates {
			case DuplicateError:
				return out, c, true
			case DuplicateSum:
				ws[out-1] += ws[p]
			case DuplicateMax:
				if ws != nil {
					ws[out-1] = math.Max(ws[out-1], ws[p])
				}
			}
			continue
		}
		cols[out] = c
		if ws != nil {
			ws[out] = ws[p]
		}
		out++
	}
	return out, 0, false
}

// untag returns the column of an entry of directed input and whether it is
// a backward entry.
func untag(c int32) (int32, bool) {
	if c < 0 {
		return ^c, true
	}
	return c, false
}

// sortKey orders the entries of a directed row by column, forward before
// backward.
func sortKey(c int32) int64 {
	if c < 0 {
		return 2*int64(^c) + 1
	}
	return 2 * int64(c)
}

// mergeDirected writes W_ij = f(A_ij, A_ji) for every column j of row i,
// sorted by (column, direction, weight), in place.
func (b *Builder) mergeDirected(i int, cols []int32, ws []float64) (int, int32, bool) {
	how, dupPolicy := b.opt.Symmetrize, b.opt.Duplicates
	out := 0
	p := 0
	// group merges the run of entries from p with the same tagged column
	// (one direction of one column) by the duplicate policy.
	group := func() (w float64, repeated bool) {
		t := cols[p]
		w = 1
		if ws != nil {
			w = ws[p]
		}
		p++
		for p < len(cols) && cols[p] == t {
			repeated = true
			if ws != nil {
				switch dupPolicy {
				case DuplicateSum:
					w += ws[p]
				case DuplicateMax:
					w = math.Max(w, ws[p])
				}
			}
			p++
		}
		return w, repeated
	}
	for p < len(cols) {
		c, back := untag(cols[p])
		var a, t float64
		hasA, hasT := false, false
		if !back {
			var rep bool
			a, rep = group()
			hasA = true
			if rep && dupPolicy == DuplicateError {
				return out, c, true
			}
		}
		if p < len(cols) && cols[p] == ^c {
			t, _ = group() // repeats here are reported as forward ones in row c
			hasT = true
		}
		var w float64
		switch {
		case int(c) == i: // a self loop is its own transpose
			w = a
		case hasA && hasT:
			switch how {
			case DirectedMax:
				w = math.Max(a, t)
			case DirectedSum:
				w = a + t
			case DirectedMean:
				w = (a + t) / 2
			case DirectedMutual:
				w = math.Min(a, t)
			}
		case how == DirectedMutual:
			continue
		case hasA && how == DirectedMean:
			w = a / 2
		case hasA:
			w = a
		case how == DirectedMean:
			w = t / 2
		default:
			w = t
		}
		cols[out] = c
		if ws != nil {
			ws[out] = w
		}
		out++
	}
	return out, 0, false
}

// sortEntries sorts a row by column (for directed rows: by column, forward
// entries first) and then by weight.
func sortEntries(cols []int32, ws []float64, directed bool) {
	switch {
	case ws == nil && !directed && len(cols) <= shortRow:
		networkSort(cols)
	case ws == nil && !directed:
		slices.Sort(cols)
	case ws == nil:
		slices.SortFunc(cols, func(a, b int32) int { return cmp.Compare(sortKey(a), sortKey(b)) })
	default:
		sort.Sort(rowSorter{cols, ws, directed})
	}
}

// shortRow is the longest row Build sorts by a sorting network
// (networkSort); longer rows go to slices.Sort, whose partitioning pays
// there.
const shortRow = 32

// rowSorter sorts the entries of a row with weights.
type rowSorter struct {
	cols     []int32
	ws       []float64
	directed bool
}

func (r rowSorter) Len() int { return len(r.cols) }

func (r rowSorter) Less(i, j int) bool {
	ci, cj := int64(r.cols[i]), int64(r.cols[j])
	if r.directed {
		ci, cj = sortKey(r.cols[i]), sortKey(r.cols[j])
	}
	if ci != cj {
		return ci < cj
	}
	return r.ws[i] < r.ws[j]
}

func (r rowSorter) Swap(i, j int) {
	r.cols[i], r.cols[j] = r.cols[j], r.cols[i]
	r.ws[i], r.ws[j] = r.ws[j], r.ws[i]
}
