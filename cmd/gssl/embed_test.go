package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEmbedJSONPlotAndCSV(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "cora.png")
	csvPath := filepath.Join(dir, "cora.csv")
	var out, errw bytes.Buffer
	opts := embedOptions{In: nodeInput{Data: coraDir}, Dim: 2, Plots: plotFlags{Plot: png}, Out: csvPath, Isolated: "error", LCC: true, JSON: true}
	require.NoError(t, runEmbed(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	// The largest component of Cora has 2485 nodes (gssl info).
	assert.Equal(t, 2485.0, obj["nodes_used"])
	assert.Equal(t, 2708.0, obj["nodes"])
	vals := floatsOf(t, obj["eigenvalues"])
	require.Len(t, vals, 2)
	assert.Greater(t, vals[0], 0.0) // the trivial eigenvalue 0 is dropped
	assert.LessOrEqual(t, vals[0], vals[1])
	assert.Equal(t, 7.0, obj["classes"])
	assert.Contains(t, obj, "seconds")
	b, err := os.ReadFile(png)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")), "not a PNG file")
	c, err := os.ReadFile(csvPath)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(c)), "\n")
	assert.Len(t, lines, 2709, "a row for every node; those outside the component have no coordinates")
	assert.Equal(t, "id,label,x1,x2", lines[0])

	// Without --lcc on a graph with 78 components the coordinates only mark
	// components: the kept eigenvalues are 0.
	out.Reset()
	opts = embedOptions{In: nodeInput{Data: coraDir}, Dim: 3, Isolated: "error", JSON: true}
	require.NoError(t, runEmbed(context.Background(), opts, &out, &errw))
	assert.Equal(t, []float64{0, 0, 0}, floatsOf(t, decodeOne(t, out.Bytes())["eigenvalues"]))

	assert.ErrorContains(t, runEmbed(context.Background(), embedOptions{In: nodeInput{Data: coraDir}, Dim: 0, Isolated: "error"}, &out, &errw), "--dim 0 is invalid")
}
