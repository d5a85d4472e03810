//go:build linux

package hugepage

import (
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestFallsBackWhenAdviceFails: where the kernel refuses both advices (no
// transparent huge pages, or a kernel before MADV_COLLAPSE: EINVAL), the
// allocations are the plain zeroed slices, writable to their last element,
// and nothing counts as advised or collapsed.
func TestFallsBackWhenAdviceFails(t *testing.T) {
	var calls []int
	defer func(f func([]byte, int) error) { madvise = f }(madvise)
	madvise = func(b []byte, advice int) error {
		calls = append(calls, advice)
		return unix.EINVAL
	}
	adv, col := advised, collapsed
	f64 := Float64s(MinBytes / 8)
	f32 := Float32s(MinBytes / 4)
	type pair struct{ a, b int64 }
	sl := Slice[pair](MinBytes / 16)
	require.Equal(t, []int{unix.MADV_HUGEPAGE, unix.MADV_COLLAPSE, unix.MADV_HUGEPAGE, unix.MADV_COLLAPSE,
		unix.MADV_HUGEPAGE, unix.MADV_COLLAPSE}, calls, "each large slice asks for both advices once")
	require.Equal(t, [2]int{adv, col}, [2]int{advised, collapsed}, "a refused advice counted")
	require.Len(t, f64, MinBytes/8)
	require.Len(t, f32, MinBytes/4)
	require.Len(t, sl, MinBytes/16)
	for i := 0; i < len(f64); i += 1000 {
		require.Zero(t, f64[i])
		f64[i] = float64(i)
	}
	for i := 0; i < len(f32); i += 1000 {
		require.Zero(t, f32[i])
	}
	for i := 0; i < len(sl); i += 1000 {
		require.Zero(t, sl[i])
	}
	f64[len(f64)-1], f32[len(f32)-1], sl[len(sl)-1] = 1, 2, pair{3, 4}
	require.Equal(t, float64(1000), f64[1000])
	require.Equal(t, pair{3, 4}, sl[len(sl)-1])
}
