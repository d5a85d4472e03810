//go:build !unix

package graphfile

import "os"

// mapFile reads the file into memory where there is no mmap.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	return snapshotFile(f, size)
}

// snapshotFile reads the file into memory.
func snapshotFile(f *os.File, size int64) ([]byte, func() error, error) {
	data, err := readAll(f, size)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
