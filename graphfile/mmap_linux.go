package graphfile

import (
	"fmt"
	"math"
	"unsafe"

	"golang.org/x/sys/unix"
)

// advise asks the kernel to read the mapping ahead and to back it with huge
// pages where the file system allows (the hints are only hints: errors are
// ignored).
func advise(data []byte) {
	_ = unix.Madvise(data, unix.MADV_WILLNEED)
	_ = unix.Madvise(data, unix.MADV_HUGEPAGE)
}

// onesChunk is the size of the memory file of ones that mapOnes maps
// repeatedly: big enough that a graph of 10⁹ stored entries needs a few
// thousand mappings (the kernel allows 65530 per process by default), small
// enough to cost nothing next to the graph.
const onesChunk = 2 << 20

// maxOnesMappings bounds the number of mappings of one ones slice; larger
// slices use proportionally larger chunks.
const maxOnesMappings = 8192

// mapOnes returns count float64 ones that take no memory per element: one
// memory file of ones mapped read-only over and over into a reserved address
// range.
func mapOnes(count int) ([]float64, func() error, error) {
	if count == 0 {
		return []float64{}, func() error { return nil }, nil
	}
	page := unix.Getpagesize()
	need := uint64(count) * 8
	chunk := uint64(onesChunk)
	if m := (need + chunk - 1) / chunk; m > maxOnesMappings {
		chunk = (need + maxOnesMappings - 1) / maxOnesMappings
	}
	chunk = min(chunk, need)
	chunk = (chunk + uint64(page) - 1) / uint64(page) * uint64(page)
	total := (need + chunk - 1) / chunk * chunk
	if total > math.MaxInt {
		return nil, nil, fmt.Errorf("%d ones exceed the address space", count)
	}
	fd, err := unix.MemfdCreate("gssl-ones", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, nil, err
	}
	defer unix.Close(fd)
	if err := unix.Ftruncate(fd, int64(chunk)); err != nil {
		return nil, nil, err
	}
	fill, err := unix.Mmap(fd, 0, int(chunk), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	ones := unsafe.Slice((*float64)(unsafe.Pointer(&fill[0])), len(fill)/8)
	for k := range ones {
		ones[k] = 1
	}
	if err := unix.Munmap(fill); err != nil {
		return nil, nil, err
	}
	// Reserve the range, then map the file over each chunk of it.
	base, err := unix.MmapPtr(-1, 0, nil, uintptr(total), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil, nil, err
	}
	release := func() error { return unix.MunmapPtr(base, uintptr(total)) }
	for off := uint64(0); off < total; off += chunk {
		_, err := unix.MmapPtr(fd, 0, unsafe.Add(base, off), uintptr(chunk), unix.PROT_READ, unix.MAP_SHARED|unix.MAP_FIXED)
		if err != nil {
			_ = release()
			return nil, nil, err
		}
	}
	return unsafe.Slice((*float64)(base), count), release, nil
}
