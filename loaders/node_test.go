package loaders

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// nodeFolder writes a small node-classification folder; files maps a file
// name to its content, and a nil content leaves the file out.
func nodeFolder(t *testing.T, files map[string]string) string {
	t.Helper()
	base := map[string]string{
		nodeEdgesFile:      "0 1\n1 2\n2 3\n",
		nodeLabelsFile:     "0\n1\n-1\n1\n",
		nodeFeaturesFile:   "# 4 3\n0:1 2:0.5\n\n1:2\n0:1 1:1 2:1\n",
		nodeSplitFile:      "train 0\ntrain 1\nval 3\n",
		nodeClassNamesFile: "0 first class\n1 second\n",
	}
	dir := filepath.Join(t.TempDir(), "tiny")
	for name, content := range files {
		base[name] = content
	}
	for name, content := range base {
		if content == "\x00" {
			continue
		}
		data := []byte(content)
		if name == nodeFeaturesFile {
			data = gzipped(t, data)
		}
		writeFile(t, dir, name, data)
	}
	return dir
}

// absent marks a file nodeFolder leaves out.
const absent = "\x00"

func TestLoadNodeDataset(t *testing.T) {
	dir := nodeFolder(t, map[string]string{
		// A repeat in the other direction and a self loop: merged and dropped.
		nodeEdgesFile: "# tiny\n0 1\n1 2\n2 3\n1 0\n3 3\n",
	})
	ds, err := LoadNodeDataset(dir)
	require.NoError(t, err)
	assert.Equal(t, "tiny", ds.Name)
	assert.Equal(t, []int{0, 1, -1, 1}, ds.Labels)
	assert.Equal(t, 2, ds.Classes)
	want := mat.NewDense(4, 4, []float64{
		0, 1, 0, 0,
		1, 0, 1, 0,
		0, 1, 0, 1,
		0, 0, 1, 0,
	})
	assert.True(t, mat.Equal(want, ds.Graph.Dense()), "graph:\n%v", mat.Formatted(ds.Graph.Dense()))
	require.NotNil(t, ds.Features)
	assert.True(t, mat.Equal(mat.NewDense(4, 3, []float64{
		1, 0, 0.5,
		0, 0, 0,
		0, 2, 0,
		1, 1, 1,
	}), ds.Features.Dense(nil)))
	assert.Equal(t, &Split{Train: []int{0, 1}, Val: []int{3}}, ds.Split)
	assert.Equal(t, []string{"first class", "second"}, ds.ClassNames)
}

func TestLoadNodeDatasetOptionalFiles(t *testing.T) {
	ds, err := LoadNodeDataset(nodeFolder(t, map[string]string{
		nodeFeaturesFile: absent, nodeSplitFile: absent, nodeClassNamesFile: absent,
	}))
	require.NoError(t, err)
	assert.Nil(t, ds.Features)
	assert.Nil(t, ds.Split)
	assert.Nil(t, ds.ClassNames)
	assert.Equal(t, 4, ds.Graph.Nodes())
}

