package loaders

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/nodeids"
)

// ErrNotFast is returned by ReadIntEdgesParallel for a file outside the
// subset it reads (gzip, ids that are not canonical integers, more or fewer
// than two ids and a weight per line, a NetworkX dictionary, mixed
// separators or field counts, no data lines …): the caller then reads the
// file with the general reader, which accepts it or reports what is wrong.
var ErrNotFast = errors.New("loaders: not a plain integer edge list")

// fastBlock is the size of the blocks ReadIntEdgesParallel reads and parses
// on one goroutine each (split at line ends). Tests make it small so that
// lines cross block boundaries.
var fastBlock = 16 << 20

// fastPiece is the size of the reads a block is parsed in (lines
// crossing a piece's end are carried to the next): a piece stays in the
// second-level cache from the copy out of the page cache to its parse,
// where a whole block in one read would go to memory and back. It is a
// quarter of a 1 MiB L2, which the parse shares with pass 1's count
// batches and pass 2's fill scratch (on the 100M graph of BENCHMARKS.md,
// 256 KiB pieces cost less CPU time than 1 MiB ones; 64 to 512 KiB are
// alike). Tests make it small.
var fastPiece = 256 << 10

// fastPage is the number of consecutive ids whose counts share one page of
// the id table (ids below the direct limit, see ReadIntEdgesParallel).
const fastPageBits = 10

const fastPage = 1 << fastPageBits

// fastBatch is the number of edges handed to the graph.Builder at a time:
// one FillChunk sort (graph's fillBatch).
const fastBatch = 8192

// countGroupSize is the most ids of one page group pass 1 holds before it
// adds them (4 bytes an id, countGroups groups: 4 MiB per goroutine, during
// pass 1 only; files below 64 MiB get size/(64·countGroups), at least 16).
// The ids of a group are counted together, 4096 ids whose counts lie in
// about 40 KB (at 10 M ids), so most increments hit the first- and
// second-level caches instead of missing in a 13 MB table (with 16 ids a
// group, pass 1's counting is several times slower on the 100 M-edge
// graph of BENCHMARKS.md).
const countGroupSize = 4096

// ReadIntEdgesParallel reads an edge list of integer ids, "u v" or "u v w"
// per line, on every core, and builds the graph with opt. It reads the same
// files as ReadEdgeList with n = 0 — fields separated by white space or by
// commas, '#' and '%' comment lines, blank lines, CRLF line ends — plus a
// UTF-8 byte-order mark and a header line naming the columns
// (source/target[/weight], as ReadEdgeTable recognises them). Nodes follow
// package nodeids: only ids present in the file are nodes, numbered in
// ascending order of id, and the map is the identity when the ids are
// 0..n−1; a file whose ids are 0..n−1 gives bitwise the graph of
// ReadEdgeList(path, 0, opt).
//
// The file is read twice in blocks of 16 MiB split at line ends, each
// parsed on one goroutine by a byte parser in reads of 256 KiB: the first
// pass checks every line, counts the edges and counts every id's entries;
// the second fills a graph.Builder. No per-edge array is held: beyond the
// graph and its Builder (see graph.Builder) memory is a read buffer per
// goroutine (256 KiB, or the longest line), a count batch per goroutine
// during the first pass (4 MiB: countGroups·countGroupSize ids of 4 bytes)
// and the id table, about 4 bytes per id up to min(2·(file size/4) + 1024,
// 2³²) in pages of 1024 ids allocated where ids occur, and a hash map
// entry per larger id, so a large id in a small file costs one map entry.
//
// Errors name the file and line: weights that are not finite and ≥ 0, and
// the self loops and repeated edges that opt rejects. For anything else
// outside the subset above (gzip, text or non-canonical ids such as "007" or
// "-1", NetworkX dictionaries, lines of one or four fields, rows of two and
// of three fields in one file, separators that change from line to line, a
// file with no data line) it returns ErrNotFast, so that the general reader
// can decide.
func ReadIntEdgesParallel(path string, opt graph.Options) (*graph.CSR, *nodeids.Map, error) {
	g, ids, _, err := readIntEdgesParallel(path, opt)
	return g, ids, err
}

// fastFile is what readIntEdgesParallel tells of a file besides its graph.
type fastFile struct {
	loops  int      // self-loop lines
	width  int      // fields per data line: 2, or 3 with weights
	header []string // the header line's fields, nil without one
}

// report describes an integer edge list read by ReadIntEdgesParallel.
func (ff fastFile) report(path string) TableReport {
	rep := TableReport{Path: path, Role: "edges", Format: "integer-edge-list", Header: "none (every line is an edge)", Source: "column 1", Target: "column 2", Weight: "none (every edge weighs 1)"}
	if ff.header != nil {
		rep.Header = fmt.Sprintf("%q: recognised by its column names", strings.Join(ff.header, " "))
		rep.Source, rep.Target = fmt.Sprintf("%q (column 1)", ff.header[0]), fmt.Sprintf("%q (column 2)", ff.header[1])
	}
	if ff.width == 3 {
		rep.Weight = "column 3"
		if ff.header != nil {
			rep.Weight = fmt.Sprintf("%q (column 3)", ff.header[2])
		}
	}
	return rep
}

