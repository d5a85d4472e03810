package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodesFlagBounded: --nodes is the one node count the input does not
// justify; 2·10⁹ is refused before anything is allocated (unchecked,
// it heads for about 180 GB), a plausible count is accepted.
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

// writeHostileImages writes count images of pixels bytes as members gzip
// members (split evenly), labels (one per line) and, when origin > 0, an
// origin.txt of that many lines.
func writeHostileImages(t *testing.T, pixels, count, members, labels, origin int) string {
	t.Helper()
	dir := t.TempDir()
	var buf bytes.Buffer
	data := make([]byte, pixels*count)
	for i := range data {
		data[i] = byte(i * 7)
	}
	per := len(data) / members
	for m := 0; m < members; m++ {
		end := (m + 1) * per
		if m == members-1 {
			end = len(data)
		}
		zw := gzip.NewWriter(&buf)
		_, err := zw.Write(data[m*per : end])
		require.NoError(t, err)
		require.NoError(t, zw.Close())
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "images_u8.bin.gz"), buf.Bytes(), 0o644))
	var lb, ob strings.Builder
	for i := 0; i < labels; i++ {
		fmt.Fprintf(&lb, "%d\n", i%2)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.txt"), []byte(lb.String()), 0o644))
	if origin > 0 {
		for i := 0; i < origin; i++ {
			ob.WriteString("train\n")
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, "origin.txt"), []byte(ob.String()), 0o644))
	}
	return dir
}

// TestImageGraphPixelCount: labelprop/stkr --images find the pixels per
// image from the whole decoded stream (every gzip member, never the
// trailer of the last one), and a doubled labels.txt is refused when
// origin.txt says how many images there are.
func TestImageGraphPixelCount(t *testing.T) {
	var errw bytes.Buffer
	// 10 images of 64 pixels in two members of 384 and 256 bytes: the last
	// trailer says 256, which would make 25.6-pixel images.
	ds, err := imageGraphDataset(context.Background(), writeHostileImages(t, 64, 10, 2, 10, 10), 0, 2, &errw)
	require.NoError(t, err)
	assert.Equal(t, 10, ds.Graph.Nodes())
	_, err = imageGraphDataset(context.Background(), writeHostileImages(t, 64, 10, 1, 20, 10), 0, 2, &errw)
	require.ErrorContains(t, err, "origin.txt: 10 lines for 20 images")
	_, err = imageGraphDataset(context.Background(), writeHostileImages(t, 64, 10, 1, 10, 0), 0, 2, &errw)
	require.NoError(t, err)
}
