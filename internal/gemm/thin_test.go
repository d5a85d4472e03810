package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// thinTol bounds the difference between the kernels and naive float64 loops
// relative to Σ|v·w|: a different summation order (lanes, fused
// multiply-adds) changes the result by a few ulps per term.
const thinTol = 1e-14

func TestDot4AndSubMul4AgainstNaiveLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 1000, 1003} {
		var v [4][]float64
		for i := range v {
			v[i] = make([]float64, n+5) // longer than w: only len(w) counts
			for r := range v[i] {
				v[i][r] = rng.NormFloat64()
			}
		}
		w := make([]float64, n)
		for r := range w {
			w[r] = rng.NormFloat64()
		}
		got := Dot4(v[0], v[1], v[2], v[3], w)
		for i := range v {
			var want, scale float64
			for r := range w {
				want += v[i][r] * w[r]
				scale += math.Abs(v[i][r] * w[r])
			}
			if math.Abs(got[i]-want) > thinTol*(scale+1) {
				t.Fatalf("n=%d Dot4[%d] = %v, naive %v (AVX2 %v)", n, i, got[i], want, HasAVX2)
			}
		}
		c := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		x := append([]float64(nil), w...)
		SubMul4(x, v[0], v[1], v[2], v[3], c)
		for r := range w {
			want := w[r]
			var scale float64
			for i := range v {
				want -= c[i] * v[i][r]
				scale += math.Abs(c[i] * v[i][r])
			}
			if math.Abs(x[r]-want) > thinTol*(scale+math.Abs(w[r])+1) {
				t.Fatalf("n=%d SubMul4 entry %d = %v, naive %v (AVX2 %v)", n, r, x[r], want, HasAVX2)
			}
		}
	}
}

func TestThinKernelsPanicOnShortColumns(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Dot4 with a column shorter than w did not panic")
		}
	}()
	Dot4(make([]float64, 3), make([]float64, 8), make([]float64, 8), make([]float64, 8), make([]float64, 8))
}

func TestDot4x2AndSubMul4x2AgainstNaiveLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 3, 4, 5, 7, 8, 63, 64, 1000, 1003} {
		var v [4][]float64
		for i := range v {
			v[i] = make([]float64, n+5) // longer than a: only len(a) counts
			for r := range v[i] {
				v[i][r] = rng.NormFloat64()
			}
		}
		var x [2][]float64
		for j := range x {
			x[j] = make([]float64, n+3) // b longer than a too
			for r := range x[j] {
				x[j][r] = rng.NormFloat64()
			}
		}
		a, b := x[0][:n], x[1]
		sa, sb := Dot4x2(v[0], v[1], v[2], v[3], a, b)
		for j, got := range [2][4]float64{sa, sb} {
			for i := range v {
				var want, scale float64
				for r := 0; r < n; r++ {
					want += v[i][r] * x[j][r]
					scale += math.Abs(v[i][r] * x[j][r])
				}
				if math.Abs(got[i]-want) > thinTol*(scale+1) {
					t.Fatalf("n=%d Dot4x2 vector %d column %d = %v, naive %v (AVX2 %v)", n, j, i, got[i], want, HasAVX2)
				}
			}
		}
		var c [2][4]float64
		for j := range c {
			for i := range c[j] {
				c[j][i] = rng.NormFloat64()
			}
		}
		ya, yb := append([]float64(nil), a...), append([]float64(nil), b...)
		SubMul4x2(ya, yb, v[0], v[1], v[2], v[3], c[0], c[1])
		for j, y := range [2][]float64{ya, yb} {
			for r := range y {
				want := x[j][r]
				if r >= n {
					if y[r] != want {
						t.Fatalf("n=%d SubMul4x2 changed entry %d of b beyond len(a)", n, r)
					}
					continue
				}
				var scale float64
				for i := range v {
					want -= c[j][i] * v[i][r]
					scale += math.Abs(c[j][i] * v[i][r])
				}
				if math.Abs(y[r]-want) > thinTol*(scale+math.Abs(x[j][r])+1) {
					t.Fatalf("n=%d SubMul4x2 vector %d entry %d = %v, naive %v (AVX2 %v)", n, j, r, y[r], want, HasAVX2)
				}
			}
		}
	}
}

func TestKernel64StridedAgainstNaiveLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{0, 1, 2, 7, 101} {
		for _, lda := range []int{MR, 13, 1000} {
			a := make([]float64, max(k*lda, MR)+3)
			for i := range a {
				a[i] = rng.NormFloat64()
			}
			b := make([]float64, max(k, 1)*NR64)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			c := make([]float64, MR*NR64)
			for i := range c {
				c[i] = math.NaN() // must be overwritten
			}
			Kernel64Strided(k, a, lda, b, c)
			for i := 0; i < MR; i++ {
				for j := 0; j < NR64; j++ {
					var want, scale float64
					for p := 0; p < k; p++ {
						want += a[p*lda+i] * b[p*NR64+j]
						scale += math.Abs(a[p*lda+i] * b[p*NR64+j])
					}
					if math.Abs(c[i*NR64+j]-want) > thinTol*(scale+1) {
						t.Fatalf("k=%d lda=%d c[%d][%d] = %v, naive %v (AVX2 %v)", k, lda, i, j, c[i*NR64+j], want, HasAVX2)
					}
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Kernel64Strided with lda < MR did not panic")
		}
	}()
	Kernel64Strided(1, make([]float64, 8), MR-1, make([]float64, NR64), make([]float64, MR*NR64))
}
