package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFeatureFolder writes a node folder of c planted communities of m
// nodes with informative binary features.
func writeFeatureFolder(t *testing.T, c, m, d int) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	n := c * m
	var edges, labels strings.Builder
	for u := 0; u < n; u++ {
		fmt.Fprintln(&labels, u%c)
		for v := u + 1; v < n; v++ {
			p := 0.02
			if u%c == v%c {
				p = 0.25
			}
			if rng.Float64() < p {
				fmt.Fprintf(&edges, "%d %d\n", u, v)
			}
		}
	}
	var feats bytes.Buffer
	zw := gzip.NewWriter(&feats)
	fmt.Fprintf(zw, "# %d %d\n", n, d)
	for u := 0; u < n; u++ {
		var row []string
		for j := 0; j < d; j++ {
			p := 0.1
			if j%c == u%c {
				p = 0.4
			}
			if rng.Float64() < p {
				row = append(row, fmt.Sprintf("%d:1", j))
			}
		}
		fmt.Fprintln(zw, strings.Join(row, " "))
	}
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "edges.txt"), []byte(edges.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.txt"), []byte(labels.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "features.txt.gz"), feats.Bytes(), 0o644))
	return dir
}

func TestClassifyJSON(t *testing.T) {
	dir := writeFeatureFolder(t, 3, 40, 12)
	out := filepath.Join(t.TempDir(), "pred.csv")
	var stdout, stderr bytes.Buffer
	err := runClassify(context.Background(), classifyOptions{Data: dir, Model: "sgc", Split: "per-class:5,5", Seeds: 2, Folds: 5, Out: out, JSON: true}, &stdout, &stderr)
	require.NoError(t, err)
	var res map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	for _, k := range []string{"test_accuracy", "val_accuracy", "model", "seconds", "test_accuracy_std"} {
		assert.Contains(t, res, k)
	}
	assert.Greater(t, res["test_accuracy"].(float64), 0.7)
	assert.EqualValues(t, 2, res["seeds_run"])
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	assert.Equal(t, "node,label,predicted,split", lines[0])
	assert.Len(t, lines, 121)

	// Without val nodes the hyperparameters come from cross-validation.
	stdout.Reset()
	require.NoError(t, runClassify(context.Background(), classifyOptions{Data: dir, Model: "correct-smooth", Split: "per-class:10,0", Seeds: 1, Folds: 3, JSON: true}, &stdout, &stderr))
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	assert.Greater(t, res["test_accuracy"].(float64), 0.7)

	// SP-Lap on the graph and feature kernels.
	stdout.Reset()
	require.NoError(t, runClassify(context.Background(), classifyOptions{Data: dir, Model: "stkr", FeatureWeight: 0.1, Split: "per-class:5,5", Seeds: 1, Folds: 5, JSON: true}, &stdout, &stderr))
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	assert.Contains(t, res["model"], "γ=0.1")
}

func TestClassifyErrors(t *testing.T) {
	dir := writeFeatureFolder(t, 2, 10, 4)
	var stdout, stderr bytes.Buffer
	for _, tc := range []struct {
		opts classifyOptions
		want string
	}{
		{classifyOptions{Data: dir, Model: "gcn", Split: "planetoid", Seeds: 1, Folds: 5}, "--model"},
		{classifyOptions{Data: dir, Model: "sgc", Split: "per-class:x", Seeds: 1, Folds: 5}, "per-class:T,V"},
		{classifyOptions{Data: dir, Model: "sgc", Split: "planetoid", Seeds: 1, Folds: 5}, "split_planetoid"},
		{classifyOptions{Data: dir, Model: "sgc", Split: "planetoid", Seeds: 0, Folds: 5}, "--seeds"},
		{classifyOptions{Data: dir, Model: "sgc", Split: "per-class:3,3", Seeds: 1, Folds: 5, FeatureWeight: 1}, "--model stkr only"},
		{classifyOptions{Data: dir, Model: "stkr", Split: "per-class:3,3", Seeds: 1, Folds: 5, FeatureWeight: -1}, "--feature-weight"},
	} {
		err := runClassify(context.Background(), tc.opts, &stdout, &stderr)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}
