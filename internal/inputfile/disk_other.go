//go:build !unix

package inputfile

// diskFree does not know the free space on this system.
func diskFree(string) (int64, bool) { return 0, false }