// readIntEdgesParallel is ReadIntEdgesParallel, also telling the number of
// self-loop lines and the field count.
func readIntEdgesParallel(path string, opt graph.Options) (*graph.CSR, *nodeids.Map, fastFile, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, nil, fastFile{}, fmt.Errorf("loaders: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, fastFile{}, fmt.Errorf("loaders: %w", err)
	}
	r := &fastReader{path: path, f: f, size: st.Size(), opt: opt, block: int64(fastBlock), countBatches: newCountBatches(st.Size())}
	r.bufs.New = func() *[]byte { return new([]byte) }
	g, ids, err := r.read()
	ff := fastFile{width: r.width}
	for k := range r.stats {
		ff.loops += r.stats[k].loops
		if ff.header == nil && r.stats[k].first != 0 {
			ff.header = r.stats[k].header
		}
	}
	return g, ids, ff, err
}

// fastReader is one run of ReadIntEdgesParallel.
type fastReader struct {
	path  string
	f     *os.File
	size  int64
	block int64
	opt   graph.Options
	bufs  parallel.FreeList[*[]byte] // read buffers (scanBlock)

	countBatches *parallel.FreeList[*countBatch] // pass 1's count batches (newCountBatches)

	// The id table: pages of counts for ids below direct, a map above.
	direct    int64
	pages     []atomic.Pointer[idPage]
	big       map[int64]int32 // final index of each id ≥ direct, after pass 1
	bigCounts map[int64]int32 // entries of each id ≥ direct, until countRows

	// countLocks[g] guards the counts of the pages whose number is g modulo
	// countGroups during pass 1 (see countBatch).
	countLocks [countGroups]parallel.Mutex

	stats []blockStats
	// identity: the ids are exactly 0..identity−1 (known after pass 1), so
	// an id is its own index and pass 2 looks nothing up.
	identity int64
	width    int // fields per line: 2 or 3
	// starts[k] is the offset of the first line starting at or after block
	// k's start (blockBounds).
	starts     []int64
	startsOnce sync.Once
	startsErr  error
	unit       bool // every weight is 1
}

// idPage holds the entry counts of fastPage consecutive ids, then their
// final indices as base + prefix[w] + popcount of the lower bits of word w.
//
// A count is a byte, with the multiples of 256 in high (allocated when a
// count first wraps): the pages of 10 M ids then take 13 MB instead of 43,
// so pass 1's random increments hit the processor's last-level cache
// instead of memory.
type idPage struct {
	counts [fastPage]uint8
	high   *[fastPage]int32      // 256 × the carries of counts, nil until one
	loops  [fastPage / 64]uint64 // ids seen only in dropped self loops
	seen   [fastPage / 64]uint64 // ids present, set after pass 1
	prefix [fastPage / 64]int32
	base   int32
}

// carry adds 256 to the count at offset o, whose byte wrapped to 0.
func (p *idPage) carry(o uint32) {
	if p.high == nil {
		p.high = new([fastPage]int32)
	}
	p.high[o] += 256
}

// count returns the entries counted for the id at offset o.
func (p *idPage) count(o int) int32 {
	c := int32(p.counts[o])
	if p.high != nil {
		c += p.high[o]
	}
	return c
}

// blockStats is what pass 1 learns about one block.
type blockStats struct {
	newlines  int
	edges     int
	first     int // local line of the first data line, 0 without one
	width     int // its field count
	kind      byte
	header    []string // the first data line, when it names columns
	errLine   int      // local line of the first error, 0 without one
	errMsg    string
	loops     int // self-loop lines
	loopLine  int // local line of the first self loop, 0 without one
	loopNode  int64
	notFast   bool
	unit      bool
	maxID     int64
	bigCounts map[int64]int32 // ids ≥ direct: entries (present with 0)
}

