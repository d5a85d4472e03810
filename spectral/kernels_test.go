package spectral

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// kernelTol bounds the difference between the packed AVX2 kernels and
// gonum's Dgemm relative to Σ|a_t b_t| ≤ depth·max|a|·max|b|: both are
// dot products of at most a few thousand terms accumulated in different
// orders, so they differ by a few γ_depth ≈ depth·1.1e-16.
const kernelTol = 1e-13

func randDense(rng *rand.Rand, r, c int) *mat.Dense {
	d := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d.Set(i, j, rng.NormFloat64())
		}
	}
	return d
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// TestDenseKernelsAgainstDgemm checks gramT, subMul and rotate against
// gonum's mat.Mul (Dgemm) on shapes that cross the chunk and panel sizes,
// on column ranges in the middle of a wider matrix.
func TestDenseKernelsAgainstDgemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 7, reduceRows, reduceRows + 1, 3*reduceRows + 5} {
		for _, p := range []int{1, 5, 13, 40} {
			for _, b := range []int{1, 4, 7, 9} {
				name := fmt.Sprintf("n=%d/p=%d/b=%d", n, p, b)
				cols := p + b + 3
				c0 := 2
				v := randDense(rng, n, cols)
				w := randDense(rng, n, b)
				vs := v.Slice(0, n, c0, c0+p)
				scale := float64(max(n, p, 1)) * kernelTol

				// gramT: c = Wᵀ V[:, c0:c0+p]
				c := make([]float64, b*p)
				for i := range c {
					c[i] = math.NaN() // must be overwritten
				}
				gramT(c, v, c0, p, w)
				if p > 0 {
					var want mat.Dense
					want.Mul(w.T(), vs)
					if d := maxAbsDiff(mat.NewDense(b, p, c), &want); d > scale {
						t.Fatalf("%s gramT: max difference %g > %g", name, d, scale)
					}
				}

				// subMul: W − V[:, c0:c0+p]·cᵀ
				for i := range c {
					c[i] = rng.NormFloat64()
				}
				want := mat.DenseCopyOf(w)
				if p > 0 {
					var vc mat.Dense
					vc.Mul(vs, mat.NewDense(b, p, c).T())
					want.Sub(want, &vc)
				}
				subMul(w, v, c0, p, c)
				if d := maxAbsDiff(w, want); d > scale {
					t.Fatalf("%s subMul: max difference %g > %g", name, d, scale)
				}

				// rotate: V[:, dst:dst+q] = V[:, c0:c0+p]·S in place,
				// overlapping the source.
				q := b
				s := randDense(rng, p, q)
				var rot mat.Dense
				if p > 0 {
					rot.Mul(vs, s)
				} else {
					rot = *mat.NewDense(n, q, nil)
				}
				rest := mat.DenseCopyOf(v)
				rotate(v, c0, p, s.RawMatrix().Data, q, c0+1)
				if d := maxAbsDiff(v.Slice(0, n, c0+1, c0+1+q), &rot); d > scale {
					t.Fatalf("%s rotate: max difference %g > %g", name, d, scale)
				}
				// the other columns are untouched
				for i := 0; i < n; i++ {
					for j := 0; j < cols; j++ {
						if (j < c0+1 || j >= c0+1+q) && v.At(i, j) != rest.At(i, j) {
							t.Fatalf("%s rotate changed V[%d,%d] outside the destination", name, i, j)
						}
					}
				}
			}
		}
	}
}
