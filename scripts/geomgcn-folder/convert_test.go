package main

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"codeberg.org/sbinet/npyio/npz"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/scripts/internal/nodefolder"
)

// The fixture testdata/tiny is laid out as the Geom-GCN repository: node
// rows out of id order, a self loop (2 → 2), one edge in both directions
// (0 → 1, 1 → 0), a node without features (1), and two splits written by
// numpy's savez, the first with uint8 masks (as texas and cornell), the
// second with bool masks (as wisconsin).
const fixture = "testdata/tiny"

// TestConvertTiny compares the folder with one written out by hand from
// the fixture's files.
func TestConvertTiny(t *testing.T) {
	dir := t.TempDir()
	r, err := convert(fixture, "tiny", dir)
	require.NoError(t, err)
	assert.Equal(t, &report{
		Counts: nodefolder.Counts{Nodes: 5, Edges: 5, Classes: 3, ClassSizes: []int{2, 2, 1}, Features: 3,
			Splits: [][3]int{{2, 1, 2}, {2, 1, 2}}},
		DirectedEdges: 7, SelfLoops: 1, Reciprocal: 1,
	}, r)
	for name, want := range map[string]string{
		"edges.txt":   "0 1\n0 4\n1 3\n2 4\n3 4\n",
		"labels.txt":  "0\n1\n0\n1\n2\n",
		"split_0.txt": "train 0\ntrain 1\nval 2\ntest 3\ntest 4\n",
		"split_1.txt": "train 2\ntrain 3\nval 0\ntest 1\ntest 4\n",
	} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, want, string(got), name)
	}
	f, err := os.Open(filepath.Join(dir, "features.txt.gz"))
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	text, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, "# 5 3\n0:1.0\n\n0:1.0 1:1.0\n1:1.0\n1:0.5 2:1.0\n", string(text))
	_, err = os.Stat(filepath.Join(dir, "split_2.txt"))
	assert.True(t, os.IsNotExist(err), "two split files, two splits")
}

// TestConvertTinyGraph loads the written folder as gssl does and compares
// its adjacency with the fixture's directed edges made symmetric in a
// dense matrix, self loops removed.
func TestConvertTinyGraph(t *testing.T) {
	dir := t.TempDir()
	_, err := convert(fixture, "tiny", dir)
	require.NoError(t, err)
	ds, err := loaders.LoadNodeDataset(dir)
	require.NoError(t, err)
	defer ds.Close()
	directed := [][2]int{{0, 1}, {1, 0}, {2, 2}, {3, 1}, {4, 0}, {2, 4}, {3, 4}}
	want := mat.NewDense(5, 5, nil)
	for _, e := range directed {
		if e[0] != e[1] {
			want.Set(e[0], e[1], 1)
			want.Set(e[1], e[0], 1)
		}
	}
	got := mat.NewDense(5, 5, nil)
	for i := 0; i < 5; i++ {
		cols, w := ds.Graph.Row(i)
		for k, j := range cols {
			got.Set(i, int(j), w[k])
		}
	}
	assert.True(t, mat.Equal(want, got), "adjacency\n%v\nwant\n%v", mat.Formatted(got), mat.Formatted(want))
	assert.Equal(t, []int{0, 1, 0, 1, 2}, ds.Labels)
}

// copyFixture copies the fixture into a temporary folder for a test to
// spoil.
func copyFixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	require.NoError(t, os.CopyFS(dst, os.DirFS(fixture)))
	return dst
}

func TestConvertRefuses(t *testing.T) {
	nodes := "new_data/tiny/out1_node_feature_label.txt"
	edges := "new_data/tiny/out1_graph_edges.txt"
	split1 := "splits/tiny_split_0.6_0.2_1.npz"
	text := func(name, body string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
		}
	}
	masks := func(train, val, test []float64) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			require.NoError(t, npz.Write(filepath.Join(dir, split1), map[string]any{
				"train_mask.npy": train, "val_mask.npy": val, "test_mask.npy": test}))
		}
	}
	const nh, eh = "node_id\tfeature\tlabel\n", "node_id\tnode_id\n"
	for _, c := range []struct {
		name  string
		spoil func(t *testing.T, dir string)
		want  string
	}{
		{"lfs pointer", text(nodes, "version https://git-lfs.github.com/spec/v1\noid sha256:00\n"), "line 1 is \"version https://git-lfs"},
		{"ragged", text(nodes, nh+"0\t1,0,0\t0\n1\t1,0\t1\n"), "line 3: 2 features, the first row 3"},
		{"nan", text(nodes, nh+"0\t1,NaN,0\t0\n"), "line 2: feature 1 = \"NaN\" is not a finite number"},
		{"id twice", text(nodes, nh+"0\t1\t0\n0\t1\t1\n"), "line 3: node id 0 appears twice"},
		{"id gap", text(nodes, nh+"0\t1\t0\n2\t1\t1\n"), "line 3: node id 2 is outside [0, 2)"},
		{"label", text(nodes, nh+"0\t1\t-1\n"), "label \"-1\" is not a class number"},
		{"fields", text(nodes, nh+"0\t1\n"), "line 2: 2 tab-separated fields, want 3"},
		{"edge range", text(edges, eh+"0\t5\n"), "out1_graph_edges.txt: line 2: \"5\" is not a node id in [0, 5)"},
		{"edge twice", text(edges, eh+"0\t1\n1\t2\n0\t1\n"), "line 4: edge 0 → 1 repeats line 2"},
		{"no splits", func(t *testing.T, dir string) { require.NoError(t, os.RemoveAll(filepath.Join(dir, "splits"))) }, "no split file"},
		{"mask length", masks([]float64{1, 0, 0, 0}, []float64{0, 1, 0, 0}, []float64{0, 0, 1, 1}), "train_mask has 4 entries, the set 5 nodes"},
		{"overlap", masks([]float64{1, 0, 0, 0, 0}, []float64{0, 1, 0, 0, 0}, []float64{0, 1, 1, 1, 1}), "node 1 is in both val_mask and test_mask"},
		{"empty", masks([]float64{1, 0, 0, 0, 0}, []float64{0, 0, 0, 0, 0}, []float64{0, 1, 1, 1, 1}), "val_mask selects no node"},
		{"not boolean", masks([]float64{2, 0, 0, 0, 0}, []float64{0, 1, 0, 0, 0}, []float64{0, 0, 1, 1, 1}), "train_mask[0] = 2: want a boolean mask"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := copyFixture(t)
			c.spoil(t, src)
			out := filepath.Join(t.TempDir(), "out")
			_, err := convert(src, "tiny", out)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			_, statErr := os.Stat(out)
			assert.True(t, os.IsNotExist(statErr), "nothing is written for refused input")
		})
	}
}
