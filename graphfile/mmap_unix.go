//go:build unix

package graphfile

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/gssl/gssl/internal/parallel"
)

// snapshotChunk is the bytes one goroutine reads at a time into a snapshot.
const snapshotChunk = 8 << 20

// mapFile maps size bytes of f read-only and shared, so that processes
// opening the same file share its pages. Truncating or rewriting the file
// while it is mapped changes or removes the pages under the reader (a
// truncated page faults: SIGBUS).
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if int64(int(size)) != size {
		return nil, nil, fmt.Errorf("the file's %d bytes exceed the address space", size)
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("mmap: %w", err)
	}
	advise(data)
	return data, func() error { return unix.Munmap(data) }, nil
}

// snapshotFile reads size bytes of f into private anonymous memory
// (page-aligned, outside the Go heap, read-only once filled), so that a
// file replaced in place while open (cp new.gsg old.gsg truncates and
// rewrites it) cannot change or remove what the reader holds. A file cut
// while it is read is an error here; one rewritten while it is read fails
// the checksums.
func snapshotFile(f *os.File, size int64) ([]byte, func() error, error) {
	if int64(int(size)) != size {
		return nil, nil, fmt.Errorf("the file's %d bytes exceed the address space", size)
	}
	data, err := unix.Mmap(-1, 0, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil, nil, fmt.Errorf("mmap: %d bytes of memory: %w", size, err)
	}
	unmap := func() error { return unix.Munmap(data) }
	advise(data)
	// Chunks read in parallel: the page faults of the new memory and the
	// copies from the page cache spread over the cores.
	chunks := parallel.NumChunks(int(size), snapshotChunk)
	errs := make([]error, chunks)
	parallel.Chunks(int(size), snapshotChunk, func(k, lo, hi int) {
		_, errs[k] = f.ReadAt(data[lo:hi], int64(lo))
	})
	if err := errors.Join(errs...); err != nil {
		_ = unmap()
		return nil, nil, fmt.Errorf("reading %d bytes (was the file cut while it was read?): %w", size, err)
	}
	_ = unix.Mprotect(data, unix.PROT_READ) // a hint against misuse; reading works either way
	return data, unmap, nil
}
