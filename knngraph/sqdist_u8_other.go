//go:build !amd64

package knngraph

// sqDistU8 returns Σ_t (a_t − b_t)² exactly for byte vectors of equal
// length.
func sqDistU8(a, b []uint8) uint32 { return sqDistU8Go(a, b) }
