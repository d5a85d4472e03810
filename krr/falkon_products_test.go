package krr

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/dense"
	"github.com/gssl/gssl/internal/parallel"
)

// randomUpper returns an m×m upper triangular matrix with a dominant
// diagonal, well conditioned for the solves.
func randomUpper(rng *rand.Rand, m int) *mat.TriDense {
	r := mat.NewTriDense(m, mat.Upper, nil)
	for i := 0; i < m; i++ {
		for j := i + 1; j < m; j++ {
			r.SetTri(i, j, rng.NormFloat64()/math.Sqrt(float64(m)))
		}
		r.SetTri(i, i, 1+rng.Float64())
	}
	return r
}

// bitsEqual reports whether a and b hold the same float64 bits.
func bitsEqual(a, b *mat.Dense) bool {
	r, c := a.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// TestPackedSymMatchesSymMulTo checks the product with the G packed once
// against dense.SymMulTo bitwise (FALKON's fits do not change) and against
// gonum's dense product, for M across the panel widths and the GEMM's
// depth chunks.
func TestPackedSymMatchesSymMulTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	for _, m := range []int{1, 7, 50, 200, 401} {
		for _, c := range []int{1, 5, 10} {
			g := mat.NewSymDense(m, nil)
			for i := 0; i < m; i++ {
				for j := i; j < m; j++ {
					g.SetSym(i, j, rng.NormFloat64())
				}
			}
			pts, _ := problem(uint64(m*c), m, c+1) // problem needs two columns
			v := columnsOf(pts, 0, c)
			got, want := mat.NewDense(m, c, nil), mat.NewDense(m, c, nil)
			dense.PackSym(g).MulTo(got, v)
			dense.SymMulTo(want, g, v)
			require.True(t, bitsEqual(got, want), "M=%d c=%d: not bitwise SymMulTo", m, c)
			var ref mat.Dense
			ref.Mul(g, v)
			require.True(t, mat.EqualApprox(got, &ref, 1e-12*float64(m)), "M=%d c=%d", m, c)
		}
	}
}

// TestBHBColumnsIndependentOfWorkers checks FALKON's operator, whose solves
// run on column groups in parallel, against the same operator applied to
// one column at a time on one goroutine (bitwise), under 1, 2 and 3
// workers.
func TestBHBColumnsIndependentOfWorkers(t *testing.T) {
	defer func(cfg parallel.Config) { require.NoError(t, parallel.Configure(cfg)) }(parallel.Current())
	rng := rand.New(rand.NewPCG(31, 2))
	const m, c = 300, 10
	gd, _ := problem(32, m, m)
	var g mat.SymDense
	g.SymOuterK(1, gd)
	op := &bhb{m: m, t: packTri(randomUpper(rng, m)), a: packTri(randomUpper(rng, m)), lambda: 1e-3, n: 1000,
		normal: dense.PackSym(&g).MulTo}
	require.NotNil(t, op.t.no)
	u, _ := problem(33, m, c)
	require.NoError(t, parallel.Configure(parallel.Config{Workers: 1}))
	want := mat.NewDense(m, c, nil)
	for q := 0; q < c; q++ {
		col := mat.NewDense(m, 1, nil)
		op.MulBlockTo(col, columnsOf(u, q, q+1))
		columnsOf(want, q, q+1).Copy(col)
	}
	// the operator against its formula in gonum
	tinv, ainv := mat.NewDense(m, m, nil), mat.NewDense(m, m, nil)
	require.NoError(t, tinv.Inverse(op.t.r))
	require.NoError(t, ainv.Inverse(op.a.r))
	var p, h, ref mat.Dense
	p.Mul(tinv, ainv) // T^{-1}A^{-1}
	h.Product(p.T(), &g, &p)
	h.Scale(1/op.n, &h)
	var reg mat.Dense
	reg.Mul(ainv.T(), ainv)
	reg.Scale(op.lambda, &reg)
	h.Add(&h, &reg)
	ref.Mul(&h, u)
	require.True(t, mat.EqualApprox(want, &ref, 1e-8*mat.Norm(&ref, math.Inf(1))), "BHB against its formula")
	for _, w := range []int{1, 2, 3} {
		require.NoError(t, parallel.Configure(parallel.Config{Workers: w}))
		got := mat.NewDense(m, c, nil)
		op.MulBlockTo(got, u)
		require.True(t, bitsEqual(got, want), "%d workers: not bitwise the column-by-column result", w)
	}
	// the factors unpacked (M > packTriMax) give the same bits
	unpacked := *op
	unpacked.t, unpacked.a = triFactor{r: op.t.r}, triFactor{r: op.a.r}
	got := mat.NewDense(m, c, nil)
	unpacked.MulBlockTo(got, u)
	require.True(t, bitsEqual(got, want), "unpacked factors: not bitwise the packed result")
}
