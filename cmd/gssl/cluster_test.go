package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writePlanted writes a node folder with c dense blocks of s nodes, sparse
// links between blocks, and labels = blocks.
func writePlanted(t *testing.T, c, s int) string {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var e, l bytes.Buffer
	n := c * s
	for i := 0; i < n; i++ {
		fmt.Fprintf(&l, "%d\n", i/s)
		for j := i + 1; j < n; j++ {
			p := 0.01
			if i/s == j/s {
				p = 0.3
			}
			if rng.Float64() < p {
				fmt.Fprintf(&e, "%d %d\n", i, j)
			}
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "edges.txt"), e.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.txt"), l.Bytes(), 0o644))
	return dir
}

func TestClusterPlantedPartitionARI(t *testing.T) {
	dir := writePlanted(t, 3, 80)
	var out, errw bytes.Buffer
	require.NoError(t, runCluster(context.Background(), clusterOptions{In: nodeInput{Data: dir}, Restarts: 10, Isolated: "error", LCC: true, JSON: true}, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, 3.0, obj["clusters"]) // --clusters defaults to the number of classes
	assert.Equal(t, 1.0, obj["ari"])      // the planted blocks are recovered exactly
	assert.Equal(t, []float64{80, 80, 80}, floatsOf(t, obj["sizes"]))
	assert.Contains(t, obj, "seconds")
}

func TestClusterCora(t *testing.T) {
	var out, errw bytes.Buffer
	require.NoError(t, runCluster(context.Background(), clusterOptions{In: nodeInput{Data: coraDir}, Restarts: 10, Isolated: "error", LCC: true, JSON: true}, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Equal(t, 7.0, obj["clusters"])
	assert.Equal(t, 2485.0, obj["scored_nodes"])
	ari := obj["ari"].(float64)
	assert.Greater(t, ari, 0.1) // clearly better than chance (0)
	assert.LessOrEqual(t, ari, 1.0)
	sum := 0.0
	for _, s := range floatsOf(t, obj["sizes"]) {
		sum += s
	}
	assert.Equal(t, 2485.0, sum)

	assert.ErrorContains(t, runCluster(context.Background(), clusterOptions{In: nodeInput{Data: coraDir}, Clusters: -1, Restarts: 1, Isolated: "error"}, &out, &errw), "--clusters -1 is invalid")
	assert.ErrorContains(t, runCluster(context.Background(), clusterOptions{In: nodeInput{Data: coraDir}, Restarts: 0, Isolated: "error"}, &out, &errw), "--restarts 0 is invalid")
	p := writeCycle(t, 50)
	assert.ErrorContains(t, runCluster(context.Background(), clusterOptions{In: nodeInput{Data: p}, Restarts: 1, Isolated: "error"}, &out, &errw), "--clusters is needed")
}
