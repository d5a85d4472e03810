package krylov

import "github.com/gssl/gssl/internal/parallel"

// RowChunk is the number of rows per task of the fused row passes
// (RowPasses, and so Chebyshev). It is fixed, not derived from the core
// count, so that column sums reduced chunk by chunk are the same on every
// machine and for every worker count.
const RowChunk = 2048

// ParallelWork is the work, in stored entries of a graph plus entries of an
// n×c block, below which RowPasses runs on the calling goroutine: smaller
// passes do not gain from a second core, whose hand-offs cost tens of µs a
// pass on a shared 2-vCPU machine. Cora (about 29 500) and, since
// 2026-12-04, actor (about 91 000) and squirrel_filtered (about 105 000) run
// serially, PubMed (about 148 000) in parallel: at 1 << 16 the gssl
// command's label spreading fit (a = 0.9, Chebyshev) took about 1.2× as long
// on actor and 1.4× on squirrel_filtered (medians of interleaved runs).
const ParallelWork = 1 << 17

// RowPasses runs passes over the rows of an n×c problem in fixed chunks of
// RowChunk rows, in parallel when the problem is large enough, each chunk
// adding its partial column sums into a row of its own; the partials are
// reduced in chunk order, so the sums are the same for any number of
// goroutines.
type RowPasses struct {
	n, c   int
	part   []float64 // per-chunk partial column sums, one padded row per chunk
	stride int       // entries per chunk in part (c rounded up to a cache line)
	// Serial runs the passes on the calling goroutine.
	Serial bool
}

// NewRowPasses prepares passes over n rows with c column sums; they run on
// the calling goroutine (Serial) when work (stored entries plus block
// entries) is below ParallelWork or only one worker is available.
func NewRowPasses(n, c, work int) *RowPasses {
	stride := (c + 7) / 8 * 8
	return &RowPasses{n: n, c: c, stride: stride,
		part:   make([]float64, parallel.NumChunks(n, RowChunk)*stride),
		Serial: parallel.Workers() == 1 || work < ParallelWork}
}

// Run calls body(k, lo, hi, acc) for every chunk k of rows [lo, hi), with
// acc the chunk's c zeroed partial sums, and returns in dst (when not nil)
// the column sums of the partials, reduced in chunk order.
func (rp *RowPasses) Run(dst []float64, body func(k, lo, hi int, acc []float64)) []float64 {
	run := func(k, lo, hi int) {
		acc := rp.part[k*rp.stride : k*rp.stride+rp.c]
		clear(acc)
		body(k, lo, hi, acc)
	}
	if rp.Serial {
		for k := 0; k*RowChunk < rp.n; k++ {
			run(k, k*RowChunk, min((k+1)*RowChunk, rp.n))
		}
	} else {
		parallel.Chunks(rp.n, RowChunk, run)
	}
	if dst == nil {
		return nil
	}
	clear(dst)
	for k := 0; k < len(rp.part); k += rp.stride {
		for j := range dst {
			dst[j] += rp.part[k+j]
		}
	}
	return dst
}
