package parallel

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestForCoversEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 5, 100, 10007} {
		for _, grain := range []int{0, 1, 3, 64, 5000} {
			hits := make([]int32, n)
			For(n, grain, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				assert.Equal(t, int32(1), h, "n=%d grain=%d index %d", n, grain, i)
			}
		}
	}
}

func TestBalancedCoversEachIndexOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := rng.IntN(3000)
		prefix := make([]int, n+1)
		for i := 1; i <= n; i++ {
			prefix[i] = prefix[i-1] + rng.IntN(20)
			if rng.IntN(10) == 0 {
				prefix[i] += 1000 // a heavy row
			}
		}
		hits := make([]int32, n)
		Balanced(prefix, 1+rng.IntN(2000), func(lo, hi int) {
			assert.Less(t, lo, hi)
			for i := lo; i < hi; i++ {
				atomic.AddInt32(&hits[i], 1)
			}
		})
		for i, h := range hits {
			assert.Equal(t, int32(1), h, "trial %d index %d", trial, i)
		}
	}
}

func TestChunksCoverEachIndexOnceInFixedChunks(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000, 4097} {
		for _, size := range []int{0, 1, 64, 4096} {
			hits := make([]int32, n)
			seen := make([]int32, NumChunks(n, size))
			Chunks(n, size, func(k, lo, hi int) {
				s := max(size, 1)
				assert.Equal(t, k*s, lo)
				assert.Equal(t, min((k+1)*s, n), hi)
				atomic.AddInt32(&seen[k], 1)
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				assert.Equal(t, int32(1), h, "n=%d size=%d index %d", n, size, i)
			}
			for k, h := range seen {
				assert.Equal(t, int32(1), h, "chunk %d", k)
			}
		}
	}
}

// TestConcurrentAndNestedCalls runs regions from several goroutines at once
// and from inside chunks, so that some take the standing team and the others
// the fallback of fresh goroutines; every index must still run exactly once.
func TestConcurrentAndNestedCalls(t *testing.T) {
	const callers, n, inner = 4, 64, 300
	hits := make([]int32, callers*n*inner)
	done := make(chan struct{})
	for c := 0; c < callers; c++ {
		go func() {
			defer func() { done <- struct{}{} }()
			For(n, 1, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					base := (c*n + i) * inner
					Chunks(inner, 7, func(_, a, b int) {
						for j := a; j < b; j++ {
							atomic.AddInt32(&hits[base+j], 1)
						}
					})
				}
			})
		}()
	}
	for c := 0; c < callers; c++ {
		<-done
	}
	for i, h := range hits {
		if h != 1 {
			t.Fatalf("index %d ran %d times", i, h)
		}
	}
}

// TestRegionsBackToBack runs many short regions in a row, the pattern of an
// iterative solver, where the team's workers are polling when each starts.
func TestRegionsBackToBack(t *testing.T) {
	sums := make([]int64, 3)
	for r := 0; r < 2000; r++ {
		Chunks(3000, 1000, func(k, lo, hi int) {
			sums[k] += int64(hi - lo)
		})
	}
	assert.Equal(t, []int64{2000000, 2000000, 2000000}, sums)
}

// TestConfigure: invalid settings are rejected with their valid range, and
// Workers bounds the goroutines of a loop.
func TestConfigure(t *testing.T) {
	defer func(c Config) { require.NoError(t, Configure(c)) }(Current())
	assert.ErrorContains(t, Configure(Config{Workers: -1}), "Workers=-1 is invalid: it must be ≥ 0")
	assert.ErrorContains(t, Configure(Config{Exit: -time.Second}), "Exit=-1s is invalid")
	require.NoError(t, Configure(Config{Workers: 3, Spin: -1}))
	assert.Equal(t, 3, Workers())
	assert.Equal(t, time.Duration(0), current().spin())
	assert.Equal(t, DefaultExit, current().exit())
	var chunks atomic.Int32
	For(3000, 1, func(lo, hi int) { chunks.Add(1) })
	assert.Equal(t, int32(3), chunks.Load())
	require.NoError(t, Configure(Config{}))
	assert.Equal(t, runtime.GOMAXPROCS(0), Workers())
	assert.Equal(t, DefaultSpin, current().spin())
}

// TestIdleWorkersExit: after a quiet period longer than Spin + Exit no
// worker goroutine is left, and the next loop starts them again.
func TestIdleWorkersExit(t *testing.T) {
	defer func(c Config) { require.NoError(t, Configure(c)) }(Current())
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	require.NoError(t, Configure(Config{Spin: time.Millisecond, Exit: 200 * time.Millisecond}))
	settle := func() int {
		// Goroutines of earlier tests and of the runtime come and go;
		// wait until the count stops falling. The bound is generous: on
		// a loaded machine the workers' exit timers fire late.
		n := runtime.NumGoroutine()
		for range 1000 {
			time.Sleep(10 * time.Millisecond)
			m := runtime.NumGoroutine()
			if m >= n && workers.live.Load() == 0 {
				return m
			}
			n = m
		}
		return n
	}
	base := settle()
	var sum atomic.Int64
	Chunks(4000, 100, func(_, lo, hi int) { sum.Add(int64(hi - lo)) })
	assert.Equal(t, int64(4000), sum.Load())
	assert.Positive(t, workers.live.Load(), "workers running after a loop")
	assert.LessOrEqual(t, settle(), base, "goroutines left after the quiet period")
	assert.Equal(t, int32(0), workers.live.Load())
	sum.Store(0)
	Chunks(4000, 100, func(_, lo, hi int) { sum.Add(int64(hi - lo)) })
	assert.Equal(t, int64(4000), sum.Load())
}
