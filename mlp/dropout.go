package mlp

import (
	"math"
	"math/rand/v2"
)

// DropoutMask fills data with an inverted-dropout mask of drop probability
// q in [0, 1): each entry is 0 with probability q̃ and 1/(1 − q̃) otherwise,
// where q̃ is q rounded to a multiple of 2⁻¹⁶ (at most 1 − 2⁻¹⁶), so that
// every entry's expectation is exactly 1. Each 64-bit draw of src decides
// four entries, by its four 16-bit quarters from the lowest: an entry is
// kept when its quarter is ≥ q̃·2¹⁶. The entries are written without a
// branch on the draw (a mask is half zeros at q = 0.5, where a branch
// would be mispredicted every other entry); the masks of the nets of
// package nodeclass are drawn by it too.
func DropoutMask(data []float64, src rand.Source, q float64) {
	t := min(uint64(math.Round(q*(1<<16))), 1<<16-1)
	keep := 1 / (1 - float64(t)/(1<<16))
	i := 0
	for ; i+4 <= len(data); i += 4 {
		u := src.Uint64()
		d := data[i : i+4 : i+4]
		d[0] = keep * kept(u, t)
		d[1] = keep * kept(u>>16, t)
		d[2] = keep * kept(u>>32, t)
		d[3] = keep * kept(u>>48, t)
	}
	if i < len(data) {
		u := src.Uint64()
		for ; i < len(data); i++ {
			data[i] = keep * kept(u, t)
			u >>= 16
		}
	}
}

// kept is 1 when the low 16 bits of u are ≥ t, else 0: u&0xffff − t
// borrows, setting the top bit, exactly when they are below t.
func kept(u, t uint64) float64 {
	return float64(int64(1 ^ (u&0xffff-t)>>63))
}
