package stkr

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/krylov"
)

// releaseSink keeps the garbage of TestFitReturnsFreeMemory reachable
// until the test drops it.
var releaseSink []byte

// TestFitReturnsFreeMemory: FitIndexed returns the heap's free memory to the
// system (freeOSMemory) before it allocates N×c blocks of collectBytes or
// more, so that the garbage of the caller's earlier phases is not resident
// beside the blocks for the whole solve, and leaves a smaller fit alone. On
// a ring of 2^20 nodes with 8 columns (blocks of 64 MiB: one call) and 7
// (56 MiB: none), after 256 MiB of touched garbage was collected: at the
// call less than 32 MiB of the heap's free memory is left unreleased.
func TestFitReturnsFreeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 0.6 GB; skipped with -short")
	}
	const n = 1 << 20
	k, err := NewGraphKernel(randomGraph(t, n, 0, false, 1))
	require.NoError(t, err)
	defer func(f func()) { freeOSMemory = f }(freeOSMemory)
	calls := 0
	var before, after uint64 // free but unreleased heap bytes around the call
	freeOSMemory = func() {
		calls++
		before = unreleasedHeap()
		debug.FreeOSMemory()
		after = unreleasedHeap()
	}
	for _, c := range []int{8, 7} {
		calls = 0
		releaseSink = make([]byte, 256<<20)
		for i := range releaseSink {
			releaseSink[i] = 1 // resident
		}
		releaseSink = nil
		runtime.GC()
		var train []int
		for i := 0; i < n; i += 1024 {
			train = append(train, i)
		}
		y := mat.NewDense(len(train), c, nil)
		for p := range train {
			y.Set(p, p%c, 1)
		}
		r := Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 10, MaxIter: 2}
		err := r.FitIndexed(context.Background(), k, train, y)
		var nc *krylov.NotConvergedError
		require.ErrorAs(t, err, &nc, "%d columns: two iterations do not converge", c)
		if c == 7 {
			require.Zero(t, calls, "blocks of %d bytes, below collectBytes", 8*n*c)
			continue
		}
		require.Equal(t, 1, calls, "blocks of %d bytes", 8*n*c)
		t.Logf("free heap memory not released: %d MiB before the call, %d MiB after", before>>20, after>>20)
		require.GreaterOrEqual(t, before, uint64(192<<20), "the garbage is free heap memory before the call")
		require.Less(t, after, uint64(32<<20), "the garbage is returned to the system")
	}
}

// unreleasedHeap returns the bytes of heap memory that are free but not
// returned to the system.
func unreleasedHeap() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapIdle - ms.HeapReleased
}
