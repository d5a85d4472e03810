package dense

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// linalgTol: the blocked and gonum's unblocked substitutions and Gram
// products add the same terms in other orders; on these well-conditioned
// triangles (diagonal in [1, 2], off-diagonal N(0, 1/m)) the results agree
// to a few hundred ulps of the largest entry.
const linalgTol = 1e-12

func randomUpper(rng *rand.Rand, m int) *mat.TriDense {
	r := mat.NewTriDense(m, mat.Upper, nil)
	for i := 0; i < m; i++ {
		r.SetTri(i, i, 1+rng.Float64())
		for j := i + 1; j < m; j++ {
			r.SetTri(i, j, rng.NormFloat64()/math.Sqrt(float64(m)))
		}
	}
	return r
}

func TestTriSolveAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, sz := range []struct{ m, c int }{{1, 1}, {5, 3}, {64, 10}, {65, 1}, {200, 10}, {130, 600}} {
		r := randomUpper(rng, sz.m)
		// b is a view with a stride larger than its width
		big := mat.NewDense(sz.m, sz.c+5, nil)
		for i := 0; i < sz.m; i++ {
			for j := 0; j < sz.c+5; j++ {
				big.Set(i, j, rng.NormFloat64())
			}
		}
		for _, trans := range []bool{false, true} {
			work := mat.DenseCopyOf(big)
			b := work.Slice(0, sz.m, 2, 2+sz.c).(*mat.Dense)
			want := mat.DenseCopyOf(b)
			op := blas.NoTrans
			if trans {
				op = blas.Trans
			}
			blas64.Trsm(blas.Left, op, 1, r.RawTriangular(), want.RawMatrix())
			TriSolve(r, trans, b)
			var d mat.Dense
			d.Sub(want, b)
			require.LessOrEqual(t, mat.Norm(&d, math.Inf(1)), linalgTol*math.Max(1, mat.Norm(want, math.Inf(1))), "%v trans=%v", sz, trans)
			// the columns outside the view are untouched
			for i := 0; i < sz.m; i++ {
				for _, j := range []int{0, 1, sz.c + 2, sz.c + 4} {
					require.Equal(t, big.At(i, j), work.At(i, j))
				}
			}
		}
	}
}

// TestPackedTriMatchesTriSolve checks that the solves with the factor
// packed once are bitwise TriSolve's, on sizes around multiples of triBlock,
// with column counts below, at and above a slab (two slabs at 300), on a
// strided view, twice with the same PackedTri.
func TestPackedTriMatchesTriSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, m := range []int{1, 5, triBlock - 1, triBlock, triBlock + 1, 2*triBlock - 1, 2 * triBlock, 2*triBlock + 1, 200} {
		r := randomUpper(rng, m)
		for _, trans := range []bool{false, true} {
			p := PackTri(r, trans)
			for _, c := range []int{1, 7, 10, 300} {
				big := mat.NewDense(m, c+3, nil)
				for i := 0; i < m; i++ {
					for j := 0; j < c+3; j++ {
						big.Set(i, j, rng.NormFloat64())
					}
				}
				want := mat.DenseCopyOf(big)
				TriSolve(r, trans, want.Slice(0, m, 1, 1+c).(*mat.Dense))
				for rep := 0; rep < 2; rep++ {
					got := mat.DenseCopyOf(big)
					p.Solve(got.Slice(0, m, 1, 1+c).(*mat.Dense))
					for i := 0; i < m; i++ {
						for j := 0; j < c+3; j++ {
							if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
								t.Fatalf("m=%d c=%d trans=%v rep=%d: (%d,%d) is %v, TriSolve gives %v", m, c, trans, rep, i, j, got.At(i, j), want.At(i, j))
							}
						}
					}
				}
			}
		}
	}
}

func TestGramRowsAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, m := range []int{1, 7, 256, 300} {
		r := randomUpper(rng, m)
		var want mat.Dense
		want.Mul(mat.DenseCopyOf(r), mat.DenseCopyOf(r.T()))
		want.Scale(0.25, &want)
		got := Gram(r, 0.25)
		var d mat.Dense
		d.Sub(&want, got)
		require.LessOrEqual(t, mat.Norm(&d, math.Inf(1)), linalgTol*mat.Norm(&want, math.Inf(1)), "m=%d", m)
		// the rows are packed in parallel: the same bits on one worker
		cfg := parallel.Current()
		require.NoError(t, parallel.Configure(parallel.Config{Workers: 1}))
		one := Gram(r, 0.25)
		require.NoError(t, parallel.Configure(cfg))
		require.Equal(t, one.RawSymmetric().Data, got.RawSymmetric().Data, "m=%d", m)
	}
}

func TestCholUpperAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, m := range []int{1, 3, 128, 129, 300} {
		// a = BᵀB + I: symmetric positive definite, condition ≲ 10³
		b := mat.NewDense(m, m, nil)
		for i := 0; i < m; i++ {
			for j := 0; j < m; j++ {
				b.Set(i, j, rng.NormFloat64())
			}
		}
		a := mat.NewSymDense(m, nil)
		a.SymOuterK(1, b.T())
		for i := 0; i < m; i++ {
			a.SetSym(i, i, a.At(i, i)+1)
		}
		var ch mat.Cholesky
		require.True(t, ch.Factorize(a))
		var want mat.TriDense
		ch.UTo(&want)
		got, ok := Cholesky(a)
		require.True(t, ok, "m=%d", m)
		var d mat.Dense
		d.Sub(&want, got)
		require.LessOrEqual(t, mat.Norm(&d, math.Inf(1)), linalgTol*mat.Norm(&want, math.Inf(1)), "m=%d", m)
		// the storage below the diagonal is zero
		raw := got.RawTriangular()
		for i := 0; i < m; i++ {
			for j := 0; j < i; j++ {
				require.Zero(t, raw.Data[i*raw.Stride+j])
			}
		}
		// G·v through SymMulTo
		v := mat.NewDense(m, 3, nil)
		for i := 0; i < m; i++ {
			for j := 0; j < 3; j++ {
				v.Set(i, j, rng.NormFloat64())
			}
		}
		var wantGv mat.Dense
		wantGv.Mul(a, v)
		gv := mat.NewDense(m, 3, nil)
		SymMulTo(gv, a, v)
		d.Reset()
		d.Sub(&wantGv, gv)
		require.LessOrEqual(t, mat.Norm(&d, math.Inf(1)), linalgTol*mat.Norm(&wantGv, math.Inf(1)), "G·v m=%d", m)
	}
	// not positive definite: a negative pivot in the second block
	a := mat.NewSymDense(200, nil)
	for i := 0; i < 200; i++ {
		a.SetSym(i, i, 1)
	}
	a.SetSym(150, 150, -1)
	_, ok := Cholesky(a)
	require.False(t, ok)
	a.SetSym(150, 150, math.NaN())
	_, ok = Cholesky(a)
	require.False(t, ok)
}

// BenchmarkTriSolve times one triangular solve with FALKON's shape (M =
// 1000, c = 10), packing R on the call (TriSolve) or not (PackedTri),
// against gonum's Trsm.
func BenchmarkTriSolve(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	const m, c = 1000, 10
	r := randomUpper(rng, m)
	rhs := mat.NewDense(m, c, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < c; j++ {
			rhs.Set(i, j, rng.NormFloat64())
		}
	}
	x := mat.NewDense(m, c, nil)
	for _, trans := range []bool{false, true} {
		op := blas.NoTrans
		if trans {
			op = blas.Trans
		}
		b.Run(fmt.Sprintf("blocked/trans=%v", trans), func(b *testing.B) {
			for b.Loop() {
				x.Copy(rhs)
				TriSolve(r, trans, x)
			}
		})
		p := PackTri(r, trans)
		b.Run(fmt.Sprintf("packed/trans=%v", trans), func(b *testing.B) {
			for b.Loop() {
				x.Copy(rhs)
				p.Solve(x)
			}
		})
		b.Run(fmt.Sprintf("gonum/trans=%v", trans), func(b *testing.B) {
			for b.Loop() {
				x.Copy(rhs)
				blas64.Trsm(blas.Left, op, 1, r.RawTriangular(), x.RawMatrix())
			}
		})
	}
}
