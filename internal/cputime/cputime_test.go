//go:build unix

package cputime

import (
	"runtime"
	"testing"
	"time"
)

// Seconds grows while the process computes (a busy loop reaches 50 ms of
// CPU within 10 s of wall time even on a loaded machine), and never by more
// than the wall time times the cores.
func TestSecondsCountsWork(t *testing.T) {
	before, start := Seconds(), time.Now()
	x := 0.0
	for Seconds()-before < 0.05 && time.Since(start) < 10*time.Second {
		for i := range 100000 {
			x += float64(i)
		}
	}
	used, wall := Seconds()-before, time.Since(start).Seconds()
	if used < 0.05 || used > wall*float64(runtime.NumCPU())+0.01 {
		t.Fatalf("CPU seconds %.3f in %.3f s of wall time on %d cores (x = %g)", used, wall, runtime.NumCPU(), x)
	}
}
