package sharedtest

import (
	"time"

	"github.com/gssl/gssl/internal/cputime"
)

// CPUTime returns the CPU time (user + system, all threads) the process has
// used so far, for benchmarks' cpu-s/op: on a machine shared with other
// work it varies far less than the wall time. It is 0 where the system does
// not report it.
func CPUTime() time.Duration {
	return time.Duration(cputime.Seconds() * float64(time.Second))
}
