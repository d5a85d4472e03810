package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOutputNeverReplacesInput: an output flag naming an input file (the
// same path, a symbolic link, a hard link, a file of a --data folder) is
// refused before any work, in every command, and the input is unchanged.
func TestOutputNeverReplacesInput(t *testing.T) {
	dir := t.TempDir()
	edges := filepath.Join(dir, "edges.txt")
	labels := filepath.Join(dir, "labels.csv")
	const edgeText = "0 1\n1 2\n2 3\n"
	require.NoError(t, os.WriteFile(edges, []byte(edgeText), 0o644))
	require.NoError(t, os.WriteFile(labels, []byte("0,a\n3,b\n"), 0o644))
	sym := filepath.Join(dir, "sym.txt")
	require.NoError(t, os.Symlink(edges, sym))
	hard := filepath.Join(dir, "hard.txt")
	require.NoError(t, os.Link(edges, hard))
	for _, args := range [][]string{
		{"labelprop", "--edges", edges, "--labels", labels, "--out", edges},
		{"labelprop", "--edges", edges, "--labels", labels, "--out", sym},
		{"labelprop", "--edges", edges, "--labels", labels, "--out", hard},
		{"labelprop", "--edges", edges, "--labels", labels, "--save", hard},
		{"labelprop", "--edges", edges, "--labels", labels, "--out", labels},
		{"stkr", "--edges", edges, "--labels", labels, "--out", hard},
		{"embed", "--edges", edges, "--out", sym},
		{"eigs", "--edges", edges, "--cpu-profile", edges},
		{"convert", edges, hard},
	} {
		_, _, err := runRoot(t, args...)
		require.Error(t, err, "%v", args)
		assert.Contains(t, err.Error(), "never replaces an input", "%v", args)
		got, rerr := os.ReadFile(edges)
		require.NoError(t, rerr)
		assert.Equal(t, edgeText, string(got), "%v left the input as it was", args)
	}
	// A new file next to the inputs is fine.
	_, _, err := runRoot(t, "labelprop", "--edges", edges, "--labels", labels, "--out", filepath.Join(dir, "pred.csv"))
	require.NoError(t, err)
}
