package loaders

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

// liveHeap returns the bytes of live Go heap objects, after a collection.
func liveHeap() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestTableEdgesPeakHeap measures the live heap of reading a text-id edge
// list of 10⁶ edges into a graph, at every stage of the direct path (after
// the first pass, after the Builder is filled, after Build) and of the old
// one (rows in an EdgeTable, their copy into []graph.Edge with lines, then
// the Builder filled from the copy), and checks that the direct path peaks
// at most at 1.5× the graph plus the ids' map, and at least 30 bytes per
// edge below the old one. The read buffers are garbage by the time of each
// measurement: they come on top, once (see loaders' doc).
func TestTableEdgesPeakHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("a million-edge file; skipped with -short")
	}
	const n, m = 200_000, 1_000_000
	rng := rand.New(rand.NewPCG(17, 17))
	path := filepath.Join(t.TempDir(), "edges.txt")
	f, err := os.Create(path)
	require.NoError(t, err)
	w := bufio.NewWriter(f)
	for k := 0; k < m; k++ {
		fmt.Fprintf(w, "user_%d user_%d\n", rng.IntN(n), rng.IntN(n))
	}
	require.NoError(t, w.Flush())
	require.NoError(t, f.Close())
	opt := UserGraphOptions()

	// The direct path, as LoadNodes runs it.
	base := liveHeap()
	var b nodeids.Builder
	te, err := readTableEdges(path, EdgeTableOptions{}, opt.SelfLoops, &b, 0)
	require.NoError(t, err)
	ids, perm := b.Finish()
	pass1 := liveHeap() - base
	bld, err := te.fill(ids, perm, ids.Len(), opt)
	require.NoError(t, err)
	filled := liveHeap() - base
	g, err := bld.Build()
	require.NoError(t, err)
	bld = nil
	built := liveHeap() - base
	te = nil
	graphBytes := int64(g.Bytes())
	newPeak := max(pass1, filled, built)
	runtime.KeepAlive(ids)

	// The old path.
	ids = nil
	base = liveHeap() // g stays, outside the old path's count
	var ob nodeids.Builder
	et, err := ReadEdgeTable(path, EdgeTableOptions{}, &ob)
	require.NoError(t, err)
	oids, operm := ob.Finish()
	et.Remap(operm)
	rows := liveHeap() - base
	edges := make([]graph.Edge, et.Len())
	lines := make([]int, et.Len())
	for k := range et.Src {
		edges[k] = graph.Edge{U: int(et.Src[k]), V: int(et.Dst[k]), W: 1}
		lines[k] = int(et.Lines[k])
	}
	copied := liveHeap() - base
	// graph.FromEdges: a Builder filled from the copy, in batches.
	ob2, err := graph.NewBuilder(oids.Len(), false, opt)
	require.NoError(t, err)
	src, dst := make([]int32, 4096), make([]int32, 4096)
	for pass := 0; pass < 2; pass++ {
		for lo := 0; lo < len(edges); lo += 4096 {
			hi := min(lo+4096, len(edges))
			for k := lo; k < hi; k++ {
				src[k-lo], dst[k-lo] = int32(edges[k].U), int32(edges[k].V)
			}
			if pass == 0 {
				require.NoError(t, ob2.CountChunk(src[:hi-lo], dst[:hi-lo]))
			} else {
				require.NoError(t, ob2.FillChunk(src[:hi-lo], dst[:hi-lo], nil))
			}
		}
	}
	oldPeak := liveHeap() - base
	og, err := ob2.Build()
	require.NoError(t, err)
	runtime.KeepAlive(et)
	runtime.KeepAlive(edges)
	runtime.KeepAlive(lines)
	require.Equal(t, og.Arrays(), g.Arrays(), "the same graph both ways")
	et, edges, lines, og, g = nil, nil, nil, nil, nil
	idsBytes := liveHeap() - base + graphBytes // the map alone (g, in base, is gone)
	runtime.KeepAlive(oids)

	perEdge := func(x int64) float64 { return float64(x) / m }
	t.Logf("graph %d bytes (%.1f B/edge), ids %d (%.1f B/node)", graphBytes, perEdge(graphBytes), idsBytes, float64(idsBytes)/float64(oids.Len()))
	t.Logf("direct: pass 1 %d, filled %d, built %d: peak %.1f B/edge, %.1f B/edge without the ids, %.2f× the graph",
		pass1, filled, built, perEdge(newPeak), perEdge(newPeak-idsBytes), float64(newPeak-idsBytes)/float64(graphBytes))
	t.Logf("old: rows %d, copied %d, filled %d: peak %.1f B/edge, %.1f B/edge without the ids, %.2f× the graph",
		rows, copied, oldPeak, perEdge(oldPeak), perEdge(oldPeak-idsBytes), float64(oldPeak-idsBytes)/float64(graphBytes))
	require.LessOrEqual(t, float64(newPeak), 1.5*float64(graphBytes)+float64(idsBytes)+1<<20)
	require.GreaterOrEqual(t, oldPeak-newPeak, int64(30*m))
}
