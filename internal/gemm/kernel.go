package gemm

// Tile sizes of the micro-kernels: a tile is MR rows of A against NR32
// (float32) or NR64 (float64) rows of B, held in twelve 256-bit registers.
const (
	MR   = 6
	NR32 = 16
	NR64 = 8
)

// Float is the element type of packed panels.
type Float interface{ float32 | float64 }

// NR returns the tile width of B for element type T: NR32 or NR64.
func NR[T Float]() int {
	var z T
	if _, ok := any(z).(float32); ok {
		return NR32
	}
	return NR64
}

// Kernel32Go is the portable float32 micro-kernel:
// c[i*NR32+j] = Σ_t a[t*MR+i]·b[t*NR32+j], each sum accumulated in order
// of t, as the assembly kernel does.
func Kernel32Go(k int, a, b, c []float32) { kernelGo(k, NR32, a, b, c) }

// Kernel64Go is the portable float64 micro-kernel:
// c[i*NR64+j] = Σ_t a[t*MR+i]·b[t*NR64+j].
func Kernel64Go(k int, a, b, c []float64) { kernelGo(k, NR64, a, b, c) }

func kernelGo[T Float](k, nr int, a, b, c []T) {
	var acc [MR * NR32]T
	for t := 0; t < k; t++ {
		at := a[t*MR : t*MR+MR]
		bt := b[t*nr : t*nr+nr]
		for i, ai := range at {
			row := acc[i*nr : i*nr+nr]
			for j, bj := range bt {
				row[j] += ai * bj
			}
		}
	}
	copy(c[:MR*nr], acc[:MR*nr])
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
