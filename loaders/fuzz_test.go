package loaders

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// The fuzz targets check that no input makes a parser panic, that every
// error is a *ParseError naming the file, and that what a parser accepts is
// consistent. With `go test` they run on their seeds; `go test -fuzz=FuzzX`
// explores further.

// fuzzSize is the input size the allocation bound of a fuzz target is
// measured against: the bytes of every file, decompressed when gzipped (a
// parser may hold what it decodes).
func fuzzSize(data ...[]byte) int {
	size := 0
	for _, d := range data {
		n := len(d)
		if zr, err := gzip.NewReader(bytes.NewReader(d)); err == nil {
			if m, err := io.Copy(io.Discard, io.LimitReader(zr, 1<<26)); m > int64(n) && (err == nil || m > 0) {
				n = int(m)
			}
		}
		size += n
	}
	return size
}

// fuzzBounded runs f, the whole parse of data, and fails when it allocated
// more than allocBound of the input: the memory bombs of a number in the
// input (a node id, a size line, a header count) are found by the fuzzer
// rather than skipped.
func fuzzBounded(t *testing.T, f func(), data ...[]byte) {
	t.Helper()
	size := fuzzSize(data...)
	got := allocated(f)
	require.LessOrEqual(t, got, allocBound(size), "allocated %d bytes for %d bytes of input", got, size)
}

// requireFileError checks the shape of a parser's error.
func requireFileError(t *testing.T, err error) {
	t.Helper()
	var pe *ParseError
	require.True(t, errors.As(err, &pe), "not a *ParseError: %v", err)
	require.Equal(t, "fuzz.txt", pe.Path)
	require.GreaterOrEqual(t, pe.Line, 0)
}

// checkGraph asserts the invariants of any graph the loaders return.
func checkGraph(t *testing.T, g *graph.CSR) {
	t.Helper()
	n := g.Nodes()
	nnz := 0
	for i := 0; i < n; i++ {
		cols, ws := g.Row(i)
		nnz += len(cols)
		for k, c := range cols {
			require.True(t, c >= 0 && int(c) < n, "node id %d out of [0, %d)", c, n)
			require.False(t, k > 0 && cols[k-1] >= c, "row %d not ascending", i)
			require.False(t, math.IsNaN(ws[k]) || math.IsInf(ws[k], 0) || ws[k] < 0, "weight %v", ws[k])
			require.Equal(t, ws[k], g.Weight(int(c), i), "W not symmetric at (%d, %d)", i, c)
		}
	}
	require.Equal(t, g.NNZ(), nnz)
}

// fuzzOptions picks graph options from a byte.
func fuzzOptions(b uint8) graph.Options {
	return graph.Options{
		Duplicates: graph.DuplicatePolicy(b % 3),
		SelfLoops:  graph.SelfLoopPolicy(b / 3 % 3),
		Symmetrize: graph.Symmetrization(b / 9 % 5),
	}
}

func FuzzEdgeList(f *testing.F) {
	f.Add([]byte("0 1\n1 2\n2 0\n"), uint8(0), uint8(0))
	f.Add([]byte("# c\n% c\n0,1,0.5\n1, 2, 3\n\n"), uint8(5), uint8(1))
	f.Add([]byte("0 1\n1 0\n2 2\n"), uint8(0), uint8(10))
	f.Add([]byte("0 1\n3\n"), uint8(0), uint8(0))
	f.Add([]byte("0 1 NaN\n-1 2\n"), uint8(3), uint8(2))
	f.Add([]byte("0 1 -1\n"), uint8(0), uint8(0))
	f.Add(gzipped(f, []byte("0 1\n1 2\n")), uint8(0), uint8(4))
	f.Add([]byte{0x1f, 0x8b, 0, 0}, uint8(0), uint8(0))
	f.Add([]byte("0 2000000000\n"), uint8(0), uint8(0))
	f.Add([]byte("0 100000000\n1 2\n"), uint8(0), uint8(3))
	f.Add([]byte("# only comments\n% here\n"), uint8(0), uint8(0))
	f.Add([]byte("0 1 1e-400\n"), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, n, policy uint8) {
		var g *graph.CSR
		var err error
		fuzzBounded(t, func() {
			var lr *lineReader
			if lr, err = lines(data); err == nil {
				g, err = decodeEdgeList(lr, int(n), true, fuzzOptions(policy))
			}
		}, data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		checkGraph(t, g)
		if n > 0 {
			require.Equal(t, int(n), g.Nodes())
		}
		if !bytes.HasPrefix(data, gzipMagic[:]) {
			require.LessOrEqual(t, g.Edges(), bytes.Count(data, []byte("\n"))+1, "at most one edge per line")
		}
	})
}

