package knngraph

import (
	"math"
	"math/rand/v2"
	"testing"
)

// kernelTol bounds the float32 rounding difference between the assembly and
// the portable kernels relative to Σ|a_t b_t| (summation orders differ; k ≤ 100
// terms at unit roundoff 6e-8 stay far below 1e-5).
const kernelTol = 1e-5

func TestKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 2, 3, 17, 100} {
		a := make([]float32, panelRows*k)
		b := make([]float32, panelCols*k)
		for i := range a {
			a[i] = float32(rng.NormFloat64())
		}
		for i := range b {
			b[i] = float32(rng.NormFloat64())
		}
		got := make([]float32, panelRows*panelCols)
		want := make([]float32, panelRows*panelCols)
		sgemm6x16(k, a, b, got)
		for i := 0; i < panelRows; i++ {
			for j := 0; j < panelCols; j++ {
				var s, abs float64
				for t := 0; t < k; t++ {
					p := float64(a[t*panelRows+i]) * float64(b[t*panelCols+j])
					s += p
					abs += math.Abs(p)
				}
				want[i*panelCols+j] = float32(s)
				if d := math.Abs(float64(got[i*panelCols+j]) - s); d > kernelTol*abs {
					t.Fatalf("k=%d tile (%d,%d): kernel %v, float64 reference %v", k, i, j, got[i*panelCols+j], s)
				}
			}
		}
		sgemm6x16Go(k, a, b, got)
		for i := range got {
			if d := math.Abs(float64(got[i] - want[i])); d > kernelTol*float64(k) {
				t.Fatalf("k=%d portable kernel entry %d: %v, reference %v", k, i, got[i], want[i])
			}
		}
	}
	for _, n := range []int{16, 32, 48, 784, 800} {
		a := make([]float32, n)
		b := make([]float32, n)
		var s float64
		for i := range a {
			a[i], b[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
			d := float64(a[i]) - float64(b[i])
			s += d * d
		}
		for _, got := range []float32{sqdist16(a, b), sqdistGo(a, b)} {
			if math.Abs(float64(got)-s) > kernelTol*s {
				t.Fatalf("n=%d squared distance %v, reference %v", n, got, s)
			}
		}
	}
}
