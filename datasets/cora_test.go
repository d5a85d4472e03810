package datasets

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/loaders"
)

// The embedded copy reads as the folder it was copied from does (the counts
// of cora/README.md), through the file-system loader.
func TestCora(t *testing.T) {
	ds, err := Cora()
	require.NoError(t, err)
	assert.Equal(t, "cora", ds.Name)
	assert.Equal(t, 2708, ds.Graph.Nodes())
	assert.Equal(t, 5278, ds.Graph.Edges())
	assert.Equal(t, 7, ds.Classes)
	require.NotNil(t, ds.Features)
	assert.Equal(t, 1433, ds.Features.Cols)
	assert.Equal(t, 49216, ds.Features.NNZ())
	require.NotNil(t, ds.Split)
	assert.Len(t, ds.Split.Train, 140)
	assert.Len(t, ds.Split.Val, 500)
	assert.Len(t, ds.Split.Test, 1000)
	sizes := make([]int, ds.Classes)
	for _, l := range ds.Labels {
		sizes[l]++
	}
	assert.Equal(t, []int{351, 217, 418, 818, 426, 298, 180}, sizes)

	disk, err := loaders.LoadNodeDataset("cora")
	require.NoError(t, err)
	assert.Equal(t, disk.Labels, ds.Labels)
	assert.Equal(t, disk.Split, ds.Split)
	for i := 0; i < ds.Graph.Nodes(); i++ {
		a, _ := ds.Graph.Row(i)
		b, _ := disk.Graph.Row(i)
		require.Equal(t, b, a, "row %d", i)
	}
}

func TestLoadNodeDatasetFSErrors(t *testing.T) {
	_, err := loaders.LoadNodeDatasetFS(FS(), "missing")
	assert.ErrorContains(t, err, "missing/labels.txt")
	_, err = loaders.LoadNodeDatasetFS(FS(), "../cora")
	assert.ErrorContains(t, err, "not a valid path")
}
