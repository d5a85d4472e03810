package stkr

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
)

const coraDir = "../testdata/cora"

func loadCora(t testing.TB) *loaders.NodeDataset {
	t.Helper()
	ds, err := loaders.LoadNodeDataset(coraDir)
	require.NoError(t, err)
	return ds
}

// coraPlanetoid returns Cora's kernel, Planetoid train nodes and one-hot
// targets.
func coraPlanetoid(t testing.TB, ds *loaders.NodeDataset) (*GraphKernel, []int, *mat.Dense) {
	t.Helper()
	k, err := NewGraphKernel(ds.Graph)
	require.NoError(t, err)
	train := ds.Split.Train
	y := mat.NewDense(len(train), ds.Classes, nil)
	for p, i := range train {
		y.Set(p, ds.Labels[i], 1)
	}
	return k, train, y
}
