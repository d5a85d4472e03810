package graphfile

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

// randomGraph is built by the ordinary constructor, the reference the file
// must reproduce.
func randomGraph(t *testing.T, n, m int, unit bool, seed uint64) *graph.CSR {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	edges := make([]graph.Edge, m)
	for k := range edges {
		w := 1.0
		if !unit {
			w = rng.Float64() * 3
		}
		edges[k] = graph.Edge{U: rng.IntN(n), V: rng.IntN(n), W: w}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{Duplicates: graph.DuplicateMax})
	require.NoError(t, err)
	return g
}

func requireSameGraph(t *testing.T, want, got *graph.CSR, float32Weights bool) {
	t.Helper()
	require.Equal(t, want.Nodes(), got.Nodes())
	require.Equal(t, want.NNZ(), got.NNZ())
	assert.Equal(t, want.SelfLoops(), got.SelfLoops())
	assert.Equal(t, want.UnitWeights(), got.UnitWeights())
	for i := 0; i < want.Nodes(); i++ {
		wc, ww := want.Row(i)
		gc, gw := got.Row(i)
		require.Equal(t, wc, gc, "row %d", i)
		if float32Weights {
			for k := range ww {
				require.Equal(t, float64(float32(ww[k])), gw[k], "row %d", i)
			}
			continue
		}
		require.Equal(t, ww, gw, "row %d", i)
		require.Equal(t, math.Float64bits(want.Degree(i)), math.Float64bits(got.Degree(i)), "degree %d", i)
	}
}

func requireSameIDs(t *testing.T, want, got *nodeids.Map) {
	t.Helper()
	require.Equal(t, want.Len(), got.Len())
	assert.Equal(t, want.IsIdentity(), got.IsIdentity())
	assert.Equal(t, want.IsText(), got.IsText())
	assert.Equal(t, want.Strings(), got.Strings())
}

func textIDs(t *testing.T, n int) *nodeids.Map {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("user-%d-é", i*7)
	}
	m, err := nodeids.FromStrings(names)
	require.NoError(t, err)
	return m
}

func intIDs(t *testing.T, n int) *nodeids.Map {
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(3*i + 1000)
	}
	m, err := nodeids.FromInts(v)
	require.NoError(t, err)
	return m
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		n, m    int
		unit    bool
		ids     func(*testing.T, int) *nodeids.Map
		float32 bool
	}{
		{"unit identity", 200, 900, true, nil, false},
		{"weighted int ids", 200, 900, false, intIDs, false},
		{"weighted text ids", 150, 500, false, textIDs, false},
		{"float32 weights", 150, 500, false, textIDs, true},
		{"large unit", 20000, 300000, true, intIDs, false},
		{"one node", 1, 1, true, nil, false},
		{"no edges", 7, 0, true, textIDs, false},
		{"no nodes", 0, 0, true, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := randomGraph(t, tc.n, tc.m, tc.unit, uint64(tc.n+tc.m))
			var ids *nodeids.Map
			if tc.ids != nil {
				ids = tc.ids(t, tc.n)
			}
			p := filepath.Join(dir, tc.name+".gsg")
			require.NoError(t, WriteWith(p, g, ids, WriteOptions{Float32Weights: tc.float32}))
			if ids == nil {
				ids = nodeids.Identity(tc.n)
			}
			assert.True(t, IsGraphFile(p))
			for _, v := range []Verify{VerifyAll, VerifyStructure, VerifyNone} {
				f, err := OpenWith(p, OpenOptions{Verify: v})
				require.NoError(t, err, "verify %v", v)
				requireSameGraph(t, g, f.Graph, tc.float32)
				requireSameIDs(t, ids, f.IDs)
				// Products read the mapped arrays (and the mapped ones).
				x := make([]float64, tc.n)
				for i := range x {
					x[i] = float64(i%5) - 2
				}
				want, got := make([]float64, tc.n), make([]float64, tc.n)
				g.MulVecTo(want, x)
				f.Graph.MulVecTo(got, x)
				if !tc.float32 {
					require.Equal(t, want, got)
				}
				fileIDs := f.IDs
				require.NoError(t, f.Close())
				require.NoError(t, f.Close(), "Close twice")
				// The ids own their memory.
				assert.Equal(t, ids.Strings(), fileIDs.Strings())
			}
			rg, rids, err := Read(p)
			require.NoError(t, err)
			requireSameGraph(t, g, rg, tc.float32)
			requireSameIDs(t, ids, rids)
		})
	}
}

