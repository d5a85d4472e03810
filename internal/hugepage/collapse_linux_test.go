//go:build linux

package hugepage

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestAdviseCollapsesTouchedPages: advise gives huge pages to a range whose
// pages are already resident as 4 KiB pages (a large allocation reusing
// touched heap memory), which MADV_HUGEPAGE alone leaves as they are. The
// range is a mapping of its own, so that its smaps entry counts it alone.
func TestAdviseCollapsesTouchedPages(t *testing.T) {
	thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	require.NoError(t, err)
	mem, err := unix.Mmap(-1, 0, MinBytes+hugeSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	require.NoError(t, err)
	defer unix.Munmap(mem)
	part := alignedPart(mem)
	require.NoError(t, unix.Madvise(part, unix.MADV_NOHUGEPAGE)) // touched as 4 KiB pages, as the heap's are
	for i := 0; i < len(mem); i += 4096 {
		mem[i] = 1
	}
	require.Zero(t, hugeKB(t, part), "4 KiB pages before the advice")
	before := collapsed
	advise(part)
	if strings.Contains(string(thp), "[never]") || !kernelAtLeast(6, 1) {
		require.Equal(t, before, collapsed, "MADV_COLLAPSE succeeded with transparent huge pages %q", thp)
		return
	}
	require.Equal(t, before+1, collapsed, "MADV_COLLAPSE failed with transparent huge pages %q", thp)
	require.GreaterOrEqual(t, hugeKB(t, part), 9*len(part)/1024/10, "at most a tenth of the range left in 4 KiB pages")
	for i := 0; i < len(mem); i += 4096 {
		require.Equal(t, byte(1), mem[i], "the collapse kept the values")
	}
}

// hugeKB sums AnonHugePages over the mappings of /proc/self/smaps that lie
// inside b.
func hugeKB(t *testing.T, b []byte) int {
	lo := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	hi := lo + uint64(len(b))
	ms, err := Mappings()
	require.NoError(t, err)
	sum := 0
	for _, m := range ms {
		if m.Lo >= lo && m.Hi <= hi {
			sum += m.AnonHugeKB
		}
	}
	return sum
}

// kernelAtLeast reports whether the running kernel's release is at least
// major.minor (MADV_COLLAPSE came in 6.1).
func kernelAtLeast(major, minor int) bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	rel := unix.ByteSliceToString(u.Release[:])
	parts := strings.SplitN(rel, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(strings.TrimFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}
