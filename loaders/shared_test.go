package loaders

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/sharedtest"
)

// countValues returns how many times each value occurs.
func countValues(xs []int) map[int]int {
	c := make(map[int]int)
	for _, x := range xs {
		c[x]++
	}
	return c
}

// checkCora asserts the counts of shared/data/cora/README.md.
func checkCora(t *testing.T, ds *NodeDataset) {
	t.Helper()
	assert.Equal(t, "cora", ds.Name)
	require.Equal(t, 2708, ds.Graph.Nodes())
	assert.Equal(t, 5278, ds.Graph.Edges())
	assert.Equal(t, 10556, ds.Graph.NNZ())
	assert.Zero(t, ds.Graph.SelfLoops())
	assert.Empty(t, ds.Graph.Isolated())
	assert.Equal(t, 7, ds.Classes)
	assert.Equal(t, map[int]int{0: 351, 1: 217, 2: 418, 3: 818, 4: 426, 5: 298, 6: 180}, countValues(ds.Labels))
	require.NotNil(t, ds.Split)
	assert.Len(t, ds.Split.Train, 140)
	assert.Len(t, ds.Split.Val, 500)
	assert.Len(t, ds.Split.Test, 1000)
	for c, k := range countValues(subset(ds.Labels, ds.Split.Train)) {
		assert.Equal(t, 20, k, "training nodes of class %d", c)
	}
	require.NotNil(t, ds.Features)
	assert.Equal(t, 2708, ds.Features.Rows)
	assert.Equal(t, 1433, ds.Features.Cols)
	assert.Equal(t, 49216, ds.Features.NNZ())
	for _, v := range ds.Features.Values {
		require.Equal(t, 1.0, v, "Cora features are binary")
	}
	assert.Nil(t, ds.ClassNames)
}

func subset(xs, idx []int) []int {
	out := make([]int, len(idx))
	for k, i := range idx {
		out[k] = xs[i]
	}
	return out
}

func TestSharedCora(t *testing.T) {
	ds, err := LoadNodeDataset(sharedtest.Data(t, "cora"))
	require.NoError(t, err)
	checkCora(t, ds)
}

// TestTestdataCora checks that the copy shipped for the CLI's default
// command loads with the same counts.
func TestTestdataCora(t *testing.T) {
	ds, err := LoadNodeDataset(filepath.Join("..", "testdata", "cora"))
	require.NoError(t, err)
	checkCora(t, ds)
}

func TestSharedCoraRandomSplits(t *testing.T) {
	dir := sharedtest.Path(t, "bench/splits/cora")
	ds, err := LoadNodeDataset(sharedtest.Data(t, "cora"))
	require.NoError(t, err)
	for _, seed := range []string{"0", "1", "2"} {
		sp, err := ReadSplit(filepath.Join(dir, "random20_seed"+seed+".txt"), ds.Graph.Nodes())
		require.NoError(t, err)
		assert.Len(t, sp.Train, 140)
		assert.Len(t, sp.Val, 500)
		assert.Len(t, sp.Test, 1000)
		for c, k := range countValues(subset(ds.Labels, sp.Train)) {
			assert.Equal(t, 20, k, "seed %s: training nodes of class %d", seed, c)
		}
	}
}

func TestSharedPubMed(t *testing.T) {
	ds, err := LoadNodeDataset(sharedtest.Data(t, "pubmed"))
	require.NoError(t, err)
	assert.Equal(t, 19717, ds.Graph.Nodes())
	assert.Equal(t, 44324, ds.Graph.Edges())
	assert.Equal(t, 88648, ds.Graph.NNZ())
	assert.Empty(t, ds.Graph.Isolated())
	assert.Equal(t, 3, ds.Classes)
	assert.Equal(t, map[int]int{0: 4103, 1: 7739, 2: 7875}, countValues(ds.Labels))
	assert.Nil(t, ds.Features, "PubMed has no features file")
	require.NotNil(t, ds.Split)
	assert.Len(t, ds.Split.Train, 60)
	assert.Len(t, ds.Split.Val, 500)
	assert.Len(t, ds.Split.Test, 1000)
}

func TestSharedAmazonPhoto(t *testing.T) {
	ds, err := LoadNodeDataset(sharedtest.Data(t, "amazon_photo"))
	require.NoError(t, err)
	assert.Equal(t, 7650, ds.Graph.Nodes())
	assert.Equal(t, 119081, ds.Graph.Edges())
	assert.Len(t, ds.Graph.Isolated(), 115)
	assert.Equal(t, 8, ds.Classes)
	require.NotNil(t, ds.Features)
	assert.Equal(t, 745, ds.Features.Cols)
	assert.Equal(t, 1979909, ds.Features.NNZ())
	assert.Nil(t, ds.Split)
	require.Len(t, ds.ClassNames, 8)
	assert.Equal(t, "Film Photography", ds.ClassNames[0])
}

func TestSharedCoauthor(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		nodes, edges, classes int
		features, nnz         int
	}{
		{"coauthor_cs", 18333, 81894, 15, 6805, 1092079},
		{"coauthor_physics", 34493, 247962, 5, 8415, 1137311},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := LoadNodeDataset(sharedtest.Data(t, tc.name))
			require.NoError(t, err)
			assert.Equal(t, tc.nodes, ds.Graph.Nodes())
			assert.Equal(t, tc.edges, ds.Graph.Edges())
			assert.Equal(t, tc.classes, ds.Classes)
			require.NotNil(t, ds.Features)
			assert.Equal(t, tc.features, ds.Features.Cols)
			assert.Equal(t, tc.nnz, ds.Features.NNZ())
			assert.Len(t, ds.ClassNames, tc.classes)
		})
	}
}

