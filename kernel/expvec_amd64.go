package kernel

//go:noescape
func expDivAVX512(x *float64, n int, den float64, c *[expVecConsts]float64)
