//go:build !amd64

package knngraph

// sqDistU8Below returns Σ_t (a_t − b_t)² exactly for byte vectors of equal
// length, or a partial sum ≥ bound once one reaches bound at a check
// (u8FirstCheck, u8CheckEvery).
func sqDistU8Below(a, b []uint8, bound uint32) uint32 { return sqDistU8BelowGo(a, b, bound) }

// sqDistU8Dot returns sqDistU8Below(a, b, bound); the tables are not read.
func sqDistU8Dot(a, b, _, _ []uint8, bound uint32) uint32 { return sqDistU8Below(a, b, bound) }

// hasU8VNNI and hasU8AVX2 are false off amd64 (the tests read them).
var hasU8VNNI, hasU8AVX2 = false, false

// dotU8I16 returns Σ_t x_t·w_t exactly for a sum that fits an int32.
func dotU8I16(x []uint8, w []int16) int32 { return dotU8I16Go(x, w) }

// prefetchLines does nothing here.
func prefetchLines(*uint8, int) {}
