package knngraph

// The byte kernels check a partial sum against the bound after the first
// u8FirstCheck bytes and then after every further u8CheckEvery: the bytes
// are stored by decreasing variance, so the first check stops most of the
// pairs that can stop, and later ones are spaced so that the horizontal sum
// of a check costs little against the bytes between checks.
const (
	u8FirstCheck = 64
	u8CheckEvery = 128
)

// sqDistU8BelowGo is the portable sqDistU8Below, with the same checks as
// the assembly kernels.
func sqDistU8BelowGo(a, b []uint8, bound uint32) uint32 {
	var sum uint32
	lo, hi := 0, u8FirstCheck
	for lo < len(a) {
		hi = min(hi, len(a))
		sum += sqDistU8Go(a[lo:hi], b[lo:hi])
		if sum >= bound {
			return sum
		}
		lo, hi = hi, hi+u8CheckEvery
	}
	return sum
}

// sqDistU8Go is Σ_t (a_t − b_t)² in portable Go.
func sqDistU8Go(a, b []uint8) uint32 {
	b = b[:len(a)]
	var s0, s1 uint32
	t := 0
	for ; t+2 <= len(a); t += 2 {
		d0 := int32(a[t]) - int32(b[t])
		d1 := int32(a[t+1]) - int32(b[t+1])
		s0 += uint32(d0 * d0)
		s1 += uint32(d1 * d1)
	}
	if t < len(a) {
		d := int32(a[t]) - int32(b[t])
		s0 += uint32(d * d)
	}
	return s0 + s1
}
