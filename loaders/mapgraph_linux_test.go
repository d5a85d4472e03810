package loaders

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
)

// TestMapGraph: with MapGraph a .gsg graph's columns lie in a shared
// mapping of the file itself (/proc/self/maps names the file and the
// mapping's flags read "r--s"), without it in anonymous memory; the graph
// is the same either way and the edges' report says which.
func TestMapGraph(t *testing.T) {
	dir := t.TempDir()
	edges := make([]graph.Edge, 0, 3000)
	for i := range 3000 {
		edges = append(edges, graph.Edge{U: i % 1000, V: (7*i + 1) % 1000, W: 1})
	}
	g, err := graph.FromEdges(1000, edges, UserGraphOptions())
	require.NoError(t, err)
	path := filepath.Join(dir, "g.gsg")
	require.NoError(t, graphfile.Write(path, g, nil))
	labels := filepath.Join(dir, "labels.txt")
	var l strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&l, "%d\n", i%3)
	}
	require.NoError(t, os.WriteFile(labels, []byte(l.String()), 0o644))

	for _, mapped := range []bool{false, true} {
		ds, err := LoadNodes(NodeFiles{Edges: path, Labels: labels, MapGraph: mapped})
		require.NoError(t, err)
		require.Equal(t, g.Arrays(), ds.Graph.Arrays(), "mapped %v", mapped)
		cols := ds.Graph.Arrays().Indices
		file, perms := mappingOf(t, uintptr(unsafe.Pointer(&cols[0])))
		if mapped {
			assert.Equal(t, path, file)
			assert.Equal(t, "r--s", perms)
			assert.Contains(t, ds.Reports[0].Note, "mapped read-only and shared")
		} else {
			assert.NotEqual(t, path, file, "a private copy is not the file's mapping")
			assert.NotEqual(t, byte('s'), perms[3], "a private copy is not shared")
			assert.Contains(t, ds.Reports[0].Note, "private copy")
		}
		ds.Close()
	}
}

// mappingOf returns the file (empty for anonymous memory) and the
// permissions of the mapping of this process that holds address a.
func mappingOf(t *testing.T, a uintptr) (file, perms string) {
	t.Helper()
	f, err := os.Open("/proc/self/maps")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		var lo, hi uintptr
		_, err := fmt.Sscanf(fields[0], "%x-%x", &lo, &hi)
		require.NoError(t, err)
		if a >= lo && a < hi {
			if len(fields) >= 6 {
				file = fields[5]
			}
			return file, fields[1]
		}
	}
	t.Fatalf("address %#x is in no mapping", a)
	return "", ""
}
