package loaders

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
)

// undirectedMax is a common choice in these tests: repeats merged by max.
var undirectedMax = graph.Options{Duplicates: graph.DuplicateMax}

func TestReadEdgeListFormats(t *testing.T) {
	// The same triangle 0-1-2 plus an edge 2-4 (node 3 isolated) in the
	// accepted spellings.
	for name, content := range map[string]string{
		"spaces":   "0 1\n1 2\n0 2\n2 4\n",
		"tabs":     "0\t1\n1\t2\n0\t2\n2\t4",
		"commas":   "0,1\n1, 2\n0 ,2\n2,4\n",
		"comments": "# header\n% matrix-market-style comment\n\n0 1\n  \n1 2\n0 2\r\n2 4\n# end\n",
		"weights":  "0 1 1\n1 2 1.0\n0 2 1e0\n2 4 1\n",
	} {
		t.Run(name, func(t *testing.T) {
			g, err := ReadEdgeList(tempFile(t, "edges.txt", content), 0, graph.Options{})
			require.NoError(t, err)
			assert.Equal(t, 5, g.Nodes(), "max id + 1")
			assert.Equal(t, 4, g.Edges())
			assert.Equal(t, []int{3}, g.Isolated())
			assert.Equal(t, 1.0, g.Weight(4, 2))
		})
	}
}

func TestReadEdgeListGivenNodeCount(t *testing.T) {
	g, err := ReadEdgeList(tempFile(t, "e.txt", "0 1 0.5\n"), 10, graph.Options{})
	require.NoError(t, err)
	assert.Equal(t, 10, g.Nodes())
	assert.Equal(t, 0.5, g.Weight(1, 0))

	// Only comments: no graph (TestEdgeListNoEdges).
	_, err = ReadEdgeList(tempFile(t, "e.txt", "# nothing\n"), 3, graph.Options{})
	requireParseError(t, err, 0, "no edges")
}

// TestReadEdgeListMatchesFromEdges compares with graph.FromEdges on the same
// edges for every policy: the reader must only parse.
func TestReadEdgeListMatchesFromEdges(t *testing.T) {
	content := "0 1 2\n1 0 3\n2 2 1.5\n1 2 0.25\n1 2 4\n3 0 0\n"
	edges := []graph.Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 0, W: 3}, {U: 2, V: 2, W: 1.5}, {U: 1, V: 2, W: 0.25}, {U: 1, V: 2, W: 4}, {U: 3, V: 0, W: 0}}
	path := tempFile(t, "e.txt", content)
	for _, dup := range []graph.DuplicatePolicy{graph.DuplicateSum, graph.DuplicateMax} {
		for _, loops := range []graph.SelfLoopPolicy{graph.SelfLoopKeep, graph.SelfLoopDrop} {
			for _, sym := range []graph.Symmetrization{graph.Undirected, graph.DirectedMax, graph.DirectedSum, graph.DirectedMean, graph.DirectedMutual} {
				opt := graph.Options{Duplicates: dup, SelfLoops: loops, Symmetrize: sym}
				got, err := ReadEdgeList(path, 0, opt)
				require.NoError(t, err, "%+v", opt)
				want, err := graph.FromEdges(4, edges, opt)
				require.NoError(t, err)
				assert.True(t, mat.Equal(want.Dense(), got.Dense()), "%+v", opt)
			}
		}
	}
}

func TestReadEdgeListGzip(t *testing.T) {
	content := []byte("# gz\n0 1\n1 2\n")
	dir := t.TempDir()
	// gzip is recognised by its magic bytes, whatever the name says.
	for _, path := range []string{
		writeFile(t, dir, "edges.txt", gzipped(t, content)),
		writeFile(t, dir, "edges.txt.gz", gzipped(t, content)),
		writeFile(t, dir, "plain.gz", content),
	} {
		g, err := ReadEdgeList(path, 0, graph.Options{})
		require.NoError(t, err, path)
		assert.Equal(t, 2, g.Edges(), path)
	}
}

