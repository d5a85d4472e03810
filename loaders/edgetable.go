package loaders

import (
	"fmt"
	"strings"

	"github.com/gssl/gssl/nodeids"
)

// EdgeTableOptions say how an edge table is read by ReadEdgeTable.
type EdgeTableOptions struct {
	Table TableOptions
	// Source and Target name the id columns by header name or 1-based
	// position; "" means a column named like source/target (src/dst, from/to,
	// u/v, …) when there is a header, else the first and second columns
	// (after pandas' unnamed index column, if the header has one).
	Source, Target string
	// Weight names the weight column; "" means a column named weight (w,
	// weights, value) when there is a header, else the third column when the
	// rows have three fields, or the 'weight' of a networkx attribute
	// dictionary ("0 1 {'weight': 0.5}"). "none" ignores any weight: every
	// edge weighs 1.
	Weight string
}

// EdgeTable is an edge list read by ReadEdgeTable: edge k joins the nodes
// Src[k] and Dst[k] (indices given by the nodeids.Builder) with weight W[k]
// (W is nil when every weight is 1), read from line Lines[k].
type EdgeTable struct {
	Src, Dst []int32
	W        []float64
	Lines    []int32
	// Header is the header line's fields, nil when the file has none.
	Header []string
	// Delimiter is the field separator found (' ' for white space).
	Delimiter byte
	// Report says how the header was decided and which columns were used.
	Report TableReport
}

// Len returns the number of edges.
func (e *EdgeTable) Len() int { return len(e.Src) }

// Remap replaces provisional node indices by their final ones (perm from
// nodeids.Builder.Finish; nil leaves them as they are).
func (e *EdgeTable) Remap(perm []int32) {
	if perm == nil {
		return
	}
	for k := range e.Src {
		e.Src[k], e.Dst[k] = perm[e.Src[k]], perm[e.Dst[k]]
	}
}

// ReadEdgeTable reads an edge table: one edge per line, two id columns and an
// optional weight, fields separated by tabs, commas, semicolons, bars or
// white space (detected from the first data line), a header line recognised
// by its column names (or forced by opt.Table.Header), '#' and '%' comment
// lines, a UTF-8 byte-order mark, CRLF line ends and gzip. Ids are text as
// written and are numbered by b (see package nodeids). Malformed lines,
// weights that are not finite and non-negative, and rows whose field count
// differs from the first row's are errors naming the file and line.
func ReadEdgeTable(path string, opt EdgeTableOptions, b *nodeids.Builder) (*EdgeTable, error) {
	return readFile(path, func(lr *lineReader) (*EdgeTable, error) {
		return decodeEdgeTable(lr, opt, b)
	})
}

// Names of the columns an edge table's header may give its ids and weight.
var (
	sourceNames = []string{"source", "src", "from", "u", "i", "row", "head", "node1", "node_1", "source_id", "src_id", "from_id"}
	targetNames = []string{"target", "dst", "to", "v", "j", "col", "column", "tail", "node2", "node_2", "target_id", "dst_id", "to_id"}
	weightNames = []string{"weight", "weights", "w", "value", "values"}
)

func decodeEdgeTable(lr *lineReader, opt EdgeTableOptions, b *nodeids.Builder) (*EdgeTable, error) {
	et := &EdgeTable{}
	var err error
	var w edgeWalk
	if w, err = walkEdgeTable(lr, opt, &tableRows{path: lr.path, b: b, et: et}); err != nil {
		return nil, err
	}
	et.Header, et.Delimiter, et.Report = w.header, w.delim, w.report
	if et.W != nil {
		unit := true
		for _, w := range et.W {
			if w != 1 {
				unit = false
				break
			}
		}
		if unit {
			et.W = nil
		}
	}
	return et, nil
}

// edgeRows receives the rows of an edge table from walkEdgeTable, in file
// order: id with k = 0 and 1 for the source and target fields (non-empty),
// then weight, 1 for a row without one; weighted turns true at the first
// row with a weight field and stays true.
type edgeRows interface {
	id(k, line int, id string) error
	weight(w float64, weighted bool) error
}

// tableRows appends the rows to an EdgeTable, numbering the ids by b.
type tableRows struct {
	path string
	b    *nodeids.Builder
	et   *EdgeTable
	ids  [2]int32
	line int
}

func (r *tableRows) id(k, line int, id string) error {
	i, err := r.b.Add(id)
	if err != nil {
		return &ParseError{Path: r.path, Line: line, Msg: err.Error()}
	}
	r.ids[k], r.line = i, line
	return nil
}