func FuzzEdgeListIDs(f *testing.F) {
	f.Add([]byte("0 2000000000\n2000000000 7\n"), uint8(0))
	f.Add([]byte("a b\nb c 2\n"), uint8(2))
	f.Add([]byte("a,b,1\nb,a,1\n"), uint8(9))
	f.Add([]byte("-1 2\n"), uint8(0))
	f.Add([]byte("x y\n"), uint8(5))
	f.Fuzz(func(t *testing.T, data []byte, policy uint8) {
		var g *graph.CSR
		var ids interface{ Len() int }
		var err error
		fuzzBounded(t, func() {
			var lr *lineReader
			if lr, err = lines(data); err == nil {
				g, ids, err = decodeEdgeListIDs(lr, true, fuzzOptions(policy))
			}
		}, data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		checkGraph(t, g)
		require.Equal(t, ids.Len(), g.Nodes())
	})
}

func FuzzLabels(f *testing.F) {
	f.Add([]byte("0\n1\n-1\n2\n"))
	f.Add([]byte("# c\n0\n\n\n"))
	f.Add([]byte("0\n\n1\n"))
	f.Add([]byte("-2\n"))
	f.Add([]byte("1 2\n"))
	f.Add([]byte("0\n2147483647\n-1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var labels, classes, values []int
		var err error
		fuzzBounded(t, func() {
			var lr *lineReader
			if lr, err = lines(data); err == nil {
				if labels, err = decodeLabels(lr); err == nil {
					classes, values = NumberClasses(labels)
				}
			}
		}, data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		require.NotEmpty(t, labels)
		for i, l := range labels {
			require.GreaterOrEqual(t, l, -1)
			if l < 0 {
				require.Equal(t, -1, classes[i])
			} else {
				require.Equal(t, l, values[classes[i]])
			}
		}
	})
}

func FuzzIntsFloats(f *testing.F) {
	f.Add([]byte("1\n2\n3\n"))
	f.Add([]byte("# header\n-44.955000\n1e3\n"))
	f.Add([]byte("NaN\n"))
	f.Add([]byte("1\n\n2\n"))
	f.Add([]byte("1e-400\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzBounded(t, func() {
			if lr, err := lines(data); err == nil {
				decodeInts(lr)
			}
			if lr, err := lines(data); err == nil {
				decodeFloats(lr)
			}
		}, data, data)
		if lr, err := lines(data); err != nil {
			requireFileError(t, err)
		} else if ints, err := decodeInts(lr); err != nil {
			requireFileError(t, err)
		} else {
			require.NotEmpty(t, ints)
		}
		if lr, err := lines(data); err != nil {
			requireFileError(t, err)
		} else if floats, err := decodeFloats(lr); err != nil {
			requireFileError(t, err)
		} else {
			require.NotEmpty(t, floats)
			for _, x := range floats {
				require.False(t, math.IsNaN(x) || math.IsInf(x, 0))
			}
		}
	})
}

func FuzzSplit(f *testing.F) {
	f.Add([]byte("train 0\nval 1\ntest 2\n"), uint16(3))
	f.Add([]byte("# c\ntrain 0\n\ntrain 0\n"), uint16(3))
	f.Add([]byte("test 5\n"), uint16(3))
	f.Add([]byte("holdout 1\n"), uint16(3))
	f.Add([]byte("train -1\n"), uint16(3))
	f.Add([]byte("train 2000000000\n"), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		var sp *Split
		var err error
		fuzzBounded(t, func() {
			var lr *lineReader
			if lr, err = lines(data); err == nil {
				sp, err = decodeSplit(lr, int(n))
			}
		}, data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		seen := make(map[int]bool)
		for _, part := range [][]int{sp.Train, sp.Val, sp.Test} {
			for _, i := range part {
				require.True(t, i >= 0 && i < int(n), "node %d out of [0, %d)", i, n)
				require.False(t, seen[i], "node %d twice", i)
				seen[i] = true
			}
		}
	})
}

