package loaders

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gssl/gssl/graph"
)

// ReadMatrixMarket reads a square Matrix Market coordinate file (field real,
// integer or pattern; symmetry general or symmetric) as the weight matrix of
// a graph. Pattern entries have weight 1; weights must be finite and
// non-negative. opt.Duplicates and opt.SelfLoops apply as in
// graph.FromEdges. A symmetric file is read as undirected edges whatever
// opt.Symmetrize says. For a general file opt.Symmetrize chooses the rule:
// the zero value, graph.Undirected, requires the matrix to be symmetric
// already (an error names an entry without its mirror), and a directed rule
// such as graph.DirectedMax symmetrises it. A size line with no rows or no
// entries is an error, and so is one that declares more rows than the
// entries justify (more than half of them without an entry, above
// MinJustifiedNodes); the declared entry count is checked against the
// entries read, never allocated from.
func ReadMatrixMarket(path string, opt graph.Options) (*graph.CSR, error) {
	return readFile(path, func(lr *lineReader) (*graph.CSR, error) { return decodeMatrixMarket(lr, opt) })
}

// mmPrealloc bounds the entries allocated from the size line before they are
// read.
const mmPrealloc = 4096

// mmHeader is the first line of every Matrix Market file.
const mmHeader = "%%MatrixMarket"

