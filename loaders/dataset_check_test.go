package loaders

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/memlimit"
	"github.com/gssl/gssl/nodeids"
)

// CheckFinite names the first node whose degree, feature or target is
// beyond estimator.MaxMagnitude; the degrees are summed here by hand.
func TestNodeDatasetCheckFinite(t *testing.T) {
	big := estimator.MaxMagnitude / 1.5 // one edge passes, two at a node overflow the limit
	g, err := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: big}, {U: 1, V: 2, W: big}}, graph.Options{})
	require.NoError(t, err)
	ids, err := nodeids.FromStrings([]string{"a", "b", "c"})
	require.NoError(t, err)
	ds := &NodeDataset{Graph: g, IDs: ids}
	require.Greater(t, big+big, estimator.MaxMagnitude, "node b's degree")
	var me *MagnitudeError
	require.True(t, errors.As(ds.CheckFinite(), &me))
	assert.Equal(t, "edges", me.Input)
	assert.Contains(t, me.Msg, "node b: its edge weights sum to")

	g, err = graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}}, graph.Options{})
	require.NoError(t, err)
	ds = &NodeDataset{Graph: g, IDs: ids}
	require.NoError(t, ds.CheckFinite())

	ds.DenseFeatures = mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, math.Inf(1)})
	require.True(t, errors.As(ds.CheckFinite(), &me))
	assert.Equal(t, "features", me.Input)
	assert.Contains(t, me.Msg, "node c, column 2: +Inf is beyond")
	ds.DenseFeatures = nil

	ds.Features = &Sparse{Rows: 3, Cols: 4, Indptr: []int{0, 0, 1, 1}, Indices: []int32{3}, Values: []float64{-2 * estimator.MaxMagnitude}}
	require.True(t, errors.As(ds.CheckFinite(), &me))
	assert.Contains(t, me.Msg, "node b, column 4:")
	assert.Equal(t, ds.Features, ds.EstimatorNodes().Features)
	ds.Features = nil

	ds.Targets = []float64{math.NaN(), 1, 2 * estimator.MaxMagnitude}
	require.True(t, errors.As(ds.CheckFinite(), &me))
	assert.Equal(t, "targets", me.Input)
	assert.Contains(t, me.Msg, "node c:")
	ds.Targets[2] = 3
	require.NoError(t, ds.CheckFinite(), "NaN is an unknown target")
	assert.Nil(t, ds.EstimatorNodes().Features)
}

// CheckClassMemory refuses need above the budget naming classes × nodes,
// and says the labels look like ids when most labelled nodes have a class
// of their own.
func TestNodeDatasetCheckClassMemory(t *testing.T) {
	g, err := graph.FromEdges(300, []graph.Edge{{U: 0, V: 1, W: 1}}, graph.Options{})
	require.NoError(t, err)
	labels := make([]int, 300)
	for i := range labels {
		labels[i] = i % 150 // 150 classes of 2 nodes
	}
	ds := &NodeDataset{Graph: g, Labels: labels, Classes: 150}
	b := memlimit.Budget{Bytes: 1000, Name: "--max-memory"}
	require.NoError(t, ds.CheckClassMemory(1000, b))
	err = ds.CheckClassMemory(1001, b)
	require.ErrorIs(t, err, memlimit.ErrTooMuch)
	assert.Contains(t, err.Error(), "150 classes × 300 nodes: the dense score blocks take 1001B")
	assert.Contains(t, err.Error(), "--max-memory 1000B")
	assert.Contains(t, err.Error(), "fewer classes (merge rare ones)", "two labelled nodes per class")
	for i := 0; i < 200; i++ {
		ds.Labels[i] = -1 // 100 labelled nodes: fewer than 2 per class
	}
	assert.Contains(t, ds.CheckClassMemory(1001, b).Error(), "150 distinct labels for 100 labelled nodes: is the label column")
	ds.Classes = 50
	assert.Contains(t, ds.CheckClassMemory(1001, b).Error(), "fewer classes (merge rare ones)", "at most 100 classes")
}

// SplitData carries the data set's labels, split and ids; a split file of
// 0..n−1 is refused only for a data set with ids of its own.
func TestNodeDatasetSplitData(t *testing.T) {
	ids, err := nodeids.FromStrings([]string{"a", "b"})
	require.NoError(t, err)
	ds := &NodeDataset{Labels: []int{0, -1}, IDs: ids}
	d := ds.SplitData("x.csv")
	assert.Equal(t, ds.Labels, d.Labels)
	assert.Equal(t, "x.csv", d.Source)
	assert.True(t, d.OwnIDs)
	assert.Equal(t, "b", d.NodeName(1))
	ds.IDs = nodeids.Identity(2)
	assert.False(t, ds.SplitData("d").OwnIDs)
}
