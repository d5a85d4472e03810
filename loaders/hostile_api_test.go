package loaders

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
)

func TestReadEdgeListIDs(t *testing.T) {
	const content = "0 2000000000\n2000000000 5\n5 5\n"
	path := tempFile(t, "e.txt", content)
	var (
		g   *graph.CSR
		err error
	)
	requireBounded(t, len(content), func() {
		g, _, err = ReadEdgeListIDs(path, graph.Options{SelfLoops: graph.SelfLoopKeep})
	})
	require.NoError(t, err)
	g, ids, err := ReadEdgeListIDs(path, graph.Options{SelfLoops: graph.SelfLoopKeep})
	require.NoError(t, err)
	require.Equal(t, 3, g.Nodes())
	assert.Equal(t, []int64{0, 5, 2000000000}, ids.Ints())
	assert.Equal(t, 1.0, g.Weight(0, 2))
	assert.Equal(t, 1.0, g.Weight(2, 1))
	assert.Equal(t, 1.0, g.Weight(1, 1))
	assert.Equal(t, 1, g.SelfLoops())

	// Text ids, in order of first appearance; messages name them.
	g, ids, err = ReadEdgeListIDs(tempFile(t, "e.txt", "paris, lyon, 2\nlyon, nice, 1\n"), graph.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"paris", "lyon", "nice"}, ids.Strings())
	assert.Equal(t, 2.0, g.Weight(0, 1))
	_, _, err = ReadEdgeListIDs(tempFile(t, "e.txt", "a b\nb a\n"), graph.Options{})
	requireParseError(t, err, 2, `edge ("b", "a") repeats line 1`)
	_, _, err = ReadEdgeListIDs(tempFile(t, "e.txt", "a b\n-1 c\n"), graph.Options{})
	requireParseError(t, err, 2, "negative")
	_, _, err = ReadEdgeListIDs(tempFile(t, "e.txt", "# nothing\n"), graph.Options{})
	requireParseError(t, err, 0, "no edges")
}

func TestReadImagesCount(t *testing.T) {
	var buf bytes.Buffer
	for _, size := range []int{192, 128} {
		zw := gzip.NewWriter(&buf)
		_, err := zw.Write(bytes.Repeat([]byte{7}, size))
		require.NoError(t, err)
		require.NoError(t, zw.Close())
	}
	path := filepath.Join(t.TempDir(), "images_u8.bin.gz")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	im, err := ReadImagesCount(path, 5)
	require.NoError(t, err)
	assert.Equal(t, 64, im.Pixels)
	assert.Equal(t, 5, im.Count)
	// A doubled labels file does not make 10 images of 32 pixels silently:
	// it does (the count divides), so the caller must check the pixels it
	// expects; a count that does not divide is an error.
	_, err = ReadImagesCount(path, 3)
	requireParseError(t, err, 0, "do not make 3 equally sized images")
	_, err = ReadImagesCount(path, 0)
	requireParseError(t, err, 0, "0 images is invalid")
	_, err = ReadImagesCount(path, 321)
	requireParseError(t, err, 0, "do not make 321")
}

func TestNodeDatasetClassValuesAndSelfLoops(t *testing.T) {
	dir := nodeFolder(t, map[string]string{
		nodeEdgesFile:      "0 1\n1 1\n2 3\n3 3\n",
		nodeLabelsFile:     "3\n7\n-1\n7\n",
		nodeFeaturesFile:   absent,
		nodeSplitFile:      absent,
		nodeClassNamesFile: "3 three\n7 seven\n",
	})
	ds, err := LoadNodeDataset(dir)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 7}, ds.ClassValues)
	assert.Equal(t, []int{0, 1, -1, 1}, ds.Labels)
	assert.Equal(t, []string{"three", "seven"}, ds.ClassNames)
	assert.Equal(t, 2, ds.SelfLoopsDropped)
	assert.Zero(t, ds.Graph.SelfLoops())

	dir = nodeFolder(t, map[string]string{nodeClassNamesFile: "0 a\n4 b\n"})
	_, err = LoadNodeDataset(dir)
	requireParseError(t, err, 2, "class 4 is not a label of any node")

	dir = nodeFolder(t, map[string]string{nodeEdgesFile: "# none\n"})
	_, err = LoadNodeDataset(dir)
	requireParseError(t, err, 0, "no edges")
}
