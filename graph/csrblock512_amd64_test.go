package graph

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestMulBlock32AVX512Bitwise checks the AVX-512 kernels of 8 and 16
// float32 columns (unit and general weights, with and without the
// prefetch) against the Go kernels block32Kernels[c] bit for bit, called
// directly and through MulBlock32StridedRowsInto (rows c and 2c entries
// apart, aligned to 4c bytes; csr32PrefetchBytes set to send the block to
// either kernel), on entries whose magnitudes differ enough that another
// order of the sums would round differently.
func TestMulBlock32AVX512Bitwise(t *testing.T) {
	if !hasCSR512 {
		t.Skip("no AVX-512")
	}
	rng := rand.New(rand.NewPCG(51, 2))
	defer func(b int) { csr32PrefetchBytes = b }(csr32PrefetchBytes)
	for _, unit := range []bool{true, false} {
		g := sellTestGraph(t, rng, 2500, unit)
		for _, pf := range []bool{false, true} {
			csr32PrefetchBytes = 1 << 62
			if pf {
				csr32PrefetchBytes = 0
			}
			avx512Bitwise(t, rng, g, unit, pf)
		}
	}
}

func avx512Bitwise(t *testing.T, rng *rand.Rand, g *CSR, unit, pf bool) {
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
			kernel512(g, unit, c, pf)(&direct[0], &x[0], bits.TrailingZeros(uint(4*xs)), &g.indptr[0], &g.indices[0], lo, hi)
			public := make([]float64, len(want))
			g.MulBlock32StridedRowsInto(public, x, xs, c, lo, hi)
			for i, w := range want {
				if direct[i] != w || public[i] != w {
					t.Fatalf("unit %v prefetch %v c %d stride %d rows %v: entry %d = %v (direct), %v (MulBlock32StridedRowsInto), want %v", unit, pf, c, xs, r, i, direct[i], public[i], w)
				}
			}
		}
	}
}

// kernel512 returns the AVX-512 kernel of c = 8 or 16 columns of g, the
// one with the prefetch if pf.
func kernel512(g *CSR, unit bool, c int, pf bool) func(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi int) {
	type kernel = func(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi int)
	prefetched := func(k func(*float64, *float32, int, *int, *int32, int, int, int)) kernel {
		return func(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi int) {
			k(dst, x, xshift, indptr, indices, lo, hi, g.indptr[hi]-1)
		}
	}
	weighted := func(k func(*float64, *float32, int, *float64, *int, *int32, int, int)) kernel {
		return func(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi int) {
			k(dst, x, xshift, &g.weights[0], indptr, indices, lo, hi)
		}
	}
	weightedP := func(k func(*float64, *float32, int, *float64, *int, *int32, int, int, int)) kernel {
		return func(dst *float64, x *float32, xshift int, indptr *int, indices *int32, lo, hi int) {
			k(dst, x, xshift, &g.weights[0], indptr, indices, lo, hi, g.indptr[hi]-1)
		}
	}
	switch {
	case unit && c == 8 && pf:
		return prefetched(csr32U8PAVX512)
	case unit && c == 8:
		return csr32U8AVX512
	case unit && pf:
		return prefetched(csr32U16PAVX512)
	case unit:
		return csr32U16AVX512
	case c == 8 && pf:
		return weightedP(csr32W8PAVX512)
	case c == 8:
		return weighted(csr32W8AVX512)
	case pf:
		return weightedP(csr32W16PAVX512)
	}
	return weighted(csr32W16AVX512)
}
