package loaders

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// expectedDense is a matrix of expected.json: shape and dense values.
type expectedDense struct {
	Shape []int
	N     int
	Dense []float64
	Max   []float64
	Sum   []float64
}

func expectedMatrix(t *testing.T, key string) expectedDense {
	t.Helper()
	var e expectedDense
	require.NoError(t, json.Unmarshal(expectedFormats(t)[key], &e), key)
	if e.N > 0 {
		e.Shape = []int{e.N, e.N}
	}
	return e
}

// checkSparse asserts the invariants of a *Sparse.
func checkSparse(t *testing.T, s *Sparse) {
	t.Helper()
	require.Len(t, s.Indptr, s.Rows+1)
	require.Equal(t, 0, s.Indptr[0])
	require.Equal(t, s.NNZ(), s.Indptr[s.Rows])
	require.Len(t, s.Values, s.NNZ())
	for i := 0; i < s.Rows; i++ {
		require.LessOrEqual(t, s.Indptr[i], s.Indptr[i+1])
		cols, vals := s.Row(i)
		for k, c := range cols {
			require.True(t, c >= 0 && int(c) < s.Cols, "row %d: column %d out of [0, %d)", i, c, s.Cols)
			require.False(t, k > 0 && cols[k-1] >= c, "row %d not strictly ascending", i)
			require.False(t, math.IsNaN(vals[k]) || math.IsInf(vals[k], 0))
		}
	}
}

func TestReadScipySparse(t *testing.T) {
	want := expectedMatrix(t, "features")
	for _, name := range []string{"features_csr.npz", "features_csc.npz", "features_coo.npz", "features_csr_uncompressed.npz"} {
		s, err := ReadScipySparse(formatsFile(name))
		require.NoError(t, err, name)
		checkSparse(t, s)
		require.Equal(t, want.Shape, []int{s.Rows, s.Cols}, name)
		assert.Equal(t, want.Dense, s.Dense(nil).RawMatrix().Data, name)
	}
	want = expectedMatrix(t, "unsorted_csr.npz")
	s, err := ReadScipySparse(formatsFile("unsorted_csr.npz"))
	require.NoError(t, err)
	checkSparse(t, s)
	assert.Equal(t, want.Dense, s.Dense(nil).RawMatrix().Data, "repeats summed as scipy's toarray does")
	assert.Equal(t, 3, s.NNZ())

	s, err = ReadScipySparse(formatsFile("features_int_csr.npz"))
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 3, 0, 1, 0, 2}, s.Dense(nil).RawMatrix().Data)

	sp, d, err := ReadNPZFeatures(formatsFile("features_coo.npz"))
	require.NoError(t, err)
	assert.Nil(t, d)
	assert.Equal(t, expectedMatrix(t, "features").Dense, sp.Dense(nil).RawMatrix().Data)
	sp, d, err = ReadNPZFeatures(formatsFile("single.npz"))
	require.NoError(t, err)
	assert.Nil(t, sp)
	assert.Equal(t, expectedNPY(t, "f64_2d.npy").floats(), d.RawMatrix().Data)
	_, _, err = ReadNPZFeatures(formatsFile("arrays.npz"))
	requireParseError(t, err, 0, "2 arrays (x, y): name the one to read")

	_, err = ReadScipySparse(formatsFile("features_bsr.npz"))
	requireParseError(t, err, 0, `sparse format "bsr" is not supported: want csr, csc or coo`)
	_, err = ReadScipySparse(formatsFile("arrays.npz"))
	requireParseError(t, err, 0, "not a scipy.sparse.save_npz file")
}

// denseGraph returns W of g.
func denseGraph(g *graph.CSR) []float64 { return g.Dense().RawMatrix().Data }

func TestReadScipyGraph(t *testing.T) {
	want := expectedMatrix(t, "graph_sym")
	for _, name := range []string{"graph_sym_csr.npz", "graph_sym_coo.npz"} {
		g, err := ReadScipyGraph(formatsFile(name), graph.Options{})
		require.NoError(t, err, name)
		checkGraph(t, g)
		assert.Equal(t, want.Dense, denseGraph(g), name)
		assert.Equal(t, 6, g.Edges())
	}
	dir := expectedMatrix(t, "graph_directed")
	_, err := ReadScipyGraph(formatsFile("graph_directed_csr.npz"), graph.Options{})
	requireParseError(t, err, 0, "the matrix is not symmetric: entries (0, 1) and (1, 0) differ")
	assert.Contains(t, err.Error(), "--directed max or sum")
	g, err := ReadScipyGraph(formatsFile("graph_directed_csr.npz"), graph.Options{Symmetrize: graph.DirectedMax})
	require.NoError(t, err)
	assert.Equal(t, dir.Max, denseGraph(g))
	g, err = ReadScipyGraph(formatsFile("graph_directed_csr.npz"), graph.Options{Symmetrize: graph.DirectedSum})
	require.NoError(t, err)
	// A + Aᵀ off the diagonal; graph keeps a self loop's weight as given
	// under every rule.
	for i := 0; i < dir.N; i++ {
		dir.Sum[i*dir.N+i] = dir.Dense[i*dir.N+i]
	}
	assert.Equal(t, dir.Sum, denseGraph(g))
	g, err = ReadScipyGraph(formatsFile("graph_directed_csr.npz"), graph.Options{Symmetrize: graph.DirectedMax, SelfLoops: graph.SelfLoopDrop})
	require.NoError(t, err)
	assert.Zero(t, g.SelfLoops())
	_, err = ReadScipyGraph(formatsFile("graph_rect_csr.npz"), graph.Options{})
	requireParseError(t, err, 0, "matrix of shape (2, 3): a graph needs a square matrix")
}

