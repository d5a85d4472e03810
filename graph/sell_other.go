//go:build !amd64

package graph

// chunkSums is chunkSumsGo on CPUs without an assembly kernel.
func (s *sliced) chunkSums(sums []float64, x, right []float64, lo, hi int) {
	s.chunkSumsGo(sums, x, right, lo, hi)
}

// hasSellAVX2 is false: without the assembly kernel the CSR kernel is used.
const hasSellAVX2 = false

// mulBlockAt is never called without the assembly kernels (hasSellAVX2 is false).
func (s *sliced) mulBlockAt(dst []float64, ds, first int, x []float64, xs, c int, sc Scaling, lo, hi int) {
	panic("graph: SELL block product without AVX2")
}

// mulBlock is never called without the assembly kernels (hasSellAVX2 is false).
func (s *sliced) mulBlock(dst []float64, ds int, x []float64, xs, c int, sc Scaling, lo, hi int) {
	panic("graph: SELL block product without AVX2")
}

// mulBlockFunc is never called without the assembly kernels (hasSellAVX2 is false).
func (s *sliced) mulBlockFunc(x []float64, xs, c int, lo, hi int, sums *[sellBlockBatch * sellC * 8]float64, fn func(rows []int32, sums []float64)) {
	panic("graph: SELL block product without AVX2")
}