// The copying path of big-endian or 32-bit platforms gives the same graph.
func TestRoundTripCopying(t *testing.T) {
	saved := inPlace
	inPlace = false
	defer func() { inPlace = saved }()
	g := randomGraph(t, 300, 2000, false, 9)
	p := filepath.Join(t.TempDir(), "g.gsg")
	require.NoError(t, Write(p, g, intIDs(t, 300)))
	f, err := Open(p)
	require.NoError(t, err)
	defer f.Close()
	requireSameGraph(t, g, f.Graph, false)
}

// The header is checked field by field at the offsets of the package
// documentation, independently of decodeHeader.
func TestLayout(t *testing.T) {
	// Triangle 0-1-2 with weights and a self loop on 3: n = 4, nnz = 7.
	g, err := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 0.5}, {U: 1, V: 2, W: 2}, {U: 0, V: 2, W: 1}, {U: 3, V: 3, W: 4}}, graph.Options{})
	require.NoError(t, err)
	ids, err := nodeids.FromStrings([]string{"a", "bb", "ccc", "d"})
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "g.gsg")
	require.NoError(t, Write(p, g, ids))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	le := binary.LittleEndian
	assert.Equal(t, "GSSLGRPH", string(b[:8]))
	assert.Equal(t, uint32(1), le.Uint32(b[8:]))
	assert.Equal(t, uint32(256), le.Uint32(b[12:]))
	assert.Equal(t, uint64(0), le.Uint64(b[16:]), "flags of a weighted graph")
	assert.Equal(t, uint64(4), le.Uint64(b[24:]))
	assert.Equal(t, uint64(7), le.Uint64(b[32:]))
	assert.Equal(t, uint64(1), le.Uint64(b[40:]))
	assert.Equal(t, uint64(len(b)), le.Uint64(b[48:]))
	assert.Equal(t, uint32(2), le.Uint32(b[56:]), "float64 weights")
	assert.Equal(t, uint32(2), le.Uint32(b[60:]), "text ids")
	assert.Equal(t, crc32.Checksum(b[:252], crc32.MakeTable(crc32.Castagnoli)), le.Uint32(b[252:]))
	// Section offsets: 256, then each 64-aligned after the previous one.
	wantLen := []uint64{8 * 5, 4 * 7, 8 * 7, 8 * 4, 8 * 5, 1 + 2 + 3 + 1}
	wantOff := []uint64{256, 320, 384, 448, 512, 576}
	for s := 0; s < 6; s++ {
		e := b[64+24*s:]
		off, n := le.Uint64(e), le.Uint64(e[8:])
		assert.Equal(t, wantOff[s], off, "section %d", s)
		assert.Equal(t, wantLen[s], n, "section %d", s)
		assert.Equal(t, crc32.Checksum(b[off:off+n], crc32.MakeTable(crc32.Castagnoli)), le.Uint32(e[16:]), "section %d", s)
	}
	assert.Equal(t, 576+7, len(b))
	// Row offsets of the triangle rows: 0, 2, 4, 6, 7; columns of row 0: 1, 2.
	for i, v := range []uint64{0, 2, 4, 6, 7} {
		assert.Equal(t, v, le.Uint64(b[256+8*i:]))
	}
	assert.Equal(t, uint32(1), le.Uint32(b[320:]))
	assert.Equal(t, uint32(2), le.Uint32(b[324:]))
	assert.Equal(t, 0.5, math.Float64frombits(le.Uint64(b[384:])))
	assert.Equal(t, 1.5, math.Float64frombits(le.Uint64(b[448:])), "degree of node 0")
	assert.Equal(t, "abbcccd", string(b[576:]))
}

