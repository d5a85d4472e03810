//go:build !amd64

package sgemm

// HasAVX2 is false off amd64: the portable Go kernels run.
const HasAVX2 = false

// Kernel sets the MR×NR tile c[i*NR+j] = Σ_{t<k} a[t*MR+i]·b[t*NR+j] from
// one packed panel of each operand (Panels.Panel).
func Kernel(k int, a, b, c []float32) { KernelGo(k, a, b, c) }

// SqDist16 returns Σ_t (a_t − b_t)² in float32 for vectors whose length is
// a multiple of 16 (zero-padded points); it panics otherwise.
func SqDist16(a, b []float32) float32 {
	if len(a)%16 != 0 {
		panic("sgemm: SqDist16: length is not a multiple of 16")
	}
	return SqDistGo(a, b)
}
