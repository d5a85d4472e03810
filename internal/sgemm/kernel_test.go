package sgemm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kernelTol bounds the float32 rounding difference between the assembly and
// the portable kernels relative to Σ|a_t b_t| (summation orders differ; k ≤ 100
// terms at unit roundoff 6e-8 stay far below 1e-5).
const kernelTol = 1e-5

func TestKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 2, 3, 17, 100} {
		a := make([]float32, MR*k)
		b := make([]float32, NR*k)
		for i := range a {
			a[i] = float32(rng.NormFloat64())
		}
		for i := range b {
			b[i] = float32(rng.NormFloat64())
		}
		got := make([]float32, MR*NR)
		want := make([]float32, MR*NR)
		Kernel(k, a, b, got)
		for i := 0; i < MR; i++ {
			for j := 0; j < NR; j++ {
				var s, abs float64
				for t := 0; t < k; t++ {
					p := float64(a[t*MR+i]) * float64(b[t*NR+j])
					s += p
					abs += math.Abs(p)
				}
				want[i*NR+j] = float32(s)
				if d := math.Abs(float64(got[i*NR+j]) - s); d > kernelTol*abs {
					t.Fatalf("k=%d tile (%d,%d): kernel %v, float64 reference %v", k, i, j, got[i*NR+j], s)
				}
			}
		}
		KernelGo(k, a, b, got)
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
		for _, got := range []float32{SqDist16(a, b), SqDistGo(a, b)} {
			if math.Abs(float64(got)-s) > kernelTol*s {
				t.Fatalf("n=%d squared distance %v, reference %v", n, got, s)
			}
		}
	}
	assert.Panics(t, func() { SqDist16(make([]float32, 15), make([]float32, 15)) })
}

// gamma is Higham's γ_k = k·u/(1 − k·u) for float32, u = 2⁻²⁴: the bound
// on the relative (to Σ|a_t b_t|) error of a length-k dot product summed in
// any order, plus the rounding of the inputs to float32 (2u per product).
func gamma(k int) float64 {
	u := 0x1p-24
	return float64(k+2) * u / (1 - float64(k+2)*u)
}

func TestMulTToAgainstFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// sizes that leave partial panels on both sides, and more than one
	// group of A panels
	for _, sz := range []struct{ m, n, k int }{{1, 1, 1}, {7, 17, 5}, {53, 35, 784}, {100, 16, 33}, {6, 100, 0}} {
		a := make([][]float64, sz.m)
		b := make([][]float64, sz.n)
		shift := make([]float64, sz.k)
		for t := range shift {
			shift[t] = rng.Float64()
		}
		scale := 0.75
		pa := NewPanels(sz.m, sz.k, MR, nil)
		pb := NewPanels(sz.n, sz.k, NR, make([]float32, 3)) // too small: reallocated
		for i := range a {
			a[i] = randRow(rng, sz.k)
			pa.SetRow(i, a[i], shift, scale)
		}
		for j := range b {
			b[j] = randRow(rng, sz.k)
			norm := pb.SetRow(j, b[j], nil, 1)
			var want float64
			for _, v := range b[j] {
				want += float64(float32(v)) * float64(float32(v))
			}
			require.InDelta(t, want, norm, 1e-12*math.Max(1, want))
		}
		ldc := sz.n + 3
		c := make([]float64, sz.m*ldc)
		MulTTo(c, ldc, pa, pb)
		cp := make([]float64, sz.m*ldc)
		ParallelMulTTo(cp, ldc, pa, pb)
		assert.Equal(t, c, cp, "parallel and serial products differ")
		for i := range a {
			for j := range b {
				var s, abs float64
				for t := 0; t < sz.k; t++ {
					p := (a[i][t] - shift[t]) * scale * b[j][t]
					s += p
					abs += math.Abs(p)
				}
				require.LessOrEqual(t, math.Abs(c[i*ldc+j]-s), gamma(sz.k)*abs+1e-300, "%v entry (%d,%d)", sz, i, j)
			}
			for j := sz.n; j < ldc; j++ {
				require.Zero(t, c[i*ldc+j], "beyond the columns of C")
			}
		}
	}
}

func TestPanelsMisuse(t *testing.T) {
	assert.Panics(t, func() { NewPanels(3, 2, 5, nil) })
	p := NewPanels(3, 2, MR, nil)
	assert.Panics(t, func() { p.SetRow(3, []float64{1, 2}, nil, 1) })
	assert.Panics(t, func() { p.SetRow(0, []float64{1}, nil, 1) })
	b := NewPanels(3, 3, NR, nil)
	assert.Panics(t, func() { MulTTo(make([]float64, 9), 3, p, b) }) // K differs
	b = NewPanels(3, 2, NR, nil)
	assert.Panics(t, func() { MulTTo(make([]float64, 8), 3, p, b) }) // C too short
	assert.Panics(t, func() { MulTTo(make([]float64, 9), 3, b, p) }) // widths swapped
}

func randRow(rng *rand.Rand, k int) []float64 {
	r := make([]float64, k)
	for t := range r {
		r[t] = rng.NormFloat64()
	}
	return r
}
