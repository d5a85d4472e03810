//go:build !amd64

package spectral

func chebPassAVX2(n int, nx, lc, cc, pc, ru, rc *float64, k *[3]float64) {
	panic("spectral: no AVX2")
}

func scaleRXAVX2(n int, u, r, rx *float64, inv float64, scale int) { panic("spectral: no AVX2") }
