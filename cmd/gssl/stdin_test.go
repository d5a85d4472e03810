package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/internal/inputfile"
)

// runArgs runs gssl with args and returns stdout and the error.
func runArgs(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out, errw bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errw)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

// TestOneStdin refuses two flags reading standard input, naming both,
// before anything is read.
func TestOneStdin(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"labelprop", "--edges", "-", "--labels", "-"}, "--edges - and --labels - both read standard input"},
		{[]string{"info", "--edges", "-", "--features", "/dev/stdin"}, "--edges - and --features /dev/stdin both read standard input"},
	} {
		_, err := runArgs(t, c.args...)
		require.Error(t, err, c.args)
		assert.Contains(t, err.Error(), c.want)
		assert.ErrorAs(t, err, new(usageError))
	}
}

// TestInfoFromPipe: gssl info --edges <(cat edges) reports what the file
// gives; the pipe was emptied by the format sniffer before.
func TestInfoFromPipe(t *testing.T) {
	if _, err := os.Stat("/dev/fd"); err != nil {
		t.Skip("no /dev/fd here, so no path names a pipe")
	}
	t.Cleanup(inputfile.Release)
	const edges = "../../testdata/cora/edges.txt"
	data, err := os.ReadFile(edges)
	require.NoError(t, err)
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pr.Close()
	go func() { pw.Write(data); pw.Close() }()
	fd := "/dev/fd/" + strconv.Itoa(int(pr.Fd()))

	decode := func(s string) map[string]any {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(s), &m))
		for _, k := range []string{"path", "inputs", "load_seconds", "seconds"} {
			delete(m, k) // the file's name, and timings
		}
		return m
	}
	want, err := runArgs(t, "info", "--json", "--edges", edges)
	require.NoError(t, err)
	got, err := runArgs(t, "info", "--json", "--edges", fd)
	require.NoError(t, err)
	assert.Equal(t, decode(want), decode(got))
	assert.Contains(t, got, `"path":"`+fd+`"`)
}

// TestOutStdout: --out - writes the table on standard output, byte for
// byte the file --out FILE writes, and the report goes to stderr; with
// --json, or for gssl knn (a graph file), it is refused.
func TestOutStdout(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pred.csv")
	args := []string{"labelprop", "--data", "../../testdata/cora", "--split", "planetoid", "--alpha", "0.9"}
	_, err := runArgs(t, append(args, "--out", file)...)
	require.NoError(t, err)
	want, err := os.ReadFile(file)
	require.NoError(t, err)
	defer func() { tableStdout = os.Stdout }()
	got, err := runArgs(t, append(args, "--out", "-")...)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)

	_, err = runArgs(t, append(args, "--out", "-", "--json")...)
	assert.ErrorContains(t, err, "--out - writes the table on standard output, where --json prints its object")
	_, err = runArgs(t, "knn", "--out", "-")
	assert.ErrorContains(t, err, "gssl knn writes a file")
}
