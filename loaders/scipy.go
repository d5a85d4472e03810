// SciPy sparse matrices as scipy.sparse.save_npz writes them.
//
// save_npz writes a .npz archive (see npy.go) with the arrays
//
//	format   a byte string: "csr", "csc" or "coo" (others are refused)
//	shape    (rows, cols), int64
//	data     the nnz stored values (float, integer or bool)
//	indices  csr/csc: the column (csr) or row (csc) index of each value
//	indptr   csr/csc: rows+1 (csr) or cols+1 (csc) offsets into indices
//	row, col coo: the coordinates of each value
//
// Indices are 0-based. SciPy allows unsorted indices and repeated entries in
// all three formats and sums repeats when it converts; ReadScipySparse does
// the same, so the result equals the matrix's toarray(). Explicit zeros are
// kept as entries. The declared shape must cover every index, and may exceed
// the largest index (empty trailing rows or columns) by at most
// maxDeclaredSlack, so that a few bytes cannot declare a matrix of 10⁹ rows;
// the number of rows of csr (of columns of csc) is fixed by indptr itself.

package loaders

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// maxDeclaredSlack bounds how many rows or columns a file may declare beyond
// those its entries use (isolated nodes, unused features) when nothing else
// in the file accounts for them: 2²⁰ rows cost a few MB.
const maxDeclaredSlack = 1 << 20

// scipyCOO is a SciPy matrix as validated triplets in file order.
type scipyCOO struct {
	format     string
	rows, cols int
	r, c       []int32
	v          []float64
}

