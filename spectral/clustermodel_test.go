package spectral

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
)

// ownRows are the fitted nodes given as new nodes with their own graph rows.
func ownRows(g *graph.CSR) estimator.NewNodes {
	nn := estimator.NewNodes{Offsets: []int{0}}
	for i := 0; i < g.Nodes(); i++ {
		cols, ws := g.Row(i)
		nn.Nodes = append(nn.Nodes, cols...)
		if ws == nil {
			ws = make([]float64, len(cols))
			for p := range ws {
				ws[p] = 1
			}
		}
		nn.Weights = append(nn.Weights, ws...)
		nn.Offsets = append(nn.Offsets, len(nn.Nodes))
	}
	return nn
}

func TestSpectralClusteringPredictAndSave(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 2))
	g, _ := plantedPartition(rng, 3, 30, 0.4, 0.02)
	c := &SpectralClustering{Clusters: 3, KMeans: KMeansSettings{Seed: 1}}
	_, err := c.Predict(context.Background(), estimator.NodeQuery{New: ptr(ownRows(g))})
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	require.NoError(t, c.Fit(context.Background(), estimator.Nodes{Graph: g}))
	// A fitted node given its own row is embedded at its own row, and
	// k-means' fixed point puts it in its own cluster.
	nn := ownRows(g)
	got, err := c.Predict(context.Background(), estimator.NodeQuery{New: ptr(nn)})
	require.NoError(t, err)
	assert.Equal(t, c.Labels(), got)
	// New nodes: a few edges into one planted block each.
	nn = estimator.NewNodes{Offsets: []int{0}}
	for b := 0; b < 3; b++ {
		for e := 0; e < 4; e++ {
			nn.Nodes = append(nn.Nodes, int32(30*b+rng.IntN(30)))
		}
		nn.Offsets = append(nn.Offsets, len(nn.Nodes))
	}
	nn.Offsets = append(nn.Offsets, len(nn.Nodes)) // a node with no edges
	newPred, err := c.Predict(context.Background(), estimator.NodeQuery{New: ptr(nn)})
	require.NoError(t, err)
	for b := 0; b < 3; b++ {
		assert.Equal(t, c.Labels()[30*b], newPred[b], "new node into block %d", b)
	}

	b, err := c.MarshalBinary()
	require.NoError(t, err)
	r := &SpectralClustering{}
	require.NoError(t, r.UnmarshalBinary(b))
	assert.Equal(t, c.Labels(), r.Labels())
	assert.Equal(t, c.Eigenvalues(), r.Eigenvalues())
	assert.Equal(t, c.Embedding().RawMatrix().Data, r.Embedding().RawMatrix().Data)
	assert.Equal(t, c.Info(), r.Info())
	assert.Equal(t, c.Inertia(), r.Inertia())
	again, err := r.Predict(context.Background(), estimator.NodeQuery{New: ptr(nn)})
	require.NoError(t, err)
	assert.Equal(t, newPred, again)
	b2, err := r.MarshalBinary()
	require.NoError(t, err)
	assert.True(t, bytes.Equal(b, b2))
	var buf bytes.Buffer
	require.NoError(t, gob.NewEncoder(&buf).Encode(c))
	viaGob := &SpectralClustering{}
	require.NoError(t, gob.NewDecoder(&buf).Decode(viaGob))
	assert.Equal(t, c.Labels(), viaGob.Labels())
	_, err = json.Marshal(c)
	assert.ErrorIs(t, err, estimator.ErrJSON)
	for i := 0; i < len(b); i += 11 {
		d := bytes.Clone(b)
		d[i] ^= 0x02
		require.Error(t, (&SpectralClustering{}).UnmarshalBinary(d), "byte %d", i)
	}
	_, err = r.Predict(context.Background(), estimator.NodeQuery{New: &estimator.NewNodes{Offsets: []int{0, 1}, Nodes: []int32{90}}})
	assert.ErrorContains(t, err, "out of range")
}

func TestSpectralClusteringNotConverged(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 2))
	g, _ := plantedPartition(rng, 4, 25, 0.3, 0.05)
	c := &SpectralClustering{Clusters: 4, KMeans: KMeansSettings{MaxIter: 1, Restarts: 1}}
	err := c.Fit(context.Background(), estimator.Nodes{Graph: g})
	var nc *estimator.NotConvergedError
	require.ErrorAs(t, err, &nc)
	assert.Equal(t, "k-means (Lloyd)", nc.Method)
	assert.Len(t, c.Labels(), 100, "the clustering is kept")
	c = &SpectralClustering{Clusters: 4, Eigen: Settings{MaxRestarts: 1, BasisSize: 6, Tol: 1e-14}}
	err = c.Fit(context.Background(), estimator.Nodes{Graph: g})
	if err != nil { // a tiny basis may still converge on a small graph
		var enc *NotConvergedError
		require.ErrorAs(t, err, &nc)
		require.ErrorAs(t, err, &enc, "the solver's own error is wrapped")
		assert.Nil(t, c.Labels())
	}
}

func ptr[T any](v T) *T { return &v }
