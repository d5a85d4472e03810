package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodesFlagBounded: --nodes is the one node count the input does not
// justify; 2·10⁹ is refused before anything is allocated (it ran for
// minutes towards 180 GB), a plausible count is accepted.
func TestNodesFlagBounded(t *testing.T) {
	require.NoError(t, checkNodesFlag(0))
	require.NoError(t, checkNodesFlag(1000))
	require.ErrorContains(t, checkNodesFlag(-1), "--nodes -1 is invalid")
	require.ErrorContains(t, checkNodesFlag(2_000_000_000), "--nodes 2000000000 is invalid")

	dir := t.TempDir()
	edges := filepath.Join(dir, "e.txt")
	require.NoError(t, os.WriteFile(edges, []byte("0 1\n1 2\n"), 0o644))
	for _, args := range [][]string{
		{"info", "--nodes", "2000000000", "--edges", edges},
		{"convert", "--nodes", "2000000000", edges, filepath.Join(dir, "g.gsg")},
	} {
		root := newRoot()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs(args)
		err := root.ExecuteContext(context.Background())
		require.Error(t, err, args[0])
		assert.Contains(t, err.Error(), "--nodes 2000000000 is invalid", args[0])
	}
	_, err := os.Stat(filepath.Join(dir, "g.gsg"))
	assert.True(t, os.IsNotExist(err), "no file left by a refused convert")
}

// TestRestartsBounded: --restarts 10⁹ allocated a result per restart and
// died out of memory; it is refused before the graph is read.
func TestRestartsBounded(t *testing.T) {
	var out, errw bytes.Buffer
	p := writeCycle(t, 50)
	err := runCluster(context.Background(), clusterOptions{In: nodeInput{Data: p}, Clusters: 2, Restarts: 1_000_000_000, Isolated: "component"}, &out, &errw)
	require.ErrorContains(t, err, "--restarts 1000000000 is invalid: it must be in [1, 100000]")
	require.NoError(t, runCluster(context.Background(), clusterOptions{In: nodeInput{Data: p}, Clusters: 2, Restarts: 3, Isolated: "component"}, &out, &errw))
}
