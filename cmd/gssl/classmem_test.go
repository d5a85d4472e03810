package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClassMemoryRefused: a labels table whose every labelled node has a
// class of its own asks labelprop and stkr for n×c dense blocks; past
// --max-memory they are refused before the fit with a message naming
// classes × nodes and the limit (and the fit passes under a larger limit).
func TestClassMemoryRefused(t *testing.T) {
	dir := t.TempDir()
	const n = 400
	var e, l strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&e, "%d %d\n", i, (i+1)%n)
		if i%2 == 0 {
			fmt.Fprintf(&l, "%d,c%d\n", i, i)
		}
	}
	edges, labels := filepath.Join(dir, "e.txt"), filepath.Join(dir, "l.csv")
	require.NoError(t, os.WriteFile(edges, []byte(e.String()), 0o644))
	require.NoError(t, os.WriteFile(labels, []byte(l.String()), 0o644))
	for _, cmd := range []string{"labelprop", "stkr"} {
		_, _, err := runRoot(t, cmd, "--edges", edges, "--labels", labels, "--max-memory", "1MB", "--split", "none")
		require.Error(t, err, cmd)
		assert.Contains(t, err.Error(), "200 classes × 400 nodes", cmd)
		assert.Contains(t, err.Error(), "--max-memory 1.0MB", cmd)
		assert.Contains(t, err.Error(), "an id rather than a class", cmd)
	}
	_, _, err := runRoot(t, "labelprop", "--edges", edges, "--labels", labels, "--max-memory", "64MB", "--alpha", "0.9", "--split", "none")
	require.NoError(t, err)
}

// TestEigsBasisBounded: --basis and --block beyond the graph, or a basis
// past --max-memory, are refused before Lanczos allocates it.
func TestEigsBasisBounded(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--basis", "2000000000"}, "--basis 2000000000 is invalid: it must be in [0, 2708]"},
		{[]string{"--block", "2000000000"}, "--block 2000000000 is invalid"},
		{[]string{"--basis", "2000", "--max-memory", "10MB"}, "basis vectors × 2708 nodes take"},
	} {
		_, _, err := runRoot(t, append([]string{"eigs", "--eigenpairs", "3"}, tc.args...)...)
		require.Error(t, err, "%v", tc.args)
		assert.Contains(t, err.Error(), tc.msg, "%v", tc.args)
	}
}
