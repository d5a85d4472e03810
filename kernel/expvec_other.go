//go:build !amd64

package kernel

func expDivAVX512(x *float64, n int, den float64, c *[expVecConsts]float64) {
	panic("kernel: expDivAVX512 without amd64")
}

func sqDistsAVX512(out, cn *float64, n int, xn, cancel float64) int {
	panic("kernel: sqDistsAVX512 without amd64")
}
