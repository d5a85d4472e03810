package loaders

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ogbDir = filepath.Join("..", "testdata", "ogb-tiny")

type expectedOGB struct {
	N        int
	Edges    [][2]int
	Features []float64
	Dims     []int
	Labels   []int
	Splits   map[string]map[string][]int
}

func readExpectedOGB(t *testing.T, name string) expectedOGB {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(ogbDir, "expected.json"))
	require.NoError(t, err)
	var all map[string]expectedOGB
	require.NoError(t, json.Unmarshal(raw, &all))
	return all[name]
}

// checkOGB compares a loaded folder with what make.py wrote.
func checkOGB(t *testing.T, ds *NodeDataset, want expectedOGB, split string) {
	t.Helper()
	g := ds.Graph
	checkGraph(t, g)
	require.Equal(t, want.N, g.Nodes())
	assert.Equal(t, want.N, ds.IDs.Len())
	assert.True(t, ds.IDs.IsIdentity())
	assert.Zero(t, g.SelfLoops())
	var edges [][2]int
	g.ForEachEdge(func(u, v int, w float64) {
		assert.Equal(t, 1.0, w)
		edges = append(edges, [2]int{min(u, v), max(u, v)})
	})
	assert.ElementsMatch(t, want.Edges, edges)
	assert.Len(t, edges, g.Edges())

	// Labels, through the class names, are the values in the file.
	require.Len(t, ds.Labels, want.N)
	for i, l := range ds.Labels {
		if want.Labels[i] < 0 {
			assert.Equal(t, -1, l, "node %d", i)
			continue
		}
		require.True(t, l >= 0 && l < ds.Classes)
		assert.Equal(t, strconv.Itoa(want.Labels[i]), ds.ClassNames[l], "node %d", i)
	}
	require.NotNil(t, ds.DenseFeatures)
	r, c := ds.DenseFeatures.Dims()
	require.Equal(t, want.Dims, []int{r, c})
	assert.Equal(t, want.Features, ds.DenseFeatures.RawMatrix().Data, "both parse the text correctly rounded")
	require.NotNil(t, ds.Split)
	sp := want.Splits[split]
	assert.Equal(t, sp["train"], ds.Split.Train)
	assert.Equal(t, sp["valid"], ds.Split.Val)
	assert.Equal(t, sp["test"], ds.Split.Test)
}

func TestLoadOGB(t *testing.T) {
	dir := filepath.Join(ogbDir, "tiny")
	require.True(t, IsOGBFolder(dir))
	assert.False(t, IsOGBFolder(filepath.Join("..", "testdata", "cora")))
	for _, split := range []string{"", "time"} {
		ds, err := LoadOGB(dir, split)
		require.NoError(t, err)
		assert.Equal(t, "tiny", ds.Name)
		assert.Equal(t, 3, ds.Classes)
		assert.Equal(t, []string{"0", "1", "2"}, ds.ClassNames)
		checkOGB(t, ds, readExpectedOGB(t, "tiny"), "time")
	}
	_, err := LoadOGB(dir, "random")
	require.ErrorContains(t, err, `no split "random" in ../testdata/ogb-tiny/tiny/split (splits: time)`)

	dir = filepath.Join(ogbDir, "tiny-nan")
	_, err = LoadOGB(dir, "")
	require.ErrorContains(t, err, "holds 2 splits (other, random): name the one to use")
	for _, split := range []string{"random", "other"} {
		ds, err := LoadOGB(dir, split)
		require.NoError(t, err)
		assert.Equal(t, 3, ds.Classes, "classes are the distinct labels")
		assert.Equal(t, []string{"0", "1", "3"}, ds.ClassNames)
		checkOGB(t, ds, readExpectedOGB(t, "tiny-nan"), split)
	}
}

// copyOGB copies the tiny folder and replaces files (nil: remove).
func copyOGB(t *testing.T, replace map[string][]byte) string {
	t.Helper()
	src := filepath.Join(ogbDir, "tiny")
	dst := t.TempDir()
	require.NoError(t, filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	}))
	for rel, data := range replace {
		if data == nil {
			require.NoError(t, os.Remove(filepath.Join(dst, rel)))
			continue
		}
		writeFile(t, dst, rel, gzipped(t, data))
	}
	return dst
}

func TestLoadOGBErrors(t *testing.T) {
	labels40 := []byte{}
	for range 40 {
		labels40 = append(labels40, "1\n"...)
	}
	for name, c := range map[string]struct {
		replace map[string][]byte
		want    string
	}{
		"count":        {map[string][]byte{"raw/num-node-list.csv.gz": []byte("41\n")}, "node-label.csv.gz: 40 lines, want one per node: "},
		"graphs":       {map[string][]byte{"raw/num-node-list.csv.gz": []byte("20\n20\n")}, "num-node-list.csv.gz: 2 graphs"},
		"huge count":   {map[string][]byte{"raw/num-node-list.csv.gz": []byte("2000000000\n")}, "40 lines, want one per node"},
		"edge range":   {map[string][]byte{"raw/edge.csv.gz": []byte("0,1\n40,2\n")}, "edge.csv.gz:2: node id 40 out of range [0, 40)"},
		"edge count":   {map[string][]byte{"raw/num-edge-list.csv.gz": []byte("3\n")}, "edge.csv.gz: 95 edge lines, but"},
		"multi-task":   {map[string][]byte{"raw/node-label.csv.gz": []byte("0,1\n")}, "node-label.csv.gz:1: 2 label columns: multi-task labels"},
		"bad label":    {map[string][]byte{"raw/node-label.csv.gz": []byte("0\n1.5\n")}, `node-label.csv.gz:2: label "1.5": want an integer class`},
		"neg label":    {map[string][]byte{"raw/node-label.csv.gz": []byte("0\n-3\n")}, "node-label.csv.gz:2: label -3: want a class ≥ 0"},
		"feature rows": {map[string][]byte{"raw/node-feat.csv.gz": []byte("1,2\n3,4\n")}, "node-feat.csv.gz: 2 rows, want one per node"},
		"split range":  {map[string][]byte{"split/time/valid.csv.gz": []byte("40\n")}, "valid.csv.gz:1: node id 40 out of range [0, 40)"},
		"split twice":  {map[string][]byte{"split/time/test.csv.gz": []byte("0\n0\n")}, "test.csv.gz:"},
		"unlabelled":   {map[string][]byte{"raw/node-label.csv.gz": append([]byte("nan\n"), labels40[2:]...)}, "is in the split but unlabelled"},
		"no labels":    {map[string][]byte{"raw/node-label.csv.gz": nil}, "node-label.csv.gz: no such file"},
	} {
		_, err := LoadOGB(copyOGB(t, c.replace), "")
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.want, name)
	}
	// Without the optional files the rest still loads.
	ds, err := LoadOGB(copyOGB(t, map[string][]byte{"raw/node-feat.csv.gz": nil, "raw/num-edge-list.csv.gz": nil}), "")
	require.NoError(t, err)
	assert.Nil(t, ds.DenseFeatures)
}