func TestReadEdgeListBadInput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string
		n       int
		opt     graph.Options
		line    int
		want    string
	}{
		{name: "one field", content: "0 1\n1 2\n\n# c\n3\n", line: 5, want: `want "u v" or "u v w", got "3"`},
		{name: "four fields", content: "0 1 1 1\n", line: 1, want: `want "u v" or "u v w", got "0 1 1 1"`},
		{name: "mixed widths", content: "0 1\n1 2 0.5\n", line: 2, want: "want 2 fields like line 1, got 3"},
		{name: "empty comma field", content: "0,,1\n", line: 1, want: `node id "" is not an integer`},
		{name: "negative id", content: "0 1\n-1 2\n", line: 2, want: "node id -1 is negative"},
		{name: "non-integer id", content: "0 1.5\n", line: 1, want: `node id "1.5" is not an integer`},
		{name: "text id", content: "a b\n", line: 1, want: `node id "a" is not an integer`},
		{name: "huge id", content: "0 99999999999999999999\n", line: 1, want: "is too large"},
		{name: "id beyond int32", content: "0 2147483647\n", line: 1, want: "is too large"},
		{name: "id out of range", content: "0 1\n1 5\n", n: 5, line: 2, want: "node id 5 out of range [0, 5)"},
		{name: "NaN weight", content: "0 1 NaN\n", line: 1, want: "weight NaN is not finite"},
		{name: "Inf weight", content: "0 1 1\n1 2 +Inf\n", line: 2, want: "weight +Inf is not finite"},
		{name: "overflowing weight", content: "0 1 1e999\n", line: 1, want: "weight 1e999 is not finite"},
		{name: "negative weight", content: "0 1 -0.5\n", line: 1, want: "weight -0.5 is negative"},
		{name: "text weight", content: "0 1 heavy\n", line: 1, want: `weight "heavy" is not a number`},
		{name: "duplicate", content: "0 1\n1 2\n# c\n1 0\n", line: 4, want: "edge (1, 0) repeats line 1"},
		{name: "duplicate arc", content: "0 1\n1 0\n0 1\n", opt: graph.Options{Symmetrize: graph.DirectedMax}, line: 3, want: "edge (0, 1) repeats line 1"},
		{name: "self loop", content: "0 1\n2 2\n", opt: graph.Options{SelfLoops: graph.SelfLoopError}, line: 2, want: "self loop on node 2"},
		{name: "empty file", content: "", line: 0, want: "empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadEdgeList(tempFile(t, "cora/edges.txt", tc.content), tc.n, tc.opt)
			requireParseError(t, err, tc.line, tc.want)
			assert.Contains(t, err.Error(), "cora/edges.txt")
		})
	}
}

func TestReadEdgeListErrorFormat(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "cora/edges.txt", []byte("0 1\n0 2\n1 2\n0 3\n0 4\n0 5\n0 6\n0 7\n0 8\n0 9\n0 10\n0 11\n0 12\n0 13\n0 14\n0 15\n3\n"))
	_, err := ReadEdgeList(path, 0, graph.Options{})
	require.Error(t, err)
	assert.Equal(t, `loaders: `+path+`:17: want "u v" or "u v w", got "3"`, err.Error())
}

func TestReadEdgeListTruncatedGzip(t *testing.T) {
	var content []byte
	for i := 0; i < 5000; i++ {
		content = append(content, []byte("12 345\n")...)
	}
	gz := gzipped(t, content)
	for _, cut := range []int{len(gz) / 2, len(gz) - 4} {
		_, err := ReadEdgeList(writeFile(t, t.TempDir(), "edges.txt.gz", gz[:cut]), 0, undirectedMax)
		require.Error(t, err, "cut at %d of %d bytes", cut, len(gz))
		assert.Contains(t, err.Error(), "edges.txt.gz")
	}
	// A corrupted checksum is an error too.
	bad := append([]byte(nil), gz...)
	bad[len(bad)-6] ^= 0xff
	_, err := ReadEdgeList(writeFile(t, t.TempDir(), "edges.txt.gz", bad), 0, undirectedMax)
	require.Error(t, err)
}

func TestReadEdgeListMissingFile(t *testing.T) {
	_, err := ReadEdgeList("no/such/edges.txt", 0, graph.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no/such/edges.txt")
}

func TestReadEdgeListNegativeNodeCountPanics(t *testing.T) {
	assert.Panics(t, func() { ReadEdgeList("x", -1, graph.Options{}) })
}
