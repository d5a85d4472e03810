package gemm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas/blas64"
)

// TestMul64 checks Mul64 for every combination of transposes, on shapes
// that are not multiples of the tiles and a destination view with a
// stride: against the plain triple loop within Higham's bound, and bitwise
// against packing with NewPanels, SetRow and SetColumns (the panels must
// hold the same numbers, also when the pooled buffers held a larger
// product's values before).
func TestMul64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	fill := func(r, c int) blas64.General {
		m := blas64.General{Rows: r, Cols: c, Stride: c + 2, Data: make([]float64, max(r*(c+2), 1))}
		for i := range m.Data {
			m.Data[i] = 2*rng.Float64() - 1
		}
		return m
	}
	at := func(m blas64.General, trans bool, i, j int) float64 {
		if trans {
			i, j = j, i
		}
		return m.Data[i*m.Stride+j]
	}
	// The first, largest product leaves its values in the pooled buffers.
	for _, sz := range [][3]int{{40, 90, 30}, {1, 1, 1}, {7, 5, 3}, {13, 64, 9}, {70, 17, 64}, {100, 6, 8}, {5, 0, 4}} {
		r, k, c := sz[0], sz[1], sz[2]
		for _, ta := range []bool{false, true} {
			for _, tb := range []bool{false, true} {
				a, b := fill(r, k), fill(k, c)
				if ta {
					a = fill(k, r)
				}
				if tb {
					b = fill(c, k)
				}
				big := fill(r+3, c+5)
				before := append([]float64(nil), big.Data...)
				dst := blas64.General{Rows: r, Cols: c, Stride: big.Stride, Data: big.Data[1*big.Stride+2:]}
				Mul64(dst, a, ta, b, tb)
				// The reference product: the old packing of nodeclass.
				ref := make([]float64, r*c)
				if k > 0 {
					pa := NewPanels[float64](r, k, MR, nil)
					pb := NewPanels[float64](c, k, NR64, nil)
					if ta {
						pa.SetColumns(a.Data, a.Stride)
					} else {
						for i := 0; i < r; i++ {
							pa.SetRow(i, a.Data[i*a.Stride:], nil, 1)
						}
					}
					if tb {
						for j := 0; j < c; j++ {
							pb.SetRow(j, b.Data[j*b.Stride:], nil, 1)
						}
					} else {
						pb.SetColumns(b.Data, b.Stride)
					}
					MulTTo(ref, c, pa, pb)
				}
				for i := 0; i < r+3; i++ {
					for j := 0; j < c+5; j++ {
						got := big.Data[i*big.Stride+j]
						if i < 1 || i > r || j < 2 || j >= c+2 {
							require.Equal(t, before[i*big.Stride+j], got, "%v: outside the view (%d,%d)", sz, i, j)
							continue
						}
						var s, abs float64
						for q := 0; q < k; q++ {
							p := at(a, ta, i-1, q) * at(b, tb, q, j-2)
							s += p
							abs += math.Abs(p)
						}
						require.InDelta(t, s, got, gamma[float64](k)*abs+1e-300, "%v ta=%v tb=%v (%d,%d)", sz, ta, tb, i-1, j-2)
						require.Equal(t, math.Float64bits(ref[(i-1)*c+j-2]), math.Float64bits(got), "%v ta=%v tb=%v (%d,%d) against the old packing", sz, ta, tb, i-1, j-2)
					}
				}
			}
		}
	}
}

// TestMulRows64 checks the row-restricted products against Mul64 of the
// whole matrices: MulRows64's rows idx are Mul64's, bitwise, and its other
// rows untouched; MulTRows64 equals Mul64(aᵀ, b) with the rows of b
// outside idx zeroed (== so that a zero's sign may differ).
func TestMulRows64(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	fill := func(r, c int) blas64.General {
		m := blas64.General{Rows: r, Cols: c, Stride: c + 1, Data: make([]float64, max(r*(c+1), 1))}
		for i := range m.Data {
			m.Data[i] = 2*rng.Float64() - 1
		}
		return m
	}
	for _, sz := range [][3]int{{50, 70, 20}, {1, 3, 1}, {20, 7, 9}, {33, 64, 64}, {9, 0, 3}} {
		r, k, c := sz[0], sz[1], sz[2]
		var idx []int
		for i := 0; i < r; i++ {
			if rng.IntN(3) > 0 {
				idx = append(idx, i)
			}
		}
		for _, tb := range []bool{false, true} {
			a, b := fill(r, k), fill(k, c)
			if tb {
				b = fill(c, k)
			}
			full := fill(r, c)
			Mul64(full, a, false, b, tb)
			got := fill(r, c)
			before := append([]float64(nil), got.Data...)
			MulRows64(got, a, idx, b, tb)
			in := make([]bool, r)
			for _, i := range idx {
				in[i] = true
			}
			for i := 0; i < r; i++ {
				for j := 0; j < c; j++ {
					want := full.Data[i*full.Stride+j]
					if !in[i] {
						want = before[i*got.Stride+j]
					}
					require.Equal(t, math.Float64bits(want), math.Float64bits(got.Data[i*got.Stride+j]), "%v tb=%v (%d,%d)", sz, tb, i, j)
				}
			}
		}
		// Xᵀ D over the rows idx, D zero elsewhere.
		x, d := fill(r, k), fill(r, c)
		in := make([]bool, r)
		for _, i := range idx {
			in[i] = true
		}
		for i := 0; i < r; i++ {
			if !in[i] {
				clear(d.Data[i*d.Stride : i*d.Stride+c])
			}
		}
		full, got := fill(k, c), fill(k, c)
		Mul64(full, x, true, d, false)
		MulTRows64(got, x, d, idx)
		for i := 0; i < k; i++ {
			for j := 0; j < c; j++ {
				require.True(t, full.Data[i*full.Stride+j] == got.Data[i*got.Stride+j], "%v (%d,%d): %v against %v", sz, i, j, got.Data[i*got.Stride+j], full.Data[i*full.Stride+j])
			}
		}
	}
}
