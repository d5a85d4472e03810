package graph

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestMulBlock32AVX512Bitwise checks the AVX-512 kernels of 8 float32
// columns (unit and general weights) against the Go kernel
// block32Kernels[8] bit for bit, called directly and through
// MulBlock32StridedRowsInto (rows
// 32 and 64 bytes apart, 32-byte aligned), on entries whose magnitudes
// differ enough that another order of the sums would round differently.
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
	for _, xs := range []int{8, 16} {
		buf := make([]float32, n*xs+8)
		off := int((32 - uintptr(unsafe.Pointer(&buf[0]))%32) % 32 / 4)
		x := buf[off : off+n*xs : off+n*xs]
		for i := range x {
			x[i] = float32(math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20))
		}
		for _, r := range [][2]int{{0, n}, {7, 1031}, {n - 40, n}, {n - 1, n}} {
			lo, hi := r[0], r[1]
			want := make([]float64, (hi-lo)*8)
			block32Kernels[8](g, want, x, xs, lo, hi)
			direct := make([]float64, len(want))
			if unit {
				csr32U8AVX512(&direct[0], &x[0], 4*xs, &g.indptr[0], &g.indices[0], lo, hi, g.indptr[hi]-1)
			} else {
				csr32W8AVX512(&direct[0], &x[0], 4*xs, &g.weights[0], &g.indptr[0], &g.indices[0], lo, hi, g.indptr[hi]-1)
			}
			public := make([]float64, len(want))
			g.MulBlock32StridedRowsInto(public, x, xs, 8, lo, hi)
			for i, w := range want {
				if direct[i] != w || public[i] != w {
					t.Fatalf("unit %v stride %d rows %v: entry %d = %v (direct), %v (MulBlock32StridedRowsInto), want %v", unit, xs, r, i, direct[i], public[i], w)
				}
			}
		}
	}
}
