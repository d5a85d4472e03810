package spectral

import "testing"

// TestPortableKernels runs the bitwise tests of the AVX2 kernels' callers
// with the kernels off: the portable paths (scanBlockGo, the plain cluster
// sums, the seeding distances and filter passes in Go) give the same bits.
func TestPortableKernels(t *testing.T) {
	defer func(v bool) { hasAVX2 = v }(hasAVX2)
	hasAVX2 = false
	t.Run("lloyd", TestLloydBoundsBitwise)
	t.Run("scan", TestScanRowAgainstBruteForce)
	t.Run("cheb", TestChebPassBitwise)
	t.Run("scaleRX", TestScaleRXBitwise)
}
