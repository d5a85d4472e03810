package kernel

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// Tolerances of the blocked products against the dense Gram matrix times a
// vector, relative to the largest entry of the reference:
//   - float64: the same sums in another order (a few hundred terms) → 1e-11;
//   - float32: inner products of float32 copies carry ~1e-7·‖x‖‖c‖ errors,
//     which the kernel map passes on (d²/(2σ²) ≈ 5 here) → 1e-4.
const (
	blocked64Tol = 1e-11
	blocked32Tol = 1e-4
)

func testKernels() map[string]Kernel {
	return map[string]Kernel{
		"gauss": Gaussian{Sigma: 1.3}, "laplace": Laplacian{Sigma: 0.7},
		"m12": Matern{Nu: 0.5, Length: 2}, "m32": Matern{Nu: 1.5, Length: 2}, "m52": Matern{Nu: 2.5, Length: 2},
		"linear": Linear{C: 0.5}, "poly": Polynomial{Degree: 3, Gamma: 0.3, Coef0: 1},
	}
}

// pairwise is a kernel that is neither radial nor dot-based, to exercise the
// generic Eval path.
type pairwise struct{}

func (pairwise) Eval(x, y []float64) float64 {
	var s float64
	for i := range x {
		s += math.Min(math.Abs(x[i]), math.Abs(y[i]))
	}
	return s
}
func (pairwise) Validate() error { return nil }

func maxAbs(a mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)))
		}
	}
	return m
}

func assertClose(t *testing.T, want, got mat.Matrix, tol float64, msg ...any) {
	t.Helper()
	var diff mat.Dense
	diff.Sub(want, got)
	scale := math.Max(1, maxAbs(want))
	assert.LessOrEqual(t, maxAbs(&diff), tol*scale, msg...)
}

func TestMatrixProductsAgainstDenseGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := randomPoints(rng, 530, 6) // three blocks of 256, the last partial
	c := randomPoints(rng, 37, 6)
	// a centre equal to a point: the cancellation path
	c.SetRow(5, x.RawRowView(100))
	v := randomPoints(rng, 37, 3)
	u := randomPoints(rng, 530, 3)
	ks := testKernels()
	ks["pairwise"] = pairwise{}
	for name, k := range ks {
		for _, prec := range []Precision{Float64, Float32} {
			tol := blocked64Tol
			if prec == Float32 {
				tol = blocked32Tol
			}
			km, err := NewMatrix(k, x, c, prec, 0)
			require.NoError(t, err)
			// the reference: naive formulas entry by entry
			ref := naiveKernel(k, x, c)
			rows := mat.NewDense(530, 37, nil)
			km.RowsTo(rows, 0, 530)
			assertClose(t, ref, rows, tol, "%s %v rows", name, prec)
			if _, ok := k.(Radial); ok {
				// exact zero distance gives exactly k(0) even in float32
				assert.Equal(t, k.(Radial).FromSqDist(0), rows.At(100, 5), "%s %v self", name, prec)
			}

			var want, wantT, wantN mat.Dense
			want.Mul(ref, v)
			got := mat.NewDense(530, 3, nil)
			km.MulTo(got, v)
			assertClose(t, &want, got, tol, "%s %v MulTo", name, prec)

			wantT.Mul(ref.T(), u)
			gotT := mat.NewDense(37, 3, nil)
			km.TMulTo(gotT, u)
			assertClose(t, &wantT, gotT, tol, "%s %v TMulTo", name, prec)

			wantN.Mul(ref.T(), &want)
			gotN := mat.NewDense(37, 3, nil)
			km.NormalTo(gotN, v)
			assertClose(t, &wantN, gotN, tol, "%s %v NormalTo", name, prec)

			var wantG mat.Dense
			wantG.Mul(ref.T(), ref)
			g, kty, err := km.Normal(context.Background(), u, nil)
			require.NoError(t, err)
			assertClose(t, &wantG, g, tol, "%s %v Normal KᵀK", name, prec)
			assertClose(t, &wantT, kty, tol, "%s %v Normal Kᵀy", name, prec)
		}
	}
}

