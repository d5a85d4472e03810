//go:build !linux

package hugepage

// advised counts the ranges given MADV_HUGEPAGE (never, here).
var advised int

// advise is a no-op where madvise(MADV_HUGEPAGE) does not exist.
func advise(b []byte) {}
