//go:build !amd64

package kernel

func expDivAVX512(x *float64, n int, den float64, c *[expVecConsts]float64) {
	panic("kernel: expDivAVX512 without amd64")
}