// fastLine is one parsed line.
type fastLine struct {
	skip   bool // blank or comment
	u, v   int64
	width  int  // 2, or 3 with a weight field
	kind   byte // ',' for commas, '\t' for tabs, ' ' for spaces
	fields [3][]byte
	parsed bool // u and v were parsed by splitInts
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// canonical parses a non-negative integer in canonical decimal form (as
// package nodeids defines integer ids).
func canonical(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// split parses the fields of a line; ok is false outside the fast subset.
func (l *fastLine) split(line []byte) (ok bool) {
	if l.splitInts(line) {
		return true
	}
	l.parsed = false
	line = trimSpace(line)
	l.skip = len(line) == 0 || line[0] == '#' || line[0] == '%'
	if l.skip {
		return true
	}
	l.width = 0
	if bytes.IndexByte(line, ',') >= 0 {
		l.kind = ','
		for len(line) > 0 || l.width == 0 {
			k := bytes.IndexByte(line, ',')
			f := line
			if k >= 0 {
				f, line = line[:k], line[k+1:]
			} else {
				line = nil
			}
			if l.width == 3 {
				return false
			}
			l.fields[l.width] = trimSpace(f)
			l.width++
			if k >= 0 && len(line) == 0 { // a trailing comma: an empty field
				if l.width == 3 {
					return false
				}
				l.fields[l.width] = nil
				l.width++
			}
		}
	} else {
		l.kind = ' '
		for len(line) > 0 {
			k := 0
			for k < len(line) && !isSpace(line[k]) {
				k++
			}
			if l.width == 3 {
				return false
			}
			l.fields[l.width] = line[:k]
			l.width++
			line = line[k:]
			for len(line) > 0 && isSpace(line[0]) {
				if line[0] == '\t' {
					l.kind = '\t'
				}
				line = line[1:]
			}
		}
	}
	if l.width < 2 {
		return false
	}
	for _, f := range l.fields[:l.width] {
		for _, c := range f {
			if c >= 0x80 || c == '{' || c == '"' || c == '\'' {
				return false // Unicode, NetworkX dictionaries, quotes: the general reader's
			}
		}
	}
	return true
}

// splitInts is split for the line most edge lists consist of, two
// canonical integers and nothing else ("u v", "u\tv" or "u,v", an optional
// '\r'), in one scan that parses the ids too; it reports false, having
// changed nothing split relies on, for any other line.
func (l *fastLine) splitInts(line []byte) bool {
	end, ok := l.scanPair(line)
	return ok && (end == len(line) || end == len(line)-1 && line[end] == '\r')
}

// scanPair parses two canonical integers and the separator between them at
// the start of b into l, as splitInts takes them, and returns the index
// just past the second; it reports false if b does not start so. What
// follows is the caller's to check. Each id takes one digits8 step where
// eight bytes remain, and a byte at a time past eight digits or near the end
// of b.
func (l *fastLine) scanPair(b []byte) (end int, ok bool) {
	n := len(b)
	var u int64
	i := 0
	if n >= 8 {
		k, w := digits8(binary.LittleEndian.Uint64(b))
		u, i = int64(w), k
	}
	if i == 8 || n < 8 {
		for i < n && b[i]-'0' <= 9 {
			u = u*10 + int64(b[i]-'0')
			i++
		}
	}
	du := i
	if du == 0 || du > 18 || (b[0] == '0' && du > 1) || i == n {
		return 0, false
	}
	kind := byte(' ')
	switch b[i] {
	case ',':
		kind = ','
		i++
	case ' ', '\t':
		for i < n && (b[i] == ' ' || b[i] == '\t') {
			if b[i] == '\t' {
				kind = '\t'
			}
			i++
		}
	default:
		return 0, false
	}
	j := i
	var v int64
	if i+8 <= n {
		k, w := digits8(binary.LittleEndian.Uint64(b[i:]))
		v, i = int64(w), i+k
	}
	if i-j == 8 || j+8 > n {
		for i < n && b[i]-'0' <= 9 {
			v = v*10 + int64(b[i]-'0')
			i++
		}
	}
	dv := i - j
	if dv == 0 || dv > 18 || (b[j] == '0' && dv > 1) {
		return 0, false
	}
	l.skip, l.width, l.kind, l.parsed = false, 2, kind, true
	l.fields[0], l.fields[1] = b[:du], b[j:i]
	l.u, l.v = u, v
	return i, true
}

// digits8 returns the number of leading ASCII digits of the eight bytes
// in x (the first in its low byte) and their value, in a few word
// operations (the SWAR technique of D. Lemire's "Quickly parsing eight
// digits"). A byte is a digit when its high nibble is 3 and adding 6 keeps it
// so; the additions carry only out of bytes past the first non-digit.
func digits8(x uint64) (k int, v uint64) {
	const high, zero, six = 0xF0F0F0F0F0F0F0F0, 0x3030303030303030, 0x0606060606060606
	other := (x&high ^ zero) | ((x+six)&high ^ zero)
	k = bits.TrailingZeros64(other) >> 3
	// The k digits, most significant first, moved to the top bytes so that
	// the bytes below are leading zeros; then pairs, quads and the eight
	// are combined by multiplications.
	v = (x & 0x0F0F0F0F0F0F0F0F) << (64 - 8*uint(k))
	v = (v * (10<<8 + 1)) >> 8
	v = ((v & 0x00FF00FF00FF00FF) * (100<<16 + 1)) >> 16
	v = ((v & 0x0000FFFF0000FFFF) * (10000<<32 + 1)) >> 32
	return k, v
}

// ids parses the two id fields.
func (l *fastLine) ids() bool {
	if l.parsed {
		return true
	}
	var ok1, ok2 bool
	l.u, ok1 = canonical(l.fields[0])
	l.v, ok2 = canonical(l.fields[1])
	return ok1 && ok2
}

// weight parses the weight field as parseWeight does.
func (l *fastLine) weight() (float64, error) {
	if l.width != 3 {
		return 1, nil
	}
	f := l.fields[2]
	if len(f) == 0 {
		return parseWeight("")
	}
	// The string shares the block's bytes; the error message is copied.
	w, err := parseWeight(unsafe.String(&f[0], len(f)))
	if err != nil {
		return 0, errors.New(strings.Clone(err.Error()))
	}
	return w, nil
}

// isHeader reports whether the fields name the columns source, target and
// (for three fields) weight.
func (l *fastLine) isHeader() bool {
	in := func(f []byte, names []string) bool {
		for _, n := range names {
			if strings.EqualFold(string(f), n) {
				return true
			}
		}
		return false
	}
	return in(l.fields[0], sourceNames) && in(l.fields[1], targetNames) && (l.width == 2 || in(l.fields[2], weightNames))
}

// blockBounds returns the offsets of the first lines that start at or
// after the start of block k and of block k+1. They are found once for all
// blocks (starts), each search beginning where the previous one ended when
// that is past its block's start: a line longer than a block is then
// searched once, not once by each block it spans.
func (r *fastReader) blockBounds(k int) (lo, hi int64, err error) {
	r.startsOnce.Do(func() {
		blocks := int((r.size + r.block - 1) / r.block)
		r.starts = make([]int64, blocks+1)
		for b := 1; b <= blocks; b++ {
			off := int64(b) * r.block
			if prev := r.starts[b-1]; prev >= off || off >= r.size {
				r.starts[b] = max(prev, min(off, r.size))
				continue
			}
			if r.starts[b], r.startsErr = r.lineStart(off); r.startsErr != nil {
				return
			}
		}
	})
	if r.startsErr != nil {
		return 0, 0, r.startsErr
	}
	return r.starts[k], r.starts[k+1], nil
}

// lineStart returns the offset of the first line that starts at or after
// off.
func (r *fastReader) lineStart(off int64) (int64, error) {
	if off <= 0 {
		return 0, nil
	}
	if off >= r.size {
		return r.size, nil
	}
	var buf [4096]byte
	for p := off - 1; p < r.size; p += int64(len(buf)) {
		n, err := r.f.ReadAt(buf[:], p)
		if k := bytes.IndexByte(buf[:n], '\n'); k >= 0 {
			return p + int64(k) + 1, nil
		}
		if err != nil && err != io.EOF {
			return 0, &ParseError{Path: r.path, Err: err}
		}
		if n == 0 {
			break
		}
	}
	return r.size, nil
}

// scanBlock reads block k in pieces of fastPiece bytes and hands h each
// line (see eachSplitLine) with its 1-based line number in the block. It
// returns the block's newlines, or −1 when h stopped.
func scanBlock[H lineHandler](r *fastReader, k int, l *fastLine, h H) (int, error) {
	lo, hi, err := r.blockBounds(k)
	if err != nil {
		return 0, err
	}
	bp := r.bufs.Get()
	defer r.bufs.Put(bp)
	newlines, carry := 0, 0
	for pos := lo; pos < hi; {
		want := int(min(int64(fastPiece), hi-pos))
		if cap(*bp) < carry+want {
			grown := make([]byte, max(carry+want, 2*cap(*bp)))
			copy(grown, (*bp)[:carry])
			*bp = grown
		}
		data := (*bp)[:carry+want]
		if n, err := r.f.ReadAt(data[carry:], pos); n < want {
			if err == io.EOF {
				return 0, &ParseError{Path: r.path, Msg: "the file changed while it was read"}
			}
			return 0, &ParseError{Path: r.path, Err: err}
		}
		first := pos == lo
		pos += int64(want)
		chunk := data
		if pos < hi {
			// The carried bytes end a line's start without its newline:
			// only the new ones are searched, so that a line much longer
			// than the piece is searched once, not once per piece.
			end := bytes.LastIndexByte(data[carry:], '\n')
			if end < 0 {
				carry = len(data) // a line longer than the piece: read on
				continue
			}
			chunk = data[:carry+end+1]
		}
		used := len(chunk) // the carry starts after it, byte-order mark or not
		if first && lo == 0 && bytes.HasPrefix(chunk, []byte("\xef\xbb\xbf")) {
			chunk = chunk[3:]
		}
		nl := eachSplitLine(chunk, newlines, l, h)
		if nl < 0 {
			return -1, nil
		}
		newlines += nl
		carry = copy(data, data[used:])
	}
	return newlines, nil
}

// lineHandler is what eachSplitLine hands the lines of a block to. pair
// takes a plain "u v" line (kind its separator) and reports pairTaken,
// pairStop to stop, or pairDeclined to have line take it after all; line
// takes any other line, split into the line's fastLine (ok being split's
// result), and returns false to stop. Handlers are structs passed by value,
// so that each has its own instantiation of eachSplitLine and the calls of
// its fast path are direct.
type lineHandler interface {
	pair(u, v int64, kind byte, num int) pairResult
	line(line []byte, num int, ok bool) bool
}

type pairResult uint8

const (
	pairTaken pairResult = iota
	pairDeclined
	pairStop
)

// eachSplitLine hands each line of a block to h,
// numbered from base + 1, a plain "u v" line parsed as its end is found,
// in one scan of its bytes. It returns the newlines, or −1 when h stopped.
func eachSplitLine[H lineHandler](buf []byte, base int, l *fastLine, h H) (newlines int) {
	for num := base + 1; len(buf) > 0; num++ {
		var line []byte
		ok := false
		if end, pair := l.scanPair(buf); pair {
			switch {
			case end < len(buf) && buf[end] == '\n':
				switch h.pair(l.u, l.v, l.kind, num) {
				case pairTaken:
					buf = buf[end+1:]
					newlines++
					continue
				case pairStop:
					return -1
				}
				line, buf, ok = buf[:end], buf[end+1:], true
				newlines++
			case end == len(buf):
				line, buf, ok = buf, nil, true
			case buf[end] == '\r' && end+1 == len(buf):
				line, buf, ok = buf, nil, true
			case buf[end] == '\r' && buf[end+1] == '\n':
				line, buf, ok = buf[:end+1], buf[end+2:], true
				newlines++
			}
		}
		if !ok {
			k := bytes.IndexByte(buf, '\n')
			line = buf
			if k >= 0 {
				line, buf = buf[:k], buf[k+1:]
				newlines++
			} else {
				buf = nil
			}
			ok = l.split(line)
		}
		if !h.line(line, num, ok) {
			return -1
		}
	}
	return newlines
}

func (r *fastReader) read() (*graph.CSR, *nodeids.Map, error) {
	var head [14]byte
	n, _ := r.f.ReadAt(head[:], 0)
	if n >= 2 && head[0] == gzipMagic[0] && head[1] == gzipMagic[1] || bytes.HasPrefix(head[:n], []byte("%%MatrixMarket")) || n == 0 {
		return nil, nil, ErrNotFast
	}
	// Every data line takes at least 4 bytes ("0 1\n"), so ids below
	// direct are at most twice the edges plus 1024. It is at most 2³², so
	// that a count batch holds an id in 4 bytes (ids above are counted in
	// maps; a graph has fewer than 2³¹ nodes anyway).
	r.direct = min(2*((r.size+1)/4+1)+1024, 1<<32)
	r.pages = make([]atomic.Pointer[idPage], (r.direct+fastPage-1)/fastPage)
	blocks := int((r.size + r.block - 1) / r.block)
	r.stats = make([]blockStats, blocks)
	errs := make([]error, blocks)
	parallel.Chunks(blocks, 1, func(k, _, _ int) { errs[k] = r.countBlock(k) })
	if err := firstError(errs); err != nil {
		return nil, nil, err
	}
	ids, err := r.summarise()
	if err != nil {
		return nil, nil, err
	}
	b, err := graph.NewBuilder(ids.Len(), r.width == 3 && !r.unit, r.opt)
	if err != nil {
		return nil, nil, &ParseError{Path: r.path, Err: err}
	}
	r.countRows(b)
	parallel.Chunks(blocks, 1, func(k, _, _ int) { errs[k] = r.fillBlock(k, b) })
	if err := firstError(errs); err != nil {
		return nil, nil, err
	}
	g, err := b.Build()
	if err != nil {
		var dup *graph.DuplicateEdgeError
		if errors.As(err, &dup) {
			return nil, nil, r.duplicateError(ids, dup)
		}
		return nil, nil, &ParseError{Path: r.path, Err: err}
	}
	return g, ids, nil
}

// firstError returns the first non-nil error, in block order.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// page returns the page of id (< direct), allocating it on first use.
func (r *fastReader) page(id int64) *idPage {
	slot := &r.pages[id>>fastPageBits]
	if p := slot.Load(); p != nil {
		return p
	}
	slot.CompareAndSwap(nil, new(idPage))
	return slot.Load()
}

// count adds k entries to id (k = 0 marks a dropped self loop); entries
// of ids below direct wait in cb until its group is full (flushGroup).
func (r *fastReader) count(st *blockStats, cb *countBatch, id int64, k int32) {
	if id >= r.direct {
		if st.bigCounts == nil {
			st.bigCounts = make(map[int64]int32)
		}
		st.bigCounts[id] += k
		return
	}
	if k == 0 {
		p := r.page(id)
		o := id & (fastPage - 1)
		atomic.OrUint64(&p.loops[o>>6], 1<<(o&63))
		return
	}
	g := (id >> fastPageBits) % countGroups
	ids := append(cb.groups[g], uint32(id))
	cb.groups[g] = ids
	if len(ids) == cap(ids) {
		r.flushGroup(cb, int(g))
	}
}

// countGroups is the number of page groups pass 1 locks separately: group g
// holds the pages whose number is g modulo countGroups.
const countGroups = 256

// countBatch holds, for each page group, ids of a block whose entries pass
// 1 has not yet added: they are added a group at a time under the group's
// lock, with plain increments. At scale an increment is a cache miss;
// locked (atomic) increments would wait for each miss in turn, plain ones
// let the processor overlap them.
type countBatch struct {
	groups [countGroups][]uint32 // ids below direct ≤ 2³²
}

// newCountBatches returns a free list of count batches for a file of size
// bytes.
func newCountBatches(size int64) *parallel.FreeList[*countBatch] {
	n := int(min(countGroupSize, max(16, size/(64*countGroups))))
	return &parallel.FreeList[*countBatch]{New: func() *countBatch {
		cb := new(countBatch)
		ids := make([]uint32, countGroups*n)
		for g := range cb.groups {
			cb.groups[g] = ids[g*n : g*n : (g+1)*n]
		}
		return cb
	}}
}

// flushGroup adds one entry for each id of group g of cb and empties it.
func (r *fastReader) flushGroup(cb *countBatch, g int) {
	r.countLocks[g].Lock()
	// The loop calls nothing but on its rare paths (a page's first id, a
	// count's carry), so that its values stay in registers.
	pages := r.pages
	for _, x := range cb.groups[g] {
		p := pages[x>>fastPageBits].Load()
		if p == nil {
			p = r.page(int64(x))
		}
		o := x & (fastPage - 1)
		c := p.counts[o] + 1
		p.counts[o] = c
		if c == 0 {
			p.carry(o)
		}
	}
	r.countLocks[g].Unlock()
	cb.groups[g] = cb.groups[g][:0]
}

// flushCounts adds the entries of every group of cb and empties it.
func (r *fastReader) flushCounts(cb *countBatch) {
	for g := range cb.groups {
		if len(cb.groups[g]) > 0 {
			r.flushGroup(cb, g)
		}
	}
}

// countBlock is pass 1 over block k.
func (r *fastReader) countBlock(k int) error {
	st := &r.stats[k]
	st.unit, st.maxID = true, -1
	cb := r.countBatches.Get()
	defer func() {
		r.flushCounts(cb)
		r.countBatches.Put(cb)
	}()
	var l fastLine
	fail := func(num int, msg string) bool {
		st.errLine, st.errMsg = num, msg
		return false
	}
	var err error
	st.newlines, err = scanBlock(r, k, &l, countLines{r, st, cb, func(line []byte, num int, ok bool) bool {
		if !ok {
			st.notFast = true
			return false
		}
		if l.skip {
			return true
		}
		first := st.first == 0
		if first {
			st.first, st.width, st.kind = num, l.width, l.kind
		} else if l.kind != st.kind {
			st.notFast = true
			return false
		}
		if !l.ids() {
			if first && l.isHeader() {
				for _, f := range l.fields[:l.width] {
					st.header = append(st.header, string(f))
				}
				return true
			}
			st.notFast = true
			return false
		}
		if l.width != st.width {
			// The general reader mixes "u v" and "u v w" rows as
			// networkx writes them; the serial one rejects them.
			st.notFast = true
			return false
		}
		w, err := l.weight()
		if err != nil {
			return fail(num, err.Error())
		}
		st.unit = st.unit && w == 1
		st.edges++
		st.maxID = max(st.maxID, l.u, l.v)
		if l.u == l.v {
			st.loops++
			switch r.opt.SelfLoops {
			case graph.SelfLoopError:
				if st.loopLine == 0 {
					st.loopLine, st.loopNode = num, l.u
				}
				return true
			case graph.SelfLoopDrop:
				r.count(st, cb, l.u, 0)
				return true
			}
			r.count(st, cb, l.u, 1)
			return true
		}
		r.count(st, cb, l.u, 1)
		r.count(st, cb, l.v, 1)
		return true
	}})
	return err
}

// summarise checks the blocks of pass 1 in file order, numbers the ids and
// returns their map.
func (r *fastReader) summarise() (*nodeids.Map, error) {
	line := 1 // the file's line number of the current block's first line
	firstBlock := -1
	loopLine, loopNode := 0, int64(0)
	var kind byte
	r.unit = true
	edges := 0
	for k := range r.stats {
		st := &r.stats[k]
		if st.notFast {
			return nil, ErrNotFast
		}
		if st.first != 0 {
			if firstBlock < 0 {
				firstBlock, kind, r.width = k, st.kind, st.width
			} else if st.header != nil {
				return nil, ErrNotFast // a line of names after the data began: text ids
			} else if st.kind != kind {
				return nil, ErrNotFast
			} else if st.width != r.width {
				return nil, ErrNotFast // rows of two and three fields: see countBlock
			}
		}
		if st.errLine != 0 {
			return nil, &ParseError{Path: r.path, Line: line + st.errLine - 1, Msg: st.errMsg}
		}
		if st.loopLine != 0 && loopLine == 0 {
			loopLine, loopNode = line+st.loopLine-1, st.loopNode
		}
		r.unit = r.unit && st.unit
		edges += st.edges
		line += st.newlines
	}
	if edges == 0 {
		return nil, ErrNotFast // the general reader reports what the file holds
	}
	if loopLine != 0 {
		return nil, &ParseError{Path: r.path, Line: loopLine, Msg: fmt.Sprintf("self loop on node %d (self-loop policy: error)", loopNode)}
	}
	return r.number()
}

// number gives the ids their final indices, ascending by id.
func (r *fastReader) number() (*nodeids.Map, error) {
	n := 0
	var maxID int64 = -1
	for pi := range r.pages {
		p := r.pages[pi].Load()
		if p == nil {
			continue
		}
		p.base = int32(n)
		for w := range p.seen {
			var word uint64
			for b := 0; b < 64; b++ {
				if p.count(w*64+b) > 0 {
					word |= 1 << b
				}
			}
			word |= p.loops[w]
			p.seen[w] = word
			p.prefix[w] = int32(n) - p.base
			n += bits.OnesCount64(word)
			if word != 0 {
				maxID = int64(pi)*fastPage + int64(w*64+63-bits.LeadingZeros64(word))
			}
		}
		if n > nodeids.MaxNodes {
			return nil, &ParseError{Path: r.path, Msg: fmt.Sprintf("more than %d distinct node ids", nodeids.MaxNodes)}
		}
	}
	var big []int64
	merged := map[int64]int32{}
	for k := range r.stats {
		for id, c := range r.stats[k].bigCounts {
			merged[id] += c
		}
		r.stats[k].bigCounts = nil
	}
	for id := range merged {
		big = append(big, id)
	}
	slices.Sort(big)
	if n+len(big) > nodeids.MaxNodes {
		return nil, &ParseError{Path: r.path, Msg: fmt.Sprintf("more than %d distinct node ids", nodeids.MaxNodes)}
	}
	r.bigCounts = merged
	r.big = make(map[int64]int32, len(big))
	for k, id := range big {
		r.big[id] = int32(n + k)
	}
	if len(big) == 0 && maxID == int64(n-1) {
		r.identity = int64(n)
		return nodeids.Identity(n), nil
	}
	all := make([]int64, 0, n+len(big))
	for pi := range r.pages {
		p := r.pages[pi].Load()
		if p == nil {
			continue
		}
		for w, word := range p.seen {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				word &= word - 1
				all = append(all, int64(pi)*fastPage+int64(w*64+b))
			}
		}
	}
	return nodeids.FromInts(append(all, big...))
}

// index returns the final index of a present id.
func (r *fastReader) index(id int64) (int32, bool) {
	if uint64(id) < uint64(r.identity) {
		return int32(id), true
	}
	if id >= r.direct {
		i, ok := r.big[id]
		return i, ok
	}
	p := r.pages[id>>fastPageBits].Load()
	if p == nil {
		return 0, false
	}
	o := id & (fastPage - 1)
	w, b := o>>6, uint(o&63)
	if p.seen[w]&(1<<b) == 0 {
		return 0, false
	}
	return p.base + p.prefix[w] + int32(bits.OnesCount64(p.seen[w]&(1<<b-1))), true
}

// countRows hands the entry counts of pass 1 to the builder.
func (r *fastReader) countRows(b *graph.Builder) {
	// The rows of distinct ids differ, and CountRow is safe for concurrent
	// use: the pages are counted in parallel.
	parallel.Chunks(len(r.pages), countRowsPages, func(_, lo, hi int) {
		for pi := lo; pi < hi; pi++ {
			p := r.pages[pi].Load()
			if p == nil {
				continue
			}
			for o := range p.counts {
				if c := p.count(o); c > 0 {
					i, _ := r.index(int64(pi)*fastPage + int64(o))
					b.CountRow(i, int(c))
				}
			}
		}
	})
	for id, c := range r.bigCounts {
		if c > 0 {
			b.CountRow(r.big[id], int(c))
		}
	}
	r.bigCounts = nil
}

// countRowsPages is the number of id pages per task of countRows.
const countRowsPages = 64

// fillBlock is pass 2 over block k: the edges go to the builder in batches.
func (r *fastReader) fillBlock(k int, b *graph.Builder) error {
	c := int(min(fastBatch, r.size/4+1)) // a line takes at least 4 bytes
	f := &filler{r: r, b: b, src: make([]int32, 0, c), dst: make([]int32, 0, c), batch: c}
	if r.width == 3 && !r.unit {
		f.ws = make([]float64, 0, c)
	}
	var l fastLine
	_, err := scanBlock(r, k, &l, fillLines{f, func(line []byte, num int, ok bool) bool {
		if !ok {
			f.changed = true
			return false
		}
		if l.skip {
			return true
		}
		if !l.ids() {
			if num == r.stats[k].first && r.stats[k].header != nil {
				return true
			}
			f.changed = true
			return false
		}
		u, ok1 := r.index(l.u)
		v, ok2 := r.index(l.v)
		w, err := l.weight()
		if !ok1 || !ok2 || err != nil {
			f.changed = true
			return false
		}
		f.src, f.dst = append(f.src, u), append(f.dst, v)
		if f.ws != nil {
			f.ws = append(f.ws, w)
		}
		if len(f.src) == f.batch {
			return f.flush()
		}
		return true
	}})
	if err != nil {
		return err
	}
	if !f.changed && f.err == nil {
		f.flush()
	}
	if f.changed {
		return &ParseError{Path: r.path, Msg: "the file changed while it was read"}
	}
	if f.err != nil {
		return &ParseError{Path: r.path, Err: f.err}
	}
	return nil
}

// filler is one block's pass 2: the edges parsed, handed to the Builder
// batch at a time.
type filler struct {
	r        *fastReader
	b        *graph.Builder
	src, dst []int32
	ws       []float64 // nil without weights
	batch    int       // the edges flushed at a time: fastBatch, fewer for a small file
	changed  bool      // a line differs from pass 1's
	err      error     // of the Builder
}

// flush hands the edges to the Builder; it reports false on an error.
func (f *filler) flush() bool {
	if len(f.src) == 0 {
		return true
	}
	if err := f.b.FillChunk(f.src, f.dst, f.ws); err != nil {
		f.err = err
		return false
	}
	f.src, f.dst = f.src[:0], f.dst[:0]
	if f.ws != nil {
		f.ws = f.ws[:0]
	}
	return true
}

// fillLines is pass 2's lineHandler: a plain "u v" line of a file of such
// lines is added here; any other goes to slow (fillBlock's checks).
type fillLines struct {
	f    *filler
	slow func(line []byte, num int, ok bool) bool
}

func (h fillLines) pair(u, v int64, _ byte, _ int) pairResult {
	f := h.f
	if f.r.width != 2 {
		return pairDeclined
	}
	iu, ok1 := f.r.index(u)
	iv, ok2 := f.r.index(v)
	if !ok1 || !ok2 {
		return pairDeclined
	}
	f.src, f.dst = append(f.src, iu), append(f.dst, iv)
	if len(f.src) == f.batch && !f.flush() {
		return pairStop
	}
	return pairTaken
}

func (h fillLines) line(line []byte, num int, ok bool) bool { return h.slow(line, num, ok) }

// duplicateError finds the lines of the repeated edge the builder reported,
// with one more (serial) pass over the file.
func (r *fastReader) duplicateError(ids *nodeids.Map, dup *graph.DuplicateEdgeError) error {
	u, _ := ids.IntID(dup.U)
	v, _ := ids.IntID(dup.V)
	match := func(a, b int64) bool {
		return (a == u && b == v) || (!dup.Directed && a == v && b == u)
	}
	first, line := 0, 1
	var l fastLine
	var found error
	for k := range r.stats {
		base := line
		nl, err := scanBlock(r, k, &l, allLines(func(_ []byte, num int, ok bool) bool {
			if !ok || l.skip || !l.ids() || !match(l.u, l.v) {
				return true
			}
			if l.u == l.v && r.opt.SelfLoops == graph.SelfLoopDrop {
				return true
			}
			if first == 0 {
				first = base + num - 1
				return true
			}
			found = &ParseError{Path: r.path, Line: base + num - 1, Msg: fmt.Sprintf("edge (%d, %d) repeats line %d (duplicate policy: error; choose sum or max to merge)", l.u, l.v, first)}
			return false
		}))
		if err != nil {
			return err
		}
		if found != nil {
			return found
		}
		line += nl
	}
	return &ParseError{Path: r.path, Err: dup}
}

// countLines is pass 1's lineHandler: a plain "u v" line between two
// distinct nodes, after the block's first data line and like it, is
// counted here; any other goes to slow (countBlock's checks).
type countLines struct {
	r    *fastReader
	st   *blockStats
	cb   *countBatch
	slow func(line []byte, num int, ok bool) bool
}

func (c countLines) pair(u, v int64, kind byte, _ int) pairResult {
	st := c.st
	if st.first == 0 || st.width != 2 || kind != st.kind || u == v {
		return pairDeclined
	}
	st.edges++
	st.maxID = max(st.maxID, u, v)
	c.r.count(st, c.cb, u, 1)
	c.r.count(st, c.cb, v, 1)
	return pairTaken
}

func (c countLines) line(line []byte, num int, ok bool) bool { return c.slow(line, num, ok) }

// allLines is a lineHandler without a fast path: every line goes to the
// function.
type allLines func(line []byte, num int, ok bool) bool

func (f allLines) pair(int64, int64, byte, int) pairResult { return pairDeclined }
func (f allLines) line(line []byte, num int, ok bool) bool { return f(line, num, ok) }
