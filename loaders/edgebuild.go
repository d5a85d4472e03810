package loaders

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/nodeids"
)

// tableEdges is an edge table that LoadNodes turns into a graph without
// holding its rows: the first pass (readTableEdges) numbers the ids and
// counts the entries of every node's row, the second (build, once every
// file is read and the numbering is final) reads the file again and fills a
// graph.Builder from its rows. Memory is then the Builder's (about the final
// graph), the counts (8 bytes per node) and one read buffer, where holding
// the rows would add 12 bytes per edge (20 with weights) and the copy into
// []graph.Edge with their lines another 32.
//
// The lines of the edges are not kept either: errors found in the first
// pass (a malformed row, a bad weight, the first self loop a policy
// rejects, the first id outside --nodes) carry their line from there, and a
// repeated edge, which only the Builder sees, is traced back to its two
// lines by more passes over the file (firstRepeat) on that error only. A
// line per edge (4 bytes) would make the error cheaper to report but would
// be held on every load for the sake of the one that fails.
//
// A file that cannot be read twice (a pipe, a terminal: not a regular file)
// keeps its rows in an EdgeTable instead, and the Builder is filled from it.
type tableEdges struct {
	path   string
	opt    EdgeTableOptions
	loops  graph.SelfLoopPolicy
	b      *nodeids.Builder
	fixed  int   // > 0: ids beyond the first fixed provisional ones are errors
	counts []int // entries of each provisional node's row
	edges  int
	unit   bool // every weight is 1

	loopLine int   // the first self loop, for SelfLoopError
	loopNode int32 // (provisional)
	outLine  int   // the first line naming a node beyond fixed

	rows *EdgeTable // the rows when the file cannot be read again
	size int64      // the file's size and time, to notice a change
	mod  time.Time

	report TableReport // from the first pass

	ids  [2]int32 // the current row's
	line int
}

// readTableEdges is the first pass over an edge table: it checks every row
// as ReadEdgeTable does, numbers the ids by b and counts the row lengths
// the graph will have under the self-loop policy loops (SelfLoopError
// counts no self loop and remembers the first). fixed > 0 marks the first
// line with an id beyond the fixed provisional nodes (see outLine).
func readTableEdges(path string, opt EdgeTableOptions, loops graph.SelfLoopPolicy, b *nodeids.Builder, fixed int) (*tableEdges, error) {
	te := &tableEdges{path: path, opt: opt, loops: loops, b: b, fixed: fixed, unit: true}
	_, err := readFile(path, func(lr *lineReader) (struct{}, error) {
		st, err := lr.closer.(*os.File).Stat()
		if err != nil {
			return struct{}{}, fmt.Errorf("loaders: %w", err)
		}
		if st.Mode().IsRegular() {
			te.size, te.mod = st.Size(), st.ModTime()
		} else {
			te.rows = &EdgeTable{}
		}
		var w edgeWalk
		w, err = walkEdgeTable(lr, opt, te)
		te.report = w.report
		return struct{}{}, err
	})
	if err != nil {
		return nil, err
	}
	if te.rows != nil && te.unit {
		te.rows.W = nil
	}
	return te, nil
}

func (te *tableEdges) id(k, line int, id string) error {
	i, err := te.b.Add(id)
	if err != nil {
		return &ParseError{Path: te.path, Line: line, Msg: err.Error()}
	}
	te.ids[k], te.line = i, line
	if k == 0 {
		return nil
	}
	for len(te.counts) < te.b.Len() {
		te.counts = append(te.counts, 0)
	}
	u, v := te.ids[0], te.ids[1]
	if te.fixed > 0 && te.outLine == 0 && (int(u) >= te.fixed || int(v) >= te.fixed) {
		te.outLine = line
	}
	switch {
	case u != v:
		te.counts[u]++
		te.counts[v]++
	case te.loops == graph.SelfLoopError:
		if te.loopLine == 0 {
			te.loopLine, te.loopNode = line, u
		}
	case te.loops != graph.SelfLoopDrop:
		te.counts[u]++
	}
	return nil
}

func (te *tableEdges) weight(w float64, weighted bool) error {
	te.edges++
	te.unit = te.unit && w == 1
	if te.rows != nil {
		r := tableRows{et: te.rows, ids: te.ids, line: te.line}
		return r.weight(w, weighted)
	}
	return nil
}

