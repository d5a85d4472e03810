//go:build linux

package hugepage

import "golang.org/x/sys/unix"

// advised counts the ranges given MADV_HUGEPAGE successfully (for tests).
var advised int

// advise asks for huge pages on b (2 MiB-aligned, or nil). An error (a
// kernel without transparent huge pages says EINVAL) is ignored: the advice
// is only a hint.
func advise(b []byte) {
	if len(b) == 0 {
		return
	}
	if unix.Madvise(b, unix.MADV_HUGEPAGE) == nil {
		advised++
	}
}
