package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"codeberg.org/sbinet/npyio/npz"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/scripts/internal/nodefolder"
)

// TestSharedTolokers converts the paper's tolokers.npz and compares with
// the shared folder made from it: the text files byte for byte, and
// features.txt.gz after decompression (the gzip streams of two
// compressors differ; the text they hold must not).
func TestSharedTolokers(t *testing.T) {
	src := sharedtest.Path(t, "data/tolokers/raw/tolokers.npz")
	shared := filepath.Dir(filepath.Dir(src))
	dir := t.TempDir()
	c, err := convert(src, dir)
	require.NoError(t, err)
	assert.Equal(t, 11758, c.Nodes)
	assert.Equal(t, 519000, c.Edges)
	assert.Equal(t, []int{9192, 2566}, c.ClassSizes)
	assert.Equal(t, 10, c.Features)
	require.Len(t, c.Splits, 10)
	names := []string{"edges.txt", "labels.txt"}
	for s := range c.Splits {
		assert.Equal(t, [3]int{5879, 2939, 2940}, c.Splits[s])
		names = append(names, "split_"+string(rune('0'+s))+".txt")
	}
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		want, err := os.ReadFile(filepath.Join(shared, name))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(got, want), "%s differs from the shared file", name)
	}
	got := gunzip(t, filepath.Join(dir, "features.txt.gz"))
	want := gunzip(t, filepath.Join(shared, "features.txt.gz"))
	assert.True(t, bytes.Equal(got, want), "features.txt.gz holds other text than the shared file")
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	b, err := io.ReadAll(zr)
	require.NoError(t, err)
	return b
}

// small returns the arrays of a valid 4-node set with 2 splits; the test
// cases spoil one of them.
func small() map[string]any {
	return map[string]any{
		"node_features.npy": mat.NewDense(4, 2, []float64{0, 1, 0.5, 0, 0, 0, 2, 1e-5}),
		"node_labels.npy":   []int64{0, 1, 1, 0},
		"edges.npy":         mat.NewDense(3, 2, []float64{2, 0, 0, 1, 3, 2}),
		"train_masks.npy":   mat.NewDense(2, 4, []float64{1, 0, 0, 0, 0, 1, 0, 0}),
		"val_masks.npy":     mat.NewDense(2, 4, []float64{0, 1, 0, 0, 1, 0, 0, 0}),
		"test_masks.npy":    mat.NewDense(2, 4, []float64{0, 0, 1, 1, 0, 0, 1, 1}),
	}
}

func writeNPZ(t *testing.T, arrays map[string]any) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "set.npz")
	require.NoError(t, npz.Write(path, arrays))
	return path
}

func TestConvertSmall(t *testing.T) {
	dir := t.TempDir()
	c, err := convert(writeNPZ(t, small()), dir)
	require.NoError(t, err)
	assert.Equal(t, &nodefolder.Counts{Nodes: 4, Edges: 3, Classes: 2, ClassSizes: []int{2, 2}, Features: 2,
		Splits: [][3]int{{1, 1, 2}, {1, 1, 2}}}, c)
	for name, want := range map[string]string{
		"edges.txt":   "0 1\n0 2\n2 3\n",
		"labels.txt":  "0\n1\n1\n0\n",
		"split_0.txt": "train 0\nval 1\ntest 2\ntest 3\n",
		"split_1.txt": "train 1\nval 0\ntest 2\ntest 3\n",
	} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, want, string(got), name)
	}
	assert.Equal(t, "# 4 2\n1:1.0\n0:0.5\n\n0:2.0 1:1e-05\n", string(gunzip(t, filepath.Join(dir, "features.txt.gz"))))
}

func TestConvertRefuses(t *testing.T) {
	for _, c := range []struct {
		name  string
		spoil func(a map[string]any)
		want  string
	}{
		{"unlabelled", func(a map[string]any) { a["node_labels.npy"] = []int64{0, -1, 1, 0} }, "node_labels[1] = -1"},
		{"out of range", func(a map[string]any) {
			a["edges.npy"] = mat.NewDense(2, 2, []float64{0, 1, 4, 2})
		}, "edges[1, 0] = 4 is not a node id in [0, 4)"},
		{"self loop", func(a map[string]any) {
			a["edges.npy"] = mat.NewDense(2, 2, []float64{0, 1, 3, 3})
		}, "edges[1] = (3, 3) is a self loop"},
		{"twice", func(a map[string]any) {
			a["edges.npy"] = mat.NewDense(3, 2, []float64{0, 1, 2, 3, 1, 0})
		}, "edges[0] and edges[2] are the same undirected edge (0, 1)"},
		{"three columns", func(a map[string]any) {
			a["edges.npy"] = mat.NewDense(1, 3, []float64{0, 1, 2})
		}, "edges has 3 columns"},
		{"overlap", func(a map[string]any) {
			a["val_masks.npy"] = mat.NewDense(2, 4, []float64{0, 1, 0, 0, 1, 0, 1, 0})
		}, "split 1: node 2 is in both val_masks and test_masks"},
		{"empty", func(a map[string]any) {
			a["train_masks.npy"] = mat.NewDense(2, 4, []float64{1, 0, 0, 0, 0, 0, 0, 0})
		}, "split 1: train_masks selects no node"},
		{"not boolean", func(a map[string]any) {
			a["test_masks.npy"] = mat.NewDense(2, 4, []float64{0, 0, 1, 2, 0, 0, 1, 1})
		}, "test_masks[0, 3] = 2: want a boolean mask"},
		{"split counts", func(a map[string]any) {
			a["val_masks.npy"] = mat.NewDense(1, 4, []float64{0, 1, 0, 0})
		}, "val_masks has 1 splits, train_masks 2"},
		{"mask width", func(a map[string]any) {
			a["val_masks.npy"] = mat.NewDense(2, 3, []float64{0, 1, 0, 1, 0, 0})
		}, "val_masks has 3 columns, node_labels 4 nodes"},
		{"feature rows", func(a map[string]any) {
			a["node_features.npy"] = mat.NewDense(3, 1, []float64{1, 2, 3})
		}, "node_features has 3 rows, node_labels 4 nodes"},
		{"not finite", func(a map[string]any) {
			a["node_features.npy"] = mat.NewDense(4, 2, []float64{0, 1, 0.5, 0, 0, math.NaN(), 2, 1e-5})
		}, "member \"node_features.npy\": element [2, 1] = NaN is not finite"},
		{"missing", func(a map[string]any) { delete(a, "edges.npy") }, "edges"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := small()
			c.spoil(a)
			dir := filepath.Join(t.TempDir(), "out")
			_, err := convert(writeNPZ(t, a), dir)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			_, statErr := os.Stat(dir)
			assert.True(t, os.IsNotExist(statErr), "nothing is written for refused input")
		})
	}
}
