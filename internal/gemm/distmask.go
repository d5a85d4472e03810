package gemm

import "fmt"

// DistMask32 turns a tile of dot products into squared distances and marks
// the entries below two thresholds: for i < MR and j < NR32 it sets
//
//	c[i*NR32+j] = (an[i] + bn[j]) − 2·c[i*NR32+j]
//
// in float32 (an and bn are squared norms of the tile's rows and columns,
// c a tile of Kernel32) and bit j of mask[i] when the new value is ≤ rthr[i]
// or ≤ cthr[j]. NaN marks nothing. A k-nearest-neighbour search uses the
// mask to look only at the entries that can enter a row's or a column's
// candidate list; each value is the one the expression above gives in Go,
// operation by operation, on either kernel. It panics if a slice is too
// short.
func DistMask32(c, an, bn, rthr, cthr []float32, mask *[MR]uint16) {
	if len(c) < MR*NR32 || len(an) < MR || len(bn) < NR32 || len(rthr) < MR || len(cthr) < NR32 {
		panic(fmt.Sprintf("gemm: DistMask32 with slices of length %d, %d, %d, %d, %d: want %d, %d, %d, %d, %d",
			len(c), len(an), len(bn), len(rthr), len(cthr), MR*NR32, MR, NR32, MR, NR32))
	}
	if HasAVX2 {
		distMask32AVX2(&c[0], &an[0], &bn[0], &rthr[0], &cthr[0], &mask[0])
		return
	}
	DistMask32Go(c, an, bn, rthr, cthr, mask)
}

// DistMask32Go is the portable DistMask32.
func DistMask32Go(c, an, bn, rthr, cthr []float32, mask *[MR]uint16) {
	for i := 0; i < MR; i++ {
		var mk uint16
		row := c[i*NR32 : (i+1)*NR32]
		for j, v := range row {
			d := an[i] + bn[j] - 2*v
			row[j] = d
			if d <= rthr[i] || d <= cthr[j] {
				mk |= 1 << j
			}
		}
		mask[i] = mk
	}
}
