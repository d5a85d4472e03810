package kernel

//go:noescape
func expDivAVX512(x *float64, n int, den float64, c *[expVecConsts]float64)

//go:noescape
func sqDistsAVX512(out, cn *float64, n int, xn, cancel float64) int
