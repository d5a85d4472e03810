//go:build !unix

package memlimit

// addressSpace is unknown here.
func addressSpace() int64 { return 0 }