func TestMatrixBadInput(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5})
	_, err := NewMatrix(Gaussian{Sigma: 0}, x, x, Float64, 0)
	assert.ErrorContains(t, err, "Gaussian sigma=0 is invalid")
	_, err = NewMatrix(Gaussian{Sigma: 1}, x, mat.NewDense(2, 3, nil), Float64, 0)
	assert.ErrorContains(t, err, "X has 2 columns (dimensions) but C has 3")
	bad := mat.NewDense(2, 2, []float64{0, 1, 2, math.Inf(1)})
	_, err = NewMatrix(Gaussian{Sigma: 1}, bad, x, Float32, 0)
	assert.ErrorContains(t, err, "X row 1 column 1 is +Inf")
	_, err = NewMatrix(Gaussian{Sigma: 1}, x, x, Precision(7), 0)
	assert.ErrorContains(t, err, "precision Precision(7) is invalid")
	_, err = NewMatrix(Gaussian{Sigma: 1}, x, x, Float64, -1)
	assert.ErrorContains(t, err, "blockRows=-1 is invalid")
	km, err := NewMatrix(Gaussian{Sigma: 1}, x, x, Float64, 1)
	require.NoError(t, err)
	_, _, err = km.Normal(context.Background(), mat.NewDense(2, 1, nil), nil)
	assert.ErrorContains(t, err, "y has 2 rows, K has 3")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = km.Normal(ctx, nil, nil)
	assert.ErrorIs(t, err, context.Canceled)
}

// TestNewCheckedMatrix checks that the matrix of points checked beforehand
// has NewMatrix's entries bitwise, that it still validates the rest (kernel,
// dimensions), and that it leaves the points to the caller.
func TestNewCheckedMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 31))
	x, c := randomPoints(rng, 40, 7), randomPoints(rng, 9, 7)
	for _, p := range []Precision{Float64, Float32} {
		want, err := NewMatrix(Gaussian{Sigma: 2}, x, c, p, 16)
		require.NoError(t, err)
		got, err := NewCheckedMatrix(Gaussian{Sigma: 2}, x, c, p, 16)
		require.NoError(t, err)
		kw, kg := mat.NewDense(40, 9, nil), mat.NewDense(40, 9, nil)
		want.RowsTo(kw, 0, 40)
		got.RowsTo(kg, 0, 40)
		require.Equal(t, kw.RawMatrix().Data, kg.RawMatrix().Data, "%v", p)
	}
	_, err := NewCheckedMatrix(Gaussian{Sigma: 0}, x, c, Float64, 0)
	assert.ErrorContains(t, err, "Gaussian sigma=0 is invalid")
	_, err = NewCheckedMatrix(Gaussian{Sigma: 1}, x, mat.NewDense(2, 3, nil), Float64, 0)
	assert.ErrorContains(t, err, "X has 7 columns (dimensions) but C has 3")
	x.Set(3, 2, math.NaN())
	_, err = NewCheckedMatrix(Gaussian{Sigma: 1}, x, c, Float64, 0)
	assert.NoError(t, err, "the points are the caller's to check")
}

// TestNormalGroupsOfBlocks checks Normal's grouped accumulation (full
// groups of blocks, then a partial group and a short last block) against
// the dense KᵀK and Kᵀy, with the groups of 8 (M ≥ normalGroupMinM) and,
// where the AVX-512 kernels run, of 16 (M below it).
func TestNormalGroupsOfBlocks(t *testing.T) {
	defer func(v int) { normalGroupMinM = v }(normalGroupMinM)
	for _, minM := range []int{1, 1 << 20} {
		normalGroupMinM = minM
		testNormalGroupsOfBlocks(t)
	}
}

