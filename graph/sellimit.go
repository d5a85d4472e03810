package graph

import "sync/atomic"

// DefaultSlicedLimit is the default of SetSlicedLimit: graphs whose SELL-4-σ
// copy would hold more than 512 MiB (about 130 million stored entries of a
// 0/1 graph, 43 million of a weighted one) are multiplied by the CSR kernels
// only, so that the copy never more than doubles a graph that is already
// large. Below it the copy costs at most this much and runs the AVX2 kernels
// (BenchmarkSliced).
const DefaultSlicedLimit int64 = 512 << 20

// slicedLimit is the current limit of SetSlicedLimit, in bytes.
var slicedLimit atomic.Int64

func init() { slicedLimit.Store(DefaultSlicedLimit) }

// SetSlicedLimit sets the largest SELL-4-σ copy, in bytes (as SlicedEstimate
// counts them), that products may build, and returns the previous limit. A
// limit of 0 or less means the copy is never built and every product runs
// the CSR kernels; DefaultSlicedLimit is the default. A copy that is already
// built is used whatever the limit (its memory is already held; drop the
// graph to release it).
//
// The limit changes memory and speed only: every product is bitwise the same
// with or without the copy. It is safe for concurrent use, and applies to
// every graph of the process, like debug.SetGCPercent.
func SetSlicedLimit(bytes int64) int64 { return slicedLimit.Swap(bytes) }

// SlicedLimit returns the limit set by SetSlicedLimit.
func SlicedLimit() int64 { return slicedLimit.Load() }

// SlicedEstimate returns the bytes a SELL-4-σ copy of g holds before its
// padding: 4 per stored entry (12 when the graph has weights) plus 8 per node
// (the row and length of each slot) plus 8 per chunk of 4 rows. The padding
// adds a few per cent (3.3 % on PubMed); SlicedBytes gives the exact size of
// a built copy.
func (g *CSR) SlicedEstimate() int64 {
	per := int64(4)
	if !g.unitWeights {
		per = 12
	}
	chunks := int64(g.n+sellC-1) / sellC
	return per*int64(len(g.indices)) + 8*chunks*sellC + 8*(chunks+1)
}

// useSliced reports whether products of g run from the SELL-4-σ copy: on CPUs
// with the AVX2 kernels, for graphs of at least minSlicedWork stored entries
// whose copy is built or within the limit of SetSlicedLimit.
func (g *CSR) useSliced() bool {
	if !hasSellAVX2 || len(g.indices) < minSlicedWork {
		return false
	}
	return g.sell.Load() != nil || g.SlicedEstimate() <= slicedLimit.Load()
}

// SlicedCost returns the bytes that the next product of g with a vector or
// a block of at most 8 columns allocates for the SELL-4-σ copy:
// SlicedEstimate when it would build the copy now, 0 when the copy is built,
// would exceed SlicedLimit, or the CPU has no AVX2 kernels (or the graph is
// too small for them). Memory formulas (labelprop's MemoryBytes) add it.
func (g *CSR) SlicedCost() int64 {
	if g.sell.Load() != nil || !g.useSliced() {
		return 0
	}
	return g.SlicedEstimate()
}
