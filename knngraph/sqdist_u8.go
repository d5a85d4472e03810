package knngraph

// sqDistU8Go is the portable sqDistU8.
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
