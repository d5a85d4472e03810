package loaders

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
)

// Hostile inputs: files whose numbers ask for far more memory than their size
// justifies, and files that used to panic or give a silently wrong graph.
// Each allocation test states its bound as allocBound(input size).

// The allocation bound is allocBound (fuzz_table_test.go): a constant
// times the input plus the fixed buffers of the line reader and gzip.

// requireBounded runs f and checks its allocation against size bytes of
// input.
func requireBounded(t testing.TB, size int, f func()) {
	t.Helper()
	got := allocated(f)
	require.LessOrEqual(t, got, allocBound(size), "allocated %d bytes for %d bytes of input", got, size)
}

func TestEdgeListHugeIDRefused(t *testing.T) {
	// The ids 0 and 20 000 000 would make a graph of 20 000 001 nodes from
	// one line.
	const content = "0 20000000\n"
	path := tempFile(t, "e.txt", content)
	var err error
	requireBounded(t, len(content), func() { _, err = ReadEdgeList(path, 0, graph.Options{}) })
	requireParseError(t, err, 0, "ReadEdgeListIDs")
	assert.Contains(t, err.Error(), "only 2 distinct ids")
}

func TestEdgeListSmallGapsAllowed(t *testing.T) {
	// Below MinJustifiedNodes absent ids are isolated nodes, as before.
	g, err := ReadEdgeList(tempFile(t, "e.txt", "0 5\n"), 0, graph.Options{})
	require.NoError(t, err)
	assert.Equal(t, 6, g.Nodes())
	// Above it, at most half the ids may be absent.
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "%d %d\n", 2*i, 2*i+1)
	}
	fmt.Fprintf(&b, "0 %d\n", 2999)
	g, err = ReadEdgeList(tempFile(t, "e.txt", b.String()), 0, graph.Options{})
	require.NoError(t, err)
	assert.Equal(t, 3000, g.Nodes())
	fmt.Fprintf(&b, "0 %d\n", 4100)
	_, err = ReadEdgeList(tempFile(t, "e.txt", b.String()), 0, graph.Options{})
	requireParseError(t, err, 0, "only 2002 distinct ids")
}

func TestEdgeListNoEdges(t *testing.T) {
	for _, content := range []string{"# comments only\n% and more\n", "\n\n# c\n"} {
		_, err := ReadEdgeList(tempFile(t, "e.txt", content), 0, graph.Options{})
		requireParseError(t, err, 0, "no edges")
		_, err = ReadEdgeList(tempFile(t, "e.txt", content), 4, graph.Options{})
		requireParseError(t, err, 0, "no edges")
	}
}

func TestWeightUnderflowRefused(t *testing.T) {
	for _, w := range []string{"1e-400", "0.0001e-397", "-1e-400", "0x1p-2000"} {
		_, err := ReadEdgeList(tempFile(t, "e.txt", "0 1 "+w+"\n"), 0, graph.Options{})
		requireParseError(t, err, 1, "underflows to 0")
	}
	// Subnormal and zero weights are representable and kept.
	for _, w := range []string{"1e-320", "0", "0.0", "0.0000e-999", "-0"} {
		_, err := ReadEdgeList(tempFile(t, "e.txt", "0 1 "+w+"\n1 2 1\n"), 0, graph.Options{})
		require.NoError(t, err, "weight %s", w)
	}
}

