//go:build unix

package graphfile

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps size bytes of f read-only and shared, so that processes
// opening the same file share its pages.
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