func TestSharedMUTAG(t *testing.T) {
	ds, err := LoadTU(sharedtest.Data(t, "MUTAG"))
	require.NoError(t, err)
	assert.Equal(t, "MUTAG", ds.Name)
	require.Len(t, ds.Graphs, 188)
	assert.Equal(t, []int{-1, 1}, ds.LabelValues)
	assert.Equal(t, map[int]int{0: 63, 1: 125}, countValues(ds.Classes()))
	nodes, edges := 0, 0
	nodeLabels, edgeLabels := map[int]bool{}, map[int]bool{}
	for g, tg := range ds.Graphs {
		assert.Equal(t, nodes, tg.FirstNode)
		nodes += tg.Graph.Nodes()
		edges += tg.Graph.Edges()
		require.Len(t, tg.NodeLabels, tg.Graph.Nodes())
		for _, l := range tg.NodeLabels {
			nodeLabels[l] = true
		}
		require.Len(t, tg.EdgeLabels, tg.Graph.Nodes())
		for i, row := range tg.EdgeLabels {
			require.Len(t, row, tg.Graph.RowLen(i), "graph %d node %d", g, i)
			for _, l := range row {
				edgeLabels[l] = true
			}
		}
		assert.Nil(t, tg.Attributes)
		assert.Zero(t, tg.Graph.SelfLoops())
	}
	assert.Equal(t, 3371, nodes)
	assert.Equal(t, 3721, edges)
	assert.Len(t, nodeLabels, 7)
	assert.Equal(t, map[int]bool{0: true, 1: true, 2: true, 3: true}, edgeLabels)
}

func TestSharedENZYMES(t *testing.T) {
	ds, err := LoadTU(sharedtest.Data(t, "ENZYMES"))
	require.NoError(t, err)
	assert.Equal(t, "ENZYMES", ds.Name)
	require.Len(t, ds.Graphs, 600)
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6}, ds.LabelValues)
	for c, k := range countValues(ds.Classes()) {
		assert.Equal(t, 100, k, "class %d", c)
	}
	nodes, edges := 0, 0
	for _, tg := range ds.Graphs {
		nodes += tg.Graph.Nodes()
		edges += tg.Graph.Edges()
		require.NotNil(t, tg.Attributes)
		r, c := tg.Attributes.Dims()
		assert.Equal(t, tg.Graph.Nodes(), r)
		assert.Equal(t, 18, c)
		assert.Nil(t, tg.EdgeLabels)
	}
	assert.Equal(t, 19580, nodes)
	assert.Equal(t, 37282, edges)
	// The first attribute row of the file.
	assert.Equal(t, 11.0, ds.Graphs[0].Attributes.At(0, 0))
	assert.Equal(t, 15.887014, ds.Graphs[0].Attributes.At(0, 1))
}

func TestSharedMNIST(t *testing.T) {
	dir := sharedtest.Data(t, "mnist")
	im, err := ReadImages(filepath.Join(dir, "images_u8.bin.gz"), 784)
	require.NoError(t, err)
	assert.Equal(t, 20000, im.Count)
	labels, err := ReadInts(filepath.Join(dir, "labels.txt"))
	require.NoError(t, err)
	require.Len(t, labels, 20000)
	assert.Equal(t, map[int]int{0: 1981, 1: 2262, 2: 2023, 3: 2042, 4: 1962, 5: 1755, 6: 1972, 7: 2098, 8: 1918, 9: 1987}, countValues(labels))
	x := im.DenseRange(0, 10)
	r, c := x.Dims()
	assert.Equal(t, 10, r)
	assert.Equal(t, 784, c)
	assert.Equal(t, 0.0, x.At(0, 0))
	assert.InDelta(t, 1.0, maxOf(x.RawRowView(0)), 0, "MNIST digits reach full ink")
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func TestSharedSRMNIST(t *testing.T) {
	dir := sharedtest.Data(t, "srmnist")
	for _, tc := range []struct {
		part string
		n    int
	}{{"train", 10010}, {"test", 1010}} {
		im, err := ReadImages(filepath.Join(dir, tc.part+"_images_u8.bin.gz"), 784)
		require.NoError(t, err)
		assert.Equal(t, tc.n, im.Count, tc.part)
		angles, err := ReadFloats(filepath.Join(dir, tc.part+"_angles.txt"))
		require.NoError(t, err)
		assert.Len(t, angles, tc.n)
		digits, err := ReadInts(filepath.Join(dir, tc.part+"_digits.txt"))
		require.NoError(t, err)
		assert.Len(t, digits, tc.n)
	}
	sub, err := ReadInts(filepath.Join(dir, "train_subset10_seed0.txt"))
	require.NoError(t, err)
	assert.Len(t, sub, 1001)
}

func TestSharedDigits8x8(t *testing.T) {
	dir := sharedtest.Data(t, "digits8x8")
	im, err := ReadImages(filepath.Join(dir, "images_u8.bin.gz"), 64)
	require.NoError(t, err)
	assert.Equal(t, 1797, im.Count)
	hi := byte(0)
	for _, b := range im.Data {
		hi = max(hi, b)
	}
	assert.Equal(t, byte(16), hi)
	labels, err := ReadInts(filepath.Join(dir, "labels.txt"))
	require.NoError(t, err)
	assert.Len(t, labels, 1797)
}

func TestSharedNystromIndices(t *testing.T) {
	// A per-line index file with a '#' comment header.
	idx, err := ReadInts(sharedtest.Path(t, "bench/splits/mnist/nystrom_centres_M1000_seed0.txt"))
	require.NoError(t, err)
	assert.Len(t, idx, 1000)
}
