// Package parallel splits loops over index ranges across the available cores.
//
// It holds the one scheduling policy gssl uses for data-parallel work: a range
// [0, n) is cut into contiguous chunks of at least a minimum grain, and the
// chunks run on the caller and a team of standing workers, up to GOMAXPROCS
// goroutines in all (pool.go). Small ranges run inline, so callers need not
// special-case tiny inputs.
//
// The package reads no environment and writes nothing: a program sets the
// number of workers and how long idle workers poll by calling Configure (the
// gssl command maps its --spin flag and GSSL_SPIN to it). Idle workers poll
// for Config.Spin, then park, and exit after Config.Exit parked; no goroutine
// of the package outlives a quiet period. Which goroutine runs a chunk never
// changes its bounds, so results do not depend on the number of workers
// where callers reduce over Chunks.
package parallel

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// DefaultSpin is how long an idle worker keeps polling for the next region
// before it parks: long enough for the back-to-back regions of an iterative
// solver to find the workers running (see pool.go).
const DefaultSpin = 200 * time.Microsecond

// DefaultExit is how long a parked worker waits for work before it exits.
const DefaultExit = time.Second

// Config is the package's scheduling configuration. The zero value is the
// default.
type Config struct {
	// Workers is the largest number of goroutines a loop runs on, the
	// caller included; 0 means GOMAXPROCS, read at every call.
	Workers int
	// Spin is how long an idle worker polls for new work before it parks;
	// 0 means DefaultSpin and a negative value parks at once (no CPU spent
	// waiting, at the price of late wake-ups on some machines).
	Spin time.Duration
	// Exit is how long a parked worker waits before it exits; 0 means
	// DefaultExit.
	Exit time.Duration
}

func (c *Config) spin() time.Duration {
	switch {
	case c.Spin == 0:
		return DefaultSpin
	case c.Spin < 0:
		return 0
	}
	return c.Spin
}

func (c *Config) exit() time.Duration {
	if c.Exit == 0 {
		return DefaultExit
	}
	return c.Exit
}

// config is the configuration set by Configure; nil means the zero Config.
var config atomic.Pointer[Config]

var zeroConfig Config

// current returns the configuration in force.
func current() *Config {
	if c := config.Load(); c != nil {
		return c
	}
	return &zeroConfig
}

// Configure sets the configuration for the loops that start after it
// returns. It is safe for concurrent use. Workers and Exit must be ≥ 0.
func Configure(c Config) error {
	if c.Workers < 0 {
		return fmt.Errorf("parallel: Workers=%d is invalid: it must be ≥ 0 (0 means GOMAXPROCS)", c.Workers)
	}
	if c.Exit < 0 {
		return fmt.Errorf("parallel: Exit=%v is invalid: it must be ≥ 0 (0 means %v)", c.Exit, DefaultExit)
	}
	config.Store(&c)
	return nil
}

// Current returns the configuration set by the last Configure.
func Current() Config { return *current() }

// Workers returns the number of goroutines For uses: Config.Workers, or
// GOMAXPROCS when that is 0.
func Workers() int {
	if w := current().Workers; w > 0 {
		return w
	}
	return runtime.GOMAXPROCS(0)
}

// For calls body on disjoint contiguous chunks [lo, hi) covering [0, n).
// Chunks hold at least grain indices; when n < 2*grain or only one worker is
// available, body(0, n) runs on the calling goroutine. body must be safe to
// run concurrently on disjoint ranges.
func For(n, grain int, body func(lo, hi int)) {
	if n <= 0 {
		return
	}
	if grain < 1 {
		grain = 1
	}
	w := Workers()
	if w == 1 || n < 2*grain {
		body(0, n)
		return
	}
	chunks := n / grain
	if chunks > w {
		chunks = w
	}
	runChunks(chunks, func(c int) { body(c*n/chunks, (c+1)*n/chunks) })
}

// Balanced is For with chunk boundaries chosen so that each chunk holds about
// the same amount of work, where prefix[i] is the cumulative work of indices
// [0, i) (len(prefix) == n+1, non-decreasing), as in a CSR row pointer.
func Balanced(prefix []int, minWork int, body func(lo, hi int)) {
	n := len(prefix) - 1
	if n <= 0 {
		return
	}
	total := prefix[n] - prefix[0]
	w := Workers()
	if minWork < 1 {
		minWork = 1
	}
	chunks := total / minWork
	if chunks > w {
		chunks = w
	}
	if chunks <= 1 {
		body(0, n)
		return
	}
	bounds := make([]int, chunks+1)
	bounds[chunks] = n
	for c := 1; c < chunks; c++ {
		target := prefix[0] + c*total/chunks
		// first row whose prefix reaches the target
		lo, hi := bounds[c-1], n
		for lo < hi {
			mid := (lo + hi) / 2
			if prefix[mid] < target {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		bounds[c] = lo
	}
	runChunks(chunks, func(c int) {
		if lo, hi := bounds[c], bounds[c+1]; lo < hi {
			body(lo, hi)
		}
	})
}

// Chunks cuts [0, n) into fixed chunks of size indices (the last may be
// shorter) and calls body(k, lo, hi) for chunk k on up to Workers()
// goroutines. The chunks do not depend on the number of workers, so a
// reduction that stores one partial result per chunk and combines them in
// chunk order gives the same floating-point result on every machine.
// NumChunks(n, size) tells how many chunks there are.
func Chunks(n, size int, body func(k, lo, hi int)) {
	size = max(size, 1)
	m := NumChunks(n, size)
	if m == 0 {
		return
	}
	w := min(Workers(), m)
	if w == 1 {
		for k := 0; k < m; k++ {
			body(k, k*size, min((k+1)*size, n))
		}
		return
	}
	runChunks(m, func(k int) { body(k, k*size, min((k+1)*size, n)) })
}

// NumChunks returns the number of chunks Chunks makes of [0, n).
func NumChunks(n, size int) int {
	if n <= 0 {
		return 0
	}
	if size < 1 {
		size = 1
	}
	return (n + size - 1) / size
}