func (r *tableRows) weight(w float64, weighted bool) error {
	et := r.et
	if weighted && et.W == nil {
		// The first row with a weight: the rows before it weigh 1.
		et.W = make([]float64, len(et.Src))
		for k := range et.W {
			et.W[k] = 1
		}
	}
	et.Src = append(et.Src, r.ids[0])
	et.Dst = append(et.Dst, r.ids[1])
	et.Lines = append(et.Lines, int32(min(r.line, 1<<31-1)))
	if weighted {
		et.W = append(et.W, w)
	}
	return nil
}

// edgeWalk is what walkEdgeTable tells of a table besides its rows.
type edgeWalk struct {
	header []string // nil without a header line
	delim  byte
	report TableReport
}

// walkEdgeTable reads the rows of an edge table, checks them and hands
// their ids and weights to rows; it returns the header (nil without one),
// the delimiter and the report of the columns used. It is the one reader
// of ReadEdgeTable's rules, for ReadEdgeTable and for LoadNodes' two passes
// over the file (see tableEdges).
func walkEdgeTable(lr *lineReader, opt EdgeTableOptions, rows edgeRows) (edgeWalk, error) {
	w := &edgeWalker{lr: lr, t: newTable(lr, opt.Table, "#%"), opt: opt, rows: rows, src: -1, dst: -1, wcol: -1,
		noWeight: strings.EqualFold(opt.Weight, "none")}
	rr := readRows(w.t)
	defer rr.stop()
	for {
		f, line, ok, err := rr.next()
		if err != nil {
			return edgeWalk{}, err
		}
		if !ok {
			break
		}
		if w.width == 0 {
			err = w.first(f, line)
		} else if len(f) != w.width {
			err = w.otherWidth(f, line)
		}
		if err == nil {
			err = w.row(f, line)
		}
		if err != nil {
			return edgeWalk{}, err
		}
	}
	if err := w.finish(); err != nil {
		return edgeWalk{}, err
	}
	return w.ew, nil
}

// edgeWalker is the state of walkEdgeTable.
type edgeWalker struct {
	lr             *lineReader
	t              *table
	opt            EdgeTableOptions
	rows           edgeRows
	noWeight       bool
	ew             edgeWalk
	src, dst, wcol int
	dict           bool // weights from a networkx dictionary column
	width          int
	widthLine      int
	weighted       bool
	edges          int
	// cand holds the ids of a first row of text that HeaderAuto took as
	// data; candLine is its line until a later line names one of them. A
	// header of unknown names over text ids (character1,character2) would
	// otherwise be an edge between two nodes that appear nowhere else.
	cand     [2]string
	candLine int
}

// first reads the first row, whose fields fix the columns.
func (w *edgeWalker) first(f []string, line int) (err error) {
	t, lr := w.t, w.lr
	// The header and the delimiter are fixed by the first row, which the
	// reading goroutine has handed over.
	w.ew.header, w.ew.delim = t.header, t.delim
	w.width, w.widthLine = len(f), line
	if t.header != nil && len(t.header) != w.width {
		return &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("row has %d fields but the header names %d columns (%q)", w.width, len(t.header), strings.Join(t.header, string(t.delim)))}
	}
	if w.src, w.dst, w.wcol, w.dict, err = edgeColumns(t, w.opt, f, w.noWeight); err != nil {
		return err
	}
	for _, c := range []int{w.src, w.dst, w.wcol} {
		if c >= w.width {
			return &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("column %d is named but the rows have %d fields", c+1, w.width)}
		}
	}
	w.weighted = w.wcol >= 0
	w.ew.report = TableReport{Path: lr.path, Role: "edges", Format: "edge-table", Header: t.headerReport(), Delimiter: delimiterName(t.delim),
		Source: t.columnName(w.src), Target: t.columnName(w.dst), Weight: weightReport(t, w.wcol, w.dict, w.noWeight)}
	if len(t.header) > 0 && w.src != 0 && w.dst != 0 && w.wcol != 0 && isIndexName(t.header[0]) {
		w.ew.report.Ignored = []string{t.columnName(0) + ": pandas' index"}
	}
	if t.firstText && w.opt.Source == "" && w.opt.Target == "" {
		w.cand, w.candLine = [2]string{f[w.src], f[w.dst]}, line
	}
	return nil
}

// otherWidth accepts a row whose field count differs from the first row's
// only where networkx's write_edgelist(data=["weight"]) writes one: it
// writes the weight only for the edges that have one, so without a header
// rows of "u v" and "u v w" may mix, a missing weight being 1.
func (w *edgeWalker) otherWidth(f []string, line int) error {
	t := w.t
	mixed := t.header == nil && w.opt.Weight == "" && !w.noWeight && w.src < 2 && w.dst < 2 && min(w.width, len(f)) == 2 && max(w.width, len(f)) == 3
	if !mixed {
		return &ParseError{Path: w.lr.path, Line: line, Msg: FieldCountMessage(w.width, w.widthLine, len(f), t.header == nil)}
	}
	if !w.weighted {
		w.weighted, w.wcol = true, 2
		w.dict = strings.HasPrefix(f[2], "{")
		w.ew.report.Weight = weightReport(t, w.wcol, w.dict, false) + ", on the lines that have one (1 elsewhere)"
	}
	return nil
}

