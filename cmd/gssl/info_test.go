package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/atomicfile"
	"github.com/gssl/gssl/internal/sharedtest"
)

// decodeOne checks that out holds exactly one JSON object and decodes it.
func decodeOne(t *testing.T, out []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	var obj map[string]any
	require.NoError(t, dec.Decode(&obj), "stdout: %s", out)
	var extra any
	require.Error(t, dec.Decode(&extra), "more than one JSON value on stdout: %s", out)
	return obj
}

func TestInfoJSONOnCora(t *testing.T) {
	var out, errw bytes.Buffer
	require.NoError(t, runInfo(context.Background(), infoOptions{In: pathInput("../../testdata/cora"), JSON: true}, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	// Counts from testdata/cora/README.md.
	assert.Equal(t, 2708.0, obj["nodes"])
	assert.Equal(t, 5278.0, obj["edges"])
	assert.Equal(t, 78.0, obj["components"])
	assert.Equal(t, 7.0, obj["classes"])
	assert.Equal(t, 140.0, obj["train"])
	assert.Equal(t, 500.0, obj["val"])
	assert.Equal(t, 1000.0, obj["test"])
	assert.Equal(t, 0.0, obj["isolated"])
	assert.Empty(t, errw.String())

	out.Reset()
	require.NoError(t, runInfo(context.Background(), infoOptions{In: pathInput("../../testdata/cora")}, &out, &errw))
	assert.Contains(t, out.String(), "nodes        2708")
	assert.Contains(t, out.String(), "components   78")
}

func TestInfoOnEdgeListAndTU(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "g.txt")
	require.NoError(t, os.WriteFile(p, []byte("# a path and an isolated node\n0 1\n1 2\n4 4\n"), 0o644))
	var out, errw bytes.Buffer
	require.NoError(t, runInfo(context.Background(), infoOptions{In: pathInput(p), JSON: true}, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	assert.Contains(t, errw.String(), "integer-edge-list", "the reader's report on stderr")
	// The nodes are the ids present (3 is absent); the self loop is kept and
	// reported, and gives node 4 a degree.
	assert.Equal(t, 4.0, obj["nodes"])
	assert.Equal(t, 3.0, obj["edges"])
	assert.Equal(t, 1.0, obj["self_loops"])
	assert.Equal(t, 2.0, obj["components"])
	assert.Equal(t, 0.0, obj["isolated"])
	assert.Equal(t, "edge-table", obj["kind"])
	// --nodes 6 fixes the nodes to 0..5: 3 and 5 are isolated.
	out.Reset()
	in := pathInput(p)
	in.Nodes = 6
	require.NoError(t, runInfo(context.Background(), infoOptions{In: in, JSON: true}, &out, &errw))
	obj = decodeOne(t, out.Bytes())
	assert.Equal(t, 6.0, obj["nodes"])
	assert.Equal(t, 2.0, obj["isolated"])
	assert.Equal(t, 4.0, obj["components"])

	mutag := sharedtest.Data(t, "MUTAG")
	out.Reset()
	errw.Reset()
	require.NoError(t, runInfo(context.Background(), infoOptions{In: pathInput(mutag), JSON: true}, &out, &errw))
	obj = decodeOne(t, out.Bytes())
	assert.Contains(t, errw.String(), "gssl: read graph labels "+filepath.Join(mutag, "MUTAG_graph_labels.txt")+": tu; label = column 1")
	assert.Equal(t, 188.0, obj["graphs"])
	assert.Equal(t, 2.0, obj["classes"])
	assert.Equal(t, []any{63.0, 125.0}, obj["class_sizes"])
}

func TestInfoErrors(t *testing.T) {
	var out bytes.Buffer
	err := runInfo(context.Background(), infoOptions{In: pathInput("no/such/place")}, &out, &out)
	assert.ErrorContains(t, err, "no/such/place")
	dir := t.TempDir()
	p := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(p, []byte("0 1\n2\n"), 0o644))
	err = runInfo(context.Background(), infoOptions{In: pathInput(p)}, &out, &out)
	assert.ErrorContains(t, err, "bad.txt:2")
	assert.Empty(t, out.String())
}

// TestProtectionEndsWithCommand: the inputs a command protects from being
// overwritten are protected during that command only; a stale protection
// once refused a later test's output that got a deleted input's inode.
func TestProtectionEndsWithCommand(t *testing.T) {
	edges := filepath.Join(t.TempDir(), "edges.txt")
	require.NoError(t, os.WriteFile(edges, []byte("0 1\n1 2\n"), 0o644))
	run := func(args ...string) error {
		root := newRoot()
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		root.SetArgs(args)
		return root.Execute()
	}
	require.NoError(t, run("info", "--json", edges))
	assert.Empty(t, atomicfile.Protected(edges), "after a command that succeeded")
	require.ErrorContains(t, run("info", "--json", "--cpu-profile", edges, edges), "an output never replaces an input", "the guard holds during the command")
	assert.Empty(t, atomicfile.Protected(edges), "after a command that failed")
}

func TestRootRegistersInfo(t *testing.T) {
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"info", "--json", "../../testdata/cora"})
	require.NoError(t, root.Execute())
	assert.Equal(t, 2708.0, decodeOne(t, out.Bytes())["nodes"])
}
