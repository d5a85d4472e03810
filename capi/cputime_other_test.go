//go:build !linux

package main

import "time"

// threadCPU is the thread's CPU time where the platform reports it; here
// it is 0 (the benchmark's cpu-median-ns/op is then 0).
func threadCPU() time.Duration { return 0 }