func FuzzFeatures(f *testing.F) {
	f.Add([]byte("# 3 4\n0:1 2:0.5\n\n3:1\n"))
	f.Add([]byte("# 2 2\n1:1 0:1\n\n"))
	f.Add([]byte("# 2 2\n2:1\n\n"))
	f.Add([]byte("# 1 1\n0:NaN\n"))
	f.Add([]byte("0:1\n"))
	f.Add(gzipped(f, []byte("# 1 3\n0:1 1:1 2:1\n")))
	f.Add([]byte("# 2000000000 2000000000\n0:1\n"))
	f.Add([]byte("# 1 2000000000\n1999999999:1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s *Sparse
		var err error
		fuzzBounded(t, func() {
			var lr *lineReader
			if lr, err = lines(data); err == nil {
				s, err = decodeFeatures(lr)
			}
		}, data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		require.Len(t, s.Indptr, s.Rows+1)
		require.Equal(t, 0, s.Indptr[0])
		require.Equal(t, s.NNZ(), s.Indptr[s.Rows])
		require.Len(t, s.Values, s.NNZ())
		for i := 0; i < s.Rows; i++ {
			cols, vals := s.Row(i)
			for k, c := range cols {
				require.True(t, c >= 0 && int(c) < s.Cols)
				require.False(t, k > 0 && cols[k-1] >= c)
				require.False(t, math.IsNaN(vals[k]) || math.IsInf(vals[k], 0))
			}
			if s.Cols <= 1000 {
				row := s.DenseRow(nil, i)
				require.Len(t, row, s.Cols)
			}
		}
	})
}

func FuzzClassNames(f *testing.F) {
	f.Add([]byte("0 Film Photography\n1 Digital Cameras\n"), uint8(2))
	f.Add([]byte("0 a\n0 b\n"), uint8(2))
	f.Add([]byte("3 a\n"), uint8(2))
	f.Add([]byte("0\n"), uint8(2))
	f.Add([]byte("2147483647 big\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, classes uint8) {
		values := make([]int, classes)
		for c := range values {
			values[c] = c
		}
		var names []string
		var err error
		fuzzBounded(t, func() {
			var lr *lineReader
			if lr, err = lines(data); err == nil {
				names, err = decodeClassNames(lr, values)
			}
		}, data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		require.Len(t, names, int(classes))
	})
}

func FuzzTU(f *testing.F) {
	files := tuFiles()
	f.Add([]byte(files[tuA]), []byte(files[tuIndicator]), []byte(files[tuGraphLabel]), []byte(files[tuNodeLabel]), []byte(files[tuEdgeLabel]), []byte(files[tuNodeAttr]))
	f.Add([]byte("1, 2\n2, 1\n"), []byte("1\n1\n"), []byte("-1\n"), []byte(""), []byte(""), []byte(""))
	f.Add([]byte("1, 3\n"), []byte("1\n1\n2\n"), []byte("1\n2\n"), []byte("0\n0\n0\n"), []byte("1\n"), []byte("1,2\n3,4\n5,6\n"))
	f.Add([]byte("1, 2\n2, 1\n"), []byte("1\n2\n1\n"), []byte("1\n2\n"), []byte(""), []byte("1\n2\n"), []byte(""))
	f.Add([]byte("1, 2\n2, 1\n"), []byte("1\n1\n"), []byte("1\n"), []byte(""), []byte("1\n2\n"), []byte("1\nnan\n"))
	f.Add([]byte("1, 1\n1, 2\n1, 2\n"), []byte("1\n1\n3\n"), []byte("1\n2\n3\n"), []byte("0,1\n1,0\n2,2\n"), []byte("0\n0\n0\n"), []byte("1,2\n3\n"))
	f.Add([]byte("1, 2\n"), []byte("1\n1\n"), []byte("1\n"), []byte(""), []byte(""), []byte("0"+strings.Repeat(",0", 5000)+"\n1\n"))
	f.Add([]byte("1, 2000000000\n"), []byte("1\n1\n"), []byte("2000000000\n"), []byte(""), []byte(""), []byte(""))
	f.Fuzz(func(t *testing.T, a, indicator, graphLabels, nodeLabels, edgeLabels, attrs []byte) {
		var ds *TUDataset
		var err error
		fuzzBounded(t, func() {
			src := make(map[string]*lineReader)
			for suffix, data := range map[string][]byte{tuA: a, tuIndicator: indicator, tuGraphLabel: graphLabels, tuNodeLabel: nodeLabels, tuEdgeLabel: edgeLabels, tuNodeAttr: attrs} {
				optional := suffix == tuNodeLabel || suffix == tuEdgeLabel || suffix == tuNodeAttr
				if optional && len(data) == 0 {
					continue
				}
				lr, lerr := lines(data)
				if lerr != nil {
					err = lerr
					return
				}
				src[suffix] = lr
			}
			ds, err = decodeTU("FUZZ", src)
		}, a, indicator, graphLabels, nodeLabels, edgeLabels, attrs)
		if err != nil {
			requireFileError(t, err)
			return
		}
		lr, err := lines(graphLabels)
		require.NoError(t, err)
		labels, err := decodeTUInts(lr, "graph label", 0)
		require.NoError(t, err)
		require.Len(t, ds.Graphs, len(labels), "one graph per label")
		next := 0
		for g, tg := range ds.Graphs {
			checkGraph(t, tg.Graph)
			n := tg.Graph.Nodes()
			require.Equal(t, next, tg.FirstNode)
			next += n
			require.Equal(t, tg.Label, ds.LabelValues[tg.Class])
			require.Zero(t, tg.Graph.SelfLoops())
			if tg.NodeLabels != nil {
				require.Len(t, tg.NodeLabels, n)
			}
			if tg.EdgeLabels != nil {
				require.Len(t, tg.EdgeLabels, n, "graph %d", g)
				for i, row := range tg.EdgeLabels {
					require.Len(t, row, tg.Graph.RowLen(i))
				}
			}
			if tg.Attributes != nil {
				r, _ := tg.Attributes.Dims()
				require.Equal(t, n, r)
			}
		}
	})
}

func FuzzMatrixMarket(f *testing.F) {
	f.Add([]byte("%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 3\n2 1 2.0\n3 1 1\n3 3 5\n"), uint8(0))
	f.Add([]byte("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n"), uint8(0))
	f.Add([]byte("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 4\n"), uint8(9))
	f.Add([]byte("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 4\n"), uint8(0))
	f.Add([]byte("%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n1\n"), uint8(0))
	f.Add([]byte("%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n1 1 -1\n"), uint8(0))
	f.Add([]byte("%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 1\n1 1 1\n"), uint8(0))
	f.Add([]byte("%%MatrixMarket matrix coordinate pattern general\n3 3 2000000000\n1 2\n"), uint8(0))
	f.Add([]byte("%%MatrixMarket matrix coordinate real general\n0 0 0\n"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, policy uint8) {
		var g *graph.CSR
		var err error
		fuzzBounded(t, func() {
			var lr *lineReader
			if lr, err = lines(data); err == nil {
				g, err = decodeMatrixMarket(lr, fuzzOptions(policy))
			}
		}, data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		checkGraph(t, g)
		if g.NNZ() == 0 {
			// Every entry was a dropped self loop: "n n 0" does not read
			// back (a file without entries is refused).
			return
		}
		// What was read writes and reads back unchanged.
		var buf bytes.Buffer
		require.NoError(t, WriteMatrixMarket(&buf, g))
		lr, err := lines(buf.Bytes())
		require.NoError(t, err)
		back, err := decodeMatrixMarket(lr, graph.Options{})
		require.NoError(t, err)
		require.Equal(t, g.Nodes(), back.Nodes())
		require.Equal(t, g.NNZ(), back.NNZ())
		for i := 0; i < g.Nodes(); i++ {
			c1, w1 := g.Row(i)
			c2, w2 := back.Row(i)
			require.Equal(t, c1, c2)
			require.Equal(t, w1, w2)
		}
	})
}

func FuzzDense(f *testing.F) {
	f.Add([]byte("x,y\n1,2\n3,4\n"))
	f.Add([]byte("# c\n1\t2\n3\t4\n"))
	f.Add([]byte("1 2\n3\n"))
	f.Add([]byte("1,NaN\n"))
	f.Add([]byte("a,b\n"))
	f.Add([]byte("1,,2\n"))
	f.Add([]byte("1e-400,1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m *mat.Dense
		var err error
		fuzzBounded(t, func() {
			var lr *lineReader
			if lr, err = lines(data); err == nil {
				m, err = decodeDense(lr)
			}
		}, data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		r, c := m.Dims()
		require.Positive(t, r)
		require.Positive(t, c)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				require.False(t, math.IsNaN(m.At(i, j)) || math.IsInf(m.At(i, j), 0))
			}
		}
	})
}

func FuzzImages(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4}, uint8(2))
	f.Add([]byte{1, 2, 3}, uint8(2))
	f.Add(gzipped(f, make([]byte, 128)), uint8(64))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0}, uint8(1))
	f.Add([]byte{}, uint8(0))
	f.Add(gzipped(f, nil), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, pixels uint8) {
		var im *Images
		var err error
		if pixels == 0 {
			// A pixel count derived from bad data is an error, not a panic.
			path, werr := writeFuzzFile(t, data)
			require.NoError(t, werr)
			_, err = ReadImages(path, 0)
			var pe *ParseError
			require.True(t, errors.As(err, &pe), "not a *ParseError: %v", err)
			return
		}
		fuzzBounded(t, func() { im, err = decodeImages(bytes.NewReader(data), "fuzz.txt", int(pixels)) }, data)
		if err != nil {
			requireFileError(t, err)
			return
		}
		require.Positive(t, im.Count)
		require.Len(t, im.Data, im.Count*im.Pixels)
		x := im.Dense(nil)
		r, _ := x.Dims()
		assert.Equal(t, im.Count, r)
	})
}

// writeFuzzFile writes data to fuzz.txt in a fresh directory, for the
// readers that take a path.
func writeFuzzFile(t *testing.T, data []byte) (string, error) {
	path := filepath.Join(t.TempDir(), "fuzz.txt")
	return path, os.WriteFile(path, data, 0o644)
}
