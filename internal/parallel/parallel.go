// Package parallel splits loops over index ranges across the available cores.
//
// It holds the one scheduling policy gssl uses for data-parallel work: a range
// [0, n) is cut into contiguous chunks of at least a minimum grain, and the
// chunks run on the caller and a team of standing workers, up to GOMAXPROCS
// goroutines in all (pool.go). Small ranges run inline, so callers need not
// special-case tiny inputs.
package parallel

import "runtime"

// Workers returns the number of goroutines For uses: GOMAXPROCS.
func Workers() int { return runtime.GOMAXPROCS(0) }

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
