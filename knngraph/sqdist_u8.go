package knngraph

import (
	"encoding/binary"
	"math"
)

// The byte kernels check a partial sum against the bound after the first
// u8FirstCheck bytes and then after every further u8CheckEvery (multiples
// of 64, the bytes of one step of the kernels). A check (a horizontal sum
// and a branch) costs about as much as 64 to 128 bytes, and the pairs that
// stop stop late: in the joins of NN-descent on the MNIST benchmark
// (bench/knn-side.py; bytes by decreasing variance), 25 % of the distances
// are below the bound and most of the others reach it between bytes 128 and
// 448, under 0.1 % in the first 64. Against a count of the bytes read plus
// 2 to 4 steps per check, checks at 256, 448, 640, … cost 15–25 % less than
// at 64, 192, 320, ….
const (
	u8FirstCheck = 256
	u8CheckEvery = 192
)

// The dot-product kernel (sqDistU8DotKernel) checks after dotFirstCheck
// bytes and then after every further dotCheckEvery: 64 of its bytes take one
// instruction, so a check (a horizontal sum, a branch often mispredicted)
// costs more than the bytes it may save: on the MNIST benchmark
// (bench/knn-side.py's 20 000 images) ApproximateBytes took about a tenth
// less CPU time with checks every 512 or 640 bytes, or only at the end, than
// at 256, 448, 640, ….
const (
	dotFirstCheck = 512
	dotCheckEvery = 512
)

// u8Checks returns the ends of the sums that the dot-product kernel checks
// in vectors of n bytes: dotFirstCheck, then every dotCheckEvery further
// while below n, and n.
func u8Checks(n int) []int {
	var c []int
	for e := dotFirstCheck; e < n; e += dotCheckEvery {
		c = append(c, e)
	}
	return append(c, n)
}

// u8Tables writes the tables of x that sqDistU8Dot reads to t, which holds
// 8 bytes per check of u8Checks(len(x)): first U(c) = Σ_{t<c} x_t² −
// 256·Σ_{t<c} x_t at every check c, then V(c) = Σ_{t<c} x_t², as
// little-endian int32s (|U| ≤ 128²·c and V ≤ 255²·c fit for c ≤ 2¹⁵). Both
// are squared distances summed by the byte kernels: V from 0 and, as
// (x − 128)² = x² − 256x + 128², U = Σ_{t<c} (x_t − 128)² − 128²·c.
func u8Tables(t, x []uint8) {
	checks := u8Checks(len(x))
	k := len(checks)
	var sq, dev int64 // Σ x², Σ (x − 128)²
	lo := 0
	for j, c := range checks {
		sq += int64(sqDistU8Below(x[lo:c], zeroRow[lo:c], math.MaxUint32))
		dev += int64(sqDistU8Below(x[lo:c], midRow[lo:c], math.MaxUint32))
		lo = c
		binary.LittleEndian.PutUint32(t[4*j:], uint32(int32(dev-128*128*int64(c))))
		binary.LittleEndian.PutUint32(t[4*(k+j):], uint32(sq))
	}
}

// zeroRow and midRow are rows of 0s and of 128s for u8Tables; they are only
// read.
var zeroRow, midRow = [maxByteDim]uint8{}, func() (r [maxByteDim]uint8) {
	for i := range r {
		r[i] = 128
	}
	return r
}()

// sqDistU8BelowGo is the portable sqDistU8Below, with the same checks as
// the assembly kernels.
func sqDistU8BelowGo(a, b []uint8, bound uint32) uint32 {
	return sqDistU8BelowAt(a, b, bound, u8FirstCheck, u8CheckEvery)
}

// sqDistU8BelowAt is Σ_t (a_t − b_t)², or a partial sum ≥ bound at a check
// after first bytes or every further every.
func sqDistU8BelowAt(a, b []uint8, bound uint32, first, every int) uint32 {
	var sum uint32
	lo, hi := 0, first
	for lo < len(a) {
		hi = min(hi, len(a))
		sum += sqDistU8Go(a[lo:hi], b[lo:hi])
		if sum >= bound {
			return sum
		}
		lo, hi = hi, hi+every
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

// dotU8I16Go is the portable dotU8I16.
func dotU8I16Go(x []uint8, w []int16) int32 {
	w = w[:len(x)]
	var s int32
	for t, v := range x {
		s += int32(v) * int32(w[t])
	}
	return s
}
