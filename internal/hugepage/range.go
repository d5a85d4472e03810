package hugepage

import "unsafe"

// bytesOf returns s's elements as bytes.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), uintptr(len(s))*unsafe.Sizeof(z))
}

// alignedPart returns the part of b whose start and end are multiples of
// hugeSize in memory, nil when there is none.
func alignedPart(b []byte) []byte { return partAligned(b, hugeSize) }

// pagePart returns the part of b whose start and end are multiples of
// pageSize in memory, nil when there is none.
func pagePart(b []byte) []byte { return partAligned(b, pageSize) }

// partAligned returns the part of b whose start and end are multiples of
// align in memory, nil when there is none.
func partAligned(b []byte, align uintptr) []byte {
	if len(b) == 0 {
		return nil
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo, hi := alignedTo(start, uintptr(len(b)), align)
	if lo == hi {
		return nil
	}
	return b[lo-start : hi-start]
}
