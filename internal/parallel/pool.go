package parallel

import (
	"runtime"
	"sync/atomic"
	"time"
)

// A team of standing worker goroutines runs the chunks of For, Balanced and
// Chunks next to the caller. A goroutine started per call reaches an idle
// core of a small virtual machine late — later than the products and solver
// passes of gssl take — so the region runs on the caller alone and then
// waits for the late helper (BENCHMARKS.md, Sparse products). The team's workers keep polling for
// new work for Config.Spin after their last chunk, so the back-to-back
// regions of an iterative solver find them running; after that they park and
// cost nothing, and a worker parked for Config.Exit exits (the next region
// starts workers again). Chunks are claimed dynamically and the caller takes every chunk no
// worker has claimed, so a parked or descheduled worker never delays a
// region, and which goroutine runs a chunk never changes its bounds.
//
// One region runs on the team at a time; a call made while the team is busy
// (from another goroutine, or from inside a chunk) starts goroutines of its
// own as before.

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
	busy   atomic.Bool
	cur    atomic.Pointer[region]
	seq    uint64 // regions published so far; written only while busy
	live   atomic.Int32
	parked atomic.Int32
	wake   chan struct{}
}

// maxWake bounds the wake-up tokens outstanding: a parked worker beyond it
// is not woken and the caller runs its chunks (regions never wait for a
// worker).
const maxWake = 1024

var workers = team{wake: make(chan struct{}, maxWake)}

// worker polls for regions; it parks after the configured spin without one
// and exits after being parked for the configured exit time. It keeps the
// number of the last region it saw, not the region, so that a finished
// region's closure (and the data it holds) can be collected.
func (t *team) worker(seen uint64) {
	defer t.live.Add(-1)
	idle := time.Now()
	var timer *time.Timer
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
		c := current()
		if time.Since(idle) < c.spin() {
			if spins&(1<<16-1) == 1<<16-1 {
				runtime.Gosched() // let other goroutines have this P now and then
			}
			continue
		}
		t.parked.Add(1)
		if r := t.cur.Load(); r == nil || r.seq == seen {
			if timer == nil {
				timer = time.NewTimer(c.exit())
			} else {
				timer.Reset(c.exit())
			}
			select {
			case <-t.wake:
				timer.Stop()
			case <-timer.C:
				t.parked.Add(-1)
				return
			}
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
	t.seq++
	r := &region{run: run, m: int64(m), seq: t.seq}
	// Workers that exited are started again; a new worker has seen every
	// region before this one.
	for l := t.live.Load(); int(l) < Workers()-1; l = t.live.Load() {
		if t.live.CompareAndSwap(l, l+1) {
			go t.worker(t.seq - 1)
		}
	}
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
