//go:build !amd64

package graph

// chunkSums is chunkSumsGo on CPUs without an assembly kernel.
func (s *sliced) chunkSums(sums []float64, x, right []float64, lo, hi int) {
	s.chunkSumsGo(sums, x, right, lo, hi)
}

// hasSellAVX2 is false: without the assembly kernel the CSR kernel is used.
const hasSellAVX2 = false