func testNormalGroupsOfBlocks(t *testing.T) {
	cfg := parallel.Current()
	rng := rand.New(rand.NewPCG(7, 8))
	x := randomPoints(rng, 530, 5) // 33 blocks of 16 rows and one of 2: four full groups of 8, or two of 16
	c := randomPoints(rng, 41, 5)
	u := randomPoints(rng, 530, 2)
	k := Gaussian{Sigma: 1.5}
	for _, prec := range []Precision{Float64, Float32} {
		km, err := NewMatrix(k, x, c, prec, 16)
		require.NoError(t, err)
		ref := naiveKernel(k, x, c)
		tol := blocked64Tol
		if prec == Float32 {
			tol = blocked32Tol
		}
		var wantG, wantT mat.Dense
		wantG.Mul(ref.T(), ref)
		wantT.Mul(ref.T(), u)
		g, kty, err := km.Normal(context.Background(), u, nil)
		require.NoError(t, err)
		assertClose(t, &wantG, g, tol, "%v grouped KᵀK", prec)
		assertClose(t, &wantT, kty, tol, "%v grouped Kᵀy", prec)
		// the same bits with any number of goroutines, and with one block
		// shared among them by rows
		for _, br := range []int{16, 530} {
			km, err := NewMatrix(k, x, c, prec, br)
			require.NoError(t, err)
			var g1, kty1 []float64
			for _, w := range []int{1, 2, 3} {
				require.NoError(t, parallel.Configure(parallel.Config{Workers: w}))
				gw, ktyw, err := km.Normal(context.Background(), u, nil)
				require.NoError(t, parallel.Configure(cfg))
				require.NoError(t, err)
				assertClose(t, &wantG, gw, tol, "%v KᵀK, blocks of %d rows, %d workers", prec, br, w)
				assertClose(t, &wantT, ktyw, tol, "%v Kᵀy, blocks of %d rows, %d workers", prec, br, w)
				if w == 1 {
					g1, kty1 = gw.RawSymmetric().Data, ktyw.RawMatrix().Data
				}
				require.True(t, slices.Equal(g1, gw.RawSymmetric().Data), "%v KᵀK, blocks of %d rows, %d workers: not the bits of one", prec, br, w)
				require.True(t, slices.Equal(kty1, ktyw.RawMatrix().Data), "%v Kᵀy, blocks of %d rows, %d workers: not the bits of one", prec, br, w)
			}
		}
	}
}

// TestMulToColumns checks K·V and Kᵀ(K·V) against the dense products for
// V of 1 to 30 columns (partial and several panels of V).
func TestMulToColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x := randomPoints(rng, 300, 7)
	c := randomPoints(rng, 23, 7)
	k := Gaussian{Sigma: 2}
	km, err := NewMatrix(k, x, c, Float64, 64)
	require.NoError(t, err)
	ref := naiveKernel(k, x, c)
	for _, cols := range []int{1, 3, 4, 5, 8, 9, 16, 17, 30} {
		v := randomPoints(rng, 23, cols)
		var want, wantN mat.Dense
		want.Mul(ref, v)
		wantN.Mul(ref.T(), &want)
		got := mat.NewDense(300, cols, nil)
		km.MulTo(got, v)
		assertClose(t, &want, got, blocked64Tol, "MulTo, %d columns", cols)
		gotN := mat.NewDense(23, cols, nil)
		km.NormalTo(gotN, v)
		assertClose(t, &wantN, gotN, blocked64Tol, "NormalTo, %d columns", cols)
	}
}

// naiveKernel is the reference K(X, C): the kernel's formula entry by
// entry.
func naiveKernel(k Kernel, x, c *mat.Dense) *mat.Dense {
	n, _ := x.Dims()
	m, _ := c.Dims()
	d := make([]float64, n*m)
	for e := range d {
		d[e] = k.Eval(x.RawRowView(e/m), c.RawRowView(e%m))
	}
	return mat.NewDense(n, m, d)
}

