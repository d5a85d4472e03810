package parallel

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// A team of standing worker goroutines runs the chunks of For, Balanced and
// Chunks next to the caller. Starting a goroutine per call, as the first
// version of this package did, left the second core idle on the development
// machine (a 2-vCPU virtual machine): a goroutine handed to an idle core
// started 1–2 ms later, so every parallel region shorter than that ran on the
// caller alone and then waited for the late helper — the products and solver
// passes of gssl are 10 µs–1 ms each. The team's workers keep polling for
// new work for spinFor after their last chunk, so the back-to-back regions of
// an iterative solver find them running; after that they park and cost
// nothing. Chunks are claimed dynamically and the caller takes every chunk no
// worker has claimed, so a parked or descheduled worker never delays a
// region, and which goroutine runs a chunk never changes its bounds.
//
// One region runs on the team at a time; a call made while the team is busy
// (from another goroutine, or from inside a chunk) starts goroutines of its
// own as before.

// defaultSpin is how long an idle worker keeps polling before it parks.
const defaultSpin = 200 * time.Microsecond

// spinFor is defaultSpin, or the duration in the environment variable
// GSSL_SPIN ("0" parks at once: no CPU is spent waiting, at the price of the
// late wake-ups described above; "1ms" waits longer). A program embedding
// gssl next to other busy work may want 0.
var spinFor = spinFromEnv(os.Getenv("GSSL_SPIN"), os.Stderr)

// spinFromEnv reads GSSL_SPIN; a value that is not a duration ≥ 0 is
// reported on warn and replaced by defaultSpin.
func spinFromEnv(v string, warn io.Writer) time.Duration {
	if v == "" {
		return defaultSpin
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		fmt.Fprintf(warn, "gssl: GSSL_SPIN=%q is not a duration ≥ 0 (such as 0, 50us or 1ms); using %v\n", v, defaultSpin)
		return defaultSpin
	}
	return d
}

// region is one parallel call: m chunks, run(k) runs chunk k; seq numbers
// the team's regions.
type region struct {
	run  func(k int)
	m    int64
	seq  uint64
	next atomic.Int64 // next chunk to claim
	done atomic.Int64 // chunks finished
}

// work claims and runs chunks until none is left.
func (r *region) work() {
	for {
		k := r.next.Add(1) - 1
		if k >= r.m {
			return
		}
		r.run(int(k))
		r.done.Add(1)
	}
}

type team struct {
	start  sync.Once
	busy   atomic.Bool
	cur    atomic.Pointer[region]
	seq    uint64 // regions published so far; written only while busy
	parked atomic.Int32
	wake   chan struct{}
}

var workers team

// worker polls for regions; it parks after spinFor without one. It keeps
// the number of the last region it saw, not the region, so that a finished
// region's closure (and the data it holds) can be collected.
func (t *team) worker() {
	var seen uint64
	idle := time.Now()
	for spins := 0; ; spins++ {
		if r := t.cur.Load(); r != nil && r.seq != seen {
			seen = r.seq
			r.work()
			idle, spins = time.Now(), 0
			continue
		}
		if spins&1023 != 1023 {
			continue
		}
		if time.Since(idle) < spinFor {
			if spins&(1<<16-1) == 1<<16-1 {
				runtime.Gosched() // let other goroutines have this P now and then
			}
			continue
		}
		t.parked.Add(1)
		if r := t.cur.Load(); r == nil || r.seq == seen {
			<-t.wake
		}
		t.parked.Add(-1)
		idle, spins = time.Now(), 0
	}
}

// runChunks runs run(k) for k < m on the caller and the team, or on fresh
// goroutines when the team is busy. It returns when every chunk has run.
func runChunks(m int, run func(k int)) {
	w := min(Workers(), m)
	if !workers.busy.CompareAndSwap(false, true) {
		spawnChunks(m, w, run)
		return
	}
	t := &workers
	t.start.Do(func() {
		n := Workers() - 1
		t.wake = make(chan struct{}, n)
		for i := 0; i < n; i++ {
			go t.worker()
		}
	})
	t.seq++
	r := &region{run: run, m: int64(m), seq: t.seq}
	defer func() {
		// Also when a chunk panics on the caller: no chunk starts after
		// this call has returned or panicked, and the team is free again.
		r.next.Store(r.m)
		t.cur.CompareAndSwap(r, nil) // let the closure's data be collected
		t.busy.Store(false)
	}()
	t.cur.Store(r)
	for p := t.parked.Load(); p > 0; p-- {
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
	r.work()
	r.wait()
}

// spawnChunks is runChunks on w−1 new goroutines and the caller. It waits
// only for chunks in progress: a goroutine that starts after the caller has
// taken every chunk finds none and exits.
func spawnChunks(m, w int, run func(k int)) {
	r := &region{run: run, m: int64(m)}
	for i := 1; i < w; i++ {
		go r.work()
	}
	r.work()
	r.wait()
}

// wait returns when every chunk of r has finished.
func (r *region) wait() {
	for spins := 1; r.done.Load() < r.m; spins++ {
		if spins&1023 == 0 {
			runtime.Gosched()
		}
	}
}