// errChanged reports a file whose second reading differs from its first.
func (te *tableEdges) errChanged() error {
	return &ParseError{Path: te.path, Msg: "the file changed while it was read"}
}

// errStop ends an each walk early.
var errStop = errors.New("loaders: stop")

// each calls fn with every edge in file order, its nodes given by ids (and,
// for rows kept in memory, perm from the provisional numbering). fn may
// return errStop to end the walk without an error.
func (te *tableEdges) each(ids *nodeids.Map, perm []int32, fn func(u, v int32, w float64, line int) error) error {
	if et := te.rows; et != nil {
		for k := range et.Src {
			u, v := et.Src[k], et.Dst[k]
			if perm != nil {
				u, v = perm[u], perm[v]
			}
			w := 1.0
			if et.W != nil {
				w = et.W[k]
			}
			if err := fn(u, v, w, int(et.Lines[k])); err != nil {
				if err == errStop {
					return nil
				}
				return err
			}
		}
		return nil
	}
	if st, err := inputfile.Stat(te.path); err != nil {
		return fmt.Errorf("loaders: %w", err)
	} else if st.Size() != te.size || !st.ModTime().Equal(te.mod) {
		return te.errChanged()
	}
	r := &lookupRows{te: te, ids: ids, fn: fn}
	_, err := readFile(te.path, func(lr *lineReader) (struct{}, error) {
		_, err := walkEdgeTable(lr, te.opt, r)
		return struct{}{}, err
	})
	switch {
	case err == errStop:
		return nil
	case err != nil:
		return err
	case r.edges != te.edges:
		return te.errChanged()
	}
	return nil
}

// lookupRows hands the rows of a second reading to fn with the final node
// indices of their ids.
type lookupRows struct {
	te    *tableEdges
	ids   *nodeids.Map
	fn    func(u, v int32, w float64, line int) error
	uv    [2]int32
	line  int
	edges int
}

func (r *lookupRows) id(k, line int, id string) error {
	i, ok := r.ids.Lookup(id)
	if !ok {
		return r.te.errChanged()
	}
	r.uv[k], r.line = int32(i), line
	return nil
}

func (r *lookupRows) weight(w float64, _ bool) error {
	r.edges++
	return r.fn(r.uv[0], r.uv[1], w, r.line)
}

// node returns the final index of provisional node p.
func node(perm []int32, p int32) int32 {
	if perm == nil {
		return p
	}
	return perm[p]
}

