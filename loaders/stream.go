package loaders

import (
	"bytes"
	"io"

	"github.com/gssl/gssl/internal/inputfile"
)

// NumPyExt returns ".npy" or ".npz" when the file at path starts with the
// magic bytes of a NumPy array or of a zip archive (numpy.savez), else "".
// It names the format of an input that has no extension to go by, such as
// standard input ("-") or a pipe, which it reads through package
// internal/inputfile so that a later open sees the same bytes.
func NumPyExt(path string) string {
	f, err := inputfile.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, max(len(npyMagic), len(zipMagic)))
	n, _ := io.ReadFull(f, head)
	switch head = head[:n]; {
	case bytes.HasPrefix(head, npyMagic):
		return ".npy"
	case bytes.HasPrefix(head, zipMagic):
		return ".npz"
	}
	return ""
}

// StreamExt returns ext, the extension by which a reader picks the format of
// the input path, unless path is a stream (standard input, a pipe), which
// has no extension to go by: then the one its magic bytes say (.npy, .npz),
// or "" for text.
func StreamExt(path, ext string) string {
	if !inputfile.IsStream(path) {
		return ext
	}
	return NumPyExt(path)
}
