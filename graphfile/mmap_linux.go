package graphfile

import "golang.org/x/sys/unix"

// advise asks the kernel to read the mapping ahead and to back it with huge
// pages where the file system allows (the hints are only hints: errors are
// ignored).
func advise(data []byte) {
	_ = unix.Madvise(data, unix.MADV_WILLNEED)
	_ = unix.Madvise(data, unix.MADV_HUGEPAGE)
}
