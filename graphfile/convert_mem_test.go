package graphfile_test

import (
	"context"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/generate"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/loaders"
)

// peakHeap runs f while sampling the Go heap (HeapAlloc) every millisecond
// and returns the largest sample above the heap before f, after a
// collection. The collector runs at GOGC 5 meanwhile, so that the samples
// hold at most 5 % of garbage beyond the live heap (at the default 100 the
// read buffers of a load pile up to the size of the live heap before they
// are collected). The graph's arrays live for whole phases of f, far longer
// than a sample's interval, so the samples see them.
func peakHeap(f func()) int64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := int64(ms.HeapAlloc)
	var peak int64
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var s runtime.MemStats
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				runtime.ReadMemStats(&s)
				mu.Lock()
				peak = max(peak, int64(s.HeapAlloc)-base)
				mu.Unlock()
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	return max(peak, int64(ms.HeapAlloc)-base)
}

// TestConvertPeakHeap converts an edge list of 10^7 edges on 10^6 nodes to
// a .gsg file as gssl convert does (loaders.LoadNodes, then
// graphfile.WriteWith) and bounds the peak Go heap by the budget of the
// counting build (graph.Builder and loaders' doc): the final graph G, the
// Builder's fill buffers (an eighth of the E stored entries at 8 bytes: E
// bytes), 12 bytes a node (the fill cursors, the id table and the
// renumbering of the ids that occur) and three 16 MiB read blocks. Holding
// the edges (12 bytes each, as the old reader did) would pass it by
// 120 MB.
func TestConvertPeakHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10^7-edge file; skipped with -short")
	}
	const n, degree = 1_000_000, 20
	gen, err := generate.NewSBM(generate.SBM{Nodes: n, Classes: 5, Degree: degree, Mixing: 0.3, Seed: 3})
	require.NoError(t, err)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "edges.txt"), filepath.Join(dir, "g.gsg")
	require.NoError(t, generate.WriteEdges(context.Background(), in, gen, generate.EdgesText))

	var graphBytes, entries int64
	var nodes int
	peak := peakHeap(func() {
		ds, err := loaders.LoadNodes(loaders.NodeFiles{Edges: in, Graph: loaders.UserGraphOptions()})
		require.NoError(t, err)
		require.NoError(t, graphfile.WriteWith(out, ds.Graph, ds.IDs, graphfile.WriteOptions{}))
		graphBytes, entries = int64(ds.Graph.Bytes()), int64(ds.Graph.NNZ())
		nodes = ds.Graph.Nodes() // the ids that occur: a node without edges is not in the file
		runtime.KeepAlive(ds)
	})
	budget := graphBytes + entries + 12*int64(nodes) + 3*16<<20
	t.Logf("graph %d bytes, peak live heap %d (%.2f× the graph), budget %d", graphBytes, peak, float64(peak)/float64(graphBytes), budget)
	require.LessOrEqual(t, peak, budget)

	// The file holds the graph.
	g, _, err := graphfile.Read(out)
	require.NoError(t, err)
	require.Equal(t, nodes, g.Nodes())
}
