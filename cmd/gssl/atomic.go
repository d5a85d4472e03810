package main

import (
	"io"

	"github.com/gssl/gssl/internal/atomicfile"
)

// atomicWrite creates path with what write writes, through a temporary file
// in the same folder that is flushed to disk and then renamed over path
// (internal/atomicfile): an interrupted or failed run leaves the old file
// (or none), never half of one.
func atomicWrite(path string, write func(w io.Writer) error) error {
	return atomicfile.Write(path, write)
}
