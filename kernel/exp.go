package kernel

import "math"

// expN is the number of entries of expTable: exp(x) = 2^k · 2^(j/expN) ·
// exp(r) with |r| ≤ ln2/(2·expN).
const expN = 64

// expTable holds 2^(j/expN), j < expN.
var expTable = func() (t [expN]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / expN)
	}
	return t
}()

// Cody–Waite split of ln2/expN: the high part has 32 significant bits, so
// its product with an integer below 2²¹ is exact.
const (
	ln2HiN = 6.93147180369123816490e-01 / expN
	ln2LoN = 1.90821492927058770002e-10 / expN
)

// exp returns e^x within 2 ulp of the exact value (math.Exp's own bound is
// 1 ulp), about three times faster than math.Exp: a table of 2^(j/64) and a
// degree-5 Taylor polynomial on |r| ≤ ln2/128, whose truncation error
// r⁶/720 < 4e-17 is below half an ulp. Outside (−708, 709), where the
// result is subnormal or overflows, and for NaN it defers to math.Exp.
func exp(x float64) float64 {
	if !(x > -708 && x < 709) {
		return math.Exp(x)
	}
	const shift = 0x1.8p52 // adding it rounds to an integer
	kn := x*(expN/math.Ln2) + shift - shift
	m := int64(kn)
	r := x - kn*ln2HiN - kn*ln2LoN
	p := r + r*r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120))))
	t := expTable[m&(expN-1)]
	scale := math.Float64frombits(uint64(m>>6+1023) << 52) // 2^k, k ≥ −1022 here
	return scale * (t + t*p)
}
