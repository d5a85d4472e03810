package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graphfile"
)

func TestConvertEdgeTableWithTextIDs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "friends.csv")
	require.NoError(t, os.WriteFile(in, []byte("source,target,weight\nalice,bob,2\nbob,carol,0.5\ncarol,carol,1\n"), 0o644))
	out := filepath.Join(dir, "friends.gsg")
	var buf bytes.Buffer
	require.NoError(t, runConvert(context.Background(), convertOptions{In: in, Out: out, JSON: true}, &buf, &buf))
	obj := decodeOne(t, buf.Bytes())
	assert.Equal(t, 3.0, obj["nodes"])
	assert.Equal(t, 3.0, obj["edges"])
	assert.Equal(t, 1.0, obj["self_loops"])
	assert.Equal(t, "text", obj["ids"])
	assert.Equal(t, true, obj["weighted"])

	f, err := graphfile.Open(out)
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, []string{"alice", "bob", "carol"}, f.IDs.Strings())
	a, _ := f.IDs.Lookup("alice")
	b, _ := f.IDs.Lookup("bob")
	c, _ := f.IDs.Lookup("carol")
	assert.Equal(t, 2.0, f.Graph.Weight(a, b))
	assert.Equal(t, 0.5, f.Graph.Weight(b, c))
	assert.Equal(t, 1.0, f.Graph.Weight(c, c))

	buf.Reset()
	out2 := filepath.Join(dir, "noloops.gsg")
	require.NoError(t, runConvert(context.Background(), convertOptions{In: in, Out: out2, DropSelfLoops: true, Float32: true, JSON: true}, &buf, &buf))
	obj = decodeOne(t, buf.Bytes())
	assert.Equal(t, 0.0, obj["self_loops"])

	// A .gsg converts to itself.
	buf.Reset()
	out3 := filepath.Join(dir, "again.gsg")
	require.NoError(t, runConvert(context.Background(), convertOptions{In: out, Out: out3}, &buf, &buf))
	assert.Contains(t, buf.String(), "3 nodes, 3 edges (self loops 1), text ids")
}

func TestConvertFolderAndMatrixMarket(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cora.gsg")
	var buf bytes.Buffer
	require.NoError(t, runConvert(context.Background(), convertOptions{In: "../../testdata/cora", Out: out, JSON: true}, &buf, &buf))
	obj := decodeOne(t, buf.Bytes())
	// Counts from testdata/cora/README.md.
	assert.Equal(t, 2708.0, obj["nodes"])
	assert.Equal(t, 5278.0, obj["edges"])
	assert.Equal(t, "identity", obj["ids"])
	f, err := graphfile.Open(out)
	require.NoError(t, err)
	assert.Equal(t, 2708, f.Graph.Nodes())
	require.NoError(t, f.Close())

	mm := filepath.Join(dir, "g.mtx")
	require.NoError(t, os.WriteFile(mm, []byte("%%MatrixMarket matrix coordinate real symmetric\n4 4 2\n2 1 1.5\n4 3 2\n"), 0o644))
	buf.Reset()
	require.NoError(t, runConvert(context.Background(), convertOptions{In: mm, Out: filepath.Join(dir, "mm.gsg"), JSON: true}, &buf, &buf))
	obj = decodeOne(t, buf.Bytes())
	assert.Equal(t, 4.0, obj["nodes"])
	assert.Equal(t, 2.0, obj["edges"])

	err = runConvert(context.Background(), convertOptions{In: filepath.Join(dir, "missing.txt"), Out: filepath.Join(dir, "x.gsg")}, &buf, &buf)
	assert.ErrorContains(t, err, "missing.txt")
	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("0 1\n2\n"), 0o644))
	err = runConvert(context.Background(), convertOptions{In: bad, Out: filepath.Join(dir, "bad.gsg")}, &buf, &buf)
	assert.ErrorContains(t, err, "bad.txt:2")
	_, err = os.Stat(filepath.Join(dir, "bad.gsg"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
