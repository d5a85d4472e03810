//go:build !amd64

package spectral

const hasAVX2 = false

func scanBlockAVX2(d int, xi, p *float64) (int, float64, float64) { panic("spectral: no AVX2") }

func sqDistsAVX2(n, d int, xt *float64, ld int, c, out *float64) { panic("spectral: no AVX2") }

func sumRowsAVX2(n int, x *float64, stride int, labels *int, acc *float64, counts *int) {
	panic("spectral: no AVX2")
}
