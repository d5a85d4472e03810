package graph

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestMulBlock32AVX512Bitwise checks the AVX-512 kernels of 8 and 16
// float32 columns (unit and general weights) against the Go kernels
// block32Kernels[c] bit for bit, called directly and through
// MulBlock32StridedRowsInto (rows c and 2c entries apart, aligned to 4c
// bytes), on entries whose magnitudes differ enough that another order of
// the sums would round differently.
func TestMulBlock32AVX512Bitwise(t *testing.T) {
	if !hasCSR512 {
		t.Skip("no AVX-512")
	}
	rng := rand.New(rand.NewPCG(51, 2))
	for _, unit := range []bool{true, false} {
		g := sellTestGraph(t, rng, 2500, unit)
		avx512Bitwise(t, rng, g, unit)
	}
}

func avx512Bitwise(t *testing.T, rng *rand.Rand, g *CSR, unit bool) {
	n := g.Nodes()
	for _, cs := range [][2]int{{8, 8}, {8, 16}, {16, 16}, {16, 32}} {
		c, xs := cs[0], cs[1]
		buf := make([]float32, n*xs+c)
		off := int((uintptr(4*c) - uintptr(unsafe.Pointer(&buf[0]))%uintptr(4*c)) % uintptr(4*c) / 4)
		x := buf[off : off+n*xs : off+n*xs]
		for i := range x {
			x[i] = float32(math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20))
		}
		for _, r := range [][2]int{{0, n}, {7, 1031}, {n - 40, n}, {n - 1, n}} {
			lo, hi := r[0], r[1]
			want := make([]float64, (hi-lo)*c)
			block32Kernels[c](g, want, x, xs, lo, hi)
			direct := make([]float64, len(want))
			kernel512(g, unit, c)(&direct[0], &x[0], 4*xs, &g.indptr[0], &g.indices[0], lo, hi, g.indptr[hi]-1)
			public := make([]float64, len(want))
			g.MulBlock32StridedRowsInto(public, x, xs, c, lo, hi)
			for i, w := range want {
				if direct[i] != w || public[i] != w {
					t.Fatalf("unit %v c %d stride %d rows %v: entry %d = %v (direct), %v (MulBlock32StridedRowsInto), want %v", unit, c, xs, r, i, direct[i], public[i], w)
				}
			}
		}
	}
}

// kernel512 returns the AVX-512 kernel of c = 8 or 16 columns of g.
func kernel512(g *CSR, unit bool, c int) func(dst *float64, x *float32, xbytes int, indptr *int, indices *int32, lo, hi, last int) {
	weighted := func(k func(*float64, *float32, int, *float64, *int, *int32, int, int, int)) func(*float64, *float32, int, *int, *int32, int, int, int) {
		return func(dst *float64, x *float32, xbytes int, indptr *int, indices *int32, lo, hi, last int) {
			k(dst, x, xbytes, &g.weights[0], indptr, indices, lo, hi, last)
		}
	}
	switch {
	case unit && c == 8:
		return csr32U8AVX512
	case unit:
		return csr32U16AVX512
	case c == 8:
		return weighted(csr32W8AVX512)
	}
	return weighted(csr32W16AVX512)
}