// fill makes the Builder of the graph on n nodes and fills it: the row
// lengths from the first pass, the entries from the second.
func (te *tableEdges) fill(ids *nodeids.Map, perm []int32, n int, opt graph.Options) (*graph.Builder, error) {
	weighted := !te.unit
	b, err := graph.NewBuilder(n, weighted, opt)
	if err != nil {
		return nil, err
	}
	for p, c := range te.counts {
		if c > 0 {
			b.CountRow(node(perm, int32(p)), c)
		}
	}
	te.counts = nil
	size := min(te.edges, fillBatch)
	src, dst := make([]int32, 0, size), make([]int32, 0, size)
	var ws []float64
	if weighted {
		ws = make([]float64, 0, size)
	}
	flush := func() error {
		err := b.FillChunk(src, dst, ws)
		src, dst = src[:0], dst[:0]
		if ws != nil {
			ws = ws[:0]
		}
		return err
	}
	err = te.each(ids, perm, func(u, v int32, w float64, _ int) error {
		src, dst = append(src, u), append(dst, v)
		if ws != nil {
			ws = append(ws, w)
		}
		if len(src) == cap(src) {
			return flush()
		}
		return nil
	})
	if err == nil && len(src) > 0 {
		err = flush()
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// userID is node i as the user's files name it, quoted as the edge-list
// reader's errors quote it (the index itself when the map is missing or
// does not hold it): errors speak of the user's ids.
func userID(ids *nodeids.Map, i int) string {
	if ids == nil || i < 0 || i >= ids.Len() {
		return strconv.Itoa(i)
	}
	return strconv.Quote(ids.ID(i))
}

// fillBatch is the number of edges handed to the Builder at a time (as
// graph.FromEdges does): small enough for the batch to stay in cache.
const fillBatch = 4096

// build returns the graph on n nodes (ids and perm from the final
// numbering) with the errors of edgeList.build: the first self loop
// SelfLoopError rejects, then the repeated edge whose second occurrence
// comes first under DuplicateError, named by the file's lines.
func (te *tableEdges) build(ids *nodeids.Map, perm []int32, n int, opt graph.Options) (*graph.CSR, error) {
	if opt.SelfLoops == graph.SelfLoopError && te.loopLine > 0 {
		return nil, &ParseError{Path: te.path, Line: te.loopLine, Msg: fmt.Sprintf("self loop on node %s (self-loop policy: error)", userID(ids, int(node(perm, te.loopNode))))}
	}
	b, err := te.fill(ids, perm, n, opt)
	if err == nil {
		var g *graph.CSR
		if g, err = b.Build(); err == nil {
			return g, nil
		}
	}
	var pe *ParseError
	if errors.As(err, &pe) {
		return nil, err // from reading the file
	}
	if opt.Duplicates == graph.DuplicateError {
		first, line, u, v, ok, ferr := te.firstRepeat(ids, perm, n, opt)
		if ferr != nil {
			return nil, ferr
		}
		if ok {
			return nil, &ParseError{Path: te.path, Line: line, Msg: fmt.Sprintf("edge (%s, %s) repeats line %d (duplicate policy: error; choose sum or max to merge)", userID(ids, int(u)), userID(ids, int(v)), first)}
		}
	}
	return nil, &ParseError{Path: te.path, Err: err}
}

// firstRepeat finds what edgeList.firstDuplicate finds, the edge (u, v) on
// line whose pair (for directed input: arc) an earlier line first gave, line
// being the smallest such, in memory bounded by the graph rather than by a
// set of the pairs seen: it sorts the distinct pairs into rows (a pass to
// count them, one to place them), then walks the edges marking each pair's
// place in a bitmap until one is marked twice, and walks again to the first
// line of that pair. Self loops that opt drops are not repeats.
func (te *tableEdges) firstRepeat(ids *nodeids.Map, perm []int32, n int, opt graph.Options) (first, line int, u, v int32, ok bool, err error) {
	key := func(u, v int32) (int32, int32, bool) {
		if u == v && opt.SelfLoops == graph.SelfLoopDrop {
			return 0, 0, false
		}
		if opt.Symmetrize == graph.Undirected && u > v {
			u, v = v, u
		}
		return u, v, true
	}
	start := make([]int, n+1)
	if err := te.each(ids, perm, func(u, v int32, _ float64, _ int) error {
		if r, _, ok := key(u, v); ok {
			start[r+1]++
		}
		return nil
	}); err != nil {
		return 0, 0, 0, 0, false, err
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}
	cols := make([]int32, start[n])
	if err := te.each(ids, perm, func(u, v int32, _ float64, _ int) error {
		if r, c, ok := key(u, v); ok {
			if start[r] >= len(cols) {
				return te.errChanged()
			}
			cols[start[r]] = c
			start[r]++
		}
		return nil
	}); err != nil {
		return 0, 0, 0, 0, false, err
	}
	// start[r] is now the end of row r: shift the starts back.
	copy(start[1:], start[:n])
	start[0] = 0
	for r := 0; r < n; r++ {
		slices.Sort(cols[start[r]:start[r+1]])
	}
	seen := make([]uint64, (len(cols)+63)/64)
	var kr, kc int32
	if err := te.each(ids, perm, func(a, b int32, _ float64, l int) error {
		r, c, keep := key(a, b)
		if !keep {
			return nil
		}
		row := cols[start[r]:start[r+1]]
		p, found := slices.BinarySearch(row, c) // the pair's first place
		if !found {
			return te.errChanged()
		}
		p += start[r]
		if seen[p/64]&(1<<(p%64)) != 0 {
			line, u, v, kr, kc, ok = l, a, b, r, c, true
			return errStop
		}
		seen[p/64] |= 1 << (p % 64)
		return nil
	}); err != nil || !ok {
		return 0, 0, 0, 0, false, err
	}
	cols, seen = nil, nil
	if err := te.each(ids, perm, func(a, b int32, _ float64, l int) error {
		if r, c, keep := key(a, b); keep && r == kr && c == kc {
			first = l
			return errStop
		}
		return nil
	}); err != nil {
		return 0, 0, 0, 0, false, err
	}
	return first, line, u, v, true, nil
}