// TestUpperRowsToIsRowsTo: UpperRowsTo sets every entry on and above the
// diagonal of its rows to RowsTo's value, bitwise, and writes nothing else
// but K's values (a sentinel left of the diagonal either stays or becomes
// the RowsTo value), for blocks of rows that start inside and at the edge
// of a panel, in both precisions and for each kind of kernel.
func TestUpperRowsToIsRowsTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	c := randomPoints(rng, 45, 5)
	kernels := testKernels()
	kernels["pairwise"] = pairwise{}
	for name, k := range kernels {
		for _, p := range []Precision{Float64, Float32} {
			km, err := NewMatrix(k, c, c, p, 0)
			require.NoError(t, err)
			want := mat.NewDense(45, 45, nil)
			km.RowsTo(want, 0, 45)
			for _, r := range [][2]int{{0, 45}, {0, 7}, {7, 20}, {16, 17}, {33, 45}, {44, 45}} {
				got := mat.NewDense(r[1]-r[0], 45, nil)
				sentinel := -7.5
				for i := range r[1] - r[0] {
					for j := range 45 {
						got.Set(i, j, sentinel)
					}
				}
				km.UpperRowsTo(got, r[0], r[1])
				for i := r[0]; i < r[1]; i++ {
					for j := range 45 {
						g, w := got.At(i-r[0], j), want.At(i, j)
						if j >= i {
							require.Equal(t, math.Float64bits(w), math.Float64bits(g), "%s %v rows %v entry (%d, %d)", name, p, r, i, j)
						} else if g != sentinel {
							require.Equal(t, math.Float64bits(w), math.Float64bits(g), "%s %v rows %v entry (%d, %d)", name, p, r, i, j)
						}
					}
				}
			}
		}
	}
	x := randomPoints(rng, 10, 5)
	km, err := NewMatrix(Gaussian{Sigma: 1}, x, c, Float64, 0)
	require.NoError(t, err)
	assert.Panics(t, func() { km.UpperRowsTo(mat.NewDense(2, 45, nil), 0, 2) }, "K is not square")
}

// TestSqDistsVectorIsScalar: the squared distances of the AVX-512 path
// (eight at a time, groups with a nearly equal pair left to the loop) are
// the scalar loop's, bitwise, in rows where points equal to centres sit at
// the start, inside and at the end of groups of eight and in the tail, in
// both precisions and from a column offset (UpperRowsTo); a Laplacian keeps
// the vector exp out of the comparison.
func TestSqDistsVectorIsScalar(t *testing.T) {
	if !hasExpVec {
		t.Skip("no AVX-512")
	}
	rng := rand.New(rand.NewPCG(10, 11))
	c := randomPoints(rng, 45, 6)
	x := randomPoints(rng, 30, 6)
	for i, j := range []int{0, 7, 8, 13, 31, 40, 44} {
		x.SetRow(2*i, c.RawRowView(j))   // exactly a centre
		x.SetRow(2*i+1, c.RawRowView(j)) // and one nearly equal to it
		x.Set(2*i+1, 0, x.At(2*i+1, 0)+1e-9)
	}
	k := Laplacian{Sigma: 0.7}
	for _, p := range []Precision{Float64, Float32} {
		km, err := NewMatrix(k, x, c, p, 0)
		require.NoError(t, err)
		kc, err := NewMatrix(k, c, c, p, 0)
		require.NoError(t, err)
		rows := func() (*mat.Dense, *mat.Dense) {
			a, b := mat.NewDense(30, 45, nil), mat.NewDense(20, 45, nil)
			km.RowsTo(a, 0, 30)
			kc.UpperRowsTo(b, 17, 37)
			return a, b
		}
		vecA, vecB := rows()
		hasExpVec = false
		scaA, scaB := rows()
		hasExpVec = true
		for _, pair := range [][2]*mat.Dense{{vecA, scaA}, {vecB, scaB}} {
			v, s := pair[0].RawMatrix().Data, pair[1].RawMatrix().Data
			for e := range v {
				require.Equal(t, math.Float64bits(s[e]), math.Float64bits(v[e]), "%v entry %d", p, e)
			}
		}
	}
}
