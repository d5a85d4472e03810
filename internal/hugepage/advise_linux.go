//go:build linux

package hugepage

import "golang.org/x/sys/unix"

// advised counts the ranges given MADV_HUGEPAGE successfully (for tests).
var advised int

// collapsed counts the ranges given MADV_COLLAPSE successfully (for tests).
var collapsed int

// madvise is unix.Madvise (a variable so that tests can make it fail).
var madvise = unix.Madvise

// advise asks for huge pages on b (2 MiB-aligned, or nil): MADV_HUGEPAGE
// for the pages not yet touched, which then fault in as huge pages, and
// MADV_COLLAPSE (Linux 6.1) for those already resident, which the first
// advice leaves as 4 KiB pages. A large Go allocation reuses heap memory
// that an earlier phase touched when the heap has it (a 2 GB block of a
// 50 M-node fit came out so, 4 KiB pages under a third of its gathers),
// and then only the collapse gives it huge pages; on memory not yet
// touched it does nothing (EINVAL). Errors (a kernel without transparent
// huge pages or without MADV_COLLAPSE says EINVAL) are ignored: the advice
// is only a hint.
func advise(b []byte) {
	if len(b) == 0 {
		return
	}
	if madvise(b, unix.MADV_HUGEPAGE) == nil {
		advised++
	}
	if madvise(b, unix.MADV_COLLAPSE) == nil {
		collapsed++
	}
}

// populated counts the ranges given MADV_POPULATE_WRITE successfully (for
// tests).
var populated int

// populate faults b's pages in (page-aligned, or nil) with one system call,
// MADV_POPULATE_WRITE (Linux 5.14), as writes would, without changing
// their contents. Errors (an older kernel says EINVAL) are ignored: the
// pages then fault in at their first write, as without it.
func populate(b []byte) {
	if len(b) == 0 {
		return
	}
	if madvise(b, unix.MADV_POPULATE_WRITE) == nil {
		populated++
	}
}
