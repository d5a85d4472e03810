package hugepage

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAlignedRange(t *testing.T) {
	for _, c := range []struct{ start, size, lo, hi uintptr }{
		{0, 4 * hugeSize, 0, 4 * hugeSize},
		{1, 4 * hugeSize, hugeSize, 4 * hugeSize},
		{hugeSize - 1, 2, 0, 0},
		{5, 100, 0, 0},
		{3 * hugeSize, hugeSize + 7, 3 * hugeSize, 4 * hugeSize},
	} {
		lo, hi := alignedRange(c.start, c.size)
		require.Equal(t, [2]uintptr{c.lo, c.hi}, [2]uintptr{lo, hi}, "start %d size %d", c.start, c.size)
		if lo != hi {
			require.LessOrEqual(t, c.start, lo)
			require.LessOrEqual(t, hi, c.start+c.size)
		}
	}
}

// TestFloat64sZeroedAndAdvised checks that the slices are ordinary zeroed
// slices of the right length, small ones not advised, and (on Linux) that a
// large one is.
func TestFloat64sZeroedAndAdvised(t *testing.T) {
	before := advised
	s := Float32s(1000)
	require.Len(t, s, 1000)
	require.Equal(t, before, advised, "a small slice was advised")
	big := Float64s(MinBytes / 8)
	require.Len(t, big, MinBytes/8)
	for i := 0; i < len(big); i += 4096 {
		require.Zero(t, big[i])
	}
	big[len(big)-1] = 1
	part := alignedPart(bytesOf(big))
	require.GreaterOrEqual(t, len(part), MinBytes-2*hugeSize)
	if thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); runtime.GOOS == "linux" && err == nil && !strings.Contains(string(thp), "[never]") {
		require.Equal(t, before+1, advised, "madvise(MADV_HUGEPAGE) failed with transparent huge pages %q", thp)
	}
}

// TestGatherFloat64sAdvisedFromGatherMinBytes checks that GatherFloat64s
// returns ordinary zeroed slices, advised (on Linux with transparent huge
// pages) from GatherMinBytes, below MinBytes, and not below it.
func TestGatherFloat64sAdvisedFromGatherMinBytes(t *testing.T) {
	require.Less(t, GatherMinBytes, MinBytes)
	before := advised
	small := GatherFloat64s(GatherMinBytes/8 - 1)
	require.Len(t, small, GatherMinBytes/8-1)
	require.Equal(t, before, advised, "a block below GatherMinBytes was advised")
	big := GatherFloat64s(2 * GatherMinBytes / 8) // holds a whole aligned huge page wherever it starts
	require.Len(t, big, 2*GatherMinBytes/8)
	for i := 0; i < len(big); i += 4096 {
		require.Zero(t, big[i])
	}
	if thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); runtime.GOOS == "linux" && err == nil && !strings.Contains(string(thp), "[never]") {
		require.Equal(t, before+1, advised, "madvise(MADV_HUGEPAGE) failed with transparent huge pages %q", thp)
	}
}

// TestSliceOfStructs: Slice advises by the bytes of its element type: a
// slice of 16-byte structs is advised from MinBytes/16 elements, not
// below, and is zeroed.
func TestSliceOfStructs(t *testing.T) {
	type slot struct {
		p    float64
		a, b int32
	}
	before := advised
	small := Slice[slot](MinBytes/16 - 1)
	require.Len(t, small, MinBytes/16-1)
	require.Equal(t, before, advised, "a slice under MinBytes was advised")
	big := Slice[slot](MinBytes / 16)
	require.Len(t, big, MinBytes/16)
	for i := 0; i < len(big); i += 4096 {
		require.Zero(t, big[i])
	}
	if thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); runtime.GOOS == "linux" && err == nil && !strings.Contains(string(thp), "[never]") {
		require.Equal(t, before+1, advised, "madvise(MADV_HUGEPAGE) failed with transparent huge pages %q", thp)
	}
}