func TestLoadNodeDatasetBadInput(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		file  string // the file the error must name
		line  int
		want  string
	}{
		{"labels shorter than features", map[string]string{nodeLabelsFile: "0\n1\n1\n"}, nodeLabelsFile, 0, "3 labels, want 4"},
		{"labels longer than features", map[string]string{nodeLabelsFile: "0\n1\n1\n0\n1\n"}, nodeLabelsFile, 0, "5 labels, want 4"},
		{"labels shorter than edges", map[string]string{nodeFeaturesFile: absent, nodeLabelsFile: "0\n1\n1\n"}, nodeEdgesFile, 3, "node id 3 out of range [0, 3)"},
		{"label below -1", map[string]string{nodeLabelsFile: "0\n-2\n1\n1\n"}, nodeLabelsFile, 2, "label -2 is invalid"},
		{"label not an integer", map[string]string{nodeLabelsFile: "0\n1\nx\n1\n"}, nodeLabelsFile, 3, `label "x" is not an integer`},
		{"label blank line inside", map[string]string{nodeLabelsFile: "0\n\n1\n1\n"}, nodeLabelsFile, 2, "blank line"},
		{"labels empty", map[string]string{nodeLabelsFile: ""}, nodeLabelsFile, 0, "empty file"},
		{"edges weighted", map[string]string{nodeEdgesFile: "0 1 1\n"}, nodeEdgesFile, 1, `want "u v", got "0 1 1"`},
		{"edges negative", map[string]string{nodeEdgesFile: "0 1\n-1 2\n"}, nodeEdgesFile, 2, "node id -1 is negative"},
		{"split node missing", map[string]string{nodeSplitFile: "train 0\ntest 4\n"}, nodeSplitFile, 2, "node 4 out of range [0, 4)"},
		{"split node twice", map[string]string{nodeSplitFile: "train 0\nval 1\ntest 0\n"}, nodeSplitFile, 3, "node 0 already listed on line 1 (as train)"},
		{"split unknown part", map[string]string{nodeSplitFile: "train 0\nholdout 1\n"}, nodeSplitFile, 2, `want part "train", "val" or "test", got "holdout"`},
		{"split malformed", map[string]string{nodeSplitFile: "train\n"}, nodeSplitFile, 1, `want "train i", "val i" or "test i"`},
		{"split unlabelled node", map[string]string{nodeSplitFile: "train 2\n"}, nodeSplitFile, 0, "node 2 is in the split but its label"},
		{"features column out of range", map[string]string{nodeFeaturesFile: "# 4 3\n0:1\n3:1\n\n\n"}, nodeFeaturesFile, 3, "row 1: column 3 out of range [0, 3)"},
		{"features too few rows", map[string]string{nodeFeaturesFile: "# 4 3\n0:1\n1:1\n"}, nodeFeaturesFile, 0, "2 rows, want 4 as the header says"},
		{"features too many rows", map[string]string{nodeFeaturesFile: "# 4 3\n\n\n\n\n0:1\n"}, nodeFeaturesFile, 6, "row 4 beyond the 4 rows"},
		{"features no header", map[string]string{nodeFeaturesFile: "0:1\n\n\n\n"}, nodeFeaturesFile, 1, `want header "# n_nodes n_features"`},
		{"features bad pair", map[string]string{nodeFeaturesFile: "# 4 3\n0=1\n\n\n\n"}, nodeFeaturesFile, 2, `want "col:value", got "0=1"`},
		{"features descending", map[string]string{nodeFeaturesFile: "# 4 3\n2:1 1:1\n\n\n\n"}, nodeFeaturesFile, 2, "column 1 after column 2"},
		{"features NaN", map[string]string{nodeFeaturesFile: "# 4 3\n\n\n1:NaN\n\n"}, nodeFeaturesFile, 4, "row 2, column 1: value NaN is not finite"},
		{"class name out of range", map[string]string{nodeClassNamesFile: "0 a\n2 c\n"}, nodeClassNamesFile, 2, "class 2 is not a label of any node"},
		{"class named twice", map[string]string{nodeClassNamesFile: "0 a\n0 b\n"}, nodeClassNamesFile, 2, "class 0 already named on line 1"},
		{"class without name", map[string]string{nodeClassNamesFile: "0\n"}, nodeClassNamesFile, 1, `want "k name"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadNodeDataset(nodeFolder(t, tc.files))
			requireParseError(t, err, tc.line, tc.want)
			var pe *ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.file, filepath.Base(pe.Path))
		})
	}
}

func TestLoadNodeDatasetMissing(t *testing.T) {
	_, err := LoadNodeDataset(nodeFolder(t, map[string]string{nodeLabelsFile: absent}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), nodeLabelsFile)
	_, err = LoadNodeDataset(nodeFolder(t, map[string]string{nodeEdgesFile: absent}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), nodeEdgesFile)
}

func TestReadSplit(t *testing.T) {
	path := tempFile(t, "split.txt", "# a random split\ntrain 5\ntrain 1\n\nval 0\ntest 2\ntest 3\n")
	sp, err := ReadSplit(path, 6)
	require.NoError(t, err)
	assert.Equal(t, &Split{Train: []int{5, 1}, Val: []int{0}, Test: []int{2, 3}}, sp, "file order is kept")
	_, err = ReadSplit(path, 5)
	requireParseError(t, err, 2, "node 5 out of range [0, 5)")
	assert.Panics(t, func() { ReadSplit(path, -1) })
}

func TestReadFeatures(t *testing.T) {
	// Plain text works as well as gzip; explicit zeros are kept.
	s, err := ReadFeatures(tempFile(t, "features.txt.gz", "# 3 4\n3:2.5\n\n0:0 1:-1\n"))
	require.NoError(t, err)
	assert.Equal(t, 3, s.Rows)
	assert.Equal(t, 4, s.Cols)
	assert.Equal(t, 3, s.NNZ())
	assert.Equal(t, []int{0, 1, 1, 3}, s.Indptr)
	cols, vals := s.Row(2)
	assert.Equal(t, []int32{0, 1}, cols)
	assert.Equal(t, []float64{0, -1}, vals)
	assert.Equal(t, []float64{0, 0, 0, 2.5}, s.DenseRow(nil, 0))
	dst := []float64{9, 9, 9, 9}
	assert.Equal(t, []float64{0, 0, 0, 0}, s.DenseRow(dst, 1), "dst is cleared")
	assert.True(t, mat.Equal(mat.NewDense(2, 4, []float64{0, -1, 0, 0, 0, 0, 0, 2.5}), s.Dense([]int{2, 0})))
	assert.True(t, s.Dense([]int{}).IsEmpty())
	assert.Panics(t, func() { s.DenseRow(make([]float64, 3), 0) })
	assert.Panics(t, func() { s.Row(3) })
}

func TestReadFeaturesTruncatedGzip(t *testing.T) {
	content := []byte("# 2000 10\n")
	for i := 0; i < 2000; i++ {
		content = append(content, []byte("1:1 3:2 7:1\n")...)
	}
	gz := gzipped(t, content)
	_, err := ReadFeatures(writeFile(t, t.TempDir(), "features.txt.gz", gz[:len(gz)-10]))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "features.txt.gz")
}

// TestNumberClasses compares NumberClasses with the definition (the distinct
// labels ≥ 0 in ascending order; a label's class is its value's rank) on
// labels below the label count (the table) and above it (the map).
func TestNumberClasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	for trial := range 60 {
		n := 1 + rng.IntN(200)
		top := []int{1, 3, n, n + 1, 1 << 40}[trial%5]
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(top) - 1 + rng.IntN(2)*rng.IntN(2) // some −1
			if labels[i] < -1 {
				labels[i] = -1
			}
		}
		classes, values := NumberClasses(labels)
		var want []int
		for _, l := range labels {
			if l >= 0 && !slices.Contains(want, l) {
				want = append(want, l)
			}
		}
		slices.Sort(want)
		require.Equal(t, len(want), len(values), "trial %d", trial)
		if len(want) > 0 {
			require.Equal(t, want, values, "trial %d", trial)
		}
		for i, l := range labels {
			if l < 0 {
				require.Equal(t, -1, classes[i])
				continue
			}
			require.Equal(t, l, values[classes[i]], "trial %d node %d", trial, i)
		}
	}
}
