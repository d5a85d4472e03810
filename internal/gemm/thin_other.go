//go:build !amd64

package gemm

func dot4AVX2(n int, v0, v1, v2, v3, w, acc *float64) { panic("gemm: no AVX2") }

func subMul4AVX2(n int, v0, v1, v2, v3, w *float64, c *[4]float64) { panic("gemm: no AVX2") }

func dot4x2AVX2(n int, v0, v1, v2, v3, a, b, acc *float64) { panic("gemm: no AVX2") }

func subMul4x2AVX2(n int, v0, v1, v2, v3, a, b *float64, ca, cb *[4]float64) {
	panic("gemm: no AVX2")
}
