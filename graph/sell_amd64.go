package graph

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// hasSellAVX2 reports whether the AVX2 SELL kernel runs.
var hasSellAVX2 = cpu.X86.HasAVX2

//go:noescape
func sellSumsAVX2(sums, x, right, weights *float64, indices, lens *int32, off *int, chunks, mode int)

// chunkSums is chunkSumsGo, computed by the AVX2 kernel where the CPU has it.
func (s *sliced) chunkSums(sums []float64, x, right []float64, lo, hi int) {
	if !hasSellAVX2 || hi <= lo {
		s.chunkSumsGo(sums, x, right, lo, hi)
		return
	}
	_ = sums[(hi-lo)*sellC-1]
	mode := 0
	if s.weights != nil {
		mode |= 1
	}
	if right != nil {
		mode |= 2
	}
	sellSumsAVX2(&sums[0], unsafe.SliceData(x), unsafe.SliceData(right), unsafe.SliceData(s.weights),
		unsafe.SliceData(s.indices), &s.lens[lo*sellC], &s.off[lo], hi-lo, mode)
}
