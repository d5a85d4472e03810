//go:build unix

// Package cputime reads the CPU time the process has used: on a shared
// machine it is less sensitive than wall time to other processes.
package cputime

import "syscall"

// Seconds returns the user plus system CPU time of the process so far, all
// threads (0 where getrusage is not available).
func Seconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