// row hands a row's ids and weight to w.rows.
func (w *edgeWalker) row(f []string, line int) (err error) {
	if w.candLine != 0 && line != w.candLine && (f[w.src] == w.cand[0] || f[w.src] == w.cand[1] || f[w.dst] == w.cand[0] || f[w.dst] == w.cand[1]) {
		w.candLine = 0 // its ids are nodes of the graph: it was data
	}
	for k, c := range [2]int{w.src, w.dst} {
		if f[c] == "" {
			return &ParseError{Path: w.lr.path, Line: line, Msg: fmt.Sprintf("empty node id in column %d", c+1)}
		}
		if err := w.rows.id(k, line, f[c]); err != nil {
			return err
		}
	}
	wt := 1.0
	if w.weighted {
		switch {
		case w.wcol >= len(f): // a "u v" row among "u v w" rows: weight 1
		case w.dict:
			wt, err = dictWeight(f[w.wcol])
		default:
			wt, err = parseWeight(f[w.wcol])
		}
		if err != nil {
			return &ParseError{Path: w.lr.path, Line: line, Msg: err.Error()}
		}
	}
	if err := w.rows.weight(wt, w.weighted); err != nil {
		return err
	}
	w.edges++
	return nil
}

// finish refuses a table without edges, and a first row of text taken as
// data whose ids appear on no other line.
func (w *edgeWalker) finish() error {
	if w.edges == 0 {
		return w.lr.fileErrorf("no edges: the file has no data lines")
	}
	if w.candLine != 0 && w.edges > 1 {
		return &ParseError{Path: w.lr.path, Line: w.candLine, Msg: fmt.Sprintf("%q is not a header gssl recognises, and its ids appear on no other line: if it names the columns, pass --header yes (and --source/--target to choose them); if it is an edge, pass --header no", w.cand[0]+string(w.t.delim)+w.cand[1])}
	}
	return nil
}

// isIndexName reports whether a header field names pandas' index column.
func isIndexName(h string) bool { return h == "" || strings.EqualFold(h, "unnamed: 0") }

// weightReport describes where an edge table's weights come from.
func weightReport(t *table, wcol int, dict, noWeight bool) string {
	switch {
	case noWeight:
		return "none (--weight none: every edge weighs 1)"
	case wcol < 0:
		return "none (every edge weighs 1)"
	case dict:
		return "the 'weight' of the networkx attribute dictionaries in " + t.columnName(wcol)
	}
	return t.columnName(wcol)
}

// edgeColumns resolves the source, target and weight columns from the
// options, the header and the first row f. A column it would drop, other
// than pandas' index, is an error naming the flags that decide.
func edgeColumns(t *table, opt EdgeTableOptions, f []string, noWeight bool) (src, dst, w int, dict bool, err error) {
	first := 0 // the first data column: 1 after pandas' unnamed index column
	if len(t.header) > 0 && isIndexName(t.header[0]) {
		first = 1
	}
	if src, err = t.column(opt.Source, "--source"); err != nil {
		return
	}
	if dst, err = t.column(opt.Target, "--target"); err != nil {
		return
	}
	if src < 0 {
		if src = t.headerIndex(sourceNames...); src < 0 {
			src = first
			if src == dst {
				src++
			}
		}
	}
	if dst < 0 {
		if dst = t.headerIndex(targetNames...); dst < 0 {
			dst = first + 1
			if dst == src {
				dst = src + 1
			}
		}
	}
	if src == dst {
		err = t.lr.fileErrorf("--source and --target are the same column %d", src+1)
		return
	}
	w = -1
	if !noWeight {
		if w, err = t.column(opt.Weight, "--weight"); err != nil {
			return
		}
	}
	if w < 0 && !noWeight && opt.Weight == "" {
		switch {
		case t.header != nil:
			w = t.headerIndex(weightNames...)
		default:
			used := 0
			for k := range f {
				if k != src && k != dst {
					used++
					w = k
				}
			}
			if used > 1 {
				err = t.lr.fileErrorf(`want "u v" or "u v w" per line, got %d fields in %q: name the columns with a header line, or choose them with --source, --target and --weight (--weight none ignores the rest)`, len(f), strings.Join(f, string(t.delim)))
				return
			}
		}
	}
	if t.header != nil && opt.Weight == "" {
		for k := range t.header {
			if k == src || k == dst || k == w || (k == 0 && first == 1) {
				continue
			}
			keep := ""
			if w >= 0 {
				keep = fmt.Sprintf(", --weight %s to keep the weight column %s and ignore the others", t.header[w], t.columnName(w))
			}
			err = t.lr.fileErrorf("column %d %q of the header %q would be dropped: pass --weight %s to use it as the edge weight%s, or --weight none to give every edge weight 1 and ignore the other columns (--source and --target choose the id columns)",
				k+1, t.header[k], strings.Join(t.header, string(t.delim)), t.header[k], keep)
			return
		}
	}
	if w >= 0 && w < len(f) && strings.HasPrefix(f[w], "{") {
		dict = true
	}
	return
}

