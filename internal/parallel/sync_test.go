package parallel

import (
	"runtime"
	"sync"
	"testing"
	"unsafe"
)

// TestFreeListKeepsValues: values put back survive garbage collections, so
// concurrent users allocate at most one value each in all.
func TestFreeListKeepsValues(t *testing.T) {
	var made sync.Map
	var mu sync.Mutex
	n := 0
	l := FreeList[*[]byte]{New: func() *[]byte {
		mu.Lock()
		n++
		mu.Unlock()
		b := make([]byte, 1<<10)
		return &b
	}}
	const users = 4
	var wg sync.WaitGroup
	for u := 0; u < users; u++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 200; k++ {
				b := l.Get()
				made.Store(b, true)
				if k%50 == 0 {
					runtime.GC()
				}
				l.Put(b)
			}
		}()
	}
	wg.Wait()
	if n > users {
		t.Errorf("%d users made %d values; want at most %d", users, n, users)
	}
	count := 0
	made.Range(func(_, _ any) bool { count++; return true })
	if count != n {
		t.Errorf("saw %d distinct values, New made %d", count, n)
	}
}

// TestMutexFillsLine: a Mutex takes a cache line, so neighbours in an
// array never share one.
func TestMutexFillsLine(t *testing.T) {
	if s := unsafe.Sizeof(Mutex{}); s != cacheLine {
		t.Errorf("a Mutex takes %d bytes, want %d", s, cacheLine)
	}
}