// writeSmall writes a small file with every section present.
func writeSmall(t *testing.T) (string, []byte) {
	t.Helper()
	g, err := graph.FromEdges(5, []graph.Edge{{U: 0, V: 1, W: 0.5}, {U: 1, V: 2, W: 2}, {U: 0, V: 4, W: 1}, {U: 3, V: 3, W: 4}, {U: 2, V: 4, W: 3}}, graph.Options{})
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "small.gsg")
	require.NoError(t, Write(p, g, textIDs(t, 5)))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return p, b
}

// Every cut of the file, at every byte and so at every section boundary, is
// an error before any section is used, with every verification level.
func TestTruncated(t *testing.T) {
	p, b := writeSmall(t)
	cut := filepath.Join(filepath.Dir(p), "cut.gsg")
	for size := 0; size < len(b); size++ {
		require.NoError(t, os.WriteFile(cut, b[:size], 0o644))
		for _, v := range []Verify{VerifyAll, VerifyNone} {
			f, err := OpenWith(cut, OpenOptions{Verify: v})
			require.Error(t, err, "cut at %d", size)
			assert.Nil(t, f)
			assert.Contains(t, err.Error(), cut)
		}
		_, _, err := Read(cut)
		require.Error(t, err)
		if size >= HeaderSize {
			assert.Contains(t, err.Error(), "truncated", "cut at %d", size)
		}
	}
	// Appended bytes are an error too.
	require.NoError(t, os.WriteFile(cut, append(append([]byte(nil), b...), 0), 0o644))
	_, err := Open(cut)
	assert.ErrorContains(t, err, "truncated or appended")
}

// Any damaged byte is an error with VerifyAll; with the other levels a
// damaged section may go unnoticed, but opening never crashes and a damaged
// header is always an error.
func TestCorrupted(t *testing.T) {
	p, b := writeSmall(t)
	bad := filepath.Join(filepath.Dir(p), "bad.gsg")
	for pos := 0; pos < len(b); pos++ {
		for _, flip := range []byte{0x01, 0x80, 0xff} {
			c := append([]byte(nil), b...)
			c[pos] ^= flip
			require.NoError(t, os.WriteFile(bad, c, 0o644))
			f, err := Open(bad)
			require.Error(t, err, "byte %d ^ %#x", pos, flip)
			assert.Nil(t, f)
			for _, v := range []Verify{VerifyStructure, VerifyNone} {
				f, err := OpenWith(bad, OpenOptions{Verify: v})
				if pos < HeaderSize {
					require.Error(t, err, "header byte %d ^ %#x, verify %v", pos, flip, v)
				}
				if err == nil {
					require.NoError(t, f.Close())
				}
			}
		}
	}
}

func TestHeaderErrors(t *testing.T) {
	p, b := writeSmall(t)
	dir := filepath.Dir(p)
	w := func(name string, c []byte) string {
		q := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(q, c, 0o644))
		return q
	}
	_, err := Open(w("text.gsg", []byte("0 1\n1 2\n")))
	assert.ErrorContains(t, err, "not a gssl graph file")
	long := append([]byte("%%MatrixMarket matrix coordinate"), make([]byte, 300)...)
	_, err = Open(w("mm.gsg", long))
	assert.ErrorContains(t, err, "not a gssl graph file")
	assert.False(t, IsGraphFile(filepath.Join(dir, "mm.gsg")))
	assert.False(t, IsGraphFile(filepath.Join(dir, "missing")))

	// A newer version with a valid header checksum.
	c := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(c[8:], 2)
	binary.LittleEndian.PutUint32(c[252:], crc32.Checksum(c[:252], castagnoli))
	_, err = Open(w("v2.gsg", c))
	assert.ErrorContains(t, err, "format version 2 is newer")
	// An unknown flag with a valid checksum.
	c = append([]byte(nil), b...)
	binary.LittleEndian.PutUint64(c[16:], 1<<5)
	binary.LittleEndian.PutUint32(c[252:], crc32.Checksum(c[:252], castagnoli))
	_, err = Open(w("flag.gsg", c))
	assert.ErrorContains(t, err, "unknown flags")
	// A section moved, with a valid checksum.
	c = append([]byte(nil), b...)
	binary.LittleEndian.PutUint64(c[64+24:], 328)
	binary.LittleEndian.PutUint32(c[252:], crc32.Checksum(c[:252], castagnoli))
	_, err = Open(w("moved.gsg", c))
	assert.ErrorContains(t, err, "section 1 (columns) at 328")

	_, err = Open(filepath.Join(dir, "missing.gsg"))
	assert.ErrorContains(t, err, "missing.gsg")
	_, err = OpenWith(p, OpenOptions{Verify: 7})
	assert.ErrorContains(t, err, "unknown verification level 7")
}