func TestMatrixMarketSizeLineBombs(t *testing.T) {
	cases := []struct{ name, content, want string }{
		// 20 million declared nodes for one entry.
		{"nodes", "%%MatrixMarket matrix coordinate real general\n20000000 20000000 1\n1 1 1\n", "declares 20000000 nodes"},
		// 2 billion declared entries, none given.
		{"entries", "%%MatrixMarket matrix coordinate real general\n3 3 2000000000\n1 2 1\n", "1 entries, want 2000000000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := tempFile(t, "m.mtx", tc.content)
			var err error
			requireBounded(t, len(tc.content), func() { _, err = ReadMatrixMarket(path, graph.Options{}) })
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestMatrixMarketEmpty(t *testing.T) {
	_, err := ReadMatrixMarket(tempFile(t, "m.mtx", "%%MatrixMarket matrix coordinate real general\n0 0 0\n"), graph.Options{})
	requireParseError(t, err, 2, "at least one node")
	_, err = ReadMatrixMarket(tempFile(t, "m.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 0\n"), graph.Options{})
	requireParseError(t, err, 2, "no entries")
}

func TestFeaturesHeaderBomb(t *testing.T) {
	const content = "# 20000000 5\n0:1\n"
	path := tempFile(t, "f.txt", content)
	var err error
	requireBounded(t, len(content), func() { _, err = ReadFeatures(path) })
	requireParseError(t, err, 0, "1 rows, want 20000000")
}

func TestLabelsHugeValue(t *testing.T) {
	// One label of 2³¹ − 1 used to make 2³¹ classes downstream.
	dir := nodeFolder(t, map[string]string{
		nodeLabelsFile:     "0\n2147483647\n-1\n5\n",
		nodeFeaturesFile:   absent,
		nodeSplitFile:      absent,
		nodeClassNamesFile: "5 five\n2147483647 big\n",
	})
	var ds *NodeDataset
	var err error
	requireBounded(t, 100, func() { ds, err = LoadNodeDataset(dir) })
	require.NoError(t, err)
	assert.Equal(t, 3, ds.Classes)
	assert.Equal(t, []int{0, 2, -1, 1}, ds.Labels)
	assert.Equal(t, []string{"", "five", "big"}, ds.ClassNames)
}

func TestTUWideAttributes(t *testing.T) {
	// 200 nodes and a first attribute line of 20 000 fields: the reader
	// must not allocate 200 × 20 000 values before seeing line 2.
	var ind, attr strings.Builder
	for i := 0; i < 200; i++ {
		ind.WriteString("1\n")
	}
	attr.WriteString("0")
	for j := 1; j < 20000; j++ {
		attr.WriteString(",0")
	}
	attr.WriteString("\n1\n")
	dir := tuFolder(t, map[string]string{
		tuA: "1, 2\n2, 1\n", tuIndicator: ind.String(), tuGraphLabel: "1\n",
		tuNodeLabel: absent, tuEdgeLabel: absent, tuNodeAttr: attr.String(),
	})
	var err error
	requireBounded(t, ind.Len()+attr.Len(), func() { _, err = LoadTU(dir) })
	requireParseError(t, err, 2, "1 attributes, want 20000")
}

func TestImagesBadPixels(t *testing.T) {
	path := tempFile(t, "im.bin", "\x01\x02")
	for _, px := range []int{0, -3} {
		_, err := ReadImages(path, px)
		requireParseError(t, err, 0, "pixels per image is invalid")
	}
	// An empty file, gzipped or not, is a clear error.
	for _, data := range [][]byte{nil, gzipped(t, nil)} {
		p := writeFile(t, t.TempDir(), "images_u8.bin.gz", data)
		_, err := ReadImages(p, 784)
		requireParseError(t, err, 0, "empty file")
	}
}

func TestImagesMultiMemberGzip(t *testing.T) {
	// Two gzip members: the trailer of the last one says 128 bytes, the
	// stream holds 320.
	var buf bytes.Buffer
	for _, size := range []int{192, 128} {
		zw := gzip.NewWriter(&buf)
		_, err := zw.Write(bytes.Repeat([]byte{7}, size))
		require.NoError(t, err)
		require.NoError(t, zw.Close())
	}
	path := filepath.Join(t.TempDir(), "images_u8.bin.gz")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	im, err := ReadImages(path, 64)
	require.NoError(t, err)
	assert.Equal(t, 5, im.Count)
}

// failingReader returns its data, then err instead of io.EOF: a gzip
// stream cut short.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestTruncatedInputNamed(t *testing.T) {
	// The stream breaks inside a line: the partial line "2 " must not be
	// reported as malformed, the truncation must.
	lr, err := newLineReader(&failingReader{[]byte("0 1\n2 "), io.ErrUnexpectedEOF}, "e.txt.gz")
	require.NoError(t, err)
	_, err = decodeEdgeList(lr, 0, true, graph.Options{})
	requireParseError(t, err, 2, "truncated input")
	lr, err = newLineReader(&failingReader{[]byte("# 2 3\n0:1 1"), io.ErrUnexpectedEOF}, "f.txt.gz")
	require.NoError(t, err)
	_, err = decodeFeatures(lr)
	requireParseError(t, err, 2, "truncated input")
	// A real gzip file cut inside its trailer.
	z := gzipped(t, []byte("0 1\n1 2\n"))
	_, err = ReadEdgeList(writeFile(t, t.TempDir(), "e.txt.gz", z[:len(z)-3]), 0, graph.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "truncated")
}

func TestDistinctBitmapAndSort(t *testing.T) {
	// Both paths of edgeList.distinct against a map.
	for _, edges := range [][]graph.Edge{
		{{U: 0, V: 1}, {U: 1, V: 2}, {U: 2, V: 2}, {U: 7, V: 0}},
		{{U: 0, V: 1 << 30}, {U: 1 << 30, V: 5}},
	} {
		el := &edgeList{edges: edges, maxID: -1}
		want := map[int]bool{}
		for _, e := range edges {
			want[e.U], want[e.V] = true, true
			el.maxID = max(el.maxID, e.U, e.V)
		}
		assert.Equal(t, len(want), el.distinct())
	}
}
