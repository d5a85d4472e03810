//go:build linux

package hugepage

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestGatherFloat64sPopulated: a block from GatherMinBytes up to
// GatherPopulateMaxBytes is resident as soon as GatherFloat64s returns it
// (mincore), before anything writes it, and still reads zero; one populate
// call succeeded for it, and none for a block of GatherPopulateMaxBytes.
func TestGatherFloat64sPopulated(t *testing.T) {
	probe, err := unix.Mmap(-1, 0, unix.Getpagesize(), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	require.NoError(t, err)
	if err := unix.Madvise(probe, unix.MADV_POPULATE_WRITE); err != nil {
		t.Skipf("MADV_POPULATE_WRITE refused (a kernel before 5.14?): %v", err)
	}
	require.NoError(t, unix.Munmap(probe))
	before := populated
	s := GatherFloat64s(3 * GatherMinBytes / 8)
	part := pagePart(bytesOf(s))
	require.NotEmpty(t, part)
	require.Equal(t, before+1, populated)
	vec := make([]byte, len(part)/unix.Getpagesize())
	_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&part[0])), uintptr(len(part)), uintptr(unsafe.Pointer(&vec[0])))
	require.Zero(t, errno)
	for i, v := range vec {
		require.NotZero(t, v&1, "page %d of %d not resident", i, len(vec))
	}
	for i := 0; i < len(s); i += 512 {
		require.Zero(t, s[i])
	}
	big := GatherFloat64s(GatherPopulateMaxBytes / 8)
	require.Equal(t, before+1, populated, "a block of GatherPopulateMaxBytes was populated")
	require.Len(t, big, GatherPopulateMaxBytes/8)
}
