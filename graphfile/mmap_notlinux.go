//go:build !linux

package graphfile

// advise does nothing where madvise's huge-page hint does not exist.
func advise(data []byte) {}
