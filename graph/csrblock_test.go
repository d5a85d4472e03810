package graph

import (
	"math/rand/v2"
	"testing"
)

// TestBlockRowsAVX2Bitwise checks the assembly block kernels (where the CPU
// runs them) against the generated Go kernels bit for bit: widths 8, 12 and
// 16, unit and general weights, no scaling, Left, Left and Diag, a strided
// block and a row range written at an offset.
func TestBlockRowsAVX2Bitwise(t *testing.T) {
	if !hasSellAVX2 {
		t.Skip("no AVX2: the Go kernels are the only ones")
	}
	rng := rand.New(rand.NewPCG(64, 2))
	for _, unit := range []bool{true, false} {
		g := sellTestGraph(t, rng, 1500, unit)
		n := g.Nodes()
		left, diag := make([]float64, n), make([]float64, n)
		for i := range left {
			left[i], diag[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		for _, c := range []int{8, 12, 16} {
			xs := c + 3
			x := make([]float64, n*xs)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			for _, s := range []Scaling{{}, {Left: left}, {Left: left, Diag: diag}} {
				for _, r := range [][2]int{{0, n}, {5, 977}, {n - 1, n}} {
					first, ds := r[0]-2, c+1
					rows := r[1] - first
					want, got := make([]float64, rows*ds), make([]float64, rows*ds)
					blockKernels[c](g, want, ds, first, x, xs, s, r[0], r[1])
					if !g.blockRowsAVX2(got, ds, first, x, xs, c, s, r[0], r[1]) {
						t.Fatalf("c %d: the AVX2 kernel did not run", c)
					}
					for i := range want {
						if got[i] != want[i] {
							t.Fatalf("unit %v c %d rows %v scaling %v: entry %d = %v, want %v", unit, c, r, s.Left != nil, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}
