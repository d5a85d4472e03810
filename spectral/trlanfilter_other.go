//go:build !amd64

package spectral

func chebPassAVX2(n int, nx, lc, cc, pc, ru, rc *float64, k *[3]float64) {
	panic("spectral: no AVX2")
}
