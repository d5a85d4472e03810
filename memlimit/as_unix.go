//go:build unix

package memlimit

import "syscall"

// addressSpace returns the process's address-space limit (ulimit -v)
// in bytes, or 0 when there is none.
func addressSpace() int64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur > 1<<62 { // RLIM_INFINITY is all ones
		return 0
	}
	return int64(r.Cur)
}
