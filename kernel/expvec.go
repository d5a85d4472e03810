package kernel

import (
	"math"

	"github.com/gssl/gssl/internal/gemm"
)

// hasExpVec reports whether expDiv runs the AVX-512 kernel (a variable so
// that tests reach the scalar path too).
var hasExpVec = gemm.HasAVX512

// expVecConsts is the length of expVecTable.
const expVecConsts = 19

// expVecTable holds the constants of expDivAVX512: log2 e, ln2 split in a
// high part of 32 significant bits and the rest, the clamps of the argument
// (beyond them e^x is 0 or +Inf in float64 anyway) and the Taylor
// coefficients 1/13!, 1/12!, …, 1/1!, 1/0!.
var expVecTable = func() (t [expVecConsts]float64) {
	t[0] = math.Log2E
	t[1] = 6.93147180369123816490e-01
	t[2] = 1.90821492927058770002e-10
	t[3] = -1000
	t[4] = 1000
	f := 1.0
	for i := 1; i <= 13; i++ {
		f *= float64(i)
	}
	for i := 13; i >= 0; i-- {
		t[5+13-i] = 1 / f
		f /= float64(max(i, 1))
	}
	return t
}()

// expDiv sets x[i] = e^(x[i]/den). With AVX-512 the whole slice goes
// through expDivAVX512 (the last n mod 8 values padded to eight lanes), whose
// relative error is within expULP ulp like exp's; otherwise exp runs on
// each value.
func expDiv(x []float64, den float64) {
	if !hasExpVec {
		for i, v := range x {
			x[i] = exp(v / den)
		}
		return
	}
	full := len(x) &^ 7
	if full > 0 {
		expDivAVX512(&x[0], full, den, &expVecTable)
	}
	if rest := x[full:]; len(rest) > 0 {
		var pad [8]float64
		copy(pad[:], rest)
		expDivAVX512(&pad[0], 8, den, &expVecTable)
		copy(rest, pad[:])
	}
}