func decodeMatrixMarket(lr *lineReader, opt graph.Options) (*graph.CSR, error) {
	field, symmetry, err := mmReadHeader(lr)
	if err != nil {
		return nil, err
	}
	m := &mmReader{lr: lr, field: field, n: -1, el: &edgeList{maxID: -1, base: 1}, width: 3}
	if field == "pattern" {
		m.width = 2
	}
	err = lr.eachLine("%", blankSkip, func(s string) error {
		f := strings.Fields(s)
		if m.n < 0 {
			return m.size(f, s)
		}
		return m.entry(f, s)
	})
	if err != nil {
		return nil, err
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	if symmetry == "symmetric" {
		opt.Symmetrize = graph.Undirected
		return m.el.build(lr.path, m.n, opt)
	}
	if opt.Symmetrize != graph.Undirected {
		return m.el.build(lr.path, m.n, opt)
	}
	return m.symmetric(opt)
}

// mmReadHeader reads the %%MatrixMarket line and returns its field and
// symmetry.
func mmReadHeader(lr *lineReader) (field, symmetry string, err error) {
	const want = `want "%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>"`
	if !lr.next() {
		if err := lr.err(); err != nil {
			return "", "", err
		}
		return "", "", lr.errorf("%s, got nothing", want)
	}
	h := strings.Fields(strings.ToLower(lr.text))
	if len(h) != 5 || h[0] != strings.ToLower(mmHeader) || h[1] != "matrix" {
		return "", "", lr.errorf("%s, got %q", want, lr.text)
	}
	if h[2] != "coordinate" {
		return "", "", lr.errorf("format %q is not supported: want coordinate", h[2])
	}
	field, symmetry = h[3], h[4]
	switch field {
	case "real", "integer", "pattern":
	default:
		return "", "", lr.errorf("field %q is not supported: want real, integer or pattern", field)
	}
	switch symmetry {
	case "general", "symmetric":
	default:
		return "", "", lr.errorf("symmetry %q is not supported: want general or symmetric", symmetry)
	}
	return field, symmetry, nil
}

// mmReader is the state of decodeMatrixMarket after the header line.
type mmReader struct {
	lr       *lineReader
	field    string
	width    int // fields of an entry line: 2 for pattern, 3 with a value
	n, nnz   int // the size line's rows and entries; n < 0 before it
	sizeLine int
	el       *edgeList
}

// size reads the size line "rows cols entries", whose fields are f.
func (m *mmReader) size(f []string, s string) error {
	if len(f) != 3 {
		return fmt.Errorf(`want size line "rows cols entries", got %q`, s)
	}
	var dims [3]int
	for k, name := range []string{"rows", "cols", "entries"} {
		v, err := parseIndex(f[k], name)
		if err != nil {
			return err
		}
		dims[k] = v
	}
	if dims[0] != dims[1] {
		return fmt.Errorf("matrix is %d×%d: a graph needs a square matrix", dims[0], dims[1])
	}
	m.n, m.nnz, m.sizeLine = dims[0], dims[2], m.lr.line
	if m.n == 0 {
		return fmt.Errorf("size line %q: a graph needs at least one node", s)
	}
	if m.nnz == 0 {
		return fmt.Errorf("size line %q: no entries, so the graph would have no edges", s)
	}
	// The size line is a claim: entries are counted as they come (the
	// count is checked at the end), so a huge count in a short file
	// allocates nothing.
	m.el.edges = make([]graph.Edge, 0, min(m.nnz, mmPrealloc))
	m.el.lines = make([]int, 0, min(m.nnz, mmPrealloc))
	return nil
}

// entry reads an entry line "i j [value]", whose fields are f.
func (m *mmReader) entry(f []string, s string) error {
	if len(m.el.edges) == m.nnz {
		return fmt.Errorf("entry beyond the %d of the size line (line %d)", m.nnz, m.sizeLine)
	}
	if len(f) != m.width {
		if m.width == 2 {
			return fmt.Errorf(`want pattern entry "i j", got %q`, s)
		}
		return fmt.Errorf(`want %s entry "i j value", got %q`, m.field, s)
	}
	var ij [2]int
	for k := range ij {
		v, err := parseIndex(f[k], "index")
		if err != nil {
			return err
		}
		if v < 1 || v > m.n {
			return fmt.Errorf("index %d out of range [1, %d]", v, m.n)
		}
		ij[k] = v - 1
	}
	w := 1.0
	if m.width == 3 {
		if m.field == "integer" {
			if _, err := strconv.ParseInt(f[2], 10, 64); err != nil {
				return fmt.Errorf("value %q is not an integer (field integer)", f[2])
			}
		}
		var err error
		if w, err = parseWeight(f[2]); err != nil {
			return err
		}
	}
	m.el.edges = append(m.el.edges, graph.Edge{U: ij[0], V: ij[1], W: w})
	m.el.lines = append(m.el.lines, m.lr.line)
	return nil
}

// check compares the entries read with the size line.
func (m *mmReader) check() error {
	lr := m.lr
	if m.n < 0 {
		return lr.fileErrorf(`no size line "rows cols entries"`)
	}
	if len(m.el.edges) != m.nnz {
		return lr.fileErrorf("%d entries, want %d as the size line (line %d) says", len(m.el.edges), m.nnz, m.sizeLine)
	}
	if present := m.el.distinct(); m.n > justifiedNodes(present) {
		return &ParseError{Path: lr.path, Line: m.sizeLine, Msg: fmt.Sprintf("the size line declares %d nodes but the %d entries name only %d: at most half the nodes of a graph above %d nodes may be isolated (no entry)", m.n, m.nnz, present, MinJustifiedNodes)}
	}
	return nil
}

// symmetric builds the graph of a general file read as it is, which must
// already be symmetric: max(A, Aᵀ) and the mutual rule min(A, Aᵀ) agree
// exactly when A = Aᵀ.
func (m *mmReader) symmetric(opt graph.Options) (*graph.CSR, error) {
	lr, n := m.lr, m.n
	opt.Symmetrize = graph.DirectedMax
	g, err := m.el.build(lr.path, n, opt)
	if err != nil {
		return nil, err
	}
	opt.Symmetrize = graph.DirectedMutual
	mu, err := m.el.build(lr.path, n, opt)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		gc, gw := g.Row(i)
		mc, mw := mu.Row(i)
		for k, j := range gc {
			if k >= len(mc) || mc[k] != j || mw[k] != gw[k] {
				return nil, lr.fileErrorf("general matrix is not symmetric: entries (%d, %d) and (%d, %d) differ or one is missing; set a directed Symmetrize rule in graph.Options to symmetrise it", i+1, j+1, j+1, i+1)
			}
		}
	}
	return g, nil
}

// WriteMatrixMarket writes the weight matrix of g as a Matrix Market file
// "coordinate real symmetric": the size line "n n e", then the e entries of
// the lower triangle (diagonal included) as 1-based "i j w" lines, row by
// row. Weights are written in the shortest form that reads back exactly.
func WriteMatrixMarket(w io.Writer, g *graph.CSR) error {
	bw := bufio.NewWriter(w)
	n := g.Nodes()
	fmt.Fprintf(bw, "%s matrix coordinate real symmetric\n%d %d %d\n", mmHeader, n, n, g.Edges())
	buf := make([]byte, 0, 64)
	for i := 0; i < n; i++ {
		cols, ws := g.Row(i)
		for k, j := range cols {
			if int(j) > i {
				break
			}
			buf = strconv.AppendInt(buf[:0], int64(i+1), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j)+1, 10)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, ws[k], 'g', -1, 64)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return fmt.Errorf("loaders: writing Matrix Market: %w", err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("loaders: writing Matrix Market: %w", err)
	}
	return nil
}
