//go:build !linux

package hugepage

// advised counts the ranges given MADV_HUGEPAGE (never, here).
var advised int

// collapsed counts the ranges given MADV_COLLAPSE (never, here).
var collapsed int

// advise is a no-op where madvise(MADV_HUGEPAGE) does not exist.
func advise(b []byte) {}

// populate does nothing: there is no MADV_POPULATE_WRITE.
func populate(b []byte) {}

// populated counts the ranges populated (never, here).
var populated int
