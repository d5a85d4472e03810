// Package hugepage allocates the large arrays of the solvers with a request
// for transparent huge pages.
//
// A product of a graph with an n×c block gathers rows of the block at random
// (the columns of the graph's rows); for a block much larger than the caches
// every gather is a TLB miss with 4 KiB pages. With 2 MiB pages one TLB entry
// covers 512 times as much, so the page walks mostly hit the cache. Linux
// backs a range with huge pages on its first touch when transparent huge
// pages are "always", or when they are "madvise" and the range was given
// madvise(MADV_HUGEPAGE) (see /sys/kernel/mm/transparent_hugepage/enabled and
// the kernel's admin-guide/mm/transhuge).
//
// Float64s and Float32s allocate an ordinary Go slice and, for slices of at
// least MinBytes on Linux, advise the kernel on the 2 MiB-aligned part of it
// before it is first written (a fresh large Go allocation is not yet touched,
// so its pages fault in as huge pages), and collapse the pages of that part
// that are already resident (a large allocation that reuses heap memory an
// earlier phase touched) into huge pages. GatherFloat64s (blocks gathered
// from at random) advises from one huge page up: a fresh block's first
// writes then fault in 2 MiB at a time, 512 times fewer faults than with 4
// KiB pages; up to GatherPopulateMaxBytes it is moreover faulted in whole
// when it is allocated. The advice changes speed only, never
// values; where it is not available (other systems, or a kernel without
// transparent huge pages) it is a no-op and the slice is the same.
package hugepage

// MinBytes is the smallest slice that is advised: smaller arrays stay in
// the caches or use few pages, and the advice would only add a system call.
const MinBytes = 64 << 20

// Float64s returns a zeroed slice of n float64, advised for huge pages when
// it holds at least MinBytes.
func Float64s(n int) []float64 {
	s := make([]float64, n)
	if 8*n >= MinBytes {
		advise(alignedPart(bytesOf(s)))
	}
	return s
}

// GatherMinBytes is the smallest block that GatherFloat64s advises: a
// block that products gather rows from at random misses the second-level
// TLB on nearly every gather once it is larger than the TLB's reach with
// 4 KiB pages (1536 to 2048 entries, 6 to 8 MiB), even where it fits the
// last-level cache, and a fresh block of one huge page or more, whose
// first writes fault it in, takes one fault per 2 MiB instead of 512.
// Label spreading's 40 MB blocks at 10 M edges (10⁶ nodes, 5 classes) fit
// in about 9 % less time with them advised (2.20 to 2.58 s against 2.62
// to 2.83 s, 4 interleaved rounds on a loaded 2-core machine); its 4 MB
// and 12 MB blocks at 1 M edges (10⁵ nodes) fit in about 12 % less time
// advised from 2 MiB than from 8 MiB (BenchmarkSpreadingFitScale/cold,
// 78 to 85 ms against 86 to 101 ms, 3 interleaved rounds, load 1.2 to
// 2.0).
const GatherMinBytes = hugeSize

// GatherPopulateMaxBytes is the largest block that GatherFloat64s faults
// in at once. Below it one system call costs less than the faults of the
// block's first writes; above it the one thread that faults the whole
// block in takes longer than the workers' first writes, which spread the
// faults over them (on this kind of virtual machine a fresh huge page can
// cost far more than zeroing it): on the planted-partition graph of 10 M
// edges (a 40 MB and a 120 MB block) `gssl labelprop` fitted in a median
// 0.88 s with those blocks faulted in by their first writes against 1.06
// s with them faulted in at allocation (10 interleaved runs, load 1.7 to
// 2.8; in the first, the graph's SELL copy also in 4 KiB pages), while at
// 1 M edges (4 MB and 12 MB) fits took a median 0.065 s with them faulted
// in at allocation against 0.078 s before (30 interleaved runs).
const GatherPopulateMaxBytes = 32 << 20

// GatherFloat64s is Float64s for a block that products gather from at
// random, advised from GatherMinBytes instead of MinBytes and, below
// GatherPopulateMaxBytes, faulted in at once (MADV_POPULATE_WRITE, Linux
// 5.14; a no-op elsewhere): the whole block in one system call rather than
// a fault per page at its first write, huge pages for its aligned part and
// 4 KiB pages for the rest.
func GatherFloat64s(n int) []float64 {
	s := make([]float64, n)
	if 8*n >= GatherMinBytes {
		advise(alignedPart(bytesOf(s)))
		if 8*n < GatherPopulateMaxBytes {
			populate(pagePart(bytesOf(s)))
		}
	}
	return s
}

// Float32s is Float64s for float32.
func Float32s(n int) []float32 {
	s := make([]float32, n)
	if 4*n >= MinBytes {
		advise(alignedPart(bytesOf(s)))
	}
	return s
}

// Slice is Float64s for any element type: a zeroed slice of n T, advised
// for huge pages when it holds at least MinBytes (tables read at random,
// such as a generator's sampling tables or a builder's row cursors).
func Slice[T any](n int) []T {
	s := make([]T, n)
	if b := bytesOf(s); len(b) >= MinBytes {
		advise(alignedPart(b))
	}
	return s
}

// hugeSize is the size of a transparent huge page on x86-64 and arm64 with
// 4 KiB base pages.
const hugeSize = 2 << 20

// pageSize is the base page size on x86-64 and (mostly) arm64; the advice
// only needs its part aligned to a multiple of the true page size.
const pageSize = 4 << 10

// alignedRange returns the largest [lo, hi) inside [start, start+size) with
// lo and hi multiples of hugeSize, or 0, 0 when there is none.
func alignedRange(start, size uintptr) (lo, hi uintptr) {
	return alignedTo(start, size, hugeSize)
}

// alignedTo returns the largest [lo, hi) inside [start, start+size) with lo
// and hi multiples of align (a power of two), or 0, 0 when there is none.
func alignedTo(start, size, align uintptr) (lo, hi uintptr) {
	lo = (start + align - 1) &^ (align - 1)
	hi = (start + size) &^ (align - 1)
	if hi <= lo {
		return 0, 0
	}
	return lo, hi
}
