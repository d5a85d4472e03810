package gemm

// Kernel64Strided is Kernel64 with the 6-row panel of a read in place from
// a column-major matrix: c[i*NR64+j] = Σ_{t<k} a[t*lda+i]·b[t*NR64+j]. It
// panics if lda < MR or a, b or c is too short.
func Kernel64Strided(k int, a []float64, lda int, b, c []float64) {
	if lda < MR {
		panic("gemm: Kernel64Strided: lda < MR")
	}
	if k <= 0 {
		clear(c[:MR*NR64])
		return
	}
	_ = a[(k-1)*lda+MR-1]
	_ = b[NR64*k-1]
	_ = c[MR*NR64-1]
	if HasAVX2 {
		kernel64StridedAVX2(k, &a[0], lda, &b[0], &c[0])
		return
	}
	kernel64StridedGo(k, a, lda, b, c)
}

// kernel64StridedGo is the portable Kernel64Strided, summing over t in
// order like kernelGo.
func kernel64StridedGo(k int, a []float64, lda int, b, c []float64) {
	var acc [MR * NR64]float64
	for t := 0; t < k; t++ {
		at := a[t*lda : t*lda+MR]
		bt := b[t*NR64 : t*NR64+NR64]
		for i, ai := range at {
			row := acc[i*NR64 : i*NR64+NR64]
			for j, bj := range bt {
				row[j] += ai * bj
			}
		}
	}
	copy(c[:MR*NR64], acc[:])
}