// decodeScipy reads and checks the arrays of a save_npz archive.
func decodeScipy(z *npzFile) (*scipyCOO, error) {
	s, err := decodeScipyFormat(z)
	if err != nil {
		return nil, err
	}
	if err := s.decodeShape(z); err != nil {
		return nil, err
	}
	data, err := z.array("data")
	if err != nil {
		return nil, err
	}
	if err := data.numeric(z.path, "data.npy"); err != nil {
		return nil, err
	}
	if len(data.shape) != 1 {
		return nil, scipyError(z, `member "data.npy": want a 1-D array, got shape %s`, shapeString(data.shape))
	}
	s.v = data.floatValues()
	if s.format == "coo" {
		err = s.decodeCOO(z)
	} else {
		err = s.decodeCompressed(z)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// scipyError returns a ParseError for the archive z.
func scipyError(z *npzFile, format string, args ...any) error {
	return &ParseError{Path: z.path, Msg: fmt.Sprintf(format, args...)}
}

// decodeScipyFormat reads the format array and checks that the arrays of
// that format are present.
func decodeScipyFormat(z *npzFile) (*scipyCOO, error) {
	if !z.has("format") || !z.has("shape") || !z.has("data") {
		return nil, scipyError(z, "not a scipy.sparse.save_npz file: want arrays format, shape and data, got %v", z.names())
	}
	fa, err := z.array("format")
	if err != nil {
		return nil, err
	}
	if fa.kind != 'S' && fa.kind != 'U' {
		return nil, scipyError(z, `member "format.npy": want a string such as "csr", got a %s array`, fa.dtype)
	}
	s := &scipyCOO{format: fa.str}
	switch s.format {
	case "csr", "csc":
		if !z.has("indices") || !z.has("indptr") {
			return nil, scipyError(z, "format %s: want arrays indices and indptr", s.format)
		}
	case "coo":
		if !z.has("row") || !z.has("col") {
			return nil, scipyError(z, "format coo: want arrays row and col")
		}
	default:
		return nil, scipyError(z, "sparse format %q is not supported: want csr, csc or coo (convert with .tocsr() before save_npz)", s.format)
	}
	return s, nil
}

// decodeShape reads the shape array (rows, cols).
func (s *scipyCOO) decodeShape(z *npzFile) error {
	sh, err := z.array("shape")
	if err != nil {
		return err
	}
	if sh.ints == nil || len(sh.shape) != 1 || len(sh.ints) != 2 {
		return scipyError(z, `member "shape.npy": want two integers (rows, cols), got %s of shape %s`, sh.dtype, shapeString(sh.shape))
	}
	for k, d := range sh.ints {
		if d < 0 || d >= math.MaxInt32 {
			return scipyError(z, `member "shape.npy": size %d out of range [0, %d)`, d, math.MaxInt32)
		}
		if k == 0 {
			s.rows = int(d)
		} else {
			s.cols = int(d)
		}
	}
	return nil
}

// scipyIndex returns the member name of z, a 1-D integer array.
func scipyIndex(z *npzFile, name string) ([]int64, error) {
	a, err := z.array(name)
	if err != nil {
		return nil, err
	}
	if a.ints == nil || len(a.shape) != 1 {
		return nil, scipyError(z, "member %q: want a 1-D integer array, got %s of shape %s", name+".npy", a.dtype, shapeString(a.shape))
	}
	return a.ints, nil
}

// scipyIndexPair returns the members a and b of z (scipyIndex), read in
// that order.
func scipyIndexPair(z *npzFile, a, b string) (x, y []int64, err error) {
	if x, err = scipyIndex(z, a); err != nil {
		return nil, nil, err
	}
	if y, err = scipyIndex(z, b); err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

// decodeCOO reads the row and col arrays of the coo format.
func (s *scipyCOO) decodeCOO(z *npzFile) error {
	nnz := len(s.v)
	row, col, err := scipyIndexPair(z, "row", "col")
	if err != nil {
		return err
	}
	if len(row) != nnz || len(col) != nnz {
		return scipyError(z, "format coo: %d rows, %d cols and %d data values: want the same length", len(row), len(col), nnz)
	}
	if s.r, err = checkIndices(z.path, "row", row, s.rows, "rows"); err != nil {
		return err
	}
	if s.c, err = checkIndices(z.path, "col", col, s.cols, "columns"); err != nil {
		return err
	}
	return s.checkSlack(z.path, true, true)
}

// decodeCompressed reads the indptr and indices arrays of the csr and csc
// formats.
func (s *scipyCOO) decodeCompressed(z *npzFile) error {
	nnz := len(s.v)
	indptr, indices, err := scipyIndexPair(z, "indptr", "indices")
	if err != nil {
		return err
	}
	major, minor, majorName, minorName := s.rows, s.cols, "rows", "columns"
	if s.format == "csc" {
		major, minor, majorName, minorName = s.cols, s.rows, "columns", "rows"
	}
	if len(indptr) != major+1 {
		return scipyError(z, "format %s: indptr has %d entries, want %s+1 = %d for shape (%d, %d)", s.format, len(indptr), majorName, major+1, s.rows, s.cols)
	}
	if len(indices) != nnz {
		return scipyError(z, "format %s: %d indices and %d data values: want the same length", s.format, len(indices), nnz)
	}
	if indptr[0] != 0 || indptr[major] != int64(nnz) {
		return scipyError(z, "format %s: indptr runs from %d to %d, want 0 to nnz = %d", s.format, indptr[0], indptr[major], nnz)
	}
	for i := 1; i <= major; i++ {
		if indptr[i] < indptr[i-1] {
			return scipyError(z, "format %s: indptr[%d] = %d < indptr[%d] = %d: want non-decreasing offsets", s.format, i, indptr[i], i-1, indptr[i-1])
		}
	}
	minorIdx, err := checkIndices(z.path, "indices", indices, minor, minorName)
	if err != nil {
		return err
	}
	majorIdx := make([]int32, nnz)
	for i := 0; i < major; i++ {
		for k := indptr[i]; k < indptr[i+1]; k++ {
			majorIdx[k] = int32(i)
		}
	}
	s.r, s.c = majorIdx, minorIdx
	if s.format == "csc" {
		s.r, s.c = minorIdx, majorIdx
	}
	return s.checkSlack(z.path, s.format == "csc", s.format == "csr")
}

// checkIndices checks that every index is in [0, n) and converts them.
func checkIndices(path, name string, idx []int64, n int, what string) ([]int32, error) {
	out := make([]int32, len(idx))
	for k, x := range idx {
		if x < 0 || x >= int64(n) {
			return nil, &ParseError{Path: path, Msg: fmt.Sprintf("member %q: %s[%d] = %d out of range [0, %d) (the shape's %s)", name+".npy", name, k, x, n, what)}
		}
		out[k] = int32(x)
	}
	return out, nil
}

// checkSlack bounds the declared rows and/or columns by the largest index
// used plus maxDeclaredSlack.
func (s *scipyCOO) checkSlack(path string, rows, cols bool) error {
	check := func(declared int, idx []int32, what string) error {
		used := 0
		for _, x := range idx {
			used = max(used, int(x)+1)
		}
		if declared-used > maxDeclaredSlack {
			return &ParseError{Path: path, Msg: fmt.Sprintf("shape (%d, %d) declares %d %s but the entries use %d: at most %d empty trailing %s are accepted", s.rows, s.cols, declared, what, used, maxDeclaredSlack, what)}
		}
		return nil
	}
	if rows {
		if err := check(s.rows, s.r, "rows"); err != nil {
			return err
		}
	}
	if cols {
		return check(s.cols, s.c, "columns")
	}
	return nil
}

// sparse returns the matrix in CSR form with ascending columns, repeated
// entries summed as SciPy does, values required finite.
func (s *scipyCOO) sparse(path string) (*Sparse, error) {
	for k, v := range s.v {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, &ParseError{Path: path, Msg: fmt.Sprintf(`member "data.npy": data[%d] = %v at (%d, %d) is not finite`, k, v, s.r[k], s.c[k])}
		}
	}
	nnz := len(s.v)
	indptr := make([]int, s.rows+1)
	for _, r := range s.r {
		indptr[r+1]++
	}
	for i := 0; i < s.rows; i++ {
		indptr[i+1] += indptr[i]
	}
	next := append([]int(nil), indptr[:s.rows]...)
	cols := make([]int32, nnz)
	vals := make([]float64, nnz)
	for k, r := range s.r {
		p := next[r]
		next[r]++
		cols[p], vals[p] = s.c[k], s.v[k]
	}
	// Sort each row by column (stably: repeats are summed in file order) and
	// merge repeats, compacting in place.
	out := 0
	for i := 0; i < s.rows; i++ {
		lo, hi := indptr[i], indptr[i+1]
		sort.Stable(rowSorter{cols[lo:hi], vals[lo:hi]})
		indptr[i] = out
		for k := lo; k < hi; k++ {
			if k > lo && cols[k] == cols[out-1] {
				vals[out-1] += vals[k]
				continue
			}
			cols[out], vals[out] = cols[k], vals[k]
			out++
		}
	}
	indptr[s.rows] = out
	return &Sparse{Rows: s.rows, Cols: s.cols, Indptr: indptr, Indices: cols[:out:out], Values: vals[:out:out]}, nil
}

type rowSorter struct {
	c []int32
	v []float64
}

func (r rowSorter) Len() int           { return len(r.c) }
func (r rowSorter) Less(i, j int) bool { return r.c[i] < r.c[j] }
func (r rowSorter) Swap(i, j int) {
	r.c[i], r.c[j] = r.c[j], r.c[i]
	r.v[i], r.v[j] = r.v[j], r.v[i]
}

// ReadScipySparse reads a matrix written by scipy.sparse.save_npz (csr, csc
// or coo) as a *Sparse with ascending columns in every row; repeated entries
// are summed, as SciPy sums them. Values must be finite.
func ReadScipySparse(path string) (*Sparse, error) {
	z, err := openNPZ(path)
	if err != nil {
		return nil, err
	}
	defer z.close()
	s, err := decodeScipy(z)
	if err != nil {
		return nil, err
	}
	return s.sparse(path)
}

// ReadScipyGraph reads a square matrix written by scipy.sparse.save_npz as
// the weight matrix W of a graph, built by graph.FromCOO with opt: weights
// must be finite and non-negative, opt.Duplicates and opt.SelfLoops treat
// repeated entries and diagonal entries (SciPy itself sums repeats: choose
// graph.DuplicateSum to read the matrix exactly as SciPy does). With
// opt.Symmetrize = graph.Undirected (the zero value) the matrix must be
// symmetric already, as networkx.to_scipy_sparse_array writes an undirected
// graph, and an entry without its mirror is an error naming it and the rule
// to choose; a directed rule (graph.DirectedMax, DirectedSum, …) symmetrises
// a directed adjacency matrix.
func ReadScipyGraph(path string, opt graph.Options) (*graph.CSR, error) {
	z, err := openNPZ(path)
	if err != nil {
		return nil, err
	}
	defer z.close()
	s, err := decodeScipy(z)
	if err != nil {
		return nil, err
	}
	return s.graph(path, opt)
}

func (s *scipyCOO) graph(path string, opt graph.Options) (*graph.CSR, error) {
	if s.rows != s.cols {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("matrix of shape (%d, %d): a graph needs a square matrix", s.rows, s.cols)}
	}
	n := s.rows
	rows := make([]int, len(s.r))
	cols := make([]int, len(s.c))
	for k := range s.r {
		rows[k], cols[k] = int(s.r[k]), int(s.c[k])
	}
	build := func(opt graph.Options) (*graph.CSR, error) {
		g, err := graph.FromCOO(n, rows, cols, s.v, opt)
		if err != nil {
			return nil, &ParseError{Path: path, Msg: fmt.Sprintf("%s matrix of shape (%d, %d)", s.format, n, n), Err: err}
		}
		return g, nil
	}
	if opt.Symmetrize != graph.Undirected {
		return build(opt)
	}
	// Read as it is, the matrix must be symmetric: max(A, Aᵀ) and the mutual
	// rule min(A, Aᵀ) agree exactly when A = Aᵀ.
	opt.Symmetrize = graph.DirectedMax
	g, err := build(opt)
	if err != nil {
		return nil, err
	}
	opt.Symmetrize = graph.DirectedMutual
	m, err := build(opt)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		gc, gw := g.Row(i)
		mc, mw := m.Row(i)
		mk := 0
		for k, j := range gc {
			if mk < len(mc) && mc[mk] == j && mw[mk] == gw[k] {
				mk++
				continue
			}
			return nil, &ParseError{Path: path, Msg: fmt.Sprintf("the matrix is not symmetric: entries (%d, %d) and (%d, %d) differ or one is missing; to read a directed graph choose a rule that symmetrises it (--directed max or sum; graph.Options.Symmetrize)", i, j, j, i)}
		}
	}
	return g, nil
}

// ReadNPZFeatures reads a feature matrix from a .npz file: a SciPy sparse
// matrix (an archive with format, shape and data arrays, as save_npz writes
// it) as a *Sparse, or else the archive's only array as a dense matrix
// (numpy.savez of one array). Exactly one of the results is non-nil
// without an error.
func ReadNPZFeatures(path string) (*Sparse, *mat.Dense, error) { return readNPZFeatures(path, 0) }

// readNPZFeatures is ReadNPZFeatures with a limit on the decoded bytes of
// each array (0: none).
func readNPZFeatures(path string, limit int64) (*Sparse, *mat.Dense, error) {
	z, err := openNPZLimit(path, limit)
	if err != nil {
		return nil, nil, err
	}
	defer z.close()
	if z.has("format") && z.has("shape") && z.has("data") {
		s, err := decodeScipy(z)
		if err != nil {
			return nil, nil, err
		}
		sp, err := s.sparse(path)
		return sp, nil, err
	}
	a, err := z.array("")
	if err != nil {
		return nil, nil, err
	}
	d, err := a.matrix(path, z.member(z.names()[0]).Name)
	return nil, d, err
}