// npyOf returns a .npy file of the elements (int64 or float64 values, or a
// scalar byte string) with the given shape.
func npyOf(t testing.TB, shape string, values any) []byte {
	t.Helper()
	switch v := values.(type) {
	case string:
		return npyBytes(fmt.Sprintf("{'descr': '|S%d', 'fortran_order': False, 'shape': (), }", len(v)), []byte(v))
	case []int64:
		data := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(data[8*i:], uint64(x))
		}
		return npyBytes(fmt.Sprintf("{'descr': '<i8', 'fortran_order': False, 'shape': %s, }", shape), data)
	case []float64:
		data := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(x))
		}
		return npyBytes(fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': %s, }", shape), data)
	}
	panic("npyOf: unknown element type")
}

// scipyNPZ writes a save_npz-like archive from its arrays.
func scipyNPZ(t testing.TB, arrays map[string][]byte) string {
	t.Helper()
	members := make(map[string][]byte)
	for name, data := range arrays {
		members[name+".npy"] = data
	}
	return writeFile(t, t.TempDir(), "m.npz", zipOf(t, members, true))
}

func TestReadScipyHostile(t *testing.T) {
	coo := func(shape []int64, row, col []int64, data []float64) map[string][]byte {
		n := fmt.Sprintf("(%d,)", len(data))
		return map[string][]byte{
			"format": npyOf(t, "", "coo"),
			"shape":  npyOf(t, "(2,)", shape),
			"row":    npyOf(t, fmt.Sprintf("(%d,)", len(row)), row),
			"col":    npyOf(t, fmt.Sprintf("(%d,)", len(col)), col),
			"data":   npyOf(t, n, data),
		}
	}
	csr := func(shape []int64, indptr, indices []int64, data []float64) map[string][]byte {
		return map[string][]byte{
			"format":  npyOf(t, "", "csr"),
			"shape":   npyOf(t, "(2,)", shape),
			"indptr":  npyOf(t, fmt.Sprintf("(%d,)", len(indptr)), indptr),
			"indices": npyOf(t, fmt.Sprintf("(%d,)", len(indices)), indices),
			"data":    npyOf(t, fmt.Sprintf("(%d,)", len(data)), data),
		}
	}
	// The same small matrix is read from a hand-written archive.
	s, err := ReadScipySparse(scipyNPZ(t, coo([]int64{2, 3}, []int64{1, 0}, []int64{2, 0}, []float64{5, 1})))
	require.NoError(t, err)
	assert.True(t, mat.Equal(mat.NewDense(2, 3, []float64{1, 0, 0, 0, 0, 5}), s.Dense(nil)))

	for name, c := range map[string]struct {
		arrays map[string][]byte
		want   string
	}{
		"huge coo":         {coo([]int64{2000000000, 2000000000}, []int64{0}, []int64{1}, []float64{1}), "shape (2000000000, 2000000000) declares 2000000000 rows but the entries use 1"},
		"huge coo cols":    {coo([]int64{1, 2000000000}, []int64{0}, []int64{1}, []float64{1}), "declares 2000000000 columns but the entries use 2"},
		"huge csr":         {csr([]int64{2000000000, 3}, []int64{0, 1}, []int64{1}, []float64{1}), "indptr has 2 entries, want rows+1 = 2000000001"},
		"shape range":      {coo([]int64{1 << 40, 2}, []int64{0}, []int64{1}, []float64{1}), "size 1099511627776 out of range"},
		"negative shape":   {coo([]int64{-1, 2}, []int64{0}, []int64{1}, []float64{1}), "size -1 out of range"},
		"row out of range": {coo([]int64{2, 2}, []int64{2}, []int64{1}, []float64{1}), "row[0] = 2 out of range [0, 2) (the shape's rows)"},
		"col negative":     {coo([]int64{2, 2}, []int64{0}, []int64{-1}, []float64{1}), "col[0] = -1 out of range"},
		"lengths":          {coo([]int64{2, 2}, []int64{0, 1}, []int64{1}, []float64{1}), "format coo: 2 rows, 1 cols and 1 data values"},
		"indptr end":       {csr([]int64{1, 3}, []int64{0, 2}, []int64{1}, []float64{1}), "indptr runs from 0 to 2, want 0 to nnz = 1"},
		"indptr order":     {csr([]int64{3, 3}, []int64{0, 1, 0, 1}, []int64{1}, []float64{1}), "indptr[2] = 0 < indptr[1] = 1"},
		"index range":      {csr([]int64{1, 3}, []int64{0, 1}, []int64{3}, []float64{1}), "indices[0] = 3 out of range [0, 3) (the shape's columns)"},
		"NaN":              {csr([]int64{1, 3}, []int64{0, 1}, []int64{0}, []float64{math.NaN()}), "data[0] = NaN at (0, 0) is not finite"},
		"format type":      {map[string][]byte{"format": npyOf(t, "(1,)", []int64{1}), "shape": npyOf(t, "(2,)", []int64{1, 1}), "data": npyOf(t, "(0,)", []float64{})}, `want a string such as "csr"`},
	} {
		path := scipyNPZ(t, c.arrays)
		alloc := allocated(func() {
			_, err := ReadScipySparse(path)
			requireParseError(t, err, 0, c.want)
		})
		assert.Less(t, alloc, uint64(1<<20), name)
	}
	_, err = ReadScipyGraph(scipyNPZ(t, coo([]int64{2, 2}, []int64{0, 1}, []int64{1, 0}, []float64{-1, -1})), graph.Options{})
	requireParseError(t, err, 0, "weight -1 is negative")
}
