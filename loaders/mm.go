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
	const want = `want "%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>"`
	if !lr.next() {
		if err := lr.err(); err != nil {
			return nil, err
		}
		return nil, lr.errorf("%s, got nothing", want)
	}
	h := strings.Fields(strings.ToLower(lr.text))
	if len(h) != 5 || h[0] != strings.ToLower(mmHeader) || h[1] != "matrix" {
		return nil, lr.errorf("%s, got %q", want, lr.text)
	}
	if h[2] != "coordinate" {
		return nil, lr.errorf("format %q is not supported: want coordinate", h[2])
	}
	field, symmetry := h[3], h[4]
	switch field {
	case "real", "integer", "pattern":
	default:
		return nil, lr.errorf("field %q is not supported: want real, integer or pattern", field)
	}
	switch symmetry {
	case "general", "symmetric":
	default:
		return nil, lr.errorf("symmetry %q is not supported: want general or symmetric", symmetry)
	}

	var (
		n, nnz   = -1, 0
		sizeLine int
		el       = &edgeList{maxID: -1, base: 1}
	)
	width := 3
	if field == "pattern" {
		width = 2
	}
	err := lr.eachLine("%", blankSkip, func(s string) error {
		f := strings.Fields(s)
		if n < 0 {
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
			n, nnz, sizeLine = dims[0], dims[2], lr.line
			if n == 0 {
				return fmt.Errorf("size line %q: a graph needs at least one node", s)
			}
			if nnz == 0 {
				return fmt.Errorf("size line %q: no entries, so the graph would have no edges", s)
			}
			// The size line is a claim: entries are counted as they come
			// (the count is checked at the end), so a huge count in a short
			// file allocates nothing.
			el.edges = make([]graph.Edge, 0, min(nnz, mmPrealloc))
			el.lines = make([]int, 0, min(nnz, mmPrealloc))
			return nil
		}
		if len(el.edges) == nnz {
			return fmt.Errorf("entry beyond the %d of the size line (line %d)", nnz, sizeLine)
		}
		if len(f) != width {
			if width == 2 {
				return fmt.Errorf(`want pattern entry "i j", got %q`, s)
			}
			return fmt.Errorf(`want %s entry "i j value", got %q`, field, s)
		}
		var ij [2]int
		for k := range ij {
			v, err := parseIndex(f[k], "index")
			if err != nil {
				return err
			}
			if v < 1 || v > n {
				return fmt.Errorf("index %d out of range [1, %d]", v, n)
			}
			ij[k] = v - 1
		}
		w := 1.0
		if width == 3 {
			if field == "integer" {
				if _, err := strconv.ParseInt(f[2], 10, 64); err != nil {
					return fmt.Errorf("value %q is not an integer (field integer)", f[2])
				}
			}
			var err error
			if w, err = parseWeight(f[2]); err != nil {
				return err
			}
		}
		el.edges = append(el.edges, graph.Edge{U: ij[0], V: ij[1], W: w})
		el.lines = append(el.lines, lr.line)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, lr.fileErrorf(`no size line "rows cols entries"`)
	}
	if len(el.edges) != nnz {
		return nil, lr.fileErrorf("%d entries, want %d as the size line (line %d) says", len(el.edges), nnz, sizeLine)
	}
	if present := el.distinct(); n > justifiedNodes(present) {
		return nil, &ParseError{Path: lr.path, Line: sizeLine, Msg: fmt.Sprintf("the size line declares %d nodes but the %d entries name only %d: at most half the nodes of a graph above %d nodes may be isolated (no entry)", n, nnz, present, MinJustifiedNodes)}
	}
	if symmetry == "symmetric" {
		opt.Symmetrize = graph.Undirected
		return el.build(lr.path, n, opt)
	}
	if opt.Symmetrize != graph.Undirected {
		return el.build(lr.path, n, opt)
	}
	// A general file read as it is: it must already be symmetric. max(A, Aᵀ)
	// and the mutual rule min(A, Aᵀ) agree exactly when A = Aᵀ.
	opt.Symmetrize = graph.DirectedMax
	g, err := el.build(lr.path, n, opt)
	if err != nil {
		return nil, err
	}
	opt.Symmetrize = graph.DirectedMutual
	m, err := el.build(lr.path, n, opt)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		gc, gw := g.Row(i)
		mc, mw := m.Row(i)
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
