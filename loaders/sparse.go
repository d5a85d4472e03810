package loaders

import (
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Sparse is a sparse matrix in compressed sparse row form, as read from a
// features file. Row i holds the columns Indices[Indptr[i]:Indptr[i+1]], in
// ascending order, with the values at the same positions of Values. Explicit
// zeros given in the file are kept.
type Sparse struct {
	Rows, Cols int
	Indptr     []int     // length Rows+1
	Indices    []int32   // length NNZ
	Values     []float64 // length NNZ
}

// NNZ returns the number of stored entries.
func (s *Sparse) NNZ() int { return len(s.Indices) }

// Row returns the columns and values of row i. The slices are views into s.
// Row panics if i is out of range.
func (s *Sparse) Row(i int) (cols []int32, vals []float64) {
	if i < 0 || i >= s.Rows {
		panic("loaders: row index out of range")
	}
	lo, hi := s.Indptr[i], s.Indptr[i+1]
	return s.Indices[lo:hi:hi], s.Values[lo:hi:hi]
}

// Dims returns the numbers of rows and columns (mat.Matrix).
func (s *Sparse) Dims() (r, c int) { return s.Rows, s.Cols }

// At returns the entry at row i, column j, 0 where none is stored
// (mat.Matrix): a binary search of row i's columns. At panics with
// mat.ErrIndexOutOfRange if i or j is out of range.
func (s *Sparse) At(i, j int) float64 {
	if i < 0 || i >= s.Rows || j < 0 || j >= s.Cols {
		panic(mat.ErrIndexOutOfRange)
	}
	cols, vals := s.Row(i)
	lo, hi := 0, len(cols)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(cols[m]) < j {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(cols) && int(cols[lo]) == j {
		return vals[lo]
	}
	return 0
}

// T returns the transpose as a view (mat.Matrix): At(i, j) of the result
// reads s.At(j, i).
func (s *Sparse) T() mat.Matrix { return mat.Transpose{Matrix: s} }

var _ mat.Matrix = (*Sparse)(nil)

// DenseRow writes row i into dst, which must have length Cols, and returns
// it. A nil dst is allocated.
func (s *Sparse) DenseRow(dst []float64, i int) []float64 {
	if dst == nil {
		dst = make([]float64, s.Cols)
	}
	if len(dst) != s.Cols {
		panic("loaders: dense row length mismatch")
	}
	clear(dst)
	cols, vals := s.Row(i)
	for k, c := range cols {
		dst[c] = vals[k]
	}
	return dst
}

// Dense returns the listed rows, in order, as a dense len(rows)×Cols matrix;
// nil rows means every row. This is the explicit O(rows·Cols) memory path;
// an empty selection or a matrix without columns gives an empty mat.Dense.
func (s *Sparse) Dense(rows []int) *mat.Dense {
	if rows == nil {
		rows = make([]int, s.Rows)
		for i := range rows {
			rows[i] = i
		}
	}
	if len(rows) == 0 || s.Cols == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(len(rows), s.Cols, nil)
	raw := d.RawMatrix()
	for k, i := range rows {
		s.DenseRow(raw.Data[k*raw.Stride:k*raw.Stride+s.Cols], i)
	}
	return d
}

// ReadFeatures reads a sparse features file: a header "# n_rows n_cols",
// then one line per row of space-separated "col:value" pairs with 0-based,
// strictly ascending columns; an empty line is an all-zero row.
func ReadFeatures(path string) (*Sparse, error) {
	return readFile(path, decodeFeatures)
}

// sparsePrealloc bounds the rows allocated from the header before they are
// read: the header's count is checked against the rows that follow.
const sparsePrealloc = 4096

func decodeFeatures(lr *lineReader) (*Sparse, error) {
	const wantHeader = `want header "# n_nodes n_features"`
	if !lr.next() {
		if err := lr.err(); err != nil {
			return nil, err
		}
		return nil, lr.errorf("%s, got nothing", wantHeader)
	}
	h := strings.Fields(lr.text)
	if len(h) != 3 || h[0] != "#" {
		return nil, lr.errorf("%s, got %q", wantHeader, lr.text)
	}
	rows, err := parseIndex(h[1], "n_nodes")
	if err != nil {
		return nil, lr.errorf("%s: %v", wantHeader, err)
	}
	cols, err := parseIndex(h[2], "n_features")
	if err != nil {
		return nil, lr.errorf("%s: %v", wantHeader, err)
	}
	s := &Sparse{Rows: rows, Cols: cols, Indptr: make([]int, 1, min(rows, sparsePrealloc)+1)}
	for lr.next() {
		i := len(s.Indptr) - 1
		if i >= rows {
			if strings.TrimSpace(lr.text) == "" {
				return nil, lr.errorf("extra blank line: the header says %d rows, and an empty line is an all-zero row", rows)
			}
			return nil, lr.errorf("row %d beyond the %d rows of the header", i, rows)
		}
		prev := -1
		for _, tok := range strings.Fields(lr.text) {
			cs, vs, ok := strings.Cut(tok, ":")
			if !ok {
				return nil, lr.errorf(`row %d: want "col:value", got %q`, i, tok)
			}
			c, err := parseIndex(cs, "column")
			if err != nil {
				return nil, lr.errorf("row %d: %v", i, err)
			}
			if c >= cols {
				return nil, lr.errorf("row %d: column %d out of range [0, %d)", i, c, cols)
			}
			if c <= prev {
				return nil, lr.errorf("row %d: column %d after column %d: columns must be strictly ascending", i, c, prev)
			}
			v, err := parseFinite(vs, "value")
			if err != nil {
				return nil, lr.errorf("row %d, column %d: %v", i, c, err)
			}
			prev = c
			s.Indices = append(s.Indices, int32(c))
			s.Values = append(s.Values, v)
		}
		s.Indptr = append(s.Indptr, len(s.Indices))
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	if got := len(s.Indptr) - 1; got != rows {
		return nil, lr.fileErrorf("%d rows, want %d as the header says", got, rows)
	}
	return s, nil
}
