//go:build unix

package procstat

import "syscall"

// CPUSeconds returns the user plus system CPU time of the process so far
// (0 where getrusage is not available): on a shared machine it is less
// sensitive than wall time to other processes.
func CPUSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
