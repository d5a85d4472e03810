package labelprop

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCGClassBatchesMatchOneBatch solves 24 classes on a graph of 2·10^5
// edges by block CG in one batch and in batches of 1, 3, 5 (4 × 5 + 4), 7
// and 10 columns, MaxMemory set to the formula of each width, and asks for
// the same scores to the bit: every column's recursion, product and
// per-chunk sums are its own (batch.go), and widths up to 8 take the
// SELL-4-σ kernels where the CPU has them, which must sum each row as the
// CSR kernels do. No column restarts here (the check is that the counters
// agree too).
func TestCGClassBatchesMatchOneBatch(t *testing.T) {
	defer func(v bool) { spreadGather32 = v }(spreadGather32)
	spreadGather32 = false // the float64 layouts compared bitwise; TestSpreadingCGGather32 checks the float32 gather copy
	const n, m, c = 20_000, 200_000, 24
	g, nodes, classes := heapTestGraph(t, n, m, c)
	one := &Spreading{Alpha: 0.9, Classes: c, Solver: CG}
	require.NoError(t, one.FitIndexed(context.Background(), g, nodes, classes))
	want := one.Scores()
	base := 8*int64(n)*c + 53*int64(n)
	for _, w := range []int{1, 3, 5, 7, 10} {
		b := &Spreading{Alpha: 0.9, Classes: c, Solver: CG, MaxMemory: base + batchExtra(g, n, c, int64(w))}
		require.Equal(t, w, b.classBatch(g, c), "width for MaxMemory %d", b.MaxMemory)
		require.NoError(t, b.FitIndexed(context.Background(), g, nodes, classes))
		got := b.Scores()
		for i := 0; i < n; i++ {
			for j := 0; j < c; j++ {
				if got.At(i, j) != want.At(i, j) {
					t.Fatalf("width %d: F[%d][%d] = %v, one batch %v", w, i, j, got.At(i, j), want.At(i, j))
				}
			}
		}
		require.Equal(t, one.Details().ClassIterations, b.Details().ClassIterations, "width %d", w)
		require.Equal(t, one.Details().Residual, b.Details().Residual, "width %d", w)
		require.Equal(t, one.Labels(), b.Labels(), "width %d", w)
	}
}

// TestCGClassBatchesMemory measures the Go heap of a batched fit (as
// TestSpreadingMemoryBytes does): within 1.3× of MemoryBytes, which
// MaxMemory bounds, and below what the one-batch fit allocates.
func TestCGClassBatchesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 10^6-edge graph; skipped with -short")
	}
	const n, m, c = 100_000, 1_000_000, 32
	g, nodes, classes := heapTestGraph(t, n, m, c)
	alloc := func(s *Spreading) int64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		require.NoError(t, s.FitIndexed(context.Background(), g, nodes, classes))
		runtime.ReadMemStats(&after)
		return int64(after.TotalAlloc - before.TotalAlloc)
	}
	one := &Spreading{Alpha: 0.5, Classes: c, Solver: CG}
	oneBytes := alloc(one)
	limit := one.MemoryBytes(g) * 85 / 100
	b := &Spreading{Alpha: 0.5, Classes: c, Solver: CG, MaxMemory: limit}
	w := b.classBatch(g, c)
	require.Less(t, w, c)
	formula := b.MemoryBytes(g)
	require.LessOrEqual(t, formula, limit)
	got := alloc(b)
	t.Logf("one batch: allocated %d (formula %d); batches of %d: allocated %d, formula %d, MaxMemory %d", oneBytes, one.MemoryBytes(g), w, got, formula, limit)
	require.LessOrEqual(t, float64(got), 1.3*float64(formula))
	require.Less(t, got, oneBytes)
}

// TestMaxMemoryTooSmallRefused: a bound below one class at a time is an
// error naming MaxMemory, before any block is allocated.
func TestMaxMemoryTooSmallRefused(t *testing.T) {
	g, nodes, classes := heapTestGraph(t, 2000, 10000, 4)
	s := &Spreading{Alpha: 0.9, Classes: 4, Solver: CG, MaxMemory: 1000}
	err := s.FitIndexed(context.Background(), g, nodes, classes)
	require.ErrorContains(t, err, "MaxMemory = 1000")
}
