package sgemm

// Tile sizes of the micro-kernel: a tile is MR rows of A against NR rows of
// B (MR×NR dot products in 12 AVX2 registers).
const (
	MR = 6
	NR = 16
)

// KernelGo is the portable micro-kernel: c[i*NR+j] = Σ_t a[t*MR+i]·b[t*NR+j],
// each sum accumulated in order of t, as the assembly kernel does.
func KernelGo(k int, a, b, c []float32) {
	var acc [MR * NR]float32
	for t := 0; t < k; t++ {
		at := a[t*MR : t*MR+MR]
		bt := b[t*NR : t*NR+NR]
		for i, ai := range at {
			row := acc[i*NR : i*NR+NR]
			for j, bj := range bt {
				row[j] += ai * bj
			}
		}
	}
	copy(c[:MR*NR], acc[:])
}

// SqDistGo is the portable squared distance Σ_t (a_t − b_t)² in float32,
// summed in four interleaved partial sums (t mod 4) combined as
// (s0 + s1) + (s2 + s3).
func SqDistGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	t := 0
	for ; t+4 <= len(a); t += 4 {
		d0, d1, d2, d3 := a[t]-b[t], a[t+1]-b[t+1], a[t+2]-b[t+2], a[t+3]-b[t+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; t < len(a); t++ {
		d := a[t] - b[t]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}
