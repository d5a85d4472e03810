//go:build unix

package sharedtest

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time (user + system, all threads) the process has
// used so far, for benchmarks' cpu-s/op: on a machine shared with other
// work it varies far less than the wall time.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