// dictWeight reads the 'weight' entry of a networkx attribute dictionary
// such as {} or {'weight': 0.5, 'color': 'red'}; without one the weight is 1.
func dictWeight(s string) (float64, error) {
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return 0, fmt.Errorf("attribute dictionary %q is not closed by }", s)
	}
	body := s[1 : len(s)-1]
	for _, key := range []string{"'weight'", `"weight"`} {
		i := strings.Index(body, key)
		if i < 0 {
			continue
		}
		rest := strings.TrimSpace(body[i+len(key):])
		if !strings.HasPrefix(rest, ":") {
			return 0, fmt.Errorf("attribute dictionary %q: want 'weight': value", s)
		}
		rest = strings.TrimSpace(rest[1:])
		if k := strings.IndexAny(rest, ",}"); k >= 0 {
			rest = rest[:k]
		}
		return parseWeight(strings.TrimSpace(rest))
	}
	return 1, nil
}

// rowBatch is a run of a table's rows, read ahead by rowReader; last marks
// the end of the table (err the error that ended it, if any).
type rowBatch struct {
	fields [][]string
	lines  []int
	last   bool
	err    error
}

// rowBatchRows is the number of rows in a rowBatch.
const rowBatchRows = 1024

// rowReader reads the rows of a table on a goroutine of its own, a few
// batches ahead of the caller, so that reading and splitting the lines
// overlaps with what the caller does with them (numbering the ids, counting,
// filling a Builder): two cores at work, and the rows still arrive in file
// order, so that ids are numbered by first appearance and errors are the
// serial reader's. After the first row the goroutine writes nothing of the
// table that the caller reads (its header and delimiter are fixed by then).
type rowReader struct {
	ch   chan rowBatch
	done chan struct{}
	cur  rowBatch
	k    int
}

// readRows starts reading the rows of t; stop must be called.
func readRows(t *table) *rowReader {
	r := &rowReader{ch: make(chan rowBatch, 2), done: make(chan struct{})}
	go func() {
		defer close(r.ch)
		for {
			select {
			case <-r.done:
				return
			default:
			}
			b := rowBatch{fields: make([][]string, 0, rowBatchRows), lines: make([]int, 0, rowBatchRows)}
			for len(b.fields) < rowBatchRows {
				f, line, ok, err := t.row()
				if err != nil || !ok {
					b.last, b.err = true, err
					break
				}
				b.fields, b.lines = append(b.fields, f), append(b.lines, line)
			}
			select {
			case r.ch <- b:
			case <-r.done:
				return
			}
			if b.last {
				return
			}
		}
	}()
	return r
}

// next returns what table.row would.
func (r *rowReader) next() (f []string, line int, ok bool, err error) {
	for r.k == len(r.cur.fields) {
		if r.cur.last {
			return nil, 0, false, r.cur.err
		}
		b, open := <-r.ch
		if !open {
			return nil, 0, false, nil
		}
		r.cur, r.k = b, 0
	}
	f, line = r.cur.fields[r.k], r.cur.lines[r.k]
	r.cur.fields[r.k] = nil // the caller keeps what it needs of the row
	r.k++
	return f, line, true, nil
}

// stop ends the reading goroutine and waits for it, so that the file can
// be closed.
func (r *rowReader) stop() {
	close(r.done)
	for range r.ch {
	}
}

// FieldCountMessage is the message for a row of an edge table with got
// fields where the first data row, on line widthLine, had width; headerless
// says the table has no header line. Rows of more than three fields are
// often an adjacency list, which the message says how to give.
func FieldCountMessage(width, widthLine, got int, headerless bool) string {
	msg := fmt.Sprintf("want %d fields like line %d, got %d", width, widthLine, got)
	if headerless && got > 3 || width > 3 {
		msg += " (an adjacency list, one node and its neighbours per line, is read when networkx's write_adjlist comment lines head it)"
	}
	return msg
}