// A structurally invalid graph whose checksums are right (as a tool other
// than this package could write) is caught by the structure check.
func TestStructureCheckedUnderValidChecksums(t *testing.T) {
	p, b := writeSmall(t)
	c := append([]byte(nil), b...)
	// Column of entry 0 (row 0 lists 1, 4): make it 7, out of range.
	colOff := binary.LittleEndian.Uint64(c[64+24:])
	binary.LittleEndian.PutUint32(c[colOff:], 7)
	colLen := binary.LittleEndian.Uint64(c[64+24+8:])
	binary.LittleEndian.PutUint32(c[64+24+16:], crc32.Checksum(c[colOff:colOff+colLen], castagnoli))
	binary.LittleEndian.PutUint32(c[252:], crc32.Checksum(c[:252], castagnoli))
	q := filepath.Join(filepath.Dir(p), "struct.gsg")
	require.NoError(t, os.WriteFile(q, c, 0o644))
	_, err := Open(q)
	assert.ErrorContains(t, err, "column 7 out of range [0, 5)")
	_, err = OpenWith(q, OpenOptions{Verify: VerifyStructure})
	assert.ErrorContains(t, err, "column 7 out of range")
}

func TestWriteErrors(t *testing.T) {
	g := randomGraph(t, 10, 20, true, 1)
	p := filepath.Join(t.TempDir(), "g.gsg")
	err := Write(p, g, nodeids.Identity(9))
	assert.ErrorContains(t, err, "9 ids for a graph of 10 nodes")
	_, err = os.Stat(p)
	assert.ErrorIs(t, err, os.ErrNotExist)
	err = Write(filepath.Join(p, "no", "dir.gsg"), g, nil)
	assert.Error(t, err)
}

func TestCRCCombine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	b := make([]byte, 10000)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	for _, cut := range []int{0, 1, 7, 64, 4096, 9999, 10000} {
		c1 := crc32.Checksum(b[:cut], castagnoli)
		c2 := crc32.Checksum(b[cut:], castagnoli)
		assert.Equal(t, crc32.Checksum(b, castagnoli), crcCombine(c1, c2, int64(len(b)-cut)), "cut %d", cut)
	}
}

func ExampleWrite() {
	g, _ := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}}, graph.Options{})
	dir, _ := os.MkdirTemp("", "gsg")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "path.gsg")
	if err := Write(p, g, nil); err != nil {
		fmt.Println(err)
		return
	}
	f, err := Open(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	cols, _ := f.Graph.Row(1)
	fmt.Println(f.Graph.Nodes(), f.Graph.Edges(), cols, f.IDs.ID(2), IsGraphFile(p))
	// Output: 3 2 [0 2] 2 true
}

// Checksums computed in many parallel chunks and joined match the writer's.
func TestChecksumChunks(t *testing.T) {
	saved := checksumChunk
	checksumChunk = 100
	defer func() { checksumChunk = saved }()
	g := randomGraph(t, 500, 3000, false, 5)
	p := filepath.Join(t.TempDir(), "g.gsg")
	require.NoError(t, Write(p, g, nil))
	f, err := Open(p)
	require.NoError(t, err)
	requireSameGraph(t, g, f.Graph, false)
	require.NoError(t, f.Close())
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	b[len(b)/2] ^= 4
	require.NoError(t, os.WriteFile(p, b, 0o644))
	_, err = Open(p)
	assert.ErrorContains(t, err, "checksum")
}
