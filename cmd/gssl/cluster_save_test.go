package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClusterSaveThenPredict: gssl cluster --save, then gssl predict gives
// cluster --out's clusters for the fitted nodes, and a new node tied to one
// fitted node's whole neighbourhood lands in that node's cluster.
func TestClusterSaveThenPredict(t *testing.T) {
	dir := t.TempDir()
	model, out := filepath.Join(dir, "c.gssl"), filepath.Join(dir, "c.csv")
	stdout, _, err := runRoot(t, "cluster", "--edges", serveEdges, "--clusters", "2", "--save", model, "--out", out, "--json")
	require.NoError(t, err)
	assert.Equal(t, model, decodeOne(t, []byte(stdout))["saved"])
	fit := readCSV(t, out)
	require.Equal(t, []string{"id", "cluster"}, fit[0])
	pred := filepath.Join(dir, "p.csv")
	_, _, err = runRoot(t, "predict", "--model", model, "--out", pred)
	require.NoError(t, err)
	got := readCSV(t, pred)
	require.Equal(t, fit[0], got[0], "cluster --out's columns")
	require.Len(t, got, len(fit))
	cluster := map[string]string{}
	for k, r := range fit[1:] {
		assert.Equal(t, r[0], got[1+k][0])
		assert.Equal(t, r[1], got[1+k][1], "node %s", r[0])
		cluster[r[0]] = r[1]
	}
	edges := filepath.Join(dir, "new.csv")
	require.NoError(t, os.WriteFile(edges, []byte("source,target,weight\nnew_1,paper_1,1\nnew_1,paper_2,1\nnew_1,paper_3,1\n"), 0o644))
	_, _, err = runRoot(t, "predict", "--model", model, "--edges", edges, "--out", pred)
	require.NoError(t, err)
	got = readCSV(t, pred)
	require.Len(t, got, 2)
	assert.Equal(t, "new_1", got[1][0])
	assert.Equal(t, cluster["paper_1"], got[1][1])
	stdout, _, err = runRoot(t, "model", "info", model, "--json")
	require.NoError(t, err)
	assert.Equal(t, "spectral.SpectralClustering", decodeOne(t, []byte(stdout))["kind"])
}
