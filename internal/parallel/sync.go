package parallel

import "sync"

// FreeList keeps the scratch values that concurrent workers hand back, for
// the next worker to reuse. Unlike sync.Pool it never drops a value, so a
// pass over many blocks allocates one value per worker that ran at once,
// however often the garbage collector runs meanwhile: the memory a reader
// allocates is then a function of its input and worker count alone.
//
// The zero value is empty; Get calls New when the list is empty.
type FreeList[T any] struct {
	New func() T

	mu    sync.Mutex
	items []T
}

// Get returns a value from the list, or a new one.
func (l *FreeList[T]) Get() T {
	l.mu.Lock()
	if n := len(l.items); n > 0 {
		x := l.items[n-1]
		var zero T
		l.items[n-1] = zero
		l.items = l.items[:n-1]
		l.mu.Unlock()
		return x
	}
	l.mu.Unlock()
	return l.New()
}

// Put returns x to the list.
func (l *FreeList[T]) Put(x T) {
	l.mu.Lock()
	l.items = append(l.items, x)
	l.mu.Unlock()
}

// Mutex is a sync.Mutex alone on its cache line: an array of them, one per
// range of data, lets workers lock neighbouring ranges without the lines
// of the locks moving between their cores.
type Mutex struct {
	sync.Mutex
	_ [cacheLine - 8]byte
}

// cacheLine is the size of a cache line on the processors gssl runs on
// (x86-64 and arm64 servers).
const cacheLine = 64
